package smt

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

func TestBell(t *testing.T) {
	// Sanity check of the brute-force oracle itself.
	require.Len(t, allPartitions(universe), 52)
	require.Len(t, allPartitions([]Ref{Null, 1, 4}), 5)
}

func TestConstructorsBasic(t *testing.T) {
	require.Same(t, True(), Eq(4, 4))
	require.Same(t, Eq(4, 1), Eq(1, 4))
	require.Same(t, Eq(Null, 4), Eq(4, Null))
	a, b := Eq(7, 1).Atom()
	require.Equal(t, [2]Ref{1, 7}, [2]Ref{a, b})
	a, b = Eq(7, Null).Atom()
	require.Equal(t, [2]Ref{Null, 7}, [2]Ref{a, b})

	require.Same(t, False(), Not(True()))
	require.Same(t, True(), Not(False()))
	require.Same(t, Eq(1, 4), Not(Neq(1, 4)))
	require.Same(t, False(), Neq(4, 4))

	require.Same(t, True(), And())
	require.Same(t, False(), Or())
	x, y, z := Eq(1, 4), Neq(4, Null), Eq(7, 10)
	require.Same(t, x, And(x))
	require.Same(t, x, And(x, True(), x))
	require.Same(t, False(), And(x, False()))
	require.Same(t, True(), Or(x, True()))
	require.Same(t, And(x, y), And(y, x))
	require.Same(t, And(x, y, z), And(And(z, x), y))
	require.Same(t, Or(x, y, z), Or(z, Or(y, x)))
	require.Same(t, False(), And(x, y, Not(x)))
	require.Same(t, True(), Or(Not(y), x, y))
	require.Same(t, False(), And(And(x, y), Not(And(y, x))))
	require.Same(t, Or(Not(x), y), Implies(x, y))
	require.Same(t, True(), Implies(False(), x))
	require.Same(t, Eq(Null, 1), Implies(True(), Eq(1, Null)))
	require.NotSame(t, And(x, y), Or(x, y))

	k := And(z, x, y).Kids()
	require.Len(t, k, 3)
	require.True(t, k[0].ID() < k[1].ID() && k[1].ID() < k[2].ID())
	require.Equal(t, []Ref{Null, 1, 4, 7, 10}, And(x, y, z).Refs())
	require.Equal(t, []Ref{}, True().Refs())

	require.PanicsWithValue(t, "smt: r_un in an equality atom", func() { Eq(Un, 1) })
}

func TestString(t *testing.T) {
	cases := map[string]*Formula{
		"true":                   True(),
		"false":                  False(),
		"r4 = null":              Eq(Null, 4),
		"r4 ≠ r7":                Neq(7, 4),
		"r1 ≠ null":              Neq(1, Null),
		"(r1 = r4 ∨ r7 ≠ null)":  Or(Eq(1, 4), Neq(7, Null)),
		"¬(r1 = r4 ∧ r7 = null)": Not(And(Eq(1, 4), Eq(7, Null))),
		"((r1 = r4 ∨ r7 = null) ∧ r10 = null)": And(Or(Eq(1, 4), Eq(7, Null)), Eq(10, Null)),
	}
	for want, f := range cases {
		require.Equal(t, want, f.String())
	}
}

// checkInvariants verifies the structural normal form the constructors
// promise, recursively.
func checkInvariants(t *rapid.T, f *Formula) {
	switch f.Op() {
	case OpTrue, OpFalse:
		if len(f.Kids()) != 0 {
			t.Fatalf("constant with kids: %v", f)
		}
	case OpEq:
		a, b := f.Atom()
		if !(a < b) || a == Un || b == Un {
			t.Fatalf("bad atom %v", f)
		}
	case OpNot:
		k := f.Kids()[0]
		if k.Op() == OpNot || k.IsTrue() || k.IsFalse() {
			t.Fatalf("unsimplified negation %v", f)
		}
	case OpAnd, OpOr:
		ks := f.Kids()
		if len(ks) < 2 {
			t.Fatalf("n-ary node with %d kids: %v", len(ks), f)
		}
		for i, k := range ks {
			if k.Op() == f.Op() || k.IsTrue() || k.IsFalse() {
				t.Fatalf("unflattened/unsimplified kid %v in %v", k, f)
			}
			if i > 0 && ks[i-1].ID() >= k.ID() {
				t.Fatalf("kids not strictly sorted by ID in %v", f)
			}
			if slices.Contains(ks, Not(k)) {
				t.Fatalf("complementary pair in %v", f)
			}
		}
	}
	var refs []Ref
	for _, k := range f.Kids() {
		checkInvariants(t, k)
		refs = append(refs, k.Refs()...)
	}
	if f.Op() == OpEq {
		a, b := f.Atom()
		refs = append(refs, a, b)
	}
	slices.Sort(refs)
	refs = slices.Compact(refs)
	if !slices.Equal(refs, f.Refs()) && !(len(refs) == 0 && len(f.Refs()) == 0) {
		t.Fatalf("Refs() = %v, want %v for %v", f.Refs(), refs, f)
	}
}

// TestSimplificationSound: the constructed (simplified) formula and the raw
// tree agree under every interpretation of the universe, the result is in
// normal form, and building the same tree twice gives the same pointer.
func TestSimplificationSound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rawGen(4).Draw(t, "f")
		f := r.build()
		for _, p := range universePartitions {
			if got, want := f.Eval(p.same), r.eval(p.same); got != want {
				t.Fatalf("%v: Eval=%v, raw=%v under %v", f, got, want, p)
			}
		}
		checkInvariants(t, f)
		if g := r.build(); g != f {
			t.Fatalf("rebuilding gave a different pointer: %v vs %v", f, g)
		}
		// The simplified formula mentions no ref the raw tree does not.
		mentioned := map[Ref]bool{}
		r.refs(mentioned)
		for _, x := range f.Refs() {
			if !mentioned[x] {
				t.Fatalf("%v mentions %v, not in the input", f, x)
			}
		}
	})
}

