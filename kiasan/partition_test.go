package kiasan

import (
	"errors"
	"fmt"
	"sort"
	"testing"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newSolver is the shared helper under the name these tests use.
var newSolver = testutil.Solver

// gseHeaps maps control → the set of canonical GSE heaps at that control.
func gseHeaps(t testing.TB, states []*machine.State) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	for _, s := range states {
		h, err := relation.HeapOf(s)
		require.NoError(t, err)
		c := s.ControlKey()
		if out[c] == nil {
			out[c] = map[string]bool{}
		}
		out[c][relation.Canonical(h)] = true
	}
	return out
}

// viewHeaps returns the canonical heaps of View(q), after checking that the
// View is well formed.
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
	hs, complete, err := relation.Concretize(v, solver, relation.DefaultBudget)
	if err != nil {
		return nil, err
	}
	if !complete {
		return nil, fmt.Errorf("concretization budget exhausted")
	}
	var out []string
	for _, h := range hs {
		out = append(out, relation.Canonical(h))
	}
	sort.Strings(out)
	return out, nil
}

// partitionReport is what partition found over all steps.
type partitionReport struct {
	steps, kiasanStates, overlaps int
}

// partition compares the engine with GSE at every step up to the end of
// the longest path (both must end by maxSteps): at each control, the
// concretizations of the Views of the engine's states must be exactly the
// GSE heaps there (soundness and cover), every engine state must have one
// (FEAS), and the GSE heaps represented by two siblings are counted (P1).
// It returns the first discrepancy as an error; t only fails on a broken
// harness (solver or relation errors).
func partition(t testing.TB, p *javalite.Program, e *Engine, k, maxSteps int) (partitionReport, error) {
	return partitionUpTo(t, p, e, k, maxSteps, false)
}

// errTooMany makes a comparison inconclusive: a level of the GSE tree
// larger than maxLevel states.
var errTooMany = errors.New("inconclusive: too many GSE states at one step")

// maxLevel bounds the GSE states compared at one step.
const maxLevel = 2000

// partitionUpTo is partition; with cut, paths longer than maxSteps are
// compared up to maxSteps only (GSE and the engine cut at the same step).
// Both trees are walked level by level: the states at step n are
// compared, then stepped.
func partitionUpTo(t testing.TB, p *javalite.Program, e *Engine, k, maxSteps int, cut bool) (partitionReport, error) {
	t.Helper()
	solver := newSolver(t)
	var rep partitionReport
	ref := gse.New(k)
	ref.Opt = e.Opt
	gs := []*machine.State{machine.Initial(p)}
	qs := []*machine.State{machine.Initial(p)}
	step := func(states []*machine.State, eng machine.Engine) ([]*machine.State, error) {
		var next []*machine.State
		for _, s := range states {
			if s.Terminal() {
				continue
			}
			succ, err := machine.Step(s, eng, eng.Options())
			if err != nil {
				return nil, err
			}
			for _, sc := range succ {
				next = append(next, sc.S)
			}
		}
		return next, nil
	}
	for n := 0; n <= maxSteps; n++ {
		if len(gs) == 0 && len(qs) == 0 {
			rep.steps = n
			return rep, nil
		}
		if len(gs) > maxLevel {
			return rep, errTooMany
		}
		g := gseHeaps(t, gs)
		got := map[string]map[string]int{}
		for _, q := range qs {
			rep.kiasanStates++
			c := q.ControlKey()
			hs, err := viewHeaps(e, q, solver)
			if err != nil {
				return rep, fmt.Errorf("step %d: %s state %s: %w", n, e.Name(), q.ControlString(), err)
			}
			if len(hs) == 0 {
				return rep, fmt.Errorf("step %d: a %s state with no concretization (FEAS): %s", n, e.Name(), q.ControlString())
			}
			if got[c] == nil {
				got[c] = map[string]int{}
			}
			for _, h := range hs {
				got[c][h]++
				if got[c][h] > 1 {
					rep.overlaps++
				}
			}
		}
		for c, have := range got {
			want := g[c]
			if want == nil {
				return rep, fmt.Errorf("step %d: %s reaches a control GSE does not", n, e.Name())
			}
			for h := range have {
				if !want[h] {
					return rep, fmt.Errorf("step %d: a %s concretization GSE never builds: %s", n, e.Name(), h)
				}
			}
		}
		for c, want := range g {
			for h := range want {
				if got[c][h] == 0 {
					return rep, fmt.Errorf("step %d: a GSE heap no %s state represents: %s", n, e.Name(), h)
				}
			}
		}
		var err error
		if gs, err = step(gs, ref); err != nil {
			return rep, err
		}
		if qs, err = step(qs, e); err != nil {
			return rep, err
		}
	}
	if cut {
		rep.steps = maxSteps
		return rep, nil
	}
	return rep, fmt.Errorf("paths longer than %d steps", maxSteps)
}

// TestPartitionExactness: at k = −1 and at every step of the programs with
// published counts (and the small aliasing programs), the Views of the
// engine's states partition the GSE heaps of each control.
func TestPartitionExactness(t *testing.T) {
	files := []string{"programs/swap.jl", "programs/hasnull.jl", "programs/alias_two_fields.jl",
		"programs/alias_write_read.jl", "programs/selfref.jl", "programs/nullderef.jl", "programs/newobj.jl"}
	if !testing.Short() {
		files = append(files, "programs/sum.jl")
	}
	for _, f := range files {
		p := loadProgram(t, f)
		for _, mode := range []Mode{Lazier, LazierSharp} {
			for _, variant := range []string{"", "acmp-null-full", "eq-new-shortcut", "ifnull-syntactic"} {
				e := mustNew(t, mode, variant, -1)
				rep, err := partition(t, p, e, -1, 400)
				require.NoError(t, err, "%s %s", f, e.Name())
				assert.Zero(t, rep.overlaps, "%s %s: sibling concretizations overlap", f, e.Name())
				t.Logf("%s %s: %d steps, %d states", f, e.Name(), rep.steps, rep.kiasanStates)
			}
		}
	}
}
