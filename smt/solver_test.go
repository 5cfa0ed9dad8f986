package smt

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// newSolver is a solver whose every query goes to Z3: the tests that use it
// are about the Z3 binding (counts of queries, scopes, memory). The Go
// decision procedure has its own tests (decide_test.go).
func newSolver(t testing.TB) *Solver {
	t.Helper()
	s, err := NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	s.SetGoDecide(false)
	t.Cleanup(s.Close)
	return s
}

func TestSatBasic(t *testing.T) {
	s := newSolver(t)
	cases := []struct {
		f    *Formula
		want bool
	}{
		{True(), true},
		{False(), false},
		{Eq(1, Null), true},
		{And(Neq(1, Null), Neq(4, Null)), true},
		{And(Eq(1, 4), Eq(4, Null), Neq(1, Null)), false},
		{And(Eq(1, 4), Eq(4, 7), Neq(1, 7)), false},
		{And(Or(Eq(1, Null), Eq(4, Null)), Neq(1, Null), Neq(4, Null)), false},
		{Implies(Eq(1, 4), Eq(4, 1)), true},
	}
	for _, c := range cases {
		got, err := s.Sat(c.f)
		require.NoError(t, err)
		require.Equal(t, c.want, got, c.f)
	}
	st := s.Stats()
	// Five: True, False and the tautological implication (simplified to
	// True by the constructors) never reach Z3.
	require.Equal(t, int64(5), st.Queries, "True/False must not reach Z3")
	require.Equal(t, int64(0), st.CacheHits)
	for _, c := range cases {
		got, err := s.Sat(c.f)
		require.NoError(t, err)
		require.Equal(t, c.want, got, c.f)
	}
	st = s.Stats()
	require.Equal(t, int64(5), st.Queries)
	require.Equal(t, int64(5), st.CacheHits)
	require.True(t, st.SolverTime > 0)

	s.ResetCache()
	_, err := s.Sat(Eq(1, Null))
	require.NoError(t, err)
	require.Equal(t, int64(6), s.Stats().Queries)

	r, err := s.Check(And(Eq(1, 4), Neq(4, 1)))
	require.NoError(t, err)
	require.Equal(t, Unsat, r)
}

// TestSatMatchesBruteForce: Z3's answer equals evaluation over all 52
// interpretations of four refs and null.
func TestSatMatchesBruteForce(t *testing.T) {
	s := newSolver(t)
	// A tiny translation-cache bound makes the property also exercise
	// eviction between queries.
	s.transLimit, s.constLimit = 8, 2
	rapid.Check(t, func(t *rapid.T) {
		f := rawGen(4).Draw(t, "f").build()
		want := bruteSat(f)
		got, err := s.Sat(f)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("Sat(%v) = %v, brute force %v", f, got, want)
		}
		r, err := s.Check(f)
		if err != nil {
			t.Fatal(err)
		}
		if (r == Sat) != want {
			t.Fatalf("Check(%v) = %v, brute force %v", f, r, want)
		}
	})
}

// TestSatBothMatchesBruteForce: SatBoth(a, b) is the satisfiability of
// a ∧ b, asked in either order and again (from its cache), with a small
// cache bound so that clearing is exercised too.
func TestSatBothMatchesBruteForce(t *testing.T) {
	s := goSolver(t)
	s.satLimit = 16
	hits := s.Stats().CacheHits
	rapid.Check(t, func(t *rapid.T) {
		a := rawGen(3).Draw(t, "a").build()
		b := rawGen(3).Draw(t, "b").build()
		want := bruteSat(And(a, b))
		for _, pair := range [][2]*Formula{{a, b}, {b, a}, {a, b}} {
			got, err := s.SatBoth(pair[0], pair[1])
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("SatBoth(%v, %v) = %v, brute force %v", pair[0], pair[1], got, want)
			}
		}
	})
	require.Greater(t, s.Stats().CacheHits, hits, "no pair was answered from the cache")
	require.LessOrEqual(t, len(s.pairs), s.satLimit)
}

