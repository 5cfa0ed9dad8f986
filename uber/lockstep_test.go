package uber

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/stretchr/testify/require"
)

// newSolver is the shared helper under the name these tests use.
var newSolver = testutil.Solver

func loadProgram(t testing.TB, path string) *javalite.Program {
	t.Helper()
	return testutil.Program(t, filepath.Join("..", "testdata", path))
}

// parseProgram is the shared helper under the name these tests use.
var parseProgram = testutil.Parse

func mustNew(t testing.TB, variant string, k int, solver *smt.Solver) *Engine {
	t.Helper()
	e, err := New(variant, k, machine.Options{}, solver)
	require.NoError(t, err)
	return e
}

// viewHeaps returns the sorted canonical heaps of View(q), after checking
// that the View is well formed (deterministic, total, type consistent).
func viewHeaps(e *Engine, q *machine.State, solver *smt.Solver) ([]string, error) {
	v, err := e.View(q)
	if err != nil {
		return nil, err
	}
	viol, err := relation.WellFormed(v, solver)
	if err != nil {
		return nil, err
	}
	if viol != nil {
		return nil, fmt.Errorf("View not well formed: %v", viol)
	}
	hs, complete, err := relation.Concretize(v, solver, budget)
	if err != nil {
		return nil, err
	}
	if !complete {
		return nil, errInconclusive
	}
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = relation.Canonical(h)
	}
	sort.Strings(out)
	return out, nil
}

var errInconclusive = errors.New("inconclusive: concretization budget or group bound reached")

// The harness's bounds: a GSE group larger than groupBound states, or a
// View with more than budget.Models concretizations, is inconclusive.
// Tests do not run in parallel; one that lowers them restores them.
var (
	groupBound = 3000
	budget     = relation.DefaultBudget
)

// mismatch is a step at which the engine's View and GSE disagree: the
// control, the rule the engine applied last, and the heaps on each side.
type mismatch struct {
	step              int
	control, rule     string
	gse, engine       []string
	missing, spurious []string
}

func (m *mismatch) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "step %d, control %s (after %s): %d GSE heaps, %d engine heaps", m.step, m.control, m.rule, len(m.gse), len(m.engine))
	for _, h := range m.missing {
		fmt.Fprintf(&b, "\n  GSE heap not represented (forward, T11): %s", h)
	}
	for _, h := range m.spurious {
		fmt.Fprintf(&b, "\n  engine heap GSE never builds (backward): %s", h)
	}
	return b.String()
}

// lockstep runs GSE and the engine in lockstep as the checker does
// (ENGINES.md §8.2, OnePerControl), up to maxSteps: each engine state q is
// paired with the GSE states G that followed the same control flow; after
// a step, q's successors must have pairwise different controls, the
// controls of q's and G's successors must be the same (C12), and the
// canonical concretizations of View(q') at control c must be exactly the
// canonical heaps of G's successors at c. It returns the number of engine
// states compared, or the first discrepancy (*mismatch or another error).
func lockstep(t testing.TB, p *javalite.Program, e *Engine, maxSteps int) (int, error) {
	return lockstepCut(t, p, e, maxSteps, false)
}

// lockstepCut is lockstep; with cut, longer paths are compared up to
// maxSteps only (both engines cut at the same step).
func lockstepCut(t testing.TB, p *javalite.Program, e *Engine, maxSteps int, cut bool) (int, error) {
	t.Helper()
	ref := gse.New(e.K)
	ref.Opt = e.Options()
	type pair struct {
		gs   []*machine.State
		q    *machine.State
		rule string
	}
	compare := func(n int, pr pair) error {
		hs, err := viewHeaps(e, pr.q, e.solver)
		if err != nil {
			return fmt.Errorf("step %d, control %s: %w", n, pr.q.ControlString(), err)
		}
		m := &mismatch{step: n, control: pr.q.ControlString(), rule: pr.rule, engine: hs}
		want := map[string]bool{}
		for _, g := range pr.gs {
			h, err := relation.HeapOf(g)
			if err != nil {
				return err
			}
			c := relation.Canonical(h)
			if !want[c] {
				want[c] = true
				m.gse = append(m.gse, c)
			}
		}
		sort.Strings(m.gse)
		have := map[string]bool{}
		for _, h := range hs {
			have[h] = true
			if !want[h] {
				m.spurious = append(m.spurious, h)
			}
		}
		for _, h := range m.gse {
			if !have[h] {
				m.missing = append(m.missing, h)
			}
		}
		if len(m.missing)+len(m.spurious) > 0 {
			return m
		}
		return nil
	}
	init := pair{[]*machine.State{machine.Initial(p)}, machine.Initial(p), "initial"}
	if err := compare(0, init); err != nil {
		return 1, err
	}
	pairs := []pair{init}
	compared := 1
	for n := 1; n <= maxSteps; n++ {
		if len(pairs) == 0 {
			return compared, nil
		}
		var next []pair
		for _, pr := range pairs {
			if pr.q.Terminal() {
				continue
			}
			groups := map[string][]*machine.State{}
			total := 0
			for _, g := range pr.gs {
				succ, err := machine.Step(g, ref, ref.Options())
				if err != nil {
					return compared, err
				}
				for _, sc := range succ {
					groups[sc.S.ControlKey()] = append(groups[sc.S.ControlKey()], sc.S)
					total++
				}
			}
			if total > groupBound {
				return compared, errInconclusive
			}
			succ, err := machine.Step(pr.q, e, e.Options())
			if err != nil {
				return compared, err
			}
			seen := map[string]bool{}
			for _, sc := range succ {
				c := sc.S.ControlKey()
				if seen[c] {
					return compared, fmt.Errorf("step %d: two engine successors at control %s (C13)", n, sc.S.ControlString())
				}
				seen[c] = true
				if groups[c] == nil {
					return compared, fmt.Errorf("step %d: the engine reaches control %s (%s), GSE does not (C12 backward)", n, sc.S.ControlString(), sc.Rule)
				}
				np := pair{groups[c], sc.S, sc.Rule}
				compared++
				if err := compare(n, np); err != nil {
					return compared, err
				}
				next = append(next, np)
			}
			for c, g := range groups {
				if !seen[c] {
					return compared, fmt.Errorf("step %d: GSE reaches control %s, the engine does not (C12 forward)", n, g[0].ControlString())
				}
			}
		}
		pairs = next
	}
	if cut {
		return compared, nil
	}
	return compared, fmt.Errorf("paths longer than %d steps", maxSteps)
}

// counts are path ends of one exploration.
type counts struct{ Value, Error, Cut, Stuck int64 }

func explore(t testing.TB, p *javalite.Program, eng machine.Engine, bound int) counts {
	t.Helper()
	st, err := machine.Explore(context.Background(), machine.Initial(p), eng, bound, nil)
	require.NoError(t, err)
	require.True(t, st.Complete)
	return counts{st.Ends[machine.EndValue], st.Ends[machine.EndError], st.Ends[machine.EndCut], st.Ends[machine.EndStuck]}
}
