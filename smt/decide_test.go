package smt

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// The Go decision procedure (decide.go) must give Z3's answer on every
// query it answers, with and without assumptions, and hand to Z3 every
// query it cannot finish.

// wideUniverse has more constants than universe, so that formulas rarely
// mention all of them and classes stay open.
var wideUniverse = []Ref{Null, 1, 4, 7, 10, 13, 16, 19}

func wideGen(depth int) *rapid.Generator[*Formula] {
	ref := rapid.SampledFrom(wideUniverse)
	return rapid.Custom(func(t *rapid.T) *Formula { return drawRaw(t, ref, depth).build() })
}

func goSolver(t testing.TB) *Solver {
	t.Helper()
	s, err := NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	s.SetGoDecide(true)
	t.Cleanup(s.Close)
	return s
}

func TestDecideMatchesZ3AndBruteForce(t *testing.T) {
	g, z := goSolver(t), newSolver(t)
	rapid.Check(t, func(t *rapid.T) {
		var f *Formula
		if rapid.Bool().Draw(t, "wide") {
			f = wideGen(5).Draw(t, "f")
		} else {
			f = rawGen(5).Draw(t, "f").build()
		}
		before := g.Stats()
		gr, err := g.Check(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := z.Check(f)
		if err != nil {
			t.Fatal(err)
		}
		if gr != zr {
			t.Fatalf("Go %v, Z3 %v on %v", gr, zr, f)
		}
		if f.Op() != OpTrue && f.Op() != OpFalse {
			after := g.Stats()
			if after.Decided != before.Decided+1 || after.Queries != before.Queries {
				t.Fatalf("a small formula was not decided in Go: %+v → %+v on %v (work %d)", before, after, f, g.dec.work)
			}
		}
		if refsWithin(f, universe) && (gr == Sat) != bruteSat(f) {
			t.Fatalf("Go %v, brute force %v on %v", gr, bruteSat(f), f)
		}
	})
}

func refsWithin(f *Formula, u []Ref) bool {
	for _, r := range f.Refs() {
		found := false
		for _, x := range u {
			found = found || x == r
		}
		if !found {
			return false
		}
	}
	return true
}

// TestDecideIncrementalMatchesZ3 runs one random sequence of Assume,
// Release and Check on a Go-deciding solver and a Z3-only one.
func TestDecideIncrementalMatchesZ3(t *testing.T) {
	g, z := goSolver(t), newSolver(t)
	rapid.Check(t, func(t *rapid.T) {
		defer func() {
			for g.Assumptions() > 0 {
				_ = g.Release()
			}
			for z.Assumptions() > 0 {
				_ = z.Release()
			}
		}()
		// A small budget now and then sends some queries to Z3 in the
		// middle of a sequence, which exercises the lazy Z3 scopes.
		if rapid.Bool().Draw(t, "smallBudget") {
			old := decideBudget
			decideBudget = rapid.IntRange(1, 40).Draw(t, "budget")
			defer func() { decideBudget = old }()
		}
		n := rapid.IntRange(1, 30).Draw(t, "ops")
		for i := range n {
			switch op := rapid.IntRange(0, 3).Draw(t, "op"); {
			case op == 0 && rapid.Bool().Draw(t, "all"):
				// Several formulas as one scope (AssumeAll); Z3 gets
				// their conjunction.
				var fs []*Formula
				for range rapid.IntRange(1, 3).Draw(t, "n") {
					fs = append(fs, wideGen(2).Draw(t, "assumeAll"))
				}
				if err := g.AssumeAll(fs); err != nil {
					t.Fatal(err)
				}
				if err := z.AssumeAll(fs); err != nil {
					t.Fatal(err)
				}
			case op == 0:
				f := wideGen(3).Draw(t, "assume")
				if err := g.Assume(f); err != nil {
					t.Fatal(err)
				}
				if err := z.Assume(f); err != nil {
					t.Fatal(err)
				}
			case op == 1 && g.Assumptions() > 0:
				if err := g.Release(); err != nil {
					t.Fatal(err)
				}
				if err := z.Release(); err != nil {
					t.Fatal(err)
				}
			default:
				f := wideGen(3).Draw(t, "query")
				gr, err := g.Sat(f)
				if err != nil {
					t.Fatal(err)
				}
				zr, err := z.Sat(f)
				if err != nil {
					t.Fatal(err)
				}
				if gr != zr {
					t.Fatalf("op %d, %d assumptions: Go %v, Z3 %v on %v", i, g.Assumptions(), gr, zr, f)
				}
			}
		}
	})
	// Questions under assumptions split on atoms (splitAtom): the
	// comparison must have gone through it.
	t.Logf("splits on an atom: %d", g.dec.atomSplits)
	if g.dec.atomSplits == 0 {
		t.Fatal("no search under assumptions split on an atom")
	}
}

// TestDecideBudgetFallsBackToZ3: with no budget every query goes to Z3,
// assumptions included, and the answers stay right.
func TestDecideBudgetFallsBackToZ3(t *testing.T) {
	old := decideBudget
	decideBudget = 0
	defer func() { decideBudget = old }()
	s := goSolver(t)
	f := Or(Eq(1, 4), Eq(4, 7))
	if err := s.Assume(Neq(1, 4)); err != nil {
		t.Fatal(err)
	}
	if err := s.Assume(Neq(4, 7)); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Sat(f); err != nil || ok {
		t.Fatalf("Sat = %v, %v under r1 ≠ r4 ∧ r4 ≠ r7, want false", ok, err)
	}
	if err := s.Release(); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Sat(f); err != nil || !ok {
		t.Fatalf("Sat = %v, %v under r1 ≠ r4, want true", ok, err)
	}
	st := s.Stats()
	if st.Decided != 0 || st.Queries != 2 {
		t.Fatalf("stats %+v, want 2 Z3 queries and nothing decided in Go", st)
	}
}

// TestDecideCrossCheckCatchesDisagreement: the cross-check mode used on
// the generated stream does report a wrong Go answer.
func TestDecideCrossCheckCatchesDisagreement(t *testing.T) {
	s := goSolver(t)
	s.SetCrossCheck(true)
	f := And(Eq(1, 4), Neq(4, Null))
	if r, err := s.Check(f); err != nil || r != Sat {
		t.Fatalf("Check = %v, %v", r, err)
	}
	decideFault = func(r Result) Result { return 1 - r }
	defer func() { decideFault = nil }()
	if _, err := s.Check(f); err == nil {
		t.Fatal("a flipped Go answer passed the cross-check")
	}
}

func BenchmarkDecide(b *testing.B) {
	pool := formulaPool(4096)
	for _, goOn := range []bool{true, false} {
		b.Run(fmt.Sprintf("go=%v", goOn), func(b *testing.B) {
			s, err := NewSolver()
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			s.SetGoDecide(goOn)
			for i := 0; i < b.N; i++ {
				if _, err := s.Check(pool[i%len(pool)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDecideManyConstants: with more than a thousand constants the
// separation matrix grows several times while formulas are asserted; the
// answers stay Z3's.
func TestDecideManyConstants(t *testing.T) {
	g, z := goSolver(t), newSolver(t)
	n := Ref(1200)
	var chain []*Formula
	for r := Ref(1); r < n; r++ {
		chain = append(chain, Eq(r, r+1))
	}
	apart := And(Neq(1, Null), Neq(n, 2000+n))
	for _, f := range []*Formula{
		And(And(chain...), apart, Or(Neq(1, n), Eq(Null, 2000+n))),               // sat: null = r2000+n
		And(And(chain...), apart, Or(Neq(1, n), Eq(Null, 3000+n))),               // sat
		And(And(chain...), apart, Or(Eq(1, Null), Eq(n, 2000+n)), Eq(5, 3000+n)), // unsat
	} {
		gr, err := g.Check(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := z.Check(f)
		if err != nil {
			t.Fatal(err)
		}
		if gr != zr {
			t.Fatalf("Go %v, Z3 %v", gr, zr)
		}
	}
	if g.Stats().Decided != 3 {
		t.Fatalf("stats %+v: want 3 Go decisions", g.Stats())
	}
}
