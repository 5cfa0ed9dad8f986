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
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/stretchr/testify/require"
)

func newSolver(t testing.TB) *smt.Solver {
	t.Helper()
	s, err := smt.NewSolver()
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

func loadProgram(t testing.TB, path string) *javalite.Program {
	t.Helper()
	p, err := javalite.LoadFile(filepath.Join("..", "testdata", path))
	require.NoError(t, err)
	return p
}

func parseProgram(t testing.TB, src string) *javalite.Program {
	t.Helper()
	p, err := javalite.ParseAndCheck("test.jl", []byte(src))
	require.NoError(t, err)
	return p
}

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
	hs, complete, err := relation.Concretize(v, solver, relation.DefaultBudget)
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

var errInconclusive = errors.New("inconclusive: concretization budget or level bound reached")

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

// lockstep walks GSE and the engine level by level (step n of both) up to
// maxSteps and checks, at every control: the engine has exactly one state
// (OnePerControl), GSE reaches it too, and the canonical concretizations of
// its View are exactly the canonical heaps of GSE's states there. It
// returns the number of engine states compared, or the first discrepancy
// (*mismatch or another error).
func lockstep(t testing.TB, p *javalite.Program, e *Engine, maxSteps int) (int, error) {
	t.Helper()
	ref := gse.New(e.K)
	ref.Opt = e.Options()
	type tagged struct {
		s    *machine.State
		rule string
	}
	gs := []*machine.State{machine.Initial(p)}
	qs := []tagged{{machine.Initial(p), "initial"}}
	compared := 0
	for n := 0; n <= maxSteps; n++ {
		if len(gs) == 0 && len(qs) == 0 {
			return compared, nil
		}
		if len(gs) > 3000 {
			return compared, errInconclusive
		}
		want := map[string]map[string]bool{}
		for _, g := range gs {
			h, err := relation.HeapOf(g)
			if err != nil {
				return compared, err
			}
			c := g.ControlKey()
			if want[c] == nil {
				want[c] = map[string]bool{}
			}
			want[c][relation.Canonical(h)] = true
		}
		seen := map[string]bool{}
		for _, q := range qs {
			c := q.s.ControlKey()
			if seen[c] {
				return compared, fmt.Errorf("step %d: two engine states at control %s (C13)", n, q.s.ControlString())
			}
			seen[c] = true
			compared++
			hs, err := viewHeaps(e, q.s, e.solver)
			if err != nil {
				return compared, fmt.Errorf("step %d, control %s: %w", n, q.s.ControlString(), err)
			}
			m := &mismatch{step: n, control: q.s.ControlString(), rule: q.rule, engine: hs}
			for h := range want[c] {
				m.gse = append(m.gse, h)
			}
			sort.Strings(m.gse)
			have := map[string]bool{}
			for _, h := range hs {
				have[h] = true
				if !want[c][h] {
					m.spurious = append(m.spurious, h)
				}
			}
			for _, h := range m.gse {
				if !have[h] {
					m.missing = append(m.missing, h)
				}
			}
			if len(m.missing)+len(m.spurious) > 0 {
				return compared, m
			}
		}
		for c := range want {
			if !seen[c] {
				return compared, fmt.Errorf("step %d: GSE reaches a control the engine does not (C12)", n)
			}
		}
		var next []*machine.State
		for _, g := range gs {
			if g.Terminal() {
				continue
			}
			succ, err := machine.Step(g, ref, ref.Options())
			if err != nil {
				return compared, err
			}
			for _, sc := range succ {
				next = append(next, sc.S)
			}
		}
		gs = next
		var qnext []tagged
		for _, q := range qs {
			if q.s.Terminal() {
				continue
			}
			succ, err := machine.Step(q.s, e, e.Options())
			if err != nil {
				return compared, err
			}
			for _, sc := range succ {
				qnext = append(qnext, tagged{sc.S, sc.Rule})
			}
		}
		qs = qnext
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
