package checker

import (
	"context"
	"testing"

	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

// BenchmarkCheckGenerated checks the first 10 programs of the generated
// stream of seed 1 with the fixed rules and the default options on one
// solver (what `lockstep check -gen -n 10 -seed 1 -variant fixed -workers 1`
// does, minus shrinking), and reports programs per second, Z3 queries and
// answers decided without Z3 per program. Run with
//
//	go test -run '^$' -bench CheckGenerated -benchtime 1x ./checker/
func BenchmarkCheckGenerated(b *testing.B) {
	const n = 10
	opt := DefaultOptions()
	v, err := summary.Lookup("fixed")
	if err != nil {
		b.Fatal(err)
	}
	opt.Variant = v
	progs := make([]int64, n)
	for i := range progs {
		progs[i] = ProgramSeed(1, i)
	}
	sol, err := smt.NewSolver()
	if err != nil {
		b.Fatal(err)
	}
	defer sol.Close()
	inconclusive := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, ps := range progs {
			rep, err := Run(context.Background(), ProgramOf(ps), opt, sol)
			if err != nil {
				b.Fatal(err)
			}
			if rep.Verdict.Status == Inconclusive {
				inconclusive++
			}
		}
	}
	ss := sol.Stats()
	progsDone := float64(n * b.N)
	b.ReportMetric(progsDone/b.Elapsed().Seconds(), "programs/s")
	b.ReportMetric(float64(ss.Queries)/progsDone, "z3-queries/prog")
	b.ReportMetric(float64(ss.Decided)/progsDone, "go-decided/prog")
	b.ReportMetric(float64(inconclusive)/float64(b.N), "inconclusive/op")
}
