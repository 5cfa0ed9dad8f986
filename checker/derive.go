package checker

import (
	"slices"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
)

// Exactness of a step that changed only roots, or compared two references,
// derived from its pair's.
//
// Many steps move the control and the stack and leave every heap as it
// was: a Pop drops a frame's references, a Null pushes r_null, an Invoke
// binds the arguments to references the caller already had, a read of an
// initialized field pushes its value. The memo (memo.go) misses them,
// since the roots are in the key, and exactness was computed again: q's
// concretizations replayed from the cached leaves with the new roots,
// every member's heap and every leaf named. On LinkedList×4 at k = 3 that
// was 1,739 of the 2,712 exactness checks computed.
//
// derivesExact says when the answer is the predecessor pair's (P, q),
// which held (q is the state checked: the engine's state, or its View).
// Its conditions, each checked here:
//
//   - every member p of P has exactly one successor p′, all in this group
//     and in P's order, and p′ has p's heap part (L of every reference but
//     the stack ones, R, the locations, φ and the facts): its heap record
//     fits (heapRec: the count of heap writes, φ and the facts);
//   - q′ has q's heap part: the same φ and facts, equal locations, R, and
//     guarded value sets of R's references and of r_un (sameHeapPart;
//     q is not changed by the step, which works on a clone);
//   - every root of q′ (and so of every p′: a member has q′'s control,
//     exactKey compares or knows it, and the roots are a function of the
//     control) is either a root of q with the same guarded value set in q′
//     as in q, and in every p′ the location it had in p before the step
//     (rootSnap); or a new root whose value set is {(true l_null)} in q′
//     and in every p′; or a new root whose value set in q′ is that of a
//     root x of q in q (the same entries: the same guards, hash-consed,
//     and locations), and in every p′ {(true l)} with l where x pointed
//     in p; or the value of the field access q was at, whose guards have
//     those of the entries of the receiver and of the field it reads,
//     and which points in every p′ where the field points (readsField).
//
// Why exactness then holds: let T take a heap to the heap with the roots
// of q′, each kept root where it was, each new root at null, where its x
// pointed or where the field read points. The concretizations of q′ are
// T of those of q: a
// concretization is a choice of φ_q's literals over the content (the heap
// part), which q′ shares, with the roots resolved under it
// (ConcretizationCache rests on the same fact); a kept root has its value
// set, so it resolves as in q, a root at null under a true guard resolves
// to null, a root with x's value set takes the entry x takes (the one
// whose guard holds: q is well formed, so exactly one does), and a field
// read takes the field's target (readsField). The heaps of
// the p′ are T of those of the p, for the same reason. T respects
// isomorphism (an isomorphism that keeps every root of one heap keeps the
// roots left, null, and the targets of the new roots, those of x or of a
// field of x's), so two isomorphic heaps have isomorphic images, and when
// the canonical forms of P's heaps are those of q's
// concretizations (part (b) and what discharged part (a)), so are the
// forms of the images: every p′ is met by a concretization of q′ and
// every concretization of q′ by a p′. No concretization of q′ fails to be
// a heap (a root that had none of these problems in q has none now, a
// root at null points to null, and a new one takes one entry in every
// assignment), and there are no more leaves than q had (a new root splits
// no leaf: its target is fixed in each). Of
// part (a) what remains for a met member is what exactness asks of it
// (relation.RepresentedBuiltHeap: its state readable, its roots stack
// references), asked here; a member whose answer is not Holds sends the
// pair to the computation. Every member's heap is one HeapOf builds
// (the heap part of p, whose heap was built, and roots at locations or
// null under true guards). A derived answer is remembered like a
// computed one (exactMemo).
//
// An equality. A step of (… r1 (r0 = * → k)), r0 and r1 references,
// splits the pair: GSE's E takes the members where r0 and r1 point to
// one location, recording the fact r0 = r1, E′ the others, recording
// r0 ≠ r1; the engine's successors conjoin a condition to φ (RULES.md §6
// and V5). derivesEquality takes the successor with the boolean value b
// when
//
//   - the group's members are exactly the members p of P where r0 and r1
//     point to one location (b true) or to two (b false), where they
//     pointed before the step (rootSnap), in P's order, and each has p's
//     heap part with one fact added (heapRec.fitsAfterFact: one write
//     more, and the fact list's tail is p's);
//   - q′ has q's content (locations, R, the value sets of R's references
//     and of r_un: sameContent) and the path condition φ_q ∧ c with c a
//     condition that holds, in every assignment of φ_q's literals,
//     exactly where r0 and r1 point to one location (b) or to two (not
//     b): comparisonPhi, which recognizes E's condition (with or without
//     ⋀¬Φ_0 ∧ ⋀¬Φ_1), V5's default reading ¬⋁Φ_α and seed 000's inner
//     reading, and argues why each is one;
//   - every root of q′ is one of the forms above (the value is a boolean
//     now; r0 and r1 stay roots only where the stack still has them).
//
// Why exactness then holds: let π be the heaps whose roots r0 and r1
// point to one location (b) or to two (not b); π is closed under
// isomorphism (an isomorphism keeps every root). The concretizations of
// q′ are those of q that are in π: a concretization of q′ is q's content
// under an assignment of φ_q ∧ c, c holds in it exactly where the heap
// built is in π (q's locations are distinct objects of the heap, l_null
// its null), and the roots resolve as in q. The heaps of the group's
// members are those of P's that are in π (the facts are no part of a
// heap). The canonical forms of P's heaps are those of q's
// concretizations (the pair held), so the forms in π are too; then T
// (the roots of q′, as above) maps both to the forms of the successors.
// A concretization of q′ is a concretization of q, so it is a heap, and
// there are no more leaves than q had. Part (a) of a met member is asked
// as above.
//
// Entries pruned. An engine may leave out of a value set the entries
// whose guard is unsatisfiable with its path condition (uber does, after
// resolving a location at a use: uber.Engine.prune). Where q′'s value set
// of a reference in R, of r_un or of a kept root is q's with entries left
// out (the rest equal and in order, none left empty), each of whose
// guards is found unsatisfiable with φ_q by the run's solver
// (contentWithin, pruned.within; an undecided question is no), the
// argument above holds as it is: such an entry is false in every
// assignment of φ_q and so of φ_q′ (which implies φ_q), so in each of
// them every reference takes the entry it took in q, and q′'s
// concretizations are still q's, restricted and mapped by T. Where an
// equality's condition was built by the engine from value sets pruned so,
// comparisonPhi is also tried on q's value sets of r0 and r1 without the
// entries unsatisfiable with φ_q: the argument there needs only that the
// one entry that holds in each assignment is kept. Never with the
// solver holding an assumption (its answers would be relative to it).
//
// A field access after L1. Before a field access (x $ f → k), checkInit
// checks the GSE members initialized (→I*) against →S*'s result qs (L1).
// When that held, the field access's successor with the members' read
// is derived from (P_init, qs) as from a predecessor pair
// (derivesFromInit): its members are P_init's, one to one and in order
// (each the successor of the member P_init's was initialized from), each
// with its P_init state's heap part (the same object not written since:
// heapMark; or a state equal to the initialization in φ, the facts,
// locations, R and the value sets of R's references and r_un:
// sameHeapPart); q′ has qs's heap part (the engine's rule ran →S* as
// SummarizeStar did and kept its path condition); and the roots are as
// above against qs, the value read by readsField over qs's value sets
// (qs has q's control). The argument above, with (P, q) := (P_init, qs),
// gives the answer; L1 itself is not derived (checkInit computes it).
//
// Only on programs without data (the data half reads more than the
// heaps), with both halves of exactness asked, and outside Partition
// engines.
// TestDerivedExactSameVerdicts checks every derived answer against the
// computation and compares verdicts and counts with it off.
var deriveExact = true

