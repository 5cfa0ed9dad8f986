package uber

import (
	"fmt"
	"testing"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
	"github.com/stretchr/testify/require"
)

// sameAsSummary runs uber:defer and summary:fixed side by side (engine vs
// engine, ENGINES.md §8.4: no GSE) up to maxSteps: both are
// OnePerControl, so each uber state is paired with the summary state at
// the same control; their successors must reach the same controls, and
// at each the View of the uber state and the summary state (its own View)
// must have the same canonical concretizations.
func sameAsSummary(t *testing.T, p string, k, maxSteps int, solver *smt.Solver) (int, error) {
	t.Helper()
	fixed, err := summary.Lookup("fixed")
	require.NoError(t, err)
	sum := summary.New(fixed, k, solver)
	e := mustNew(t, "defer", k, solver)
	concs := func(v *machine.State) (map[string]bool, error) {
		hs, complete, err := relation.Concretize(v, solver, budget)
		if err != nil {
			return nil, err
		}
		if !complete {
			return nil, errInconclusive
		}
		out := map[string]bool{}
		for _, h := range hs {
			out[relation.Canonical(h)] = true
		}
		return out, nil
	}
	prog := loadProgram(t, p)
	type pair struct{ q, s *machine.State }
	pairs := []pair{{machine.Initial(prog), machine.Initial(prog)}}
	compared := 0
	for n := 1; n <= maxSteps && len(pairs) > 0; n++ {
		var next []pair
		for _, pr := range pairs {
			if pr.q.Terminal() {
				continue
			}
			qs, err := machine.Step(pr.q, e, e.Options())
			if err != nil {
				return compared, err
			}
			ss, err := machine.Step(pr.s, sum, sum.Options())
			if err != nil {
				return compared, err
			}
			if len(qs) != len(ss) {
				return compared, fmt.Errorf("step %d: %d uber successors, %d summary successors", n, len(qs), len(ss))
			}
			for i := range qs {
				q, s := qs[i].S, ss[i].S
				if q.ControlKey() != s.ControlKey() || qs[i].Rule != ss[i].Rule {
					return compared, fmt.Errorf("step %d: uber %s (%s) vs summary %s (%s)", n, q.ControlString(), qs[i].Rule, s.ControlString(), ss[i].Rule)
				}
				v, err := e.View(q)
				if err != nil {
					return compared, err
				}
				a, err := concs(v)
				if err != nil {
					return compared, err
				}
				b, err := concs(s)
				if err != nil {
					return compared, err
				}
				compared++
				if len(a) != len(b) {
					return compared, fmt.Errorf("step %d, %s: %d uber heaps, %d summary heaps", n, q.ControlString(), len(a), len(b))
				}
				for h := range a {
					if !b[h] {
						return compared, fmt.Errorf("step %d, %s: uber heap not of summary: %s", n, q.ControlString(), h)
					}
				}
				next = append(next, pair{q, s})
			}
		}
		pairs = next
	}
	return compared, nil
}

// TestSameAsSummary: at k = −1 uber:defer and summary:fixed take the same
// rules in the same order and have the same concretizations at every
// step, including LinkedList's first 100 steps (no GSE needed, so longer
// than the exactness tests).
func TestSameAsSummary(t *testing.T) {
	solver := newSolver(t)
	for _, c := range []struct {
		file  string
		steps int
	}{
		{"programs/swap.jl", 400}, {"programs/sum.jl", 400}, {"programs/hasnull.jl", 400},
		{"programs/alias_write_read.jl", 400}, {"programs/selfref.jl", 400},
		{"programs/linkedlist.jl", 100}, {"programs/linkedlist_calls2.jl", 100},
	} {
		if testing.Short() && c.steps < 400 {
			continue
		}
		n, err := sameAsSummary(t, c.file, -1, c.steps, solver)
		require.NoError(t, err, c.file)
		t.Logf("%s: %d states compared", c.file, n)
	}
}
