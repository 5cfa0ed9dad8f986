package relation

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/smt"
)

// TestLeafEval: the closure of a leaf's literals decides an atom true
// within one class, false across separated classes, and nothing else;
// connectives follow Kleene's three-valued logic, and terms with data are
// never decided.
func TestLeafEval(t *testing.T) {
	r1, r2, r3, r4, r5 := smt.Ref(1), smt.Ref(2), smt.Ref(3), smt.Ref(4), smt.Ref(5)
	e := newLeafEval([]*smt.Formula{
		smt.And(smt.Eq(r1, r2), smt.Eq(r2, r3)), // r1 = r2 = r3
		smt.Not(smt.Eq(r3, smt.Null)),           // that class is not null
		smt.Not(smt.Or(smt.Eq(r4, r1), smt.Eq(r4, smt.Null))),
		smt.Or(smt.Eq(r5, r1), smt.Eq(r5, r4)), // a disjunction: left out
	})
	e.memo = map[*smt.Formula]int8{}
	x := smt.Sym(r1, 0, smt.SortInt)
	for _, c := range []struct {
		f    *smt.Formula
		want int
	}{
		{smt.Eq(r1, r3), 1},
		{smt.Eq(r2, smt.Null), -1},
		{smt.Eq(r3, r4), -1},
		{smt.Eq(r5, r1), 0},
		{smt.Not(smt.Eq(r1, r3)), -1},
		{smt.And(smt.Eq(r1, r3), smt.Eq(r5, r1)), 0},
		{smt.And(smt.Eq(r1, r3), smt.Eq(r4, r2)), -1},
		{smt.Or(smt.Eq(r5, r1), smt.Eq(r1, r2)), 1},
		{smt.Or(smt.Eq(r5, r1), smt.Eq(r4, r2)), 0},
		{smt.Or(smt.Eq(r4, smt.Null), smt.Eq(r4, r2)), -1},
		{smt.Lt(x, smt.Int(3)), 0},
		{smt.True(), 1},
	} {
		clear(e.memo)
		require.Equal(t, c.want, e.truth(c.f), "%v", c.f)
	}
	require.False(t, e.data)
	bad := newLeafEval([]*smt.Formula{smt.Eq(r1, r2), smt.Not(smt.Eq(r2, r1))})
	bad.memo = map[*smt.Formula]int8{}
	require.Equal(t, 0, bad.truth(smt.Eq(r1, r2)), "contradictory literals decide nothing")
	withData := newLeafEval([]*smt.Formula{smt.Lt(x, smt.Int(3))})
	require.True(t, withData.data)
	var c concretizer
	require.Equal(t, 0, c.extensionByEval(&leafRec{eval: withData}, []*smt.Formula{smt.True()}), "with data in the leaf a true extension is still asked")
}

// TestLeafEvalRemembered: the answers a leaf remembers (holds) and the
// scratch memo the concretizer lends from one leaf's closure to the next
// (evalOf) give, asked in any order over several leaves, what a fresh
// closure of each leaf's literals gives.
func TestLeafEvalRemembered(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		refs := []smt.Ref{smt.Null, 1, 2, 3, 4}
		ref := rapid.SampledFrom(refs)
		var gen func(depth int) *smt.Formula
		gen = func(depth int) *smt.Formula {
			if depth == 0 || rapid.IntRange(0, 2).Draw(t, "leaf") == 0 {
				return smt.Eq(ref.Draw(t, "a"), ref.Draw(t, "b"))
			}
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0:
				return smt.Not(gen(depth - 1))
			case 1:
				return smt.And(gen(depth-1), gen(depth-1))
			}
			return smt.Or(gen(depth-1), gen(depth-1))
		}
		recs := make([]*leafRec, rapid.IntRange(1, 3).Draw(t, "leaves"))
		for i := range recs {
			recs[i] = &leafRec{}
			for range rapid.IntRange(0, 4).Draw(t, "lits") {
				recs[i].lits = append(recs[i].lits, gen(1))
			}
		}
		fs := make([]*smt.Formula, rapid.IntRange(1, 4).Draw(t, "formulas"))
		for i := range fs {
			fs[i] = gen(3)
		}
		var c concretizer
		for range rapid.IntRange(1, 12).Draw(t, "questions") {
			rec := recs[rapid.IntRange(0, len(recs)-1).Draw(t, "rec")]
			f := fs[rapid.IntRange(0, len(fs)-1).Draw(t, "f")]
			fresh := newLeafEval(rec.lits)
			fresh.memo = map[*smt.Formula]int8{}
			require.Equal(t, fresh.truth(f), c.evalOf(rec).holds(f), "%v under %v", f, rec.lits)
		}
	})
}