// derivePruned lets the derivation take a value set of the successor
// that is the predecessor's with entries unsatisfiable under its path
// condition left out (see "Entries pruned" above); its test compares
// with it off.
var derivePruned = true

// deriveWellFormed lets a derived pair's q′ take its well-formedness from
// the state checked before the step (see wellFormedDerived); its test
// compares with it off.
var deriveWellFormed = true

// wellFormedDerivedHook, when not nil, is told of every state whose
// well-formedness was derived (tests).
var wellFormedDerivedHook func(q *machine.State)

// deriveFromInit lets a field access's successor take its exactness from
// the initialized group's (see "A field access after L1" above); its test
// compares with it off.
var deriveFromInit = true

// exactDerivedHook, when not nil, is told of every pair whose exactness
// was derived (tests).
var exactDerivedHook func(P []*machine.State, q *machine.State)

// rootSnap is what a step keeps of its pair to derive its successors'
// exactness: q's roots, and where each member's roots pointed before the
// member was stepped in place.
type rootSnap struct {
	roots []machine.Ref
	to    []machine.Loc // member i's root j at i*len(roots)+j
}

// snapRoots is pr's rootSnap, or nil when no successor's exactness can be
// derived from pr's.
func (r *run) snapRoots(pr pair) *rootSnap {
	if !deriveExact || r.partition || r.data || r.opt.NoExactness || !pr.held || pr.checked == nil || pr.heaps == nil || len(pr.heaps) != len(pr.P) {
		return nil
	}
	// The snap is read only while step checks pr's successors: the run's
	// one is reused from step to step (an allocation per pair before).
	return snapOf(pr.P, pr.checked, &r.snap)
}

