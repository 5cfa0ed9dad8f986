package relation

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/internal/testutil"
)

// TestReplayedLeafSame: a leaf replayed from the concretization cache
// whose literals are exactly its cached leaf's shares them
// (leafLiterals), and every leaf is, heap by heap and in order, the one
// built with its literals copied: the same locations, roots, literals and
// canonical form, along the lockstep of LinkedList×4 and of a program
// with data, each state concretized through a cache of its own for
// either way.
func TestReplayedLeafSame(t *testing.T) {
	defer func() { shareLeafLits = true }()
	sol := newSolver(t)
	shared := 0
	for _, file := range []string{"../testdata/bench/linkedlist_calls4.jl", "../testdata/data/bst_contains.jl"} {
		prog := mustParse(t, testutil.Source(file))
		on, off := NewConcretizationCache(), NewConcretizationCache()
		states := 0
		lockstepPairs(t, prog, 2, 120, sol, func(pr lockPair) {
			if v, err := WellFormed(pr.q, sol); v != nil || err != nil {
				return
			}
			var got [2]Leaves
			for i, cache := range []*ConcretizationCache{off, on} {
				shareLeafLits = i == 1
				leaves, complete, err := ConcretizeLeavesWellFormed(pr.q, sol, Budget{Models: DefaultBudget.Models, Cache: cache})
				require.NoError(t, err)
				require.True(t, complete)
				got[i] = leaves
			}
			require.Equal(t, len(got[0]), len(got[1]), "%s step %d", file, pr.q.Steps)
			for i := range got[0] {
				a, b := got[0][i], got[1][i]
				require.Equal(t, a.Locs, b.Locs, "%s step %d leaf %d", file, pr.q.Steps, i)
				require.Equal(t, a.Roots, b.Roots, "%s step %d leaf %d", file, pr.q.Steps, i)
				require.Equal(t, a.lits, b.lits, "%s step %d leaf %d", file, pr.q.Steps, i)
				require.Equal(t, Canonical(a), Canonical(b), "%s step %d leaf %d", file, pr.q.Steps, i)
			}
			states++
		})
		require.Zero(t, off.sharedLits)
		require.Greater(t, states, 20, file)
		shared += on.sharedLits
	}
	t.Logf("%d replayed leaves share their cached leaf's literals", shared)
	require.Positive(t, shared)
}
