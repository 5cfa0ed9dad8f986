package relation

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

// totalMemo is the totality check of WellFormedChecksMemo alone.
func totalMemo(t *testing.T, q *machine.State, sol *smt.Solver, memo *TotalityMemo) *Violation {
	t.Helper()
	v, err := total(q, RefsInUse(q), sol, memo)
	if err != nil {
		t.Fatalf("total: %v", err)
	}
	return v
}

// linkedListMemo is the totality memo tests' start: a solver, an empty
// memo, and LinkedList's initial state with d0 resolved to a node.
func linkedListMemo(t *testing.T) (*smt.Solver, *TotalityMemo, *builder) {
	t.Helper()
	b := newBuilder(t, mustParse(t, linkedListSrc))
	b.to(0, "d0", N)
	return newSolver(t), NewTotalityMemo(), b
}

// TestTotalityMemoStronger: an answer kept under a path condition serves
// a stronger one (all its conjuncts and more), never a weaker one.
func TestTotalityMemoStronger(t *testing.T) {
	sol, memo, b := linkedListMemo(t)
	r := b.set(0, "head", gvs(eq(i4, machine.RNull), N))
	weak := b.s.Phi

	// Total under φ ∧ i4 = null …
	b.and(eq(i4, machine.RNull))
	if v := totalMemo(t, b.s, sol, memo); v != nil {
		t.Fatalf("under i4 = null: %v", v)
	}
	// … and so under φ ∧ i4 = null ∧ i7 ≠ null, from the memo.
	b.and(neq(i7, machine.RNull))
	before := memo.Reused
	if v := totalMemo(t, b.s, sol, memo); v != nil {
		t.Fatalf("under i4 = null ∧ i7 ≠ null: %v", v)
	}
	if memo.Reused != before+1 {
		t.Fatalf("the stronger path condition was asked again (Reused %d → %d)", before, memo.Reused)
	}
	// Not under φ alone, which leaves i4 ≠ null possible.
	b.s.Phi = weak
	if v := totalMemo(t, b.s, sol, memo); v == nil || v.Ref != r {
		t.Fatalf("under the weaker φ: %v, want a violation on %s", v, machine.RefString(r))
	}
	// Nor under φ ∧ i7 ≠ null, a conjunct of the kept φ₀ but not all of them.
	b.and(neq(i7, machine.RNull))
	if v := totalMemo(t, b.s, sol, memo); v == nil || v.Ref != r {
		t.Fatalf("under φ ∧ i7 ≠ null: %v, want a violation on %s", v, machine.RefString(r))
	}
	// A violation is not kept: the stronger φ that makes it total is asked.
	b.and(eq(i4, machine.RNull))
	if v := totalMemo(t, b.s, sol, memo); v != nil {
		t.Fatalf("under i7 ≠ null ∧ i4 = null: %v", v)
	}
}

// TestTotalityMemoOtherGuards: an answer about one value set's guards
// serves no other value set under the same path condition.
func TestTotalityMemoOtherGuards(t *testing.T) {
	sol, memo, b := linkedListMemo(t)
	b.and(eq(i4, machine.RNull))
	b.set(0, "head", gvs(eq(i4, machine.RNull), N))
	if v := totalMemo(t, b.s, sol, memo); v != nil {
		t.Fatalf("head ↦ {(i4 = null, null)} under i4 = null: %v", v)
	}
	r := b.set(0, "head", gvs(eq(i7, machine.RNull), N))
	if v := totalMemo(t, b.s, sol, memo); v == nil || v.Ref != r {
		t.Fatalf("head ↦ {(i7 = null, null)} under i4 = null: %v, want a violation on %s", v, machine.RefString(r))
	}
}

// TestTotalityMemoData: with data in φ, an answer of the reference part
// is kept as the reference part's and serves a φ with other data; an
// answer only the data decided serves no φ without that data.
func TestTotalityMemoData(t *testing.T) {
	sol, memo, b := linkedListMemo(t)
	r := b.set(0, "head", gvs(eq(i4, machine.RNull), N))
	data7 := smt.Lt(smt.Sym(i7, 0, smt.SortInt), smt.Int(3))
	forces := smt.EqT(smt.Ite(eq(i4, machine.RNull), smt.Int(1), smt.Int(0)), smt.Int(1))

	// Only the data conjunct makes it total.
	b.s.Phi = smt.And(data7, forces)
	if v := totalMemo(t, b.s, sol, memo); v != nil {
		t.Fatalf("under ite(i4 = null, 1, 0) = 1: %v", v)
	}
	b.s.Phi = data7
	if v := totalMemo(t, b.s, sol, memo); v == nil || v.Ref != r {
		t.Fatalf("under the data conjunct on i7 alone: %v, want a violation on %s", v, machine.RefString(r))
	}
	// The reference part decides, and its answer serves other data.
	b.s.Phi = smt.And(eq(i4, machine.RNull), data7)
	if v := totalMemo(t, b.s, sol, memo); v != nil {
		t.Fatalf("under i4 = null ∧ data: %v", v)
	}
	before := memo.Reused
	b.s.Phi = smt.And(eq(i4, machine.RNull), smt.Lt(smt.Int(0), smt.Sym(i7, 0, smt.SortInt)))
	if v := totalMemo(t, b.s, sol, memo); v != nil || memo.Reused != before+1 {
		t.Fatalf("under i4 = null ∧ other data: %v, Reused %d → %d", v, before, memo.Reused)
	}
}