// snapOf is the rootSnap of the members P of a pair checked on q, or nil
// when a root of q does not point to one location under a true guard in
// every member; into, when not nil, is a snap whose arrays it reuses.
func snapOf(P []*machine.State, q *machine.State, into *rootSnap) *rootSnap {
	snap := into
	if snap == nil {
		snap = &rootSnap{}
	}
	snap.roots = q.AppendRoots(snap.roots[:0])
	snap.to = slices.Grow(snap.to[:0], len(P)*len(snap.roots))
	for _, p := range P {
		for _, ref := range snap.roots {
			g := p.Get(ref)
			if len(g) != 1 || !g[0].Guard.IsTrue() {
				return nil
			}
			snap.to = append(snap.to, g[0].Loc)
		}
	}
	return snap
}

// deriveFrom is what checkPair needs to derive a successor pair's
// exactness: the pair pr, its rootSnap (or nil) and the successors'
// group, and the initialized group of pr that held (checkInit), or nil.
type deriveFrom struct {
	pr   pair
	snap *rootSnap
	g    *group
	init *initHeld
}

// initHeld is what checkInit keeps of an initialized group (P, qs) whose
// exactness held, for the successors of the field access that follows
// (see "A field access after L1" above).
type initHeld struct {
	P    []*machine.State
	qs   *machine.State // the state checked: the View of →S*'s result
	snap *rootSnap      // qs's roots, where they point in each of P
	// from[i] is the index of the member of the pair P[i] is, or was
	// initialized from; own[i] says that P[i] is that member itself
	// (stepped in place next), with mark[i] its heap part's record then.
	from []int32
	own  []bool
	mark []heapMark
}

// heapMark is the record of a state's heap part that tells, by the
// count of heap writes, φ and the facts, that a later state of the same
// object has it still (as heapRec.fits).
type heapMark struct {
	writes uint64
	phi    *smt.Formula
	facts  *machine.Fact
}

func markOf(p *machine.State) heapMark {
	return heapMark{writes: p.HeapWrites(), phi: p.Phi, facts: p.Facts}
}

func (m heapMark) fits(p *machine.State) bool {
	return p.HeapWrites() == m.writes && p.Phi == m.phi && p.Facts == m.facts
}

// snapInit is checkInit's initHeld for the initialized group P of pair
// pr with the state checked qs, whose exactness held; nil when no
// successor's exactness can be derived from it. own[i]: P[i] is
// pr.P[from[i]] itself.
func (r *run) snapInit(P []*machine.State, qs *machine.State, from []int32, own []bool) *initHeld {
	if !deriveExact || !deriveFromInit || r.partition || r.data || r.opt.NoExactness {
		return nil
	}
	ih := &initHeld{P: P, qs: qs, from: from, own: own, mark: make([]heapMark, len(P))}
	if ih.snap = snapOf(P, qs, nil); ih.snap == nil {
		return nil
	}
	for i, p := range P {
		if own[i] {
			ih.mark[i] = markOf(p)
		}
	}
	return ih
}

