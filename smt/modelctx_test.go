package smt

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOneContextAtATime: making the model context deletes the Solver's own
// (parkMain), a later question of the Solver opens one again, and at the
// end of Model's questions (Forget) a parked Solver takes the model
// context over; the answers and the models are those of a Solver that
// never parked.
func TestOneContextAtATime(t *testing.T) {
	base := liveContexts.Load()
	x, y := Sym(Ref(1), 0, SortInt), Sym(Ref(2), 0, SortInt)
	sat := And(Lt(x, y), Lt(y, Int(5)), Eq(1, 4))
	unsat := And(Lt(x, y), Lt(y, x))
	q := And(Lt(x, y), Lt(Int(2), x))
	terms := []*Formula{x, y, Sub(y, x)}

	fresh, err := NewSolver()
	require.NoError(t, err)
	r, want, err := fresh.Model(q, terms)
	require.NoError(t, err)
	require.Equal(t, Sat, r)
	fresh.Close()
	require.Equal(t, base, liveContexts.Load())

	s, err := NewSolver()
	require.NoError(t, err)
	defer s.Close()
	ask := func() {
		t.Helper()
		r, err := s.Check(sat)
		require.NoError(t, err)
		require.Equal(t, Sat, r)
		r, err = s.Check(unsat)
		require.NoError(t, err)
		require.Equal(t, Unsat, r)
	}
	model := func() {
		t.Helper()
		r, vals, err := s.Model(q, terms)
		require.NoError(t, err)
		require.Equal(t, Sat, r)
		require.Equal(t, want, vals)
	}
	ask()
	require.Equal(t, base+1, liveContexts.Load())
	model() // parks the Solver's context
	require.True(t, s.z.parked)
	require.Nil(t, s.z.ctx)
	require.Equal(t, base+1, liveContexts.Load())
	s.Forget() // the Solver takes the model context over
	require.False(t, s.z.parked)
	require.NotNil(t, s.z.ctx)
	require.Nil(t, s.z.linked)
	require.Equal(t, base+1, liveContexts.Load())
	ask()
	require.Equal(t, base+1, liveContexts.Load())

	// Once per Solver: the next model context is made beside the
	// Solver's, and goes at Forget.
	model()
	require.Equal(t, base+2, liveContexts.Load())
	ask()
	model()
	s.Forget()
	require.Equal(t, base+1, liveContexts.Load())
	s.Close()
	require.Equal(t, base, liveContexts.Load())

	// A question of the Solver while the model context lives opens a
	// context of its own; the model context then goes at Forget.
	s, err = NewSolver()
	require.NoError(t, err)
	ask()
	model()
	require.Nil(t, s.z.ctx)
	ask()
	require.Equal(t, base+2, liveContexts.Load())
	model()
	s.Forget()
	require.False(t, s.z.parked)
	require.Equal(t, base+1, liveContexts.Load())
	s.Close()
	require.Equal(t, base, liveContexts.Load())
}
