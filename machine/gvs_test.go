package machine_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestGVSBuilderIsMerge: a GVSBuilder makes the set that the same entries
// merged one by one make, formula for formula (both are hash-consed), with
// guards that repeat, contradict and absorb each other.
func TestGVSBuilderIsMerge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		atoms := []*smt.Formula{
			smt.Eq(1, 2), smt.Eq(2, 3), smt.Eq(1, 3), smt.Eq(3, machine.RNull),
		}
		guard := func(t *rapid.T, label string) *smt.Formula {
			a := atoms[rapid.IntRange(0, len(atoms)-1).Draw(t, label+"a")]
			switch rapid.IntRange(0, 4).Draw(t, label+"op") {
			case 0:
				return a
			case 1:
				return smt.Not(a)
			case 2:
				return smt.And(a, atoms[rapid.IntRange(0, len(atoms)-1).Draw(t, label+"b")])
			case 3:
				return smt.Or(smt.Not(a), atoms[rapid.IntRange(0, len(atoms)-1).Draw(t, label+"b")])
			}
			return smt.False()
		}
		var merged machine.GVS
		var b machine.GVSBuilder
		n := rapid.IntRange(0, 12).Draw(t, "n")
		for i := 0; i < n; i++ {
			g := guard(t, "g")
			l := machine.Loc(rapid.IntRange(-1, 3).Draw(t, "loc"))
			merged = merged.Merge(g, l)
			b.Add(g, l)
		}
		require.Equal(t, merged, b.GVS())
	})
}
