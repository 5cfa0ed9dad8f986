package relation

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/smt"
)

// TestDecideAtoms: the valuations decideAtoms gives under an assumed
// formula are the formula's models projected onto the atoms (all-SAT, the
// plain reading), each once, with data both independent of and mixed with
// the references.
func TestDecideAtoms(t *testing.T) {
	solver := newSolver(t)
	a, b, c := smt.Ref(1), smt.Ref(4), smt.Ref(7)
	x := smt.Sym(a, 0, smt.SortInt)
	y := smt.Sym(b, 0, smt.SortInt)
	ref := smt.And(smt.Neq(a, smt.Null), smt.Or(smt.Eq(a, b), smt.Eq(b, c)))
	atoms := []*smt.Formula{smt.Eq(a, b), smt.Eq(a, c), smt.Eq(b, c), smt.Eq(c, smt.Null)}
	for _, phi := range []*smt.Formula{
		smt.And(ref, smt.Lt(x, y)),                                     // independent, satisfiable
		smt.And(ref, smt.Lt(x, y), smt.Lt(y, x)),                       // independent, unsatisfiable data
		smt.And(ref, smt.Or(smt.Eq(a, c), smt.Lt(x, smt.Int(0)))),      // mixed
		smt.And(ref, smt.Lt(x, y), smt.Or(smt.Eq(a, c), smt.Lt(y, x))), // mixed, data constrains the references
	} {
		models, complete, err := solver.AllSAT(phi, atoms, 1000)
		require.NoError(t, err)
		require.True(t, complete)
		var want []string
		for _, m := range models {
			want = append(want, fmt.Sprint(m))
		}
		var got []string
		ok, err := solver.Sat(phi)
		require.NoError(t, err)
		if ok {
			require.NoError(t, solver.Assume(phi))
			err = decideAtoms(solver, atoms, map[[2]smt.Ref]bool{}, func(val map[[2]smt.Ref]bool) error {
				m := make([]bool, len(atoms))
				for i, at := range atoms {
					p, q := at.Atom()
					m[i] = val[atomKey(p, q)]
				}
				got = append(got, fmt.Sprint(m))
				return nil
			})
			require.NoError(t, err)
			require.NoError(t, solver.Release())
		}
		slices.Sort(want)
		slices.Sort(got)
		require.Equal(t, want, got, "%s", phi)
	}
}