// derivesFromInit reports whether the exactness of the group g of the
// field access's successors with q2, the state checked, is that of the
// initialized group ih (see "A field access after L1" above).
func derivesFromInit(ih *initHeld, g *group, q2 *machine.State) bool {
	if len(g.states) != len(ih.P) || !sameHeapPart(q2, ih.qs) {
		return false
	}
	for i, p := range g.states {
		if g.from[i] != ih.from[i] {
			return false
		}
		if ih.own[i] {
			if p != ih.P[i] || !ih.mark[i].fits(p) {
				return false
			}
		} else if p == ih.P[i] || !sameHeapPart(p, ih.P[i]) {
			return false
		}
	}
	return derivesRoots(ih.qs, ih.snap, g.states, identityRows(len(g.states)), q2, pruned{})
}

// identityRows is 0, 1, …, n-1.
func identityRows(n int) []int32 {
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	return rows
}

// derivesExact reports whether the exactness of the group g of pr's
// successors with q2, the state checked (the engine's successor's View),
// is pr's (see above): q2 is compared with the state pr was checked on.
func (r *run) derivesExact(d *deriveFrom, q2 *machine.State) bool {
	if d.init != nil && derivesFromInit(d.init, d.g, q2) {
		r.derivableInit = true
		r.wfFrom, r.wfPruned = d.init.qs, pruned{}
		return true
	}
	pr, snap, g := d.pr, d.snap, d.g
	if snap == nil {
		return false
	}
	if eqOutcome, ok := comparesRefs(pr.checked, q2); ok {
		// An equality of references (see "An equality" above).
		if !r.derivesEquality(pr, snap, g, q2, eqOutcome) {
			return false
		}
		r.derivableEq = true
	} else {
		if len(g.states) != len(pr.P) {
			return false
		}
		for i, p := range g.states {
			if g.from[i] != int32(i) || !pr.heaps[i].fits(p) {
				return false
			}
		}
		if q2.Phi != pr.checked.Phi || q2.Facts != pr.checked.Facts || !contentWithin(q2, pr.checked, r.prunedUnder(pr.checked)) {
			return false
		}
	}
	if !derivesRoots(pr.checked, snap, g.states, g.from, q2, r.prunedUnder(pr.checked)) {
		return false
	}
	r.wfFrom, r.wfPruned = pr.checked, r.prunedUnder(pr.checked)
	return true
}

// Well-formedness of a derived pair's q′, derived. When derivesExact
// held, q′ has the content of q, the state checked before the step and
// found well formed (a value set of R's references and of r_un equal, or
// q's without entries unsatisfiable with φ_q), and φ_q′ implies φ_q (it
// is φ_q, or φ_q ∧ c after an equality). The references in use of a
// state are its roots and the references in R of its locations'
// fields (relation.RefsInUse), so when every root of q′ has {(true
// l_null)}, or the value set in q of a root of q (or it without entries
// unsatisfiable with φ_q), every reference in use in q′ has the value set
// of one in use in q, or one of its subsets so pruned, or a single entry
// under a true guard, and:
//
//   - type consistency holds: the locations of a subset are locations of
//     the set (l_null is no location);
//   - determinism holds: it asks the guards themselves, without φ, to
//     exclude each other pairwise, and a subset's pairs are the set's;
//   - totality holds: in an assignment of φ_q′, which is one of φ_q, an
//     entry of q's set holds, and it is no entry left out, whose guard is
//     unsatisfiable with φ_q; a true guard always holds;
//   - the state is readable as before: the same locations, R and program,
//     and a path condition (checked).
//
// Stack-only roots depends on the control, and is checked
// (relation.StackOnlyRoots). A root with any other value set (the value
// of a field read) sends q′ to the computation. wellFormedDerived
// reports whether all this holds for q2.
func (r *run) wellFormedDerived(q2 *machine.State) bool {
	q, pc := r.wfFrom, r.wfPruned
	if !deriveWellFormed || q == nil || q2.Prog == nil || q2.Phi == nil || relation.StackOnlyRoots(q2) != nil {
		return false
	}
	var bq, b2 [32]machine.Ref
	roots := q.AppendRoots(bq[:0])
	for _, ref := range q2.AppendRoots(b2[:0]) {
		gv := q2.Get(ref)
		if atNull(gv) {
			continue
		}
		if !slices.ContainsFunc(roots, func(x machine.Ref) bool { return sameGVS(gv, q.Get(x)) }) &&
			(pc.solver == nil || !slices.ContainsFunc(roots, func(x machine.Ref) bool { return pc.within(gv, q.Get(x)) })) {
			return false
		}
	}
	if wellFormedDerivedHook != nil {
		wellFormedDerivedHook(q2)
	}
	r.rep.wellFormedDerived++
	return true
}

