package checker

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
)

// TestDataExactnessBruteForce is issue 22 item 5(a): the data half of
// exactness (relation.ExactData, which asks Z3 one question per world and
// per GSE state) against brute force (relation.ConcreteStates: every
// reference world and every valuation of the input symbols over the
// program's small domain, no solver). On every pair of every generated
// data program that both can decide: where ExactData holds, the engine
// state and its GSE group stand for the same (input, state) pairs; where
// it fails (the data mutants), they do not.
func TestDataExactnessBruteForce(t *testing.T) {
	solver := testutil.Solver(t)
	type tally struct{ holds, fails, compared, skipped int }
	var tl tally
	check := func(variant string, n int, wantFail bool) {
		var dom []int64
		dataPairHook = func(P []*machine.State, q *machine.State, res relation.ExactResult) {
			if res.Outcome == relation.Inconclusive {
				return
			}
			sq, ambQ, okQ, err := relation.ConcreteStates(q, nil, dom, 20000)
			require.NoError(t, err)
			sp := map[string]bool{}
			okP, ambP := true, false
			for _, p := range P {
				s, amb, ok, err := relation.ConcreteStates(p, relation.DataFacts(p), dom, 20000)
				require.NoError(t, err)
				okP, ambP = okP && ok, ambP || amb
				for k := range s {
					sp[k] = true
				}
			}
			if !okQ || !okP || ambQ || ambP {
				tl.skipped++
				return
			}
			tl.compared++
			same := len(sq) == len(sp)
			for k := range sq {
				same = same && sp[k]
			}
			if res.Outcome == relation.Holds {
				tl.holds++
				require.True(t, same, "ExactData holds but the concrete states differ:\nq  %v\nP  %v\nq state:\n%s", keys(sq), keys(sp), q.Dump())
			} else {
				tl.fails++
				require.False(t, same, "ExactData fails (%s) but the concrete states are equal over the domain %v", res.Reason, dom)
			}
		}
		defer func() { dataPairHook = nil }()
		for i := range n {
			p := ProgramOfData(ProgramSeed(7, i), gen.DataMixed)
			if !machine.UsesData(p) {
				continue
			}
			// The program's own domain (its literals ±1 and 0), widened so
			// that two inputs can differ even without literals.
			dom = concrete.Domain(p)
			for _, v := range []int64{-1, 1, 2} {
				if !slices.Contains(dom, v) {
					dom = append(dom, v)
				}
			}
			opt := DefaultOptions()
			opt.Engine = "summary:" + variant
			opt.K, opt.Steps = 1, 60
			opt.NoOracle = true
			_, err := Run(context.Background(), p, opt, solver)
			require.NoError(t, err)
		}
	}
	// 20 programs per variant in make test, 40 under make soak.
	n := 20
	switch {
	case os.Getenv("LOCKSTEP_SOAK") != "":
		n = 40
	case testing.Short():
		n = 15
	}
	check("fixed", n, false)
	require.Positive(t, tl.holds, "no pair compared: %+v", tl)
	t.Logf("fixed: %+v", tl)
	tl = tally{}
	check("fixed+m-prim-write-guard-phi", n, true)
	check("fixed+m-prim-read-first", n, true)
	t.Logf("mutants: %+v", tl)
	require.Positive(t, tl.fails, "no failing pair of the mutants compared: %+v", tl)
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
		if len(out) == 6 {
			break
		}
	}
	return out
}
