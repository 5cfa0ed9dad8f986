package smt

import (
	"runtime"
	"testing"
	"weak"

	"github.com/stretchr/testify/require"
)

// TestForgetReleasesFormulas: once Forget has run, the solver keeps no
// formula it was asked about alive (the Go decider's arena pointed at
// each, across every program of a stream).
func TestForgetReleasesFormulas(t *testing.T) {
	s, err := NewSolver()
	require.NoError(t, err)
	defer s.Close()
	ask := func() weak.Pointer[Formula] {
		// References no other test uses, so that interning shares nothing.
		or := Or(Eq(Ref(90001), Ref(90004)), Eq(Ref(90001), Null))
		f := And(or, Or(Eq(Ref(90007), Ref(90010)), Neq(Ref(90013), Null)))
		require.NoError(t, s.Assume(f))
		ok, err := s.Sat(Or(Neq(Ref(90004), Ref(90007)), Eq(Ref(90010), Null)))
		require.NoError(t, err)
		require.True(t, ok)
		require.NoError(t, s.Release())
		require.Contains(t, s.dec.form, or, "the decider did not compile the disjunction: the test tests nothing")
		return weak.Make(or)
	}
	wp := ask()
	s.Forget()
	runtime.GC()
	runtime.GC()
	require.Nil(t, wp.Value(), "a formula outlives Forget")
	// The solver still answers.
	ok, err := s.Sat(Eq(Ref(90001), Null))
	require.NoError(t, err)
	require.True(t, ok)
}

// TestForgetReleasesLearned: clause learning's kept encoding and the
// formulas remembered by Built keep nothing past Forget either.
func TestForgetReleasesLearned(t *testing.T) {
	old := decideBudget
	decideBudget = 10 // the DPLL gives up at once: clause learning answers
	defer func() { decideBudget = old }()
	s, err := NewSolver()
	require.NoError(t, err)
	defer s.Close()
	ask := func() (weak.Pointer[Formula], weak.Pointer[Formula]) {
		or := Or(Eq(Ref(90101), Ref(90104)), Eq(Ref(90101), Null))
		f := And(or, Or(Eq(Ref(90107), Ref(90110)), Neq(Ref(90113), Null)), Neq(Ref(90104), Ref(90107)))
		ok, err := s.Sat(f)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, int64(1), s.Stats().Learned, "clause learning did not answer: the test tests nothing")
		built := s.Built("k", func() *Formula { return Or(Eq(Ref(90116), Null), Eq(Ref(90119), Null)) })
		return weak.Make(or), weak.Make(built)
	}
	wp, wb := ask()
	s.Forget()
	runtime.GC()
	runtime.GC()
	require.Nil(t, wp.Value(), "a formula clause learning encoded outlives Forget")
	require.Nil(t, wb.Value(), "a formula remembered by Built outlives Forget")
}