// derivesRoots reports whether every root of q2 is one of the forms of
// derivesExact's last condition, against q, the state checked before the
// step, and snap, where its roots pointed in the members before the step:
// states[i] is the successor of the member of snap's row rows[i].
//
// A value set of q2 may be q's with entries left out that cannot hold
// under φ_q (pc: see "Entries pruned" above).
func derivesRoots(q *machine.State, snap *rootSnap, states []*machine.State, rows []int32, q2 *machine.State, pc pruned) bool {
	var buf [32]machine.Ref
	for _, ref := range q2.AppendRoots(buf[:0]) {
		gv := q2.Get(ref)
		j := slices.Index(snap.roots, ref)
		if j < 0 && atNull(gv) {
			// A new root at null under a true guard, on both sides.
			for _, p := range states {
				if !atNull(p.Get(ref)) {
					return false
				}
			}
			continue
		}
		if j < 0 {
			// A new root with the value set of a root x of the checked
			// predecessor (a variable read, a receiver or operand
			// evaluated): it points where x pointed, on both sides.
			j = slices.IndexFunc(snap.roots, func(x machine.Ref) bool { return sameGVS(gv, q.Get(x)) })
			if j < 0 && pc.solver != nil {
				j = slices.IndexFunc(snap.roots, func(x machine.Ref) bool { return pc.within(gv, q.Get(x)) })
			}
			if j < 0 {
				if !readsField(q, snap, states, rows, ref, gv) {
					return false
				}
				continue
			}
		} else if !pc.within(gv, q.Get(ref)) {
			return false
		}
		for i, p := range states {
			gv := p.Get(ref)
			if len(gv) != 1 || !gv[0].Guard.IsTrue() || gv[0].Loc != snap.to[int(rows[i])*len(snap.roots)+j] {
				return false
			}
		}
	}
	return true
}

// readsField reports whether the new root ref, whose value set in the
// checked successor is gv, is the value of the field access the checked
// predecessor q was at, (x $ f → k) with the value x, on both sides: in
// every member p′ it points where field f of x's location points (p′ has
// p's heap part, so its R and field value sets are p's), and every entry
// (φ l′) of gv has, in each disjunct of φ, every conjunct of some φ1 and
// φ2 with (φ1 l) in L(x) at a location l and (φ2 l′) in L(R(l, f)), in q.
// Then, in every assignment of q's literals (q′ has q's heap part), the
// disjunct that holds makes x point to l and R(l, f) to l′ (q is well
// formed, so x and R(l, f) take one entry each), and ref points to l′:
// where f of x's location points. That is T's new root of the step's
// derivation (see above); an entry of any other form (a rule that took
// another guard, another location) is not derived.
func readsField(q *machine.State, snap *rootSnap, states []*machine.State, rows []int32, ref machine.Ref, gv machine.GVS) bool {
	if q.Mode != machine.ModeValue || q.K == nil || q.K.Kind != machine.KField || !q.Val.IsRef() {
		return false
	}
	fa, ok := q.K.Expr.(*javalite.FieldAccess)
	if !ok || fa.Field.IsPrim() {
		return false
	}
	f, x := fa.Field, q.Val.Ref()
	jx := slices.Index(snap.roots, x)
	if jx < 0 || len(gv) == 0 {
		return false
	}
	for _, e := range gv {
		if e.Loc == machine.LUn {
			return false // an uninitialized field is no read of a field
		}
		ds := []*smt.Formula{e.Guard}
		if e.Guard.Op() == smt.OpOr {
			ds = e.Guard.Kids()
		}
		for _, d := range ds {
			if !impliesRead(q, x, f, d, e.Loc) {
				return false
			}
		}
	}
	for i, p := range states {
		lx := snap.to[int(rows[i])*len(snap.roots)+jx]
		if lx < 0 || int(lx) >= len(p.Locs) {
			return false
		}
		fv := p.Get(p.Field(lx, f))
		pv := p.Get(ref)
		if len(fv) != 1 || !fv[0].Guard.IsTrue() || len(pv) != 1 || !pv[0].Guard.IsTrue() || pv[0].Loc != fv[0].Loc {
			return false
		}
	}
	return true
}

