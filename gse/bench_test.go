package gse_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/machine"
)

// BenchmarkLinkedList explores the brief's LinkedList program with GSE at
// k = 4, 5, 6 and the step bound 1000 (cyclic lists loop until cut), and
// reports paths per second. Run with
//
//	go test -run '^$' -bench LinkedList -benchtime 1x ./gse/
func BenchmarkLinkedList(b *testing.B) {
	p := parse(b, "linkedlist", linkedList)
	for _, k := range []int{4, 5, 6} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			var paths, steps int64
			for i := 0; i < b.N; i++ {
				st, err := machine.Explore(context.Background(), machine.Initial(p), gse.New(k), 1000, nil)
				if err != nil || !st.Complete {
					b.Fatal(err)
				}
				paths += st.Paths
				steps += st.Steps
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(paths)/float64(b.N), "paths/op")
			b.ReportMetric(float64(paths)/sec, "paths/s")
			b.ReportMetric(float64(steps)/sec, "steps/s")
		})
	}
}
