package relation

import (
	"errors"
	"strings"
	"testing"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Input references of hand-built states: r_in0 = i1, then i4, i7, i10, …
const (
	i1, i4, i7, i10, i13 machine.Ref = 1, 4, 7, 10, 13
)

var (
	T = smt.True
	N = machine.LNull
	U = machine.LUn
)

func eq(a, b machine.Ref) *smt.Formula  { return smt.Eq(a, b) }
func neq(a, b machine.Ref) *smt.Formula { return smt.Neq(a, b) }

// gseListState: l0.head → l1 (Node), l0.d0 → l2 (Data), l1's fields
// uninitialized.
func gseListState(t *testing.T) (*builder, machine.Loc, machine.Loc) {
	prog := mustParse(t, linkedListSrc)
	b := newBuilder(t, prog)
	l1, _ := b.input("Node", nil)
	l2, _ := b.input("Data", nil)
	b.to(0, "head", l1)
	b.to(0, "d0", l2)
	return b, l1, l2
}

// TestTwoHomsOnlySecondSatisfiesHC: q has two Node and two Data locations
// whose guards pair up; the first homomorphism found uses head's guard
// i4 = i7 and d0's guard i4 ≠ i7, the second i4 = i7 twice.
func TestTwoHomsOnlySecondSatisfiesHC(t *testing.T) {
	sol := newSolver(t)
	p, pl1, pl2 := gseListState(t)

	q := newBuilder(t, p.s.Prog)
	lA, _ := q.input("Node", nil) // i4
	lB, _ := q.input("Node", nil) // i7
	lD, _ := q.input("Data", nil) // i10
	lE, _ := q.input("Data", nil) // i13
	q.set(0, "head", gvs(eq(i4, i7), lA, neq(i4, i7), lB))
	q.set(0, "d0", gvs(neq(i4, i7), lD, eq(i4, i7), lE))

	var homs []*Hom
	err := Homomorphisms(p.s, q.s, sol, Options{}, func(h *Hom) bool { homs = append(homs, h); return true })
	if err != nil {
		t.Fatal(err)
	}
	if len(homs) != 4 {
		t.Fatalf("got %d homomorphisms, want 4: %v", len(homs), homs)
	}
	first, second := homs[0], homs[1]
	if first.Apply(pl1) != lA || first.Apply(pl2) != lD || !first.HC.IsFalse() {
		t.Errorf("first homomorphism %v, want l1↦%v l2↦%v with HC false", first, lA, lD)
	}
	if second.Apply(pl1) != lA || second.Apply(pl2) != lE {
		t.Errorf("second homomorphism %v, want l1↦%v l2↦%v", second, lA, lE)
	}
	if ok, _ := sol.Sat(smt.And(q.s.PathCondition(), second.HC)); !ok {
		t.Errorf("second HC %v unsatisfiable", second.HC)
	}
	if first.Apply(0) != 0 || first.Apply(N) != N || first.Apply(U) != U {
		t.Errorf("h(l0), h(l_null), h(l_un) not fixed: %v", first)
	}

	r := Represents(p.s, q.s, sol, DefaultBudget)
	if r.Outcome != Holds {
		t.Fatalf("Represents = %v (%s), want holds", r.Outcome, r.Reason)
	}
	if r.Hom.Apply(pl1) != lA || r.Hom.Apply(pl2) != lE {
		t.Errorf("Represents used %v, want the second homomorphism", r.Hom)
	}

	// Under φ ∧ i4 ≠ i7 the entries guarded by i4 = i7 are pruned: head
	// can only be lB and d0 only lD.
	q.and(neq(i4, i7))
	r = Represents(p.s, q.s, sol, DefaultBudget)
	if r.Outcome != Holds || r.Hom.Apply(pl1) != lB || r.Hom.Apply(pl2) != lD {
		t.Fatalf("under i4 ≠ i7: %v %v (%s), want holds via l1↦%v l2↦%v", r.Outcome, r.Hom, r.Reason, lB, lD)
	}
}

// TestRepresentsFailsWhenNoHCSatisfiable: the guards that would map p exist
// individually but contradict each other.
func TestRepresentsFailsWhenNoHCSatisfiable(t *testing.T) {
	sol := newSolver(t)
	p, _, _ := gseListState(t)
	q := newBuilder(t, p.s.Prog)
	lA, _ := q.input("Node", nil)
	lD, _ := q.input("Data", nil)
	q.set(0, "head", gvs(eq(i4, i7), lA, neq(i4, i7), N))
	q.set(0, "d0", gvs(neq(i4, i7), lD, eq(i4, i7), N))
	r := Represents(p.s, q.s, sol, DefaultBudget)
	if r.Outcome != Fails {
		t.Fatalf("Represents = %v (%s), want fails", r.Outcome, r.Reason)
	}
	// Each guard alone is satisfiable, so the structural search finds the
	// one homomorphism; only its HC is unsatisfiable.
	n := 0
	if err := Homomorphisms(p.s, q.s, sol, Options{}, func(h *Hom) bool { n++; return true }); err != nil || n != 1 {
		t.Fatalf("homomorphisms: %d, %v; want 1", n, err)
	}
}

// TestInjectivity: p has two distinct Node objects, head l1 → l2 → l2; q
// has lost the non-aliasing case: head.next is either head itself or null.
// Collapsing l1 and l2 onto q's one Node uses only the guard i4 = i7, so the
// literal, non-injective reading lets q "represent" p.
func TestInjectivity(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	p := newBuilder(t, prog)
	l1, _ := p.input("Node", nil)
	l2, _ := p.input("Node", nil)
	p.to(0, "head", l1)
	p.to(l1, "next", l2)
	p.to(l2, "next", l2)

	q := newBuilder(t, prog)
	lA, _ := q.input("Node", nil)
	q.to(0, "head", lA)
	q.set(lA, "next", gvs(eq(i4, i7), lA, neq(i4, i7), N))

	if r := Represents(p.s, q.s, sol, DefaultBudget); r.Outcome != Fails {
		t.Fatalf("injective Represents = %v (%s), want fails", r.Outcome, r.Reason)
	}
	r := RepresentsWith(p.s, q.s, sol, DefaultBudget, Options{NonInjective: true})
	if r.Outcome != Holds || r.Hom.Apply(l1) != lA || r.Hom.Apply(l2) != lA {
		t.Fatalf("non-injective Represents = %v %v (%s), want holds collapsing l1, l2 onto %v", r.Outcome, r.Hom, r.Reason, lA)
	}
}

// TestUnreachableInputNeedsExistence: p keeps an unreachable input Node;
// q's only candidate exists under a guard that φ_q refutes.
func TestUnreachableInputNeedsExistence(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	p := newBuilder(t, prog)
	p.to(0, "head", N)
	lu, _ := p.input("Node", nil)
	p.to(0, "d0", N)

	q := newBuilder(t, prog)
	lA, _ := q.input("Node", neq(i4, machine.RNull))
	q.to(0, "head", N)
	q.to(0, "d0", N)
	r := Represents(p.s, q.s, sol, DefaultBudget)
	if r.Outcome != Holds || r.Hom.Apply(lu) != lA || r.HC != neq(i4, machine.RNull) {
		t.Fatalf("Represents = %v %v (%s), want holds with HC i4 ≠ null", r.Outcome, r.Hom, r.Reason)
	}
	q.and(eq(i4, machine.RNull))
	if r := Represents(p.s, q.s, sol, DefaultBudget); r.Outcome != Fails {
		t.Fatalf("with i4 = null in φ_q: Represents = %v (%s), want fails", r.Outcome, r.Reason)
	}
}

func TestRepresentsControlAndRoots(t *testing.T) {
	sol := newSolver(t)
	p, _, _ := gseListState(t)
	q, _, _ := gseListState(t)
	if r := Represents(p.s, q.s, sol, DefaultBudget); r.Outcome != Holds {
		t.Fatalf("equal states: %v (%s)", r.Outcome, r.Reason)
	}
	q.s.Env = append([]machine.Value(nil), q.s.Env...)
	q.s.Env[1] = machine.VFalse
	if r := Represents(p.s, q.s, sol, DefaultBudget); r.Outcome != Fails || !strings.Contains(r.Reason, "controls differ") {
		t.Fatalf("different η: %v (%s), want fails on control", r.Outcome, r.Reason)
	}
	// A root that p has on l1 while q's same stack reference is null.
	p2, l1, _ := gseListState(t)
	sr := p2.s.StackR()
	p2.s.Set(sr, machine.Single(l1))
	p2.s.SetValue(machine.RefVal(sr), nil)
	q2, _, _ := gseListState(t)
	q2.s.StackR()
	q2.s.Set(sr, machine.Single(N))
	q2.s.SetValue(machine.RefVal(sr), nil)
	if r := Represents(p2.s, q2.s, sol, DefaultBudget); r.Outcome != Fails {
		t.Fatalf("root mismatch: %v (%s), want fails", r.Outcome, r.Reason)
	}
}

func TestRepresentsBudget(t *testing.T) {
	sol := newSolver(t)
	p, _, _ := gseListState(t)
	q, _, _ := gseListState(t)
	r := Represents(p.s, q.s, sol, Budget{HomNodes: 1})
	if r.Outcome != Inconclusive || !strings.Contains(r.Reason, "budget") {
		t.Fatalf("budget 1: %v (%s), want inconclusive", r.Outcome, r.Reason)
	}
}

func TestDeterministic(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	b := newBuilder(t, prog)
	lA, _ := b.input("Node", nil)
	r := b.set(0, "head", gvs(eq(i4, machine.RNull), N, T(), lA))
	v, err := Deterministic(b.s, sol)
	if err != nil || v == nil {
		t.Fatalf("Deterministic = %v, %v; want a violation", v, err)
	}
	if v.Check != CheckDeterministic || v.Ref != r || len(v.Entries) != 2 {
		t.Fatalf("violation %v names the wrong reference or entries", v)
	}
	b.set(0, "head", gvs(eq(i4, machine.RNull), N, neq(i4, machine.RNull), lA))
	if v, err := Deterministic(b.s, sol); v != nil || err != nil {
		t.Fatalf("exclusive guards: %v, %v", v, err)
	}
	// Literal Def. 11: φ_q does not excuse overlapping guards.
	b.set(0, "head", gvs(eq(i4, i7), N, eq(i4, i10), lA))
	b.and(neq(i4, i7))
	if v, _ := Deterministic(b.s, sol); v == nil {
		t.Fatal("overlapping guards excused by φ")
	}
}

func TestTotal(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	b := newBuilder(t, prog)
	b.to(0, "d0", N)
	r := b.set(0, "head", gvs(eq(i4, machine.RNull), N))
	v, err := Total(b.s, sol)
	if err != nil || v == nil || v.Check != CheckTotal || v.Ref != r {
		t.Fatalf("Total = %v, %v; want a violation on %s", v, err, machine.RefString(r))
	}
	// The path condition can make it total.
	b.and(eq(i4, machine.RNull))
	if v, err := Total(b.s, sol); v != nil || err != nil {
		t.Fatalf("under i4 = null: %v, %v", v, err)
	}
	// An empty value set in use is never total under a satisfiable φ.
	b.set(0, "d0", nil)
	if v, _ := Total(b.s, sol); v == nil {
		t.Fatal("empty value set passed")
	}
}

// TestTotalWithData: with data in φ, totality is asked first of φ's
// reference conjuncts alone; an answer there that is not "unsatisfiable"
// must go on to the whole φ, whose data conjuncts can decide either way.
func TestTotalWithData(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	b := newBuilder(t, prog)
	b.to(0, "d0", N)
	r := b.set(0, "head", gvs(eq(i4, machine.RNull), N))
	// A data conjunct about another symbol leaves i4 ≠ null possible.
	b.and(smt.Lt(smt.Sym(i7, 0, smt.SortInt), smt.Int(3)))
	if v, err := Total(b.s, sol); err != nil || v == nil || v.Ref != r {
		t.Fatalf("under a data conjunct on i7: Total = %v, %v; want a violation on %s", v, err, machine.RefString(r))
	}
	// A data conjunct that mentions i4 (an ite over its guard) forces
	// i4 = null: total, although the reference conjuncts alone are not.
	b.and(smt.EqT(smt.Ite(eq(i4, machine.RNull), smt.Int(1), smt.Int(0)), smt.Int(1)))
	if v, err := Total(b.s, sol); v != nil || err != nil {
		t.Fatalf("under ite(i4 = null, 1, 0) = 1: %v, %v", v, err)
	}
	// The reference conjuncts alone decide it too.
	b.s.Phi = smt.And(eq(i4, machine.RNull), smt.Lt(smt.Sym(i7, 0, smt.SortInt), smt.Int(3)))
	if v, err := Total(b.s, sol); v != nil || err != nil {
		t.Fatalf("under i4 = null ∧ data: %v, %v", v, err)
	}
}

func TestTypeConsistent(t *testing.T) {
	prog := mustParse(t, linkedListSrc)
	b := newBuilder(t, prog)
	lA, _ := b.input("Node", nil)
	lD, _ := b.input("Data", nil)
	if v := TypeConsistent(b.s); v != nil {
		t.Fatalf("initial-like state: %v", v)
	}
	r := b.set(0, "head", gvs(eq(i4, i7), lA, neq(i4, i7), lD))
	v := TypeConsistent(b.s)
	if v == nil || v.Ref != r || v.Check != CheckTypeConsistent {
		t.Fatalf("TypeConsistent = %v; want a violation on %s", v, machine.RefString(r))
	}
}

func TestStackOnlyRoots(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	b := newBuilder(t, prog)
	if v := StackOnlyRoots(b.s); v != nil {
		t.Fatalf("initial state: %v", v)
	}
	b.s.SetValue(machine.RefVal(i1), nil)
	v := StackOnlyRoots(b.s)
	if v == nil || v.Ref != i1 {
		t.Fatalf("StackOnlyRoots = %v; want a violation on i1", v)
	}
	if w, err := WellFormed(b.s, sol); err != nil || w == nil || w.Check != CheckStackOnlyRoots {
		t.Fatalf("WellFormed = %v, %v", w, err)
	}
	b2 := newBuilder(t, prog)
	b2.s.K = &machine.Kont{Kind: machine.KPop, Env: []machine.Value{machine.RefVal(machine.Ref(5))}}
	if v := StackOnlyRoots(b2.s); v == nil {
		t.Fatal("fresh reference in a pop frame passed")
	}
}

// summaryListState is a summary-like state: head is null, a new Node lA,
// whose next is null, a new Node lB, or lA itself.
func summaryListState(t *testing.T) *builder {
	prog := mustParse(t, linkedListSrc)
	b := newBuilder(t, prog)
	nn := func(r machine.Ref) *smt.Formula { return neq(r, machine.RNull) }
	lA, _ := b.input("Node", nn(i4))
	lB, _ := b.input("Node", smt.And(nn(i4), nn(i7), neq(i7, i4)))
	_ = lB
	b.set(0, "head", gvs(eq(i4, machine.RNull), N, nn(i4), lA))
	b.set(lA, "next", gvs(eq(i7, machine.RNull), N, smt.And(nn(i7), neq(i7, i4)), lB, smt.And(nn(i7), eq(i7, i4)), lA))
	b.to(0, "d0", N)
	return b
}

// gseList makes the GSE state with head → a list of n fresh Nodes whose
// last next is end (N, U, or an index into the list for a cycle).
func gseList(t *testing.T, n int, last machine.Loc, cycleTo int) *machine.State {
	prog := mustParse(t, linkedListSrc)
	b := newBuilder(t, prog)
	b.to(0, "d0", N)
	if n == 0 {
		b.to(0, "head", N)
		return b.s
	}
	var ls []machine.Loc
	for range n {
		l, _ := b.input("Node", nil)
		ls = append(ls, l)
	}
	b.to(0, "head", ls[0])
	for i := 0; i+1 < n; i++ {
		b.to(ls[i], "next", ls[i+1])
	}
	if cycleTo >= 0 {
		b.to(ls[n-1], "next", ls[cycleTo])
	} else {
		b.to(ls[n-1], "next", last)
	}
	return b.s
}

func TestConcretizeCount(t *testing.T) {
	sol := newSolver(t)
	q := summaryListState(t)
	if v, err := WellFormed(q.s, sol); v != nil || err != nil {
		t.Fatalf("hand-built summary not well formed: %v, %v", v, err)
	}
	heaps, complete, err := Concretize(q.s, sol, DefaultBudget)
	if err != nil || !complete {
		t.Fatalf("Concretize: %v complete=%v", err, complete)
	}
	sameConcretizations(t, q.s, sol)
	if len(heaps) != 4 {
		for _, h := range heaps {
			t.Log(h)
		}
		t.Fatalf("got %d heaps, want 4 (head null; A.next null; A.next B; A.next A)", len(heaps))
	}
	want := []*machine.State{
		gseList(t, 0, N, -1),
		gseList(t, 1, N, -1),
		gseList(t, 2, U, -1),
		gseList(t, 1, 0, 0),
	}
	for i, p := range want {
		hp, err := HeapOf(p)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, h := range heaps {
			if Isomorphic(h, hp) {
				found++
			}
		}
		if found != 1 {
			t.Errorf("expected heap %d (%v) matched %d concretizations", i, hp, found)
		}
	}

	if r := Exact(want, q.s, sol, DefaultBudget); r.Outcome != Holds {
		t.Fatalf("Exact = %v (%s)", r.Outcome, r.Reason)
	}
	// Drop one GSE state: (b) must name a concretization.
	r := Exact(want[:3], q.s, sol, DefaultBudget)
	if r.Outcome != Fails || r.Heap == nil {
		t.Fatalf("Exact without the cycle = %v (%s), want fails with a heap", r.Outcome, r.Reason)
	}
	if hp, _ := HeapOf(want[3]); !Isomorphic(r.Heap, hp) {
		t.Errorf("witness %v is not the missing cycle", r.Heap)
	}
	// Add a GSE state q does not stand for: (a) must name it.
	extra := gseList(t, 2, N, -1)
	r = Exact(append(append([]*machine.State(nil), want...), extra), q.s, sol, DefaultBudget)
	if r.Outcome != Fails || r.PIndex != 4 {
		t.Fatalf("Exact with a list of two = %v P[%d] (%s), want fails at P[4]", r.Outcome, r.PIndex, r.Reason)
	}
	// Models budget.
	if _, complete, err := Concretize(q.s, sol, Budget{Models: 2}); err != nil || complete {
		t.Fatalf("Models 2: complete=%v err=%v, want incomplete", complete, err)
	}
	if r := Exact(want, q.s, sol, Budget{HomNodes: 1000, Models: 2}); r.Outcome != Inconclusive {
		t.Fatalf("Exact with Models 2 = %v (%s), want inconclusive", r.Outcome, r.Reason)
	}
}

func TestConcretizeWitness(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	b := newBuilder(t, prog)
	lA, _ := b.input("Node", nil)
	b.to(0, "d0", N)
	r := b.set(0, "head", gvs(eq(i4, machine.RNull), N, eq(i4, i7), lA))
	var w *WitnessError
	for _, conc := range []func(*machine.State, *smt.Solver, Budget) ([]*Heap, bool, error){Concretize, concretizeAllSAT} {
		_, _, err := conc(b.s, sol, DefaultBudget)
		if !errors.As(err, &w) || w.Violation.Ref != r || w.Assignment == nil {
			t.Fatalf("Concretize error %v, want a witness on %s", err, machine.RefString(r))
		}
		if ok, _ := sol.Sat(smt.And(b.s.PathCondition(), w.Assignment)); !ok {
			t.Fatalf("witness %v is unsatisfiable", w.Assignment)
		}
	}
	// A reference to a location that does not exist under the assignment.
	b2 := newBuilder(t, prog)
	lB, _ := b2.input("Node", neq(i4, machine.RNull))
	b2.to(0, "d0", N)
	b2.to(0, "head", lB)
	_, _, err := Concretize(b2.s, sol, DefaultBudget)
	if !errors.As(err, &w) || !strings.Contains(w.Error(), "existence") {
		t.Fatalf("Concretize error %v, want an existence witness", err)
	}
}

func TestHeapOfRejectsSummaries(t *testing.T) {
	q := summaryListState(t)
	if _, err := HeapOf(q.s); err == nil {
		t.Fatal("HeapOf accepted a summary state")
	}
}

func TestBadInput(t *testing.T) {
	sol := newSolver(t)
	p, _, _ := gseListState(t)
	if r := Represents(nil, p.s, sol, DefaultBudget); r.Outcome != Inconclusive {
		t.Fatalf("nil p: %v", r.Outcome)
	}
	bad := p.s.Clone()
	bad.R = bad.R[:1]
	if _, err := Deterministic(bad, sol); err == nil {
		t.Fatal("short R accepted")
	}
	if _, _, err := Concretize(&machine.State{}, sol, DefaultBudget); err == nil {
		t.Fatal("empty state accepted")
	}
}