// impliesRead reports whether d has every conjunct of some φ1 and φ2 with
// (φ1 l) in L(x), l a location, and (φ2 to) in L(R(l, f)), in q.
func impliesRead(q *machine.State, x machine.Ref, f *javalite.Field, d *smt.Formula, to machine.Loc) bool {
	holds := func(g *smt.Formula) bool { return smt.ConjunctsWithin(g, d) }
	for _, e1 := range q.Get(x) {
		if e1.Loc < 0 || int(e1.Loc) >= len(q.Locs) || !holds(e1.Guard) {
			continue
		}
		for _, e2 := range q.Get(q.Field(e1.Loc, f)) {
			if e2.Loc == to && holds(e2.Guard) {
				return true
			}
		}
	}
	return false
}

// atNull reports whether g is {(true l_null)}.
func atNull(g machine.GVS) bool {
	return len(g) == 1 && g[0].Guard.IsTrue() && g[0].Loc == machine.LNull
}

// comparesRefs reports whether q is at an equality of two references,
// (… r1 (r0 = * → k)), and q2, the state checked after the step, has a
// boolean value: the comparison's outcome (true for E, false for E′).
func comparesRefs(q, q2 *machine.State) (outcome, ok bool) {
	if q.Mode != machine.ModeValue || q.K == nil || q.K.Kind != machine.KEqR || !q.Val.IsRef() || !q.K.Val.IsRef() {
		return false, false
	}
	if q2.Mode != machine.ModeValue || (q2.Val != machine.VTrue && q2.Val != machine.VFalse) {
		return false, false
	}
	return q2.Val == machine.VTrue, true
}

// derivesEquality is derivesExact's condition on the members and on q2's
// heap part and path condition for a step of an equality of references
// r0 and r1 (see "An equality" above) whose outcome is eq: this group's
// members are the members of the pair where the comparison has this
// outcome, in order, each with its predecessor's heap part and one fact
// more; q2 has the content of q (the state the pair was checked on) and
// the path condition φ_q ∧ c with c one of the conditions that, on a
// well-formed q, hold exactly where r0 and r1 point to one location (eq)
// or to two (not eq).
func (r *run) derivesEquality(pr pair, snap *rootSnap, g *group, q2 *machine.State, eq bool) bool {
	q := pr.checked
	r0, r1 := q.K.Val.Ref(), q.Val.Ref()
	j0, j1 := slices.Index(snap.roots, r0), slices.Index(snap.roots, r1)
	if j0 < 0 || j1 < 0 || len(g.states) == 0 {
		return false
	}
	n, k := len(snap.roots), 0
	for j := range pr.P {
		if (snap.to[j*n+j0] == snap.to[j*n+j1]) != eq {
			continue
		}
		if k >= len(g.states) || g.from[k] != int32(j) || !pr.heaps[j].fitsAfterFact(g.states[k]) {
			return false
		}
		k++
	}
	pc := r.prunedUnder(q)
	if k != len(g.states) || !contentWithin(q2, q, pc) {
		return false
	}
	phi2 := q2.PathCondition()
	if comparisonPhi(q, q.Get(r0), q.Get(r1), eq)(phi2) {
		return true
	}
	// The engine's condition over the value sets it pruned first.
	L0, ok0 := pc.prune(q.Get(r0))
	L1, ok1 := pc.prune(q.Get(r1))
	return ok0 && ok1 && comparisonPhi(q, L0, L1, eq)(phi2)
}

