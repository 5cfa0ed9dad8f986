package smt

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGroupsShareSymbols: conjuncts are grouped by the references and the
// input symbols they share, transitively, and a reference inside an ite's
// guard counts; the reference that names a symbol α(r, f) does not.
func TestGroupsShareSymbols(t *testing.T) {
	x, y, z := symX, symY, symZ // α(r1.f0), α(r4.f0), α(r1.f1)
	lx, ly, lz := Lt(x, Int(0)), Lt(y, Int(0)), Lt(z, Int(0))
	gx := Lt(Ite(Eq(7, 8), x, Int(5)), Int(0))
	gy := Lt(Ite(Eq(7, 8), Int(5), y), Int(0))
	for i, c := range []struct {
		fs   []*Formula
		want [][]*Formula
	}{
		// α(r1.f0) and α(r1.f1) are two symbols: r1 only names them.
		{[]*Formula{lx, lz, Neq(1, Null)}, [][]*Formula{{lx}, {lz}, {Neq(1, Null)}}},
		{[]*Formula{lx, Lt(x, y), ly}, [][]*Formula{{lx, Lt(x, y), ly}}},
		// No symbol in common, but the atom r7 = r8 of their guards.
		{[]*Formula{gx, gy}, [][]*Formula{{gx, gy}}},
		{[]*Formula{gx, Neq(8, Null), ly}, [][]*Formula{{gx, Neq(8, Null)}, {ly}}},
		// r_null is a constant like any other.
		{[]*Formula{Neq(1, Null), Neq(4, Null), Eq(7, 8)}, [][]*Formula{{Neq(1, Null), Neq(4, Null)}, {Eq(7, 8)}}},
	} {
		var want []*Formula
		for _, g := range c.want {
			want = append(want, And(g...))
		}
		require.ElementsMatch(t, want, groups(c.fs), "case %d", i)
	}
}

// TestSplitKeepsSharedQuestionsWhole: conjuncts that are each satisfiable
// but not together, through a shared symbol or a shared reference atom in
// their guards, are answered unsatisfiable, as is a question whose
// reference part decides the guards against its data; and splitting them
// apart would have answered sat.
func TestSplitKeepsSharedQuestionsWhole(t *testing.T) {
	s, err := NewSolver()
	require.NoError(t, err)
	defer s.Close()
	x, y := symX, symY
	// ite(r7 = r8, x, 5) < 0 needs r7 = r8; ite(r7 = r8, 5, y) < 0 needs
	// r7 ≠ r8. They share no input symbol.
	gx := Lt(Ite(Eq(7, 8), x, Int(5)), Int(0))
	gy := Lt(Ite(Eq(7, 8), Int(5), y), Int(0))
	for i, c := range []struct {
		f    *Formula
		want bool
	}{
		{And(Lt(x, y), Lt(y, x)), false},
		{And(Neq(1, Null), Lt(x, y), Lt(y, x)), false},
		{And(gx, gy), false},
		{And(Neq(7, Null), gx, gy), false},
		{And(Neq(7, Null), gx, Lt(Int(0), y)), true},
		// The reference part decides the guard: ite(r1 = r4, x, y) is x.
		{And(Eq(1, 4), Lt(Ite(Eq(1, 4), x, y), Int(0)), Lt(Int(0), x)), false},
		{And(Neq(1, 4), Lt(Ite(Eq(1, 4), x, y), Int(0)), Lt(Int(0), x)), true},
		// … through a class: r1 = r7, r7 = r4.
		{And(Eq(1, 7), Eq(7, 4), Lt(Ite(Eq(1, 4), x, y), Int(0)), Lt(Int(0), x)), false},
		// A reference part that is unsat by itself.
		{And(Eq(1, 7), Eq(7, 4), Neq(1, 4), Lt(Ite(Eq(1, 4), x, y), Int(0))), false},
	} {
		for _, part := range c.f.Kids() {
			ok, err := s.Sat(part)
			require.NoError(t, err)
			require.True(t, ok, "case %d: the conjunct %v alone is sat", i, part)
		}
		got, err := s.Sat(c.f)
		require.NoError(t, err)
		require.Equal(t, c.want, got, "case %d: %v", i, c.f)
		r, err := s.Check(c.f) // the whole question, asked of Z3
		require.NoError(t, err)
		require.Equal(t, c.want, r == Sat, "case %d: Z3 on %v", i, c.f)
	}
	require.Positive(t, s.Stats().Split)
}