// TestAllSATMatchesBruteForce compares the projected models with the set of
// projections of all satisfying interpretations.
func TestAllSATMatchesBruteForce(t *testing.T) {
	s := newSolver(t)
	rapid.Check(t, func(t *rapid.T) {
		f := rawGen(3).Draw(t, "f").build()
		var atoms []*Formula
		for _, a := range rapid.SliceOfN(rapid.SampledFrom([][2]Ref{
			{Null, 1}, {Null, 4}, {Null, 7}, {Null, 10}, {1, 4}, {1, 7}, {1, 10}, {4, 7}, {4, 10}, {7, 10},
		}), 0, 5).Draw(t, "atoms") {
			atoms = append(atoms, Eq(a[0], a[1]))
		}
		var want [][]Ref // assignments encoded as 0/1 refs to reuse sortedKeys
		for _, p := range universePartitions {
			if f.Eval(p.same) {
				m := make([]Ref, len(atoms))
				for i, a := range atoms {
					if a.Eval(p.same) {
						m[i] = 1
					}
				}
				want = append(want, m)
			}
		}
		want = sortedKeys(want)

		models, complete, err := s.AllSAT(f, atoms, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !complete {
			t.Fatalf("unlimited enumeration reported incomplete")
		}
		var got [][]Ref
		for _, m := range models {
			e := make([]Ref, len(m))
			for i, v := range m {
				if v {
					e[i] = 1
				}
			}
			got = append(got, e)
		}
		if n := len(got); len(sortedKeys(got)) != n {
			t.Fatalf("duplicate models: %v", models)
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("AllSAT(%v, %v) = %v, want %v", f, atoms, got, want)
		}

		// A limit returns a prefix-sized subset and says whether more exist.
		if len(want) > 0 {
			limit := rapid.IntRange(1, len(want)).Draw(t, "limit")
			lm, lc, err := s.AllSAT(f, atoms, limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(lm) != limit || lc != (limit == len(want)) {
				t.Fatalf("limit %d of %d: got %d models, complete=%v", limit, len(want), len(lm), lc)
			}
		}
	})
}

func TestAllSATExamples(t *testing.T) {
	s := newSolver(t)
	a, b := Eq(1, Null), Eq(4, Null)
	models, complete, err := s.AllSAT(Or(a, b), []*Formula{a, b}, 0)
	require.NoError(t, err)
	require.True(t, complete)
	require.Len(t, models, 3)

	models, complete, err = s.AllSAT(Eq(1, 4), nil, 0)
	require.NoError(t, err)
	require.True(t, complete)
	require.Equal(t, [][]bool{{}}, models)

	models, complete, err = s.AllSAT(And(a, Neq(1, Null)), []*Formula{a}, 0)
	require.NoError(t, err)
	require.True(t, complete)
	require.Len(t, models, 0)

	_, _, err = s.AllSAT(True(), []*Formula{Neq(1, 4)}, 0)
	require.True(t, err != nil, "non-atom accepted")

	// The enumeration is scoped: afterwards the solver is back at its base
	// level, without f or blocking clauses.
	ok, err := s.Sat(And(Neq(1, Null), Neq(4, Null)))
	require.NoError(t, err)
	require.True(t, ok)
}

func TestErrorsBecomeGoErrors(t *testing.T) {
	s := newSolver(t)
	// Popping at base level is a Z3 API error; the default handler would
	// exit the process.
	err := s.z.pop(false)
	var ze *Z3Error
	require.True(t, errors.As(err, &ze), err)
	// Z3_mk_and over non-Boolean terms is a sort error.
	c, err := s.constant(1)
	require.NoError(t, err)
	_, err = s.z.mk(lkAnd, []zast{c, c})
	require.True(t, errors.As(err, &ze), err)
	// The solver is still usable.
	ok, err := s.Sat(Neq(1, 4))
	require.NoError(t, err)
	require.True(t, ok)
}

func TestUnknownIsAnError(t *testing.T) {
	s := newSolver(t)
	// A resource limit of one makes Z3 give up on anything non-trivial.
	require.NoError(t, s.z.setUintParam("rlimit", 1))
	f := And(Or(Eq(1, 4), Eq(1, 7)), Or(Eq(4, 10), Neq(7, Null)), Neq(1, 10))
	ok, err := s.Sat(f)
	if err == nil {
		t.Skipf("Z3 answered %v within rlimit 1; cannot exercise unknown", ok)
	}
	require.True(t, errors.Is(err, ErrUnknown), err)
	require.Equal(t, int64(1), s.Stats().Unknowns)
	// Unknown is never cached: after lifting the limit the query is asked again.
	require.NoError(t, s.z.setUintParam("rlimit", 0))
	ok, err = s.Sat(f)
	require.NoError(t, err)
	require.True(t, ok)
}

func TestClose(t *testing.T) {
	s, err := NewSolver()
	require.NoError(t, err)
	_, err = s.Sat(Eq(1, 4))
	require.NoError(t, err)
	s.Close()
	s.Close() // idempotent
	_, err = s.Sat(Eq(1, 7))
	require.True(t, errors.Is(err, ErrClosed))
	_, err = s.Check(Eq(1, 7))
	require.True(t, errors.Is(err, ErrClosed))
	_, _, err = s.AllSAT(True(), nil, 0)
	require.True(t, errors.Is(err, ErrClosed))
	require.True(t, errors.Is(s.SetTimeout(0), ErrClosed))
	s.ResetCache()
	// Trivial formulas need no solver.
	ok, err := s.Sat(True())
	require.NoError(t, err)
	require.True(t, ok)
}

func TestSetTimeout(t *testing.T) {
	s := newSolver(t)
	require.NoError(t, s.SetTimeout(time.Second))
	ok, err := s.Sat(Neq(1, 4))
	require.NoError(t, err)
	require.True(t, ok)
	require.NoError(t, s.SetTimeout(0))
}

// TestSolverPerWorker runs one solver per goroutine over shared formulas,
// the intended deployment (run it with -race).
func TestSolverPerWorker(t *testing.T) {
	// Formulas over the brute-force universe, so the oracle stays cheap.
	rng := rand.New(rand.NewPCG(3, 4))
	lit := func() *Formula {
		f := Eq(universe[rng.IntN(len(universe))], universe[rng.IntN(len(universe))])
		if rng.IntN(2) == 0 {
			f = Not(f)
		}
		return f
	}
	var pool []*Formula
	for range 500 {
		pool = append(pool, And(lit(), lit(), Or(lit(), lit()), lit()))
	}
	want := make([]bool, len(pool))
	for i, f := range pool {
		want[i] = bruteSat(f)
	}
	worker := func(w int) error {
		s, err := NewSolver()
		if err != nil {
			return err
		}
		defer s.Close()
		for i := range pool {
			j := (i + 97*w) % len(pool)
			got, err := s.Sat(pool[j])
			if err != nil {
				return err
			}
			if got != want[j] {
				return fmt.Errorf("worker %d: Sat(%v) = %v, want %v", w, pool[j], got, want[j])
			}
		}
		return nil
	}
	errs := make(chan error, 4)
	for w := range 4 {
		go func() { errs <- worker(w) }()
	}
	for range 4 {
		require.NoError(t, <-errs)
	}
}

// TestSolverCleanupSafetyNet drops solvers without Close; the runtime
// cleanup must free their contexts without crashing.
func TestSolverCleanupSafetyNet(t *testing.T) {
	base := liveContexts.Load()
	for range 20 {
		s, err := NewSolver()
		require.NoError(t, err)
		s.SetGoDecide(false) // so that the question makes the context
		_, err = s.Sat(And(Neq(1, Null), Eq(4, 7)))
		require.NoError(t, err)
	}
	require.Equal(t, base+20, liveContexts.Load())
	deadline := time.Now().Add(10 * time.Second)
	for liveContexts.Load() > base && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	require.Equal(t, base, liveContexts.Load(), "cleanups did not free the contexts")

	// Close frees at once and disarms the cleanup (no double free).
	s, err := NewSolver()
	require.NoError(t, err)
	s.SetGoDecide(false)
	_, err = s.Sat(Eq(1, 4))
	require.NoError(t, err)
	require.Equal(t, base+1, liveContexts.Load())
	s.Close()
	require.Equal(t, base, liveContexts.Load())
	runtime.GC()
	runtime.GC()
	require.Equal(t, base, liveContexts.Load())
}

// TestContextMadeOnFirstZ3Question: a Solver makes its Z3 context when a
// question first reaches Z3, not before; what was set before (a
// parameter, assumptions, a bound context) holds for it; Close of a
// solver that never made one deletes nothing.
func TestContextMadeOnFirstZ3Question(t *testing.T) {
	base := liveContexts.Load()

	// Answered by the Go decider all: no context, ever.
	s, err := NewSolver()
	require.NoError(t, err)
	require.NoError(t, s.SetTimeout(time.Minute))
	s.SetContext(context.Background())
	require.NoError(t, s.Assume(Neq(1, 4)))
	ok, err := s.Sat(Eq(1, 7))
	require.NoError(t, err)
	require.True(t, ok)
	require.NoError(t, s.Release())
	ok, err = s.Sat(And(Eq(1, 4), Neq(1, 4)))
	require.NoError(t, err)
	require.False(t, ok)
	require.Equal(t, base, liveContexts.Load())
	require.Equal(t, int64(0), s.Stats().Queries)
	s.Close()
	s.Close()
	require.Equal(t, base, liveContexts.Load())
	_, err = s.Sat(Eq(1, 7))
	require.ErrorIs(t, err, ErrClosed)
	require.Equal(t, base, liveContexts.Load())

	// An assumption made before the context is told to Z3 at the first
	// question under it, and a parameter set before applies: an rlimit
	// of 1 makes Z3 answer unknown.
	s, err = NewSolver()
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Assume(Eq(1, 4)))
	require.NoError(t, s.z.setUintParam("rlimit", 1))
	require.Equal(t, base, liveContexts.Load())
	s.SetGoDecide(false)
	_, err = s.Sat(And(Or(Eq(1, 4), Eq(1, 7)), Or(Eq(4, 10), Neq(7, Null)), Neq(1, 10)))
	require.Equal(t, base+1, liveContexts.Load())
	if err != nil {
		require.ErrorIs(t, err, ErrUnknown)
	} else {
		t.Log("Z3 answered within rlimit 1; the parameter's effect is not observable here")
	}
	require.NoError(t, s.z.setUintParam("rlimit", 0))
	ok, err = s.Sat(Neq(4, 1))
	require.NoError(t, err)
	require.False(t, ok, "the assumption 1 = 4 was not in force")
	require.NoError(t, s.Release())
	ok, err = s.Sat(Neq(4, 1))
	require.NoError(t, err)
	require.True(t, ok)
}

// TestWatcherReachesContextMadeLater: a context bound before the Z3
// context exists still interrupts a check of it in flight.
func TestWatcherReachesContextMadeLater(t *testing.T) {
	s := newSolver(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.SetContext(ctx)
	require.Nil(t, s.z.ctx)
	time.AfterFunc(100*time.Millisecond, cancel)
	r, err := s.Check(pigeonhole(150))
	require.ErrorIs(t, err, ErrCanceled, "answer %v", r)
	require.Equal(t, int64(1), s.Stats().Queries, "the check did not reach Z3")
}