// comparisonPhi returns the test of whether a path condition is φ_q ∧ c
// for a condition c that holds, in every assignment of φ_q's literals,
// exactly where r0 and r1 point to one location (eq) or to two (not eq).
// Let L0 = L(r0), L1 = L(r1) in q, each with its locations distinct, Φ_α
// the guards φ0 ∧ φ1 of entries of L0 and L1 on a common location, Φ_0
// the guards of L0's entries on a location not in L1, Φ_1 symmetric. In
// an assignment of φ_q, q well formed, exactly one entry of L0 holds,
// (φ0 l0), and one of L1, (φ1 l1):
//
//   - ⋁Φ_α holds exactly when l0 = l1 (the only pair both of whose guards
//     hold is theirs), and then ⋀¬Φ_0 and ⋀¬Φ_1 hold (l0 is in L1, and
//     every other guard of L0 is false; likewise for L1): E's
//     (⋁Φ_α) ∧ ⋀¬Φ_0 ∧ ⋀¬Φ_1, and ⋁Φ_α alone, hold exactly when l0 = l1;
//   - ¬⋁Φ_α (V5's default reading) holds exactly when l0 ≠ l1; so does
//     ⋀(φ0 ⇒ ¬φ1) over the common pairs (¬⋁Φ_α term by term) with
//     ⋁Φ_0 ∨ ⋁Φ_1 in a disjunction (V5's inner reading of seed 000: each
//     of Φ_0's and Φ_1's guards holds only where l0 ∉ L1 or l1 ∉ L0).
//
// V5's outer reading of seed 000 is not φ_q ∧ c, and seed 004's (U-EQAND)
// conjunction with ⋁Φ_0 ∨ ⋁Φ_1 does not hold where l0 ≠ l1 are both in
// both sets: neither is derived. The formulas are built with package
// smt's constructors, which flatten, sort and hash-cons, as the summary
// engine builds them (summary.Engine.EqualsRef), and compared by identity:
// a path condition built another way is not recognized, and the pair is
// computed. They are built here from the readings above, not by calling
// the engine's builder: the argument is about the conditions RULES.md
// writes, and the engine's builder is what is under test (a mutant of it,
// m-equals-alpha-or, must go to the computation, not be recognized).
func comparisonPhi(q *machine.State, L0, L1 machine.GVS, eq bool) func(*smt.Formula) bool {
	if !distinctLocs(L0) || !distinctLocs(L1) {
		return func(*smt.Formula) bool { return false }
	}
	var alpha, impl, phi0s, phi1s []*smt.Formula
	for _, en := range L0 {
		if g1 := L1.GuardOf(en.Loc); g1 != nil {
			alpha = append(alpha, smt.And(en.Guard, g1))
			impl = append(impl, smt.Implies(en.Guard, smt.Not(g1)))
		} else {
			phi0s = append(phi0s, en.Guard)
		}
	}
	for _, en := range L1 {
		if L0.GuardOf(en.Loc) == nil {
			phi1s = append(phi1s, en.Guard)
		}
	}
	phi := q.PathCondition()
	return func(f *smt.Formula) bool {
		if eq {
			return f == smt.And(phi, smt.Or(alpha...), notAll(phi0s), notAll(phi1s)) ||
				f == smt.And(phi, smt.Or(alpha...))
		}
		return f == smt.And(phi, smt.Not(smt.Or(alpha...))) ||
			f == smt.And(phi, smt.Or(smt.And(impl...), smt.Or(phi0s...), smt.Or(phi1s...)))
	}
}

// notAll is ⋀¬f over fs.
func notAll(fs []*smt.Formula) *smt.Formula {
	out := make([]*smt.Formula, len(fs))
	for i, f := range fs {
		out[i] = smt.Not(f)
	}
	return smt.And(out...)
}

// distinctLocs reports whether no two entries of g have one location.
func distinctLocs(g machine.GVS) bool {
	for i := range g {
		for j := i + 1; j < len(g); j++ {
			if g[i].Loc == g[j].Loc {
				return false
			}
		}
	}
	return true
}

