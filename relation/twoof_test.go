package relation

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestTwoOfSaysTwoHold: under every assignment of classes to a few
// constants, twoOf(g) holds exactly when at least two guards of g do,
// for value sets of every size up to ten (both halves of the recursion,
// odd and even splits).
func TestTwoOfSaysTwoHold(t *testing.T) {
	refs := []smt.Ref{smt.Null, 1, 2, 3}
	atom := refAtom(refs)
	guard := rapid.Custom(func(t *rapid.T) *smt.Formula {
		var ors []*smt.Formula
		for range rapid.IntRange(1, 3).Draw(t, "pieces") {
			ors = append(ors, smt.And(rapid.SliceOfN(atom, 1, 3).Draw(t, "piece")...))
		}
		return smt.Or(ors...)
	})
	rapid.Check(t, func(t *rapid.T) {
		var g machine.GVS
		for i, f := range rapid.SliceOfN(guard, 0, 10).Draw(t, "guards") {
			g = append(g, machine.Entry{Guard: f, Loc: machine.Loc(i)})
		}
		two := twoOf(g)
		guardsHolding(g, refs, func(n int, class map[smt.Ref]int, same func(a, b smt.Ref) bool) {
			if two.Eval(same) != (n >= 2) {
				t.Fatalf("%d of %d guards hold under %v, twoOf says %v", n, len(g), class, two.Eval(same))
			}
		})
	})
}

// TestTwoOfMemoized: a value set met again gets the formula built the
// first time; another order of the same guards, or another guard, a
// formula of its own (the one twoOf builds, or False for a set
// exclusiveBySyntax shows exclusive).
func TestTwoOfMemoized(t *testing.T) {
	a, b, c := smt.Eq(1, 2), smt.Or(smt.Eq(2, 3), smt.Eq(1, smt.Null)), smt.Neq(3, smt.Null)
	gvs := func(fs ...*smt.Formula) machine.GVS {
		var g machine.GVS
		for i, f := range fs {
			g = append(g, machine.Entry{Guard: f, Loc: machine.Loc(i)})
		}
		return g
	}
	solver, err := smt.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer solver.Close()
	for _, g := range []machine.GVS{gvs(a, b, c), gvs(c, b, a), gvs(a, b), gvs(), gvs(a, smt.And(smt.Not(a), c), smt.And(smt.Not(a), smt.Not(c)))} {
		first := twoOfMemoized(g, nil, solver)
		want := twoOf(g)
		if exclusiveBySyntax(g, nil) {
			want = smt.False()
		}
		if first != want {
			t.Fatalf("memoized %v, want %v", first, want)
		}
		if again := twoOfMemoized(g, nil, solver); again != first {
			t.Fatalf("asked again: %v, first %v", again, first)
		}
	}
}

// refAtom draws an equality or a disequality of two of refs.
func refAtom(refs []smt.Ref) *rapid.Generator[*smt.Formula] {
	return rapid.Custom(func(t *rapid.T) *smt.Formula {
		a := rapid.SampledFrom(refs).Draw(t, "a")
		b := rapid.SampledFrom(refs).Draw(t, "b")
		if rapid.Bool().Draw(t, "neg") {
			return smt.Neq(a, b)
		}
		return smt.Eq(a, b)
	})
}

// guardsHolding calls f with the number of g's guards that hold under
// each map of refs to four classes (every one of them), and the map.
func guardsHolding(g machine.GVS, refs []smt.Ref, f func(n int, class map[smt.Ref]int, same func(a, b smt.Ref) bool)) {
	for code := range 1 << (2 * len(refs)) {
		class := map[smt.Ref]int{}
		for i, r := range refs {
			class[r] = code >> (2 * i) & 3
		}
		same := func(a, b smt.Ref) bool { return class[a] == class[b] }
		n := 0
		for _, e := range g {
			if e.Guard.Eval(same) {
				n++
			}
		}
		f(n, class, same)
	}
}