// TestAlgebraicLaws checks the identities the constructors guarantee as
// pointer equalities, on random operands.
func TestAlgebraicLaws(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rawGen(3)
		x, y, z := g.Draw(t, "x").build(), g.Draw(t, "y").build(), g.Draw(t, "z").build()
		eq := func(name string, a, b *Formula) {
			if a != b {
				t.Fatalf("%s: %v != %v", name, a, b)
			}
		}
		eq("not not", Not(Not(x)), x)
		eq("and comm", And(x, y), And(y, x))
		eq("or comm", Or(x, y), Or(y, x))
		eq("and assoc", And(x, And(y, z)), And(And(x, y), z))
		eq("or assoc", Or(x, Or(y, z)), Or(Or(x, y), z))
		eq("and idem", And(x, x), x)
		eq("or idem", Or(x, x), x)
		eq("and compl", And(x, Not(x)), False())
		eq("or compl", Or(x, Not(x)), True())
		eq("implies", Implies(x, y), Or(Not(x), y))
		if x.ID() == 0 {
			t.Fatalf("formula without ID: %v", x)
		}
	})
}

func TestConcurrentConstruction(t *testing.T) {
	// Several goroutines build the same formulas; hash-consing must hand
	// every one of them the same pointers.
	const workers = 8
	build := func() []*Formula {
		var out []*Formula
		for a := Ref(-1); a < 30; a++ {
			for b := Ref(-1); b < 30; b++ {
				e := Eq(a, b)
				out = append(out, e, Not(e), And(e, Neq(a, 100+b)), Or(Eq(a, 200), e))
			}
		}
		return out
	}
	results := make([][]*Formula, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { results[w] = build() })
	}
	wg.Wait()
	for w := 1; w < workers; w++ {
		require.Equal(t, len(results[0]), len(results[w]))
		for i := range results[0] {
			if results[0][i] != results[w][i] {
				t.Fatalf("worker %d got a different pointer for %v", w, results[0][i])
			}
		}
	}
}

// TestInternTableShrinks: formulas nobody references are collected and
// their intern entries removed, so the table does not grow without bound.
func TestInternTableShrinks(t *testing.T) {
	before := InternedCount()
	func() {
		var keep []*Formula
		for i := range 20000 {
			keep = append(keep, And(Eq(Ref(1000000+i), Null), Neq(Ref(2000000+i), 1)))
		}
		runtime.KeepAlive(keep)
	}()
	peak := InternedCount()
	require.GreaterOrEqual(t, peak, before+20000)
	deadline := time.Now().Add(10 * time.Second)
	for InternedCount() > before+1000 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	require.LessOrEqual(t, InternedCount(), before+1000, "peak %d", peak)

	// A formula rebuilt after collection is a fresh, working formula.
	f := And(Eq(1000000, Null), Neq(2000000, 1))
	require.Same(t, f, And(Neq(1, 2000000), Eq(Null, 1000000)))
	var kids []string
	for _, k := range f.Kids() {
		kids = append(kids, k.String())
	}
	require.ElementsMatch(t, []string{"r1000000 = null", "r1 ≠ r2000000"}, kids)
}

// TestNaryPairMemo: a conjunction or disjunction of two operands is the
// same pointer whether naryPair's memo answers it or the constructors
// build it (so the memo changes no formula, ID or answer), and concurrent
// callers colliding in one slot of the table still get hash-consed results.
func TestNaryPairMemo(t *testing.T) {
	a, b := Or(Eq(1, 4), Eq(7, Null)), And(Neq(1, 7), Eq(4, 10))
	for _, op := range []Op{OpAnd, OpOr} {
		first := naryPair(op, a, b)
		require.Same(t, first, build(op, []*Formula{a, b}))
		require.Same(t, first, naryPair(op, b, a))
		require.Same(t, first, naryPair(op, a, b))
	}
	var wg sync.WaitGroup
	results := make([][]*Formula, 4)
	for w := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				results[w] = append(results[w], And(Eq(Ref(3*i+1), Null), Neq(Ref(3*i+4), Ref(3*i+7))))
			}
		}()
	}
	wg.Wait()
	for w := 1; w < len(results); w++ {
		for i := range results[w] {
			require.Same(t, results[0][i], results[w][i])
		}
	}
}

// TestConjunctsWithin: a's conjuncts within b's, with a and b each a
// conjunction, a single formula or True.
func TestConjunctsWithin(t *testing.T) {
	a, c, d := Eq(4, Null), Neq(7, Null), Eq(4, 10)
	for _, tc := range []struct {
		x, y *Formula
		want bool
	}{
		{True(), a, true},
		{a, a, true},
		{a, And(a, c), true},
		{c, And(a, c, d), true},
		{And(a, d), And(a, c, d), true},
		{And(a, c, d), And(a, d), false},
		{And(a, c), a, false},
		{a, c, false},
		{a, True(), false},
		{And(a, c), And(a, d), false},
		{d, And(a, c), false},
	} {
		if got := ConjunctsWithin(tc.x, tc.y); got != tc.want {
			t.Errorf("ConjunctsWithin(%v, %v) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}