// TestSplitUnknown: with every part that has data answering unknown, a
// question in parts is unknown (an error wrapping ErrUnknown, never
// cached) unless a part decides it without Z3: a reference group the Go
// decider refutes (unsat), or a reference case whose data folds to true
// (sat). Under fault injection nothing is split.
func TestSplitUnknown(t *testing.T) {
	s, err := NewSolver()
	require.NoError(t, err)
	defer s.Close()
	failed := 0
	partFault = func(p *Formula) error {
		if !p.HasData() {
			return nil
		}
		failed++
		return fmt.Errorf("%w: part fault", ErrUnknown)
	}
	defer func() { partFault = nil }()
	x, y, z := symX, symY, symZ
	for i, c := range []struct {
		f       *Formula
		unknown bool
		want    bool
	}{
		// Groups: the reference group is sat, the data group unknown.
		{And(Neq(1, Null), Lt(x, y)), true, false},
		// Groups: the reference group is unsat.
		{And(Eq(1, 4), Eq(4, Null), Neq(1, Null), Lt(x, y)), false, false},
		// Cases: both cases need Z3.
		{And(Neq(1, Null), Lt(Ite(Eq(1, 4), x, y), z)), true, false},
		// Cases: r1 ≠ r4 folds the data to 0 < 1.
		{And(Neq(1, Null), Lt(Ite(Eq(1, 4), x, Int(0)), Int(1))), false, true},
	} {
		for range 2 { // the second time from the cache, if cached
			before := failed
			got, err := s.Sat(c.f)
			if c.unknown {
				require.Error(t, err, "case %d", i)
				require.True(t, errors.Is(err, ErrUnknown), "case %d: %v", i, err)
				require.Greater(t, failed, before, "case %d: asked again, not cached", i)
				continue
			}
			require.NoError(t, err, "case %d", i)
			require.Equal(t, c.want, got, "case %d", i)
		}
	}

	split := s.Stats().Split
	require.NoError(t, s.SetFaults(Faults{Unknown: 1, Seed: 1}))
	_, err = s.Sat(And(Neq(1, Null), Lt(Ite(Eq(1, 4), x, Int(0)), Int(2))))
	require.ErrorIs(t, err, ErrUnknown)
	require.Equal(t, split, s.Stats().Split, "split under fault injection")
}

// TestSplitCachesBounded: the answer and case caches stay within their
// bound over many distinct questions.
func TestSplitCachesBounded(t *testing.T) {
	s, err := NewSolver()
	require.NoError(t, err)
	defer s.Close()
	s.satLimit = 16
	x := symX
	for i := range 200 {
		f := And(Neq(1, Null), Lt(Ite(Eq(1, 4), x, Int(int64(i))), Int(int64(i%7))))
		_, err := s.Sat(f)
		require.NoError(t, err)
		require.LessOrEqual(t, len(s.sat), 16)
		require.LessOrEqual(t, len(s.cases), 4)
		require.LessOrEqual(t, len(s.atoms), 4)
	}
}

// TestProjection: under an outermost assumption with data, questions
// without data are answered by the Go decider through the assumption's
// reference projection, as Z3 answers them under the assumption itself;
// a second assumption with data makes the scope Z3's again.
func TestProjection(t *testing.T) {
	s, err := NewSolver()
	require.NoError(t, err)
	defer s.Close()
	s.SetCrossCheck(true) // every Go answer is asked of Z3 too
	x, y := symX, symY
	// ite(r1 = r4, x, y) < 0 ∧ 0 < x: only r1 ≠ r4 leaves room.
	a := And(Neq(1, Null), Lt(Ite(Eq(1, 4), x, y), Int(0)), Lt(Int(0), x))
	require.NoError(t, s.Assume(a))
	require.EqualValues(t, 1, s.Stats().Projected)
	for _, c := range []struct {
		g    *Formula
		want bool
	}{
		{Eq(1, 4), false},
		{Neq(1, 4), true},
		{Eq(1, Null), false},
		{Or(Eq(1, 4), Eq(4, Null)), true},
	} {
		decided := s.Stats().Decided
		r, err := s.Check(c.g)
		require.NoError(t, err)
		require.Equal(t, c.want, r == Sat, "%v", c.g)
		require.Equal(t, decided+1, s.Stats().Decided, "%v: answered in Go", c.g)
	}
	// A question with data goes to Z3 under the assumption itself.
	r, err := s.Check(Lt(y, x))
	require.NoError(t, err)
	require.Equal(t, Sat, r)
	r, err = s.Check(Lt(x, Int(0)))
	require.NoError(t, err)
	require.Equal(t, Unsat, r)

	// A second assumption with data: not projected; a question without
	// data that the levels below refute is answered in Go (relaxed,
	// TestRelaxedOpaque), any other is Z3's.
	require.NoError(t, s.Assume(Lt(y, Int(-5))))
	require.EqualValues(t, 1, s.Stats().Projected)
	queries := s.Stats().Queries
	r, err = s.Check(Eq(1, 4))
	require.NoError(t, err)
	require.Equal(t, Unsat, r)
	require.EqualValues(t, 1, s.Stats().Relaxed)
	r, err = s.Check(Neq(1, 4))
	require.NoError(t, err)
	require.Equal(t, Sat, r)
	require.Greater(t, s.Stats().Queries, queries)
	require.NoError(t, s.Release())
	require.NoError(t, s.Release())
	n, mism := s.CrossChecked()
	require.Empty(t, mism)
	require.Positive(t, n)
}