// TestTotalityMemoAssumptions: an answer relative to the solver's
// assumptions is not kept.
func TestTotalityMemoAssumptions(t *testing.T) {
	sol, memo, b := linkedListMemo(t)
	r := b.set(0, "head", gvs(eq(i4, machine.RNull), N))
	if err := sol.Assume(eq(i4, machine.RNull)); err != nil {
		t.Fatal(err)
	}
	if v := totalMemo(t, b.s, sol, memo); v != nil {
		t.Fatalf("under the assumption i4 = null: %v", v)
	}
	if err := sol.Release(); err != nil {
		t.Fatal(err)
	}
	if v := totalMemo(t, b.s, sol, memo); v == nil || v.Ref != r {
		t.Fatalf("after the assumption: %v, want a violation on %s", v, machine.RefString(r))
	}
}

// TestTotalityMemoSameAnswers: on random sequences of path conditions
// (conjunctions of literals over four input references, often extending
// the previous one) and value sets, the memo gives the answer of the
// check without it at every state.
func TestTotalityMemoSameAnswers(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	refs := []machine.Ref{machine.RNull, i1, i4, i7, i10}
	rapid.Check(t, func(rt *rapid.T) {
		lit := func(label string) *smt.Formula {
			a := rapid.IntRange(0, len(refs)-1).Draw(rt, label+"a")
			c := rapid.IntRange(0, len(refs)-1).Draw(rt, label+"b")
			if a == c {
				return smt.True()
			}
			if rapid.Bool().Draw(rt, label+"neg") {
				return neq(refs[a], refs[c])
			}
			return eq(refs[a], refs[c])
		}
		memo := NewTotalityMemo()
		b := newBuilder(rt, prog)
		b.to(0, "d0", N)
		base := b.s.Phi
		var guards [2]*smt.Formula
		for i := range guards {
			guards[i] = lit("g")
		}
		n := rapid.IntRange(1, 12).Draw(rt, "states")
		for range n {
			switch rapid.IntRange(0, 3).Draw(rt, "phi") {
			case 0:
				b.s.Phi = base
			case 1, 2:
				b.and(lit("c"))
			}
			if rapid.Bool().Draw(rt, "newGuards") {
				guards[rapid.IntRange(0, 1).Draw(rt, "which")] = lit("g")
			}
			b.set(0, "head", gvs(guards[0], N, guards[1], machine.Loc(0)))
			want, err := total(b.s, RefsInUse(b.s), sol, nil)
			if err != nil {
				rt.Fatalf("total: %v", err)
			}
			got, err := total(b.s, RefsInUse(b.s), sol, memo)
			if err != nil {
				rt.Fatalf("total with the memo: %v", err)
			}
			if (want == nil) != (got == nil) || (want != nil && want.Ref != got.Ref) {
				rt.Fatalf("φ = %v, head ↦ %v: without the memo %v, with it %v", b.s.Phi, b.s.Get(b.s.Field(0, b.field(0, "head"))), want, got)
			}
		}
	})
}

// refsInUseByDefinition is RefsInUse as its comment defines it: every
// reference eachRefInUse meets, in its order, each once.
func refsInUseByDefinition(q *machine.State) []machine.Ref {
	var out []machine.Ref
	seen := map[machine.Ref]bool{}
	_ = eachRefInUse(q, func(r machine.Ref) error {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
		return nil
	})
	return out
}

// TestRefsInUse: RefsInUse (a bit set for the small references, a map
// past them) lists the references of the definition, in its order, on
// every state of GSE and summary:fixed explorations of LinkedList and on
// a state whose references go past the bit set.
func TestRefsInUse(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	fixed, err := summary.Lookup("fixed")
	if err != nil {
		t.Fatal(err)
	}
	var states []*machine.State
	for _, eng := range []machine.Engine{gse.New(2), summary.New(fixed, 2, sol)} {
		states = append(states, allStates(t, prog, eng, 80)...)
	}
	b := newBuilder(t, prog)
	b.to(0, "d0", N)
	for range refSetBits + 40 {
		b.s.FreshR()
	}
	lA, _ := b.input("Node", nil)
	head := b.to(0, "head", lA)
	b.s.SetField(lA, b.field(lA, "next"), head) // one reference past the bit set twice
	b.to(lA, "data", N)
	b.to(0, "d0", lA)
	states = append(states, b.s)
	for i, q := range states {
		want, got := refsInUseByDefinition(q), RefsInUse(q)
		if !slices.Equal(want, got) {
			t.Fatalf("state %d: RefsInUse = %v, want %v", i, got, want)
		}
	}
	if refs := RefsInUse(b.s); int(refs[len(refs)-1]) < refSetBits {
		t.Fatalf("the last state's references %v do not go past the bit set", refs)
	}
}

// TestTotalityMemoBounded: past totalityMemoKeys value sets the memo
// starts again, keeping the answer just given.
func TestTotalityMemoBounded(t *testing.T) {
	memo := NewTotalityMemo()
	phi := eq(i4, machine.RNull)
	var last *smt.Formula
	for i := range totalityMemoKeys + 10 {
		last = smt.Not(eq(machine.Ref(100+i), machine.RNull))
		memo.unsat(phi, last)
	}
	if len(memo.held) > totalityMemoKeys {
		t.Fatalf("%d value sets kept, bound %d", len(memo.held), totalityMemoKeys)
	}
	if !memo.implied(smt.And(phi, neq(i7, machine.RNull)), last) {
		t.Fatal("the last answer was not kept")
	}
}
