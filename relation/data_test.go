package relation

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/smt"
)

// TestWorldPartitions: the fast path of worldPartitions (data independent
// of the references) gives the partitions solver.Partitions gives for the
// whole formula: the reference part's when the data part is satisfiable,
// none when it is not; a conjunct mixing both goes to the solver whole.
func TestWorldPartitions(t *testing.T) {
	solver := newSolver(t)
	a, b, c := smt.Ref(1), smt.Ref(4), smt.Ref(7)
	x := smt.Sym(a, 0, smt.SortInt)
	y := smt.Sym(b, 0, smt.SortInt)
	refs := []smt.Ref{a, b, c}
	ref := smt.And(smt.Neq(a, smt.Null), smt.Or(smt.Eq(a, b), smt.Eq(b, c)))
	for _, phi := range []*smt.Formula{
		smt.And(ref, smt.Lt(x, y)),                                     // independent, satisfiable
		smt.And(ref, smt.Lt(x, y), smt.Lt(y, x)),                       // independent, unsatisfiable data
		smt.And(ref, smt.Or(smt.Eq(a, c), smt.Lt(x, smt.Int(0)))),      // mixed
		smt.And(ref, smt.Lt(x, y), smt.Or(smt.Eq(a, c), smt.Lt(y, x))), // mixed, data constrains the references
	} {
		want, wc, err := solver.Partitions(phi, refs, 100)
		require.NoError(t, err)
		got, gc, err := worldPartitions(solver, phi, refs, 100)
		require.NoError(t, err)
		require.Equal(t, wc, gc, "%s", phi)
		require.Equal(t, want, got, "%s", phi)
	}
}
