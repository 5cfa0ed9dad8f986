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
// formula of its own (the one twoOf builds, or the pairs exclusivePairs
// leaves: False for a set it shows exclusive).
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
		if pairs, ok := exclusivePairs(g, nil); ok {
			var both []*smt.Formula
			for _, p := range pairs {
				both = append(both, smt.And(g[p[0]].Guard, g[p[1]].Guard))
			}
			want = smt.Or(both...)
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

// TestTwoOfPairsLeft: the formula twoOfMemoized asks holds, under every
// equality of a few constants (every map of them to four classes),
// exactly where two guards of the set hold, as twoOf does, and the solver
// answers it as it answers twoOf (pairsLeft off: the set asked whole).
// The sets are regions split by conditions (exclusive by syntax) with a
// guard drawn at random or made of equalities that exclude a region only
// through transitivity, so that a few pairs are left; the generator must
// leave some and show some, or the test would test nothing.
func TestTwoOfPairsLeft(t *testing.T) {
	refs := []smt.Ref{smt.Null, 1, 2, 3}
	atom := refAtom(refs)
	solver, err := smt.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer solver.Close()
	left, shown := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		regions := []*smt.Formula{smt.True()}
		for range rapid.IntRange(1, 3).Draw(t, "splits") {
			c := atom.Draw(t, "c")
			var next []*smt.Formula
			for _, r := range regions {
				next = append(next, smt.And(r, c), smt.And(r, smt.Not(c)))
			}
			regions = next
		}
		var g machine.GVS
		for _, r := range regions {
			g = append(g, machine.Entry{Guard: r, Loc: machine.Loc(len(g))})
		}
		switch rapid.IntRange(0, 2).Draw(t, "extra") {
		case 0:
			g = append(g, machine.Entry{Guard: smt.And(rapid.SliceOfN(atom, 1, 2).Draw(t, "random")...), Loc: machine.Loc(len(g))})
		case 1:
			// 1 = 2 ∧ 2 = 3 excludes every region with 1 ≠ 3, but not
			// by syntax.
			g = append(g, machine.Entry{Guard: smt.And(smt.Eq(1, 2), smt.Eq(2, 3)), Loc: machine.Loc(len(g))})
		}
		pairs, ok := exclusivePairs(g, nil)
		if ok && len(pairs) > 0 {
			left++
		} else if ok {
			shown++
		}
		asked := twoOfMemoized(g, nil, solver)
		two := twoOf(g)
		guardsHolding(g, refs, func(n int, class map[smt.Ref]int, same func(a, b smt.Ref) bool) {
			if asked.Eval(same) != (n >= 2) {
				t.Fatalf("%d guards hold under %v, the formula asked says %v: %v", n, class, asked.Eval(same), g)
			}
		})
		want, err := solver.Sat(two)
		if err != nil {
			t.Fatal(err)
		}
		got, err := solver.Sat(asked)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("asked %v, sat=%v; twoOf sat=%v: %v", asked, got, want, g)
		}
	})
	t.Logf("%d sets with pairs left, %d shown exclusive", left, shown)
	if left == 0 || shown == 0 {
		t.Fatalf("%d with pairs left, %d shown: the generator does not exercise both", left, shown)
	}
	// With it off the set is asked whole.
	pairsLeft = false
	defer func() { pairsLeft = true }()
	off, err := smt.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close()
	g := machine.GVS{{Guard: smt.Eq(1, 2), Loc: 0}, {Guard: smt.Neq(1, 2), Loc: 1}, {Guard: smt.And(smt.Eq(1, 3), smt.Eq(3, 2)), Loc: 2}}
	if got := twoOfMemoized(g, nil, off); got != twoOf(g) {
		t.Fatalf("pairsLeft off: asked %v, want twoOf %v", got, twoOf(g))
	}
}