// TestProjectionAsksInTheEmptyContext: projecting an assumption asks its
// data groups apart and remembers their answers as answers in the empty
// context, so they must not be asked under the assumption itself. Here
// the group x < 0 is satisfiable but f, whose other group is not, is
// unsatisfiable: asked under f, x < 0 would be remembered unsatisfiable,
// and a later scope assuming it would make even true unsatisfiable (found
// by TestDataIncrementalBruteForce).
func TestProjectionAsksInTheEmptyContext(t *testing.T) {
	s, err := NewSolver()
	require.NoError(t, err)
	defer s.Close()
	s.SetCrossCheck(true)
	x, y, z := symX, symY, symZ
	lx := Lt(x, Int(0))
	f := And(lx, Lt(y, z), Lt(z, y))
	require.Len(t, groups(f.kids), 2)
	require.NoError(t, s.Assume(f))
	r, err := s.Check(True())
	require.NoError(t, err)
	require.Equal(t, Unsat, r)
	require.NoError(t, s.Release())

	v, err := s.Sat(lx)
	require.NoError(t, err)
	require.True(t, v, "x < 0 alone")
	require.NoError(t, s.Assume(And(lx, Neq(1, Null))))
	r, err = s.Check(True())
	require.NoError(t, err)
	require.Equal(t, Sat, r, "true under x < 0 ∧ r1 ≠ null")
	require.NoError(t, s.Release())
	_, mism := s.CrossChecked()
	require.Empty(t, mism)
}

// TestRelaxedOpaque compares the questions without data under an opaque
// scope (an assumption with data and no projection) with relaxOpaque on
// and off: the same answers, and with it on, the ones the assumptions'
// conjuncts without data refute are answered in Go (counted in Relaxed),
// at the opaque scope itself and at the scopes above it, while a sat one
// and one that only the data conjuncts refute still go to Z3.
func TestRelaxedOpaque(t *testing.T) {
	x, y := symX, symY
	// The first scope is opaque: not the outermost one (a scope without
	// data below it), so it is not projected.
	outer := Neq(1, Null)
	opaque := And(Neq(1, 2), Lt(Ite(Eq(2, 3), x, y), Int(0)), Lt(Int(0), x), Eq(3, 4))
	above := Or(Eq(1, 3), Eq(1, 5))
	questions := []*Formula{
		Eq(1, 2),                  // the opaque scope's reference conjunct refutes it
		Eq(1, Null),               // the outer scope refutes it
		And(Neq(1, 3), Neq(1, 5)), // sat, and above refutes it
		Neq(1, 3),                 // sat
		Eq(2, 3),                  // only the data refutes it: ite(…) = x > 0
		Eq(2, 4),                  // likewise, through r3 = r4
	}
	type run struct {
		answers []Result
		relaxed int64
		queries int64
	}
	ask := func(on bool) run {
		defer func(v bool) { relaxOpaque = v }(relaxOpaque)
		relaxOpaque = on
		s, err := NewSolver()
		require.NoError(t, err)
		defer s.Close()
		// No cross-check: Z3's questions are counted (off, Z3 answers
		// every question; TestDataIncrementalBruteForce cross-checks).
		require.NoError(t, s.Assume(outer))
		require.NoError(t, s.Assume(opaque))
		require.EqualValues(t, 0, s.Stats().Projected)
		var out run
		for _, scope := range []bool{false, true} {
			if scope {
				require.NoError(t, s.AssumeAll([]*Formula{above, Neq(5, Null)}))
			}
			for _, q := range questions {
				r, err := s.Check(q)
				require.NoError(t, err, "%v", q)
				out.answers = append(out.answers, r)
			}
		}
		for s.Assumptions() > 0 {
			require.NoError(t, s.Release())
		}
		out.relaxed, out.queries = s.Stats().Relaxed, s.Stats().Queries
		return out
	}
	on, off := ask(true), ask(false)
	require.Equal(t, off.answers, on.answers)
	require.Equal(t, []Result{Unsat, Unsat, Sat, Sat, Unsat, Unsat,
		Unsat, Unsat, Unsat, Sat, Unsat, Unsat}, on.answers)
	require.EqualValues(t, 0, off.relaxed)
	require.GreaterOrEqual(t, on.relaxed, int64(5))
	require.Less(t, on.queries, off.queries)
}
