package pose

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
)

// newSolver and parse are the shared helpers under the names these tests use.
var (
	newSolver = testutil.Solver
	parse     = testutil.Parse
)

// load reads a program of testdata/ (path relative to the repository root).
func load(t testing.TB, path string) *javalite.Program {
	t.Helper()
	return testutil.Program(t, filepath.Join("..", path))
}

func variant(t testing.TB, name string) Variant {
	t.Helper()
	v, err := Lookup(name)
	require.NoError(t, err)
	return v
}

// failure is the first step at which the lockstep comparison broke.
type failure struct {
	// Inconclusive: a GSE group exceeded maxGroup; nothing was refuted.
	Inconclusive bool
	Step         int
	Rule         string
	Control      string
	Reason       string
	Exact        relation.ExactResult
	Q, View      *machine.State
	GSE          []*machine.State
}

func (f *failure) String() string {
	return fmt.Sprintf("step %d by %s at %s: %s", f.Step, f.Rule, f.Control, f.Reason)
}

// lockstep runs GSE (k = −1) and POSE-J side by side from the initial state
// with machine.Step, as the checker does for a one-per-control engine:
// GSE successors grouped by control, one POSE-J successor per control
// (forward, backward, no duplicate control), each POSE-J state's View well
// formed and exact for its group (with the data half on a program with
// data), and INV-P on every POSE-J state. It
// returns the first failure (nil if everything held up to the step bound)
// and the number of pairs checked. An inconclusive check fails the test.
func lockstep(t testing.TB, p *javalite.Program, v Variant, steps int) (*failure, int) {
	t.Helper()
	return lockstepWith(t, p, v, steps, true)
}

// lockstepWith is lockstep, with INV-P checked or not (to see the
// exactness verdict of a state that breaks INV-P).
func lockstepWith(t testing.TB, p *javalite.Program, v Variant, steps int, invp bool) (*failure, int) {
	t.Helper()
	return lockstepBounded(t, p, v, steps, invp, 0)
}

// lockstepBounded is lockstepWith giving up (an Inconclusive failure) on a
// GSE group larger than maxGroup (0: no bound).
func lockstepBounded(t testing.TB, p *javalite.Program, v Variant, steps int, invp bool, maxGroup int) (*failure, int) {
	t.Helper()
	sol := newSolver(t)
	g := gse.New(-1)
	eng := New(v, sol, machine.Options{})
	type pair struct {
		P []*machine.State
		q *machine.State
	}
	work := []pair{{[]*machine.State{machine.Initial(p)}, machine.Initial(p)}}
	checked := 0
	for len(work) > 0 {
		pr := work[len(work)-1]
		work = work[:len(work)-1]
		if pr.q.Terminal() || (steps >= 0 && pr.q.Steps >= steps) {
			continue
		}
		groups := map[string][]*machine.State{}
		rules := map[string]string{}
		var order []string
		for _, ps := range pr.P {
			succ, err := machine.Step(ps.Clone(), g, g.Options())
			require.NoError(t, err)
			for _, sc := range succ {
				key := sc.S.ControlKey()
				if _, ok := groups[key]; !ok {
					order = append(order, key)
					rules[key] = sc.Rule
				}
				groups[key] = append(groups[key], sc.S)
			}
		}
		qs, err := machine.Step(pr.q.Clone(), eng, eng.Options())
		require.NoError(t, err, "pose step at %s", pr.q.ControlString())
		byKey := map[string]machine.Succ{}
		for _, sc := range qs {
			key := sc.S.ControlKey()
			if _, dup := byKey[key]; dup {
				return &failure{Step: sc.S.Steps, Rule: sc.Rule, Control: sc.S.ControlString(), Reason: "C13: two POSE-J successors with one control", Q: sc.S}, checked
			}
			byKey[key] = sc
		}
		for _, key := range order {
			if _, ok := byKey[key]; !ok {
				gs := groups[key]
				return &failure{Step: gs[0].Steps, Rule: rules[key], Control: gs[0].ControlString(), GSE: gs,
					Reason: fmt.Sprintf("forward: %d GSE state(s) reach this control; no POSE-J successor does", len(gs))}, checked
			}
		}
		for _, sc := range qs {
			key := sc.S.ControlKey()
			gs, ok := groups[key]
			if !ok {
				return &failure{Step: sc.S.Steps, Rule: sc.Rule, Control: sc.S.ControlString(), Q: sc.S,
					Reason: "backward: POSE-J reaches this control; no GSE state does"}, checked
			}
			if maxGroup > 0 && len(gs) > maxGroup {
				return &failure{Inconclusive: true, Step: sc.S.Steps, Rule: sc.Rule, Control: sc.S.ControlString(),
					Reason: fmt.Sprintf("a GSE group of %d states exceeds %d", len(gs), maxGroup)}, checked
			}
			vw, err := eng.View(sc.S)
			require.NoError(t, err)
			viol, err := CheckINVP(sc.S, sol)
			require.NoError(t, err)
			if invp && viol != nil {
				return &failure{Step: sc.S.Steps, Rule: sc.Rule, Control: sc.S.ControlString(), Q: sc.S, View: vw, GSE: gs,
					Reason: viol.Error()}, checked
			}
			res := relation.Exact(gs, vw, sol, relation.DefaultBudget)
			if res.Outcome == relation.Holds && machine.UsesData(p) {
				// The data half (PRIMITIVES.md §5), as the checker does.
				if v := relation.SortConsistent(vw); v != nil {
					return &failure{Step: sc.S.Steps, Rule: sc.Rule, Control: sc.S.ControlString(), Q: sc.S, View: vw, GSE: gs,
						Reason: "sort consistency: " + v.Error()}, checked
				}
				res = relation.ExactData(gs, vw, sol, relation.DefaultBudget)
			}
			checked++
			switch res.Outcome {
			case relation.Inconclusive:
				t.Fatalf("step %d by %s: exactness inconclusive: %s", sc.S.Steps, sc.Rule, res.Reason)
			case relation.Fails:
				return &failure{Step: sc.S.Steps, Rule: sc.Rule, Control: sc.S.ControlString(), Q: sc.S, View: vw, GSE: gs,
					Exact: res, Reason: res.Reason}, checked
			}
			work = append(work, pair{gs, sc.S})
		}
	}
	return nil, checked
}

// paths explores eng alone and returns its value, error and cut ends.
func paths(t testing.TB, p *javalite.Program, eng machine.Engine, steps int) machine.Stats {
	t.Helper()
	st, err := machine.Explore(context.Background(), machine.Initial(p), eng, steps, nil)
	require.NoError(t, err)
	require.True(t, st.Complete)
	return st
}

// sequences returns the number of paths of eng and its number of distinct
// control-flow sequences (concrete.Sequences' digests, as C12/C13 compare).
func sequences(t testing.TB, p *javalite.Program, eng machine.Engine, steps int) (int64, map[concrete.Digest]int) {
	t.Helper()
	seqs := map[concrete.Digest]int{}
	n, complete, err := concrete.Sequences(context.Background(), machine.Initial(p), eng, steps,
		func(_ *machine.State, _ machine.EndKind, d concrete.Digests) bool {
			seqs[d.Control]++
			return true
		})
	require.NoError(t, err)
	require.True(t, complete)
	return n, seqs
}
