package relation

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestExclusiveBySyntaxSound: whenever exclusiveBySyntax says that no two
// guards of a value set hold together, none do under any equality of a
// few constants (every map of them to four classes), and the solver finds
// twoOf unsatisfiable. The value sets are made as the View makes its
// guards: a region split by a formula c into c ∧ G and ¬c ∧ G, again and
// again (c an atom, a conjunction or a disjunction, so that ¬c is the
// negated conjunction of canon(Y, Y′)), regions joined into guards as
// Ors, and, in some sets, a guard drawn at random or a region narrowed by
// an atom, which may overlap the others. The test must show some sets and fail to show others, or it
// would test nothing.
func TestExclusiveBySyntaxSound(t *testing.T) {
	refs := []smt.Ref{smt.Null, 1, 2, 3}
	atom := refAtom(refs)
	cond := rapid.Custom(func(t *rapid.T) *smt.Formula {
		switch rapid.IntRange(0, 2).Draw(t, "cond") {
		case 0:
			return atom.Draw(t, "atom")
		case 1:
			return smt.And(rapid.SliceOfN(atom, 2, 3).Draw(t, "and")...)
		}
		return smt.Or(rapid.SliceOfN(atom, 2, 3).Draw(t, "or")...)
	})
	var regions func(t *rapid.T, ctx []*smt.Formula, depth int) []*smt.Formula
	regions = func(t *rapid.T, ctx []*smt.Formula, depth int) []*smt.Formula {
		if depth == 0 || depth < 3 && !rapid.Bool().Draw(t, "split") {
			if rapid.Bool().Draw(t, "extra") {
				ctx = append(ctx, atom.Draw(t, "extra atom"))
			}
			return []*smt.Formula{smt.And(ctx...)}
		}
		c := cond.Draw(t, "c")
		in := regions(t, append(ctx[:len(ctx):len(ctx)], c), depth-1)
		return append(in, regions(t, append(ctx[:len(ctx):len(ctx)], smt.Not(c)), depth-1)...)
	}
	sol, err := smt.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	shown, notShown := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		all := regions(t, nil, 5)
		var g machine.GVS
		for rs := all; len(rs) > 0; {
			n := rapid.IntRange(1, min(3, len(rs))).Draw(t, "join")
			g = append(g, machine.Entry{Guard: smt.Or(rs[:n]...), Loc: machine.Loc(len(g))})
			rs = rs[n:]
		}
		switch rapid.IntRange(0, 3).Draw(t, "overlap") {
		case 0:
			g = append(g, machine.Entry{Guard: cond.Draw(t, "random guard"), Loc: machine.Loc(len(g))})
		case 1:
			// A region again, narrowed: it overlaps its guard unless
			// the region or the narrowing is unsatisfiable.
			r := rapid.SampledFrom(all).Draw(t, "region")
			g = append(g, machine.Entry{Guard: smt.And(r, atom.Draw(t, "narrowing")), Loc: machine.Loc(len(g))})
		}
		if !exclusiveBySyntax(g, nil) {
			notShown++
			return
		}
		shown++
		guardsHolding(g, refs, func(n int, class map[smt.Ref]int, _ func(a, b smt.Ref) bool) {
			if n >= 2 {
				t.Fatalf("shown exclusive, but %d guards hold under %v: %v", n, class, g)
			}
		})
		if sat, err := sol.Sat(twoOf(g)); err != nil || sat {
			t.Fatalf("shown exclusive, but the solver says sat=%v err=%v: %v", sat, err, g)
		}
	})
	t.Logf("%d value sets shown exclusive, %d not shown", shown, notShown)
	if shown == 0 || notShown == 0 {
		t.Fatalf("%d shown, %d not shown: the generator does not exercise both answers", shown, notShown)
	}
}

// TestExclusiveBySyntaxCanon: the View's canonicalization of one symbol
// over three candidates (engine/view/symbolic.go) is shown exclusive,
// with the guards split into pieces by an Or conjunct, and a guard that
// overlaps one of them is not.
func TestExclusiveBySyntaxCanon(t *testing.T) {
	y, m1, m2 := smt.Ref(4), smt.Neq(5, smt.Null), smt.Neq(6, smt.Null)
	g := smt.Or(smt.Eq(y, 7), smt.And(smt.Eq(y, 8), smt.Neq(7, 8)))
	canon := []*smt.Formula{
		smt.And(g, smt.Eq(y, 1), m1),
		smt.And(g, smt.Eq(y, 2), m2, smt.Not(smt.And(smt.Eq(y, 1), m1))),
		smt.And(g, smt.Not(smt.And(smt.Eq(y, 1), m1)), smt.Not(smt.And(smt.Eq(y, 2), m2))),
	}
	var set machine.GVS
	for i, f := range canon {
		set = append(set, machine.Entry{Guard: f, Loc: machine.Loc(i)})
	}
	if !exclusiveBySyntax(set, nil) {
		t.Fatalf("canonicalization not shown exclusive: %v", set)
	}
	over := append(set[:len(set):len(set)], machine.Entry{Guard: smt.And(smt.Eq(y, 2), m2), Loc: 3})
	if exclusiveBySyntax(over, nil) {
		t.Fatalf("shown exclusive with an overlapping guard: %v", over)
	}
}
