package gse_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/internal/testutil"
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

// BenchmarkLinkedList5 explores the paper's five-call LinkedList driver
// (testdata/bench/linkedlist_calls5.jl, the bench's LinkedList×5 rows) with
// GSE at k = 3, 4 and the bench's step bound 26·5·(k+1)+10, with
// machine.Explore (copying) and gse.Explore (copy-free), and reports
// paths/s and states/s. Run with
//
//	go test -run '^$' -bench LinkedList5 -benchtime 1x ./gse/
func BenchmarkLinkedList5(b *testing.B) {
	p := testutil.Program(b, "../testdata/bench/linkedlist_calls5.jl")
	explorers := []struct {
		name string
		run  func(*machine.State, *gse.Engine, int) (machine.Stats, error)
	}{
		{"machine", func(s *machine.State, e *gse.Engine, bound int) (machine.Stats, error) {
			return machine.Explore(context.Background(), s, e, bound, nil)
		}},
		{"gse", func(s *machine.State, e *gse.Engine, bound int) (machine.Stats, error) {
			return gse.Explore(context.Background(), s, e, bound, nil)
		}},
	}
	for _, k := range []int{3, 4} {
		for _, x := range explorers {
			b.Run(fmt.Sprintf("k=%d/%s", k, x.name), func(b *testing.B) {
				var paths, states int64
				for i := 0; i < b.N; i++ {
					st, err := x.run(machine.Initial(p), gse.New(k), 26*5*(k+1)+10)
					if err != nil || !st.Complete {
						b.Fatal(err)
					}
					paths += st.Paths
					states += st.States
				}
				sec := b.Elapsed().Seconds()
				b.ReportMetric(float64(paths)/float64(b.N), "paths/op")
				b.ReportMetric(float64(paths)/sec, "paths/s")
				b.ReportMetric(float64(states)/sec, "states/s")
			})
		}
	}
}