// sameHeapPart reports whether a and b have the same heap part: φ and the
// facts (the same formula and list node), equal locations and R, and
// equal guarded value sets of R's references and of r_un: all that
// concretization reads besides the roots (relation's contentKey) and the
// heap part of a fingerprint (relation.HeapSum).
func sameHeapPart(a, b *machine.State) bool {
	return a.Phi == b.Phi && a.Facts == b.Facts && sameContent(a, b)
}

// sameContent is sameHeapPart without φ and the facts.
func sameContent(a, b *machine.State) bool { return contentWithin(a, b, pruned{}) }

// contentWithin is sameContent where a value set of a may be b's with
// entries left out that cannot hold under pc's path condition.
func contentWithin(a, b *machine.State, pc pruned) bool {
	if !slices.Equal(a.Locs, b.Locs) || !slices.Equal(a.R, b.R) {
		return false
	}
	if !pc.within(a.Get(machine.RUn), b.Get(machine.RUn)) {
		return false
	}
	for _, ref := range a.R {
		if !pc.within(a.Get(ref), b.Get(ref)) {
			return false
		}
	}
	return true
}

// pruned tells whether a value set is another with entries left out
// whose guards are unsatisfiable with phi (see "Entries pruned" above).
// Its zero value allows none: the value sets must be equal.
type pruned struct {
	solver *smt.Solver
	phi    *smt.Formula
}

// prunedUnder is the pruned of the state q checked before a step: entries
// unsatisfiable with φ_q may be left out, asked of the run's solver when
// it holds no assumption (an answer under one would be relative to it).
func (r *run) prunedUnder(q *machine.State) pruned {
	if !derivePruned || r.solver == nil || r.solver.Assumptions() > 0 {
		return pruned{}
	}
	return pruned{solver: r.solver, phi: q.PathCondition()}
}

// within reports whether b is a with entries left out (in a's order),
// each unsatisfiable with phi.
func (pc pruned) within(b, a machine.GVS) bool {
	if len(b) == len(a) {
		return sameGVS(b, a)
	}
	if pc.solver == nil || len(b) > len(a) || len(b) == 0 {
		return false
	}
	// b must be a subsequence of a before any question is asked.
	j := 0
	for _, e := range a {
		if j < len(b) && b[j].Loc == e.Loc && b[j].Guard == e.Guard {
			j++
		}
	}
	if j != len(b) {
		return false
	}
	j = 0
	for _, e := range a {
		if j < len(b) && b[j].Loc == e.Loc && b[j].Guard == e.Guard {
			j++
			continue
		}
		if !pc.never(e.Guard) {
			return false
		}
	}
	return true
}

// prune is a without its entries unsatisfiable with phi; ok is false
// when pc allows none or a question was not answered.
func (pc pruned) prune(a machine.GVS) (out machine.GVS, ok bool) {
	if pc.solver == nil {
		return nil, false
	}
	for _, e := range a {
		sat, err := pc.solver.Sat(smt.And(e.Guard, pc.phi))
		if err != nil {
			return nil, false
		}
		if sat {
			out = append(out, e)
		}
	}
	return out, true
}

// never reports whether g ∧ phi is unsatisfiable (an undecided question
// is not).
func (pc pruned) never(g *smt.Formula) bool {
	sat, err := pc.solver.Sat(smt.And(g, pc.phi))
	return err == nil && !sat
}

// derivedExact is the exactness of (P, q) derived from the predecessor
// pair's (derivesExact held for them): Holds, after part (a)'s checks of
// a met member on every member; ok is false when one of them does not
// hold, and the pair is computed instead.
func (r *run) derivedExact(P []*machine.State, q *machine.State) (res relation.ExactResult, ok bool) {
	for _, p := range P {
		if relation.RepresentedBuiltHeap(p, q, r.solver, vouchControls).Outcome != relation.Holds {
			return relation.ExactResult{}, false
		}
	}
	if exactDerivedHook != nil {
		exactDerivedHook(P, q)
	}
	r.rep.exactDerived++
	if r.derivableEq {
		r.rep.exactDerivedEq++
	}
	if r.derivableInit {
		r.rep.exactDerivedInit++
	}
	return relation.ExactResult{Outcome: relation.Holds, PIndex: -1}, true
}
