package kiasan

import (
	"context"
	"sort"
	"testing"

	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parse is the shared helper under the name these tests use.
var parse = testutil.Parse

// end is one path end with the heap rules (those with a seed part) taken
// along it.
type end struct {
	kind  machine.EndKind
	s     *machine.State
	rules []string
}

// ends explores to the end and returns the ends in exploration order.
func ends(t testing.TB, p *javalite.Program, e *Engine) []end {
	t.Helper()
	var out []end
	_, err := machine.ExploreWith(context.Background(), machine.Initial(p), e, 500, []string(nil),
		func(parent []string, _ int, sc machine.Succ) []string {
			if machine.BaseRule(sc.Rule) == sc.Rule {
				return parent
			}
			return append(append([]string(nil), parent...), sc.Rule)
		},
		func(s *machine.State, rules []string, kind machine.EndKind) bool {
			out = append(out, end{kind, s, rules})
			return true
		})
	require.NoError(t, err)
	return out
}

func loc(t testing.TB, s *machine.State, r machine.Ref) machine.Loc {
	t.Helper()
	l, err := only(s, r)
	require.NoError(t, err)
	return l
}

// facts lists the recorded facts as strings, sorted.
func facts(s *machine.State) []string {
	var out []string
	for f := s.Facts; f != nil; f = f.Next {
		out = append(out, f.F.String())
	}
	sort.Strings(out)
	return out
}

func eqNull(r machine.Ref) string  { return smt.Eq(r, machine.RNull).String() }
func neqNull(r machine.Ref) string { return smt.Neq(r, machine.RNull).String() }

// A read, then a dereference of what was read: Main{a:A}, A{f:A},
// main = ((this $ a) $ f).
//
// lazier: this.a is null (GETFIELD3-S; the deref is A′) or a δ (GETFIELD2-A,
// fact r_u ≠ null). The deref resolves δ: class A has no materialized input
// location (l_0 is a Main), so only fresh, l_u itself; then A.f is null or
// a new δ: 1 error + 2 values.
// lazier#: this.a is a δ̂ (GETFIELD2-B, no fact); the deref resolves it to
// null (A′) or fresh, and A.f is a δ̂: 1 error + 1 value.
func TestReadThenDeref(t *testing.T) {
	p := loadProgram(t, "programs/nullderef.jl")

	es := ends(t, p, mustNew(t, Lazier, "", -1))
	require.Len(t, es, 3)
	assert.Equal(t, machine.EndError, es[0].kind)
	assert.Equal(t, []string{"Field access (A) / GETFIELD3-S", "Field access (A′) / GETFIELD7-S"}, es[0].rules)
	assert.Equal(t, []string{"Field access (A) / GETFIELD2-A", "Field access (A) / GETFIELD1-A, GETFIELD3-S"}, es[1].rules)
	assert.Equal(t, []string{"Field access (A) / GETFIELD2-A", "Field access (A) / GETFIELD1-A, GETFIELD2-A"}, es[2].rules)
	// The last end: l1 (was δ for this.a) is materialized with identity
	// i4; the value is l2, a fresh δ (identity i7, non-null, depth 2).
	s := es[2].s
	require.Len(t, s.Locs, 3)
	assert.True(t, s.Locs[1].Input && !s.Locs[1].Unresolved && s.Locs[1].Exists.IsTrue())
	assert.Equal(t, machine.Ref(4), s.Locs[1].Identity)
	l := loc(t, s, s.Val.Ref())
	assert.Equal(t, machine.Loc(2), l)
	assert.True(t, s.Locs[2].Unresolved && !s.Locs[2].MayBeNull && s.Locs[2].Depth == 2)
	assert.Equal(t, machine.Ref(7), s.Locs[2].Identity)
	assert.Equal(t, []string{neqNull(4), neqNull(7)}, facts(s))

	es = ends(t, p, mustNew(t, LazierSharp, "", -1))
	require.Len(t, es, 2)
	assert.Equal(t, machine.EndError, es[0].kind)
	assert.Equal(t, []string{"Field access (A) / GETFIELD2-B", "Field access (A′) / GETFIELD1-B, GETFIELD7-S"}, es[0].rules)
	assert.Equal(t, []string{eqNull(4)}, facts(es[0].s))
	assert.True(t, es[0].s.Locs[1].Exists.IsFalse(), "resolved to null: no object")
	assert.Equal(t, []string{"Field access (A) / GETFIELD2-B", "Field access (A) / GETFIELD1-B, GETFIELD1-A, GETFIELD2-B"}, es[1].rules)
	s = es[1].s
	assert.Equal(t, []string{neqNull(4)}, facts(s))
	l = loc(t, s, s.Val.Ref())
	assert.True(t, s.Locs[l].Unresolved && s.Locs[l].MayBeNull)
}

const nullTestSrc = `(((class Main ([Main f])
    ((bool main [bool u] ((this $ f) = null)))))
 (Main main))`

// x = null under lazier#: the read makes a δ̂ and nothing else; the test
// splits it into null (E, fact r_u = null, every entry rewritten to l_null)
// and non-null (E′, MayBeNull cleared, fact r_u ≠ null), both leaving the
// aliasing undecided. lazier decides null at the read and IFNULL-A answers
// false for the δ without resolving. GSE: null, this, or new (3 paths).
func TestNullTest(t *testing.T) {
	p := parse(t, nullTestSrc)
	es := ends(t, p, mustNew(t, LazierSharp, "", -1))
	require.Len(t, es, 2)
	fld := p.Fields[0]

	s := es[0].s
	assert.Equal(t, machine.VTrue, s.Val)
	assert.Equal(t, []string{"Field access (A) / GETFIELD2-B", "Equals (E) / init-sym-ref*, IFNULL2-S"}, es[0].rules)
	assert.Equal(t, machine.LNull, loc(t, s, s.Field(0, fld)), "this.f rewritten to null")
	assert.Contains(t, facts(s), eqNull(4))

	s = es[1].s
	assert.Equal(t, machine.VFalse, s.Val)
	assert.Equal(t, []string{"Field access (A) / GETFIELD2-B", "Equals (E′) / init-sym-ref*, IFNULL-A"}, es[1].rules)
	lu := loc(t, s, s.Field(0, fld))
	assert.True(t, s.Locs[lu].Unresolved && !s.Locs[lu].MayBeNull, "a δ now: known non-null, aliasing open")
	assert.Contains(t, facts(s), neqNull(4))

	es = ends(t, p, mustNew(t, Lazier, "", -1))
	require.Len(t, es, 2)
	assert.Equal(t, []string{"Field access (A) / GETFIELD3-S", "Equals (E) / IFNULL2-S"}, es[0].rules)
	assert.Equal(t, []string{"Field access (A) / GETFIELD2-A", "Equals (E′) / IFNULL-A"}, es[1].rules)

	// acmp-null-full: the δ is resolved like IF_ACMPEQ (this | fresh).
	es = ends(t, p, mustNew(t, Lazier, "acmp-null-full", -1))
	require.Len(t, es, 3)
	assert.Equal(t, []string{"Field access (A) / GETFIELD2-A", "Equals (E′) / IF_ACMPEQ2-A, IF_ACMPEQ1-S"}, es[1].rules)
	es = ends(t, p, mustNew(t, LazierSharp, "acmp-null-full", -1))
	require.Len(t, es, 3)
}

// Two unresolved operands: Main{f:A g:A}, main = ((this $ f) = (this $ g)).
// lazier# resolves the left δ̂ first (null | fresh; no A candidate), then
// the right one (null | the left's object if fresh | fresh): 2 + 3 = 5
// paths, as GSE.
func TestCompareTwoUnresolved(t *testing.T) {
	p := loadProgram(t, "programs/alias_two_fields.jl")
	es := ends(t, p, mustNew(t, LazierSharp, "", -1))
	var got []string
	for _, e := range es {
		got = append(got, e.s.Val.String()+" "+e.rules[2])
	}
	assert.Equal(t, []string{
		"true Equals (E) / IF_ACMPEQ2-B, IF_ACMPEQ2-A, IF_ACMPEQ3-B, IF_ACMPEQ3-A, IF_ACMPEQ2-S",
		"false Equals (E′) / IF_ACMPEQ2-B, IF_ACMPEQ2-A, IF_ACMPEQ3-B, IF_ACMPEQ3-A, IF_ACMPEQ1-S",
		"false Equals (E′) / IF_ACMPEQ2-B, IF_ACMPEQ2-A, IF_ACMPEQ3-B, IF_ACMPEQ3-A, IF_ACMPEQ1-S",
		"true Equals (E) / IF_ACMPEQ2-B, IF_ACMPEQ2-A, IF_ACMPEQ3-B, IF_ACMPEQ3-A, IF_ACMPEQ2-S",
		"false Equals (E′) / IF_ACMPEQ2-B, IF_ACMPEQ2-A, IF_ACMPEQ3-B, IF_ACMPEQ3-A, IF_ACMPEQ1-S",
	}, got)
	// The aliased end: both fields name the one materialized location and
	// the facts say r_g = r_f.
	s := es[3].s
	f, g := p.ByName["Main"].Fields[0], p.ByName["Main"].Fields[1]
	assert.Equal(t, loc(t, s, s.Field(0, f)), loc(t, s, s.Field(0, g)))
	assert.Contains(t, facts(s), smt.Eq(7, 4).String())
}

// The same unresolved location on both sides is equal without resolving
// (IF_ACMPEQ1-A / -B).
func TestCompareSameUnresolved(t *testing.T) {
	p := parse(t, `(((class Main ([Main f])
    ((bool main [bool u] (var Main x := (this $ f) in (x = x))))))
 (Main main))`)
	es := ends(t, p, mustNew(t, LazierSharp, "", -1))
	require.Len(t, es, 1)
	assert.Equal(t, []string{"Field access (A) / GETFIELD2-B", "Equals (E) / IF_ACMPEQ1-B"}, es[0].rules)
	es = ends(t, p, mustNew(t, Lazier, "", -1))
	require.Len(t, es, 2)
	assert.Equal(t, []string{"Field access (A) / GETFIELD2-A", "Equals (E) / IF_ACMPEQ1-A"}, es[1].rules)
}

// A write through an unresolved receiver resolves it (null → W′) and the
// substitution reaches every reference to it, the written value included;
// a written unresolved value stays unresolved.
func TestWriteThroughUnresolved(t *testing.T) {
	p := parse(t, `(((class A ([A f]) ())
  (class Main ([A p] [A q])
    ((bool main [bool u]
       (var A a := (this $ p) in
         (begin (a $ f := a)
                (a $ f := (this $ q))
                ((a $ f) = a)))))))
 (Main main))`)
	es := ends(t, p, mustNew(t, LazierSharp, "", -1))
	// a: null → W′ | fresh (no A candidate). Then a.f := this.q (a δ̂,
	// not resolved), then (a $ f) = a: the δ̂ is null | a | fresh.
	require.Len(t, es, 4)
	assert.Equal(t, machine.EndError, es[0].kind)
	assert.Equal(t, "Field write (W′) / init-sym-ref*, PUTFIELD2-S", es[0].rules[1])
	assert.Equal(t, "Field write (W) / init-sym-ref*, init-sym-loc*, PUTFIELD1-S", es[1].rules[1])
	assert.Equal(t, "Field write (W) / PUTFIELD1-S", es[1].rules[3])
	var vals []string
	for _, e := range es[1:] {
		vals = append(vals, e.s.Val.String())
	}
	assert.Equal(t, []string{"false", "true", "false"}, vals)

	// Stop before the comparison: the written δ̂ is still unresolved.
	var mid *machine.State
	_, err := machine.Explore(context.Background(), machine.Initial(p), mustNew(t, LazierSharp, "", -1), 1000,
		func(s *machine.State, kind machine.EndKind) bool {
			if kind == machine.EndValue && s.Val == machine.VTrue {
				mid = s
			}
			return true
		})
	require.NoError(t, err)
	require.NotNil(t, mid)
	la := loc(t, mid, mid.Field(0, p.ByName["Main"].Fields[0]))
	assert.True(t, mid.Locs[la].Input, "a was materialized")
	lf := loc(t, mid, mid.Field(la, p.ByName["A"].Fields[0]))
	assert.Equal(t, la, lf, "true: the δ̂ written into a.f resolved to a")
}

// The k-bound applies at resolution, not at creation. nullderef at k = 0:
// lazier creates a δ for this.a (depth 1) though it can never be fresh;
// the deref has no candidate and no fresh, so the state has no successor
// (a stuck end, lemma FEAS). lazier#'s δ̂ keeps its null branch. GSE at
// k = 0: this.a is null only.
func TestKBoundAtResolution(t *testing.T) {
	p := loadProgram(t, "programs/nullderef.jl")
	assert.Equal(t, counts{Error: 1, Stuck: 1}, run(t, p, mustNew(t, Lazier, "", 0), 100, nil))
	assert.Equal(t, counts{Error: 1}, run(t, p, mustNew(t, LazierSharp, "", 0), 100, nil))
	es := ends(t, p, mustNew(t, Lazier, "", 0))
	require.Len(t, es, 2)
	s := es[1].s
	assert.Equal(t, machine.EndStuck, es[1].kind)
	assert.True(t, s.Locs[1].Unresolved && s.Locs[1].Depth == 1, "created beyond the bound")
	// At k = 1 the δ may be fresh.
	assert.Equal(t, counts{Error: 1, Value: 2}, run(t, p, mustNew(t, Lazier, "", 1), 100, nil))
}

// eq-new-shortcut: an unresolved operand against a new object is unequal
// without resolving.
func TestEqNewShortcut(t *testing.T) {
	p := parse(t, `(((class Main ([Main f])
    ((bool main [bool u] ((this $ f) = (new Main))))))
 (Main main))`)
	assert.Equal(t, counts{Value: 3}, run(t, p, mustNew(t, Lazier, "", -1), 100, nil))
	assert.Equal(t, counts{Value: 2}, run(t, p, mustNew(t, Lazier, "eq-new-shortcut", -1), 100, nil))
	assert.Equal(t, counts{Value: 1}, run(t, p, mustNew(t, LazierSharp, "eq-new-shortcut", -1), 100, nil))
	es := ends(t, p, mustNew(t, LazierSharp, "eq-new-shortcut", -1))
	assert.Equal(t, "Equals (E′) / eq-new-shortcut", es[0].rules[1])
}

func TestVariantsParse(t *testing.T) {
	e, err := New(LazierSharp, "stamp-kbound+acmp-null-full", 2)
	require.NoError(t, err)
	assert.Equal(t, "lazier#:acmp-null-full+stamp-kbound", e.Name())
	_, err = New(Lazier, "nope", 2)
	require.Error(t, err)
	assert.Equal(t, "Field access (A)", machine.BaseRule("Field access (A) / GETFIELD2-A"))
}
