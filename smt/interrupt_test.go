package smt

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// pigeonhole is "n+1 references, each equal to one of n others, pairwise
// distinct": unsatisfiable, and hard enough for Z3 that a check of it is
// still running when it is interrupted.
func pigeonhole(n int) *Formula {
	var fs []*Formula
	hole := func(j int) Ref { return Ref(3*j + 1) }
	bird := func(i int) Ref { return Ref(3*(n+i) + 1) }
	for i := 0; i <= n; i++ {
		var or []*Formula
		for j := 0; j < n; j++ {
			or = append(or, Eq(bird(i), hole(j)))
		}
		fs = append(fs, Or(or...))
		for k := i + 1; k <= n; k++ {
			fs = append(fs, Neq(bird(i), bird(k)))
		}
	}
	return And(fs...)
}

func TestSetContextInterruptsACheckInFlight(t *testing.T) {
	s, err := NewSolver()
	require.NoError(t, err)
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	s.SetContext(ctx)
	time.AfterFunc(100*time.Millisecond, cancel)
	r, err := s.Check(pigeonhole(150))
	require.ErrorIs(t, err, context.Canceled, "answer %v", r)
	require.ErrorIs(t, err, ErrCanceled)
	require.True(t, Undecided(err))
	require.True(t, s.Canceled())
	// Every later query is refused, even a trivial one, and is not cached.
	_, err = s.Sat(Eq(1, 4))
	require.ErrorIs(t, err, ErrCanceled)
	_, _, err = s.AllSAT(Eq(1, 4), []*Formula{Eq(1, 4)}, 0)
	require.ErrorIs(t, err, ErrCanceled)
}

func TestSetContextAlreadyDone(t *testing.T) {
	s, err := NewSolver()
	require.NoError(t, err)
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.SetContext(ctx)
	_, err = s.Check(Eq(1, 4))
	require.ErrorIs(t, err, ErrCanceled)
}

func TestSetContextUnbindAndClose(t *testing.T) {
	s, err := NewSolver()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	s.SetContext(ctx)
	s.SetContext(nil) // unbinding: the cancel below reaches nothing
	cancel()
	ok, err := s.Sat(Eq(1, 4))
	require.NoError(t, err)
	require.True(t, ok)
	// A watcher that fires after Close must not touch the deleted context.
	ctx2, cancel2 := context.WithCancel(context.Background())
	s.SetContext(ctx2)
	s.Close()
	cancel2()
	require.False(t, s.Canceled())
}

func TestFaultsAllKinds(t *testing.T) {
	for _, tc := range []struct {
		f    Faults
		want func(error) bool
	}{
		{Faults{Unknown: 1}, func(err error) bool { return errors.Is(err, ErrUnknown) }},
		{Faults{Fail: 1}, func(err error) bool { var z *Z3Error; return errors.As(err, &z) && errors.Is(err, ErrInjected) }},
		{Faults{Cancel: 1}, func(err error) bool { return errors.Is(err, context.Canceled) }},
	} {
		s, err := NewSolver()
		require.NoError(t, err)
		require.NoError(t, s.SetFaults(tc.f))
		_, err = s.Check(Eq(1, 4))
		require.Error(t, err)
		require.True(t, tc.want(err), "%v: %v", tc.f, err)
		require.True(t, Undecided(err))
		_, _, err = s.AllSAT(Eq(1, 4), []*Formula{Eq(1, 4)}, 0)
		require.True(t, tc.want(err), "AllSAT %v: %v", tc.f, err)
		// A fault is never cached: with faults off the answer is real.
		_, err = s.Sat(Eq(1, 4))
		require.Error(t, err)
		require.NoError(t, s.SetFaults(Faults{}))
		ok, err := s.Sat(Eq(1, 4))
		require.NoError(t, err)
		require.True(t, ok)
		s.Close()
	}
}

func TestFaultsSeededFraction(t *testing.T) {
	run := func() ([]bool, FaultStats) {
		s, err := NewSolver()
		require.NoError(t, err)
		defer s.Close()
		require.NoError(t, s.SetFaults(Faults{Unknown: 0.1, Fail: 0.1, Cancel: 0.1, Seed: 7}))
		var out []bool
		for i := 0; i < 1000; i++ {
			_, err := s.Check(Neq(Ref(3*(i%20)+1), Ref(3*(i%7)+4)))
			out = append(out, err != nil)
		}
		return out, s.FaultStats()
	}
	a, sa := run()
	b, sb := run()
	require.Equal(t, a, b, "the same seed draws the same faults")
	require.Equal(t, sa, sb)
	// A faulty attempt is retried, three attempts in all.
	require.EqualValues(t, 1000+sa.Retried, sa.Queries)
	require.LessOrEqual(t, sa.Retried, sa.Total())
	require.Positive(t, sa.Retried)
	// 30% of the queries fault, 10% of each kind, within a wide margin.
	q := float64(sa.Queries)
	require.InDelta(t, 0.3*q, sa.Total(), 80)
	for _, n := range []int64{sa.Unknown, sa.Fail, sa.Cancel} {
		require.InDelta(t, 0.1*q, n, 50)
	}
	failed := 0
	for _, f := range a {
		if f {
			failed++
		}
	}
	// A check fails when all three attempts fault: 0.3³ ≈ 2.7%.
	require.InDelta(t, 1000*0.027, failed, 20)
	require.Error(t, func() error {
		s, _ := NewSolver()
		defer s.Close()
		return s.SetFaults(Faults{Unknown: 0.6, Fail: 0.6})
	}())
}
