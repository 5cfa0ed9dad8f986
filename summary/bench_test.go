package summary

import (
	"context"
	"fmt"
	"testing"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// BenchmarkLinkedList5 explores seed 000's five-call LinkedList driver
// (testdata/bench/linkedlist_calls5.jl, the program of the paper's Table 1)
// with the published rules at k = 1, 2, 3 and the bench's step bound
// 26·5·(k+1)+10, and reports paths, Z3 queries and answers decided without
// Z3 per run. k = 3 takes seconds; run it alone with
//
//	go test -run '^$' -bench 'LinkedList5/k=3' -benchtime 1x ./summary/
func BenchmarkLinkedList5(b *testing.B) {
	p, err := javalite.LoadFile("../testdata/bench/linkedlist_calls5.jl")
	if err != nil {
		b.Fatal(err)
	}
	v, err := Lookup("published")
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range []int{1, 2, 3} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			var paths, queries, decided int64
			for i := 0; i < b.N; i++ {
				sol, err := smt.NewSolver()
				if err != nil {
					b.Fatal(err)
				}
				st, err := machine.Explore(context.Background(), machine.Initial(p), New(v, k, sol), 26*5*(k+1)+10, nil)
				if err != nil || !st.Complete {
					b.Fatal(err)
				}
				paths += st.Paths
				ss := sol.Stats()
				queries += ss.Queries
				decided += ss.Decided
				sol.Close()
			}
			n := float64(b.N)
			b.ReportMetric(float64(paths)/n, "paths/op")
			b.ReportMetric(float64(paths)/b.Elapsed().Seconds(), "paths/s")
			b.ReportMetric(float64(queries)/n, "z3-queries/op")
			b.ReportMetric(float64(decided)/n, "go-decided/op")
		})
	}
}
