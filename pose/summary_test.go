package pose

import (
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

// Engine against engine (ENGINES.md §8.4), without GSE: POSE-J and
// summary:fixed (both one state per control) step side by side, reach the
// same controls, and at each the concretizations of POSE-J's View equal
// those of the summary state.
func TestSameConcretizationsAsSummaryFixed(t *testing.T) {
	sv, err := summary.Lookup("fixed")
	require.NoError(t, err)
	for _, file := range []string{
		"testdata/programs/swap.jl",
		"testdata/programs/alias_write_read.jl",
		"testdata/programs/alias_two_fields.jl",
		"testdata/programs/pose_merge.jl",
		"testdata/programs/pose_ite_read.jl",
		"testdata/programs/pose_ite_write.jl",
		"testdata/bench/dll_getFirst.jl",
		"testdata/bench/dll_removeFirst.jl",
	} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			p := load(t, file)
			sol := newSolver(t)
			pe := New(Variant{}, sol, machine.Options{})
			se := summary.New(sv, -1, sol)
			type pair struct{ q, s *machine.State }
			work := []pair{{machine.Initial(p), machine.Initial(p)}}
			compared := 0
			for len(work) > 0 {
				pr := work[len(work)-1]
				work = work[:len(work)-1]
				if pr.q.Terminal() {
					require.True(t, pr.s.Terminal())
					continue
				}
				qs, err := machine.Step(pr.q.Clone(), pe, pe.Options())
				require.NoError(t, err)
				ss, err := machine.Step(pr.s.Clone(), se, se.Options())
				require.NoError(t, err)
				require.Equal(t, len(ss), len(qs), "successors at %s", pr.q.ControlString())
				byKey := map[string]*machine.State{}
				for _, sc := range ss {
					byKey[sc.S.ControlKey()] = sc.S
				}
				for _, qc := range qs {
					sc, ok := byKey[qc.S.ControlKey()]
					require.True(t, ok, "POSE-J control %s not reached by summary:fixed", qc.S.ControlString())
					v, err := pe.View(qc.S)
					require.NoError(t, err)
					require.Equal(t, concretizations(t, v, sol), concretizations(t, sc, sol),
						"step %d by %s at %s", qc.S.Steps, qc.Rule, qc.S.ControlString())
					compared++
					work = append(work, pair{qc.S, sc})
				}
			}
			require.Greater(t, compared, 0)
		})
	}
}

func concretizations(t *testing.T, q *machine.State, sol *smt.Solver) []string {
	t.Helper()
	hs, complete, err := relation.Concretize(q, sol, relation.DefaultBudget)
	require.NoError(t, err)
	require.True(t, complete)
	var out []string
	for _, h := range hs {
		out = append(out, relation.Canonical(h))
	}
	sort.Strings(out)
	return out
}
