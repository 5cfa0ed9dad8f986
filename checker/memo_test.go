package checker

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/machine"
)

// TestExactKey: the memo key of (P, q) ignores the order of P and a step
// that moves only the control, and tells apart the two parts of exactness,
// a different group, and pairs whose controls differ (those are never
// memoized).
func TestExactKey(t *testing.T) {
	prog := testutil.Program(t, "../testdata/perf/seed1-021.jl")
	eng := &gse.Engine{K: 2}
	// Step GSE until a field access has split the initial state.
	P := []*machine.State{machine.Initial(prog)}
	for len(P) < 2 {
		var next []*machine.State
		for _, p := range P {
			succ, err := machine.Step(p.Clone(), eng, eng.Opt)
			require.NoError(t, err)
			for _, s := range succ {
				next = append(next, s.S)
			}
		}
		P = next
	}
	for _, p := range P {
		require.Equal(t, P[0].ControlKey(), p.ControlKey())
	}
	q := P[0]
	k1, ok := exactKey(P, q, true)
	require.True(t, ok)
	rev := slices.Clone(P)
	slices.Reverse(rev)
	k2, ok := exactKey(rev, q, true)
	require.True(t, ok)
	require.Equal(t, k1, k2, "P is a set")
	k3, _ := exactKey(P, q, false)
	require.NotEqual(t, k1, k3, "part (a) alone is another check")
	k4, _ := exactKey(P[:1], q, true)
	require.NotEqual(t, k1, k4, "another group")

	// A step that only moves the control (here: one more frame that holds
	// no reference) keeps the key.
	moved := func(s *machine.State) *machine.State {
		c := s.Clone()
		c.K = &machine.Kont{Kind: machine.KBegin, Idx: 7, Next: c.K}
		return c
	}
	var mP []*machine.State
	for _, p := range P {
		mP = append(mP, moved(p))
	}
	k5, ok := exactKey(mP, moved(q), true)
	require.True(t, ok)
	require.Equal(t, k1, k5)

	mP[1] = P[1]
	_, ok = exactKey(mP, moved(q), true)
	require.False(t, ok, "controls differ: not memoized")
}
