package relation

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"

	"github.com/lockstep-dev/lockstep/internal/knobs"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// The data half of exactness (PRIMITIVES.md §5).
//
// The reference half (Exact) matches heap shapes: every GSE state of the
// group is a concretization of q, and every concretization of q is one of
// them. With data, a heap shape is not yet a concrete state: every
// primitive field of every location and every term value of η, e, k (the
// state's slots) holds a term over the input symbols α(l, f). The data
// half checks, input by input, that the engine computes what lazy
// initialization computes:
//
//	(b) for every world w of q's concretizer,
//	    UNSAT(φ_q[w] ∧ ⋀_{p ≅ w} ¬(φ_p ∧ data_p = data_q[w]))
//	(a) for every p ∈ P,
//	    UNSAT(φ_p ∧ ⋀_{w ≅ p} ¬(φ_q[w] ∧ data_q[w] = data_p))
//
// where φ_q[w] is q's path condition with the world's reference literals
// (Z3 resolves every guard and ite over references with them), φ_p the
// data facts of the GSE state (its reference facts are fixed by its heap
// shape, which the isomorphism already matches), and data the vector of
// primitive fields (by canonical location name, then field) followed by the
// slots. One question per world and one per GSE state; never an
// enumeration of numbers.
//
// Both sides must speak of the same inputs: α(l, f) of a GSE state and the
// symbol of the engine location that stands for the same input object must
// be one variable. Both are renamed into one namespace, the canonical name
// of the location in the (isomorphic) heap: α(r, f) becomes
// α(canonBase + name, f). The canonical names of a GSE state do not depend
// on the world it is compared with, so φ_p is renamed once. A symbol of q
// whose location does not exist in w (an input object that w makes null or
// an alias) is renamed apart (qOnlyBase + r): its terms sit under guards w
// makes false.
//
// The isomorphism is unique on the part of the heap the roots reach. Among
// unreachable locations of one class it may not be (automorphisms); the
// spec asks for some renaming that works, and the check tries only the
// canonical one, so a failure there is reported inconclusive, never a
// violation.
const (
	canonBase = 1 << 24
	qOnlyBase = 1 << 25
)

// dataSide is one state's heap in a world, with its renaming.
type dataSide struct {
	key       string
	names     []int
	ambiguous bool
	rename    func(*smt.Formula) *smt.Formula
	data      []*smt.Formula // renamed
}

// sideOf builds the renamed data vector of st in heap h.
//
// rns, when not nil, keeps the renamings of earlier sides: a side whose
// renaming is one made before takes its Renamer (renamers).
func sideOf(st *machine.State, h *Heap, renameOthers bool, rns *renamers) dataSide {
	key, names, reach := canonicalNames(h)
	d := dataSide{key: key, names: names}
	m := map[machine.Ref]machine.Ref{}
	byName := make([]int, len(h.Locs))
	unreach := map[string]int{}
	var mkey []byte
	if rns != nil {
		mkey = append(rns.buf[:0], boolByte(renameOthers))
	}
	for i, hl := range h.Locs {
		byName[names[i]] = i
		if hl.Input {
			from, to := st.Locs[hl.Orig].Identity, canonBase+machine.Ref(names[i])
			m[from] = to
			if rns != nil {
				mkey = binary.LittleEndian.AppendUint64(mkey, uint64(from))
				mkey = binary.LittleEndian.AppendUint64(mkey, uint64(to))
			}
		}
		if names[i] >= reach && hl.Class != nil {
			unreach[hl.Class.Name]++
			if unreach[hl.Class.Name] > 1 {
				d.ambiguous = true
			}
		}
	}
	mapping := func(r smt.Ref) (smt.Ref, bool) {
		if to, ok := m[r]; ok {
			return to, true
		}
		if renameOthers {
			return qOnlyBase + r, true
		}
		return r, false
	}
	if rns != nil {
		rns.buf = mkey
		d.rename = rns.get(mkey, mapping).Rename
	} else {
		d.rename = smt.NewRenamer(mapping).Rename
	}
	for _, i := range byName {
		hl := h.Locs[i]
		for _, f := range hl.Class.PrimFields {
			d.data = append(d.data, d.rename(st.PrimField(hl.Orig, f)))
		}
	}
	for _, t := range st.Slots() {
		d.data = append(d.data, d.rename(t))
	}
	return d
}

// equal is data_p = data_q as one formula; ok is false when the vectors
// differ in length or sorts (a control skeleton or a heap that is not the
// same, which the reference half reports).
func equal(a, b []*smt.Formula) (*smt.Formula, bool) {
	if len(a) != len(b) {
		return nil, false
	}
	eqs := make([]*smt.Formula, len(a))
	for i := range a {
		if a[i] == nil || b[i] == nil || a[i].Sort() != b[i].Sort() {
			return nil, false
		}
		eqs[i] = smt.EqT(a[i], b[i])
	}
	return smt.And(eqs...), true
}

// DataFacts is the data part of a GSE state's path condition
// (machine.(*State).DataFacts).
func DataFacts(p *machine.State) *smt.Formula { return smt.And(p.DataFacts()...) }

// dataWorlds is the common preparation of ExactData and
// ExactDataCompatible: both sides renamed into one namespace, q's worlds
// with their references fixed.
type dataWorlds struct {
	heaps   []*Heap
	ps, ws  []dataSide
	facts   []*smt.Formula // per p: its data facts, renamed
	worlds  []*smt.Formula // per world: φ_q[w], renamed
	byKey   map[string][]int
	byWorld map[string][]int
}

// prepareData builds dataWorlds, or the inconclusive result that stops it.
//
// leaves, when not nil, are the complete leaves of q's concretization
// search, which the caller has already made (ConcretizeLeavesWellFormed).
func prepareData(P []*machine.State, q *machine.State, solver *smt.Solver, budget Budget, leaves Leaves) (*dataWorlds, *ExactResult) {
	ps := make([]dataSide, len(P))
	facts := make([]*smt.Formula, len(P))
	rns := budget.Cache.renamers()
	byKey := map[string][]int{}
	for i, p := range P {
		h, err := budget.Heaps.HeapOf(p)
		if err != nil {
			return nil, &ExactResult{Outcome: Inconclusive, PIndex: i, Reason: fmt.Sprintf("data: P[%d]: %v", i, err)}
		}
		ps[i] = sideOf(p, h, false, rns)
		facts[i] = ps[i].rename(DataFacts(p))
		byKey[ps[i].key] = append(byKey[ps[i].key], i)
	}
	// The worlds of q are the leaves of its concretization search
	// (concretizeLeaves), each refined until it decides every reference
	// atom of the data it shows: the primitive fields of its locations,
	// its slots, and the conjuncts of φ_q that mix data with references
	// (a summary state's ite over guards). Leaves, not heaps: two leaves
	// can build one heap and still differ where the heap no longer shows
	// it (a field read, compared, then overwritten), and the data read
	// through that field differs with them. Not the complete partitions of
	// q's references either: a world only has to decide what its heap and
	// its data depend on, and the partitions of every reference (a Bell
	// number of them) were the data half's cost and its limit
	// (PERFORMANCE.md). Atoms of φ_q's reference part that neither decides
	// need no decision: that part is satisfiable with the world's choices
	// (the search asks with φ_q asserted) and shares no variable with its
	// data.
	phiQ := q.PathCondition()
	conj := []*smt.Formula{phiQ}
	if phiQ.Op() == smt.OpAnd {
		conj = phiQ.Kids()
	}
	var dataConj, refConj []*smt.Formula
	for _, c := range conj {
		if c.HasData() {
			dataConj = append(dataConj, c)
		} else {
			refConj = append(refConj, c)
		}
	}
	dataPhi := smt.And(dataConj...)
	limit := dataLimit(budget)
	var (
		heaps   []*Heap
		ws      []dataSide
		worlds  []*smt.Formula
		byWorld = map[string][]int{}
		seen    = map[string]bool{}
		full    bool
	)
	// emit takes one world of leaf h: side's data and its data condition
	// (the last formula of fs) with every reference atom decided.
	emit := func(h *Heap, side dataSide, fs []*smt.Formula) error {
		w := side
		w.data = fs[:len(fs)-1]
		world := fs[len(fs)-1]
		if world.IsFalse() {
			return nil
		}
		// Leaves that agree on the heap, the data and the world's data
		// condition are one world (formulas are hash-consed).
		key := []byte(w.key)
		for _, t := range fs {
			key = strconv.AppendUint(append(key, ','), t.ID(), 10)
		}
		if seen[string(key)] {
			return nil
		}
		seen[string(key)] = true
		if len(heaps) >= limit {
			full = true
			return errStop
		}
		j := len(heaps)
		heaps = append(heaps, h)
		ws = append(ws, w)
		worlds = append(worlds, world)
		byWorld[w.key] = append(byWorld[w.key], j)
		return nil
	}
	// The leaves first, then their refinement: the atoms are decided
	// against φ_q's reference part and the leaf's literals alone, with no
	// data assumed, so the questions stay with the Go decider (asked under
	// the search's assumptions, φ_q's data facts included, each went to
	// Z3). A valuation the data rule out makes a world whose data
	// condition is unsatisfiable: it adds nothing to (a) or (b).
	complete, err := true, error(nil)
	if leaves == nil {
		leaves, complete, err = ConcretizeLeavesWellFormed(q, solver, Budget{Models: limit, Done: budget.Done, Cache: budget.Cache})
	}
	if err == nil && complete {
		refPhi := smt.And(refConj...) // once: interning it per leaf was a tenth of the data half
		memo := budget.Cache.atomMemo()
		if solver.Assumptions() > 0 {
			memo = nil // its answers are for φ_q and a leaf alone
		}
		memo.trim()
		for _, h := range leaves {
			// A leaf's renamed side is built once for all its worlds (the
			// renaming depends on its heap alone, and commutes with the
			// substitution of reference atoms).
			side := sideOf(q, h, true, rns)
			fs := append(slices.Clone(side.data), side.rename(dataPhi))
			if err = refine(solver, memo, h, refPhi, fs, func(fs []*smt.Formula) error { return emit(h, side, fs) }); err != nil {
				break
			}
		}
	}
	if full || (err == nil && !complete) {
		return nil, &ExactResult{Outcome: Inconclusive, PIndex: -1,
			Reason: fmt.Sprintf("data: more than %d worlds of q: enumeration incomplete", limit)}
	}
	if err != nil {
		return nil, &ExactResult{Outcome: Inconclusive, PIndex: -1, Reason: "data: worlds of q: " + err.Error()}
	}
	return &dataWorlds{heaps: heaps, ps: ps, ws: ws, facts: facts, worlds: worlds, byKey: byKey, byWorld: byWorld}, nil
}

// dataLimit bounds the worlds (and the concretization leaves) of the data
// half: budget.Models, DefaultBudget's when that is unbounded.
func dataLimit(budget Budget) int {
	if budget.Models <= 0 {
		return DefaultBudget.Models
	}
	return budget.Models
}

// atomCollector returns a walk that appends every reference atom (a = b)
// of the formulas it is given to *out, each once.
func atomCollector(out *[]*smt.Formula) func(*smt.Formula) {
	seen := map[*smt.Formula]bool{}
	var walk func(g *smt.Formula)
	walk = func(g *smt.Formula) {
		if g == nil || seen[g] || len(g.Refs()) == 0 {
			return
		}
		seen[g] = true
		if g.Op() == smt.OpEq {
			*out = append(*out, g)
			return
		}
		for _, k := range g.Kids() {
			walk(k)
		}
	}
	return walk
}

func atomKey(a, b smt.Ref) [2]smt.Ref {
	if b < a {
		a, b = b, a
	}
	return [2]smt.Ref{a, b}
}

// refine hands emit the worlds of leaf h: fs (the leaf's data and its data
// condition) under every choice of the reference atoms they show that
// refPhi and the leaf's literals allow, each choice with every atom of fs
// decided and substituted.
//
// The atoms are decided in the order the formulas show them, outermost
// first, and an atom is decided only while fs still shows it: once a
// choice has made an ite's condition true, the atoms of its other branch
// are no longer there. POSE-J's primitive fields are ite chains over the
// aliasing of the references written through; deciding every atom of a
// chain in turn gave every valuation of them (2ⁿ for an atom that only a
// shadowed branch mentions), where the data take one value per path
// through the chain. The worlds are the same (a choice that fs no longer
// shows changes none of its formulas); their number is the number of
// paths.
func refine(solver *smt.Solver, memo *atomMemo, h *Heap, refPhi *smt.Formula, fs []*smt.Formula, emit func([]*smt.Formula) error) (err error) {
	if len(memo.atomsOf(fs)) == 0 {
		return emit(fs)
	}
	rc := &refineCtx{solver: solver, refPhi: refPhi, leaf: h}
	defer func() {
		if rerr := rc.releaseAll(); err == nil {
			err = rerr
		}
	}()
	return decideAtoms(rc, memo, memo.leafContext(refPhi, h.lits), fs, emit)
}

// refineCtx is the solver's assumptions while a leaf is refined: φ_q's
// reference part, the leaf's literals, then the value of each atom
// branched on. They are made only when a question needs them (ensure):
// a leaf whose atoms the leaf's closure and the memo decide costs no
// assumption at all, and assuming a leaf's literals (propagating them
// through φ_q's disjunctions) was half of what refining it cost. φ_q's
// reference part and the leaf's literals are two assumptions, not their
// conjunction: interning that conjunction (φ_q's conjuncts and the
// literals, per leaf) was a fifth of the refinement at k = 3.
type refineCtx struct {
	solver *smt.Solver
	refPhi *smt.Formula
	leaf   *Heap
	// chain are the assumptions after the leaf's literals (the values of
	// the atoms branched on); made counts the assumptions made: φ_q's
	// reference part, the leaf's literals, then the chain's.
	chain []*smt.Formula
	made  int
	// closure is the closure of the leaf's literals (leafeval.go), built
	// when an atom is asked that the memo does not know; nil with
	// closureMade is no closure (every atom goes to the solver).
	closure     *leafEval
	closureMade bool
}

// leafAssumptions are the assumptions made before the chain's.
const leafAssumptions = 2

// ensure makes every assumption not made yet.
func (rc *refineCtx) ensure() error {
	for rc.made < leafAssumptions+len(rc.chain) {
		var f *smt.Formula
		switch rc.made {
		case 0:
			f = rc.refPhi
		case 1:
			f = smt.And(rc.leaf.lits...)
		default:
			f = rc.chain[rc.made-leafAssumptions]
		}
		if err := rc.solver.Assume(f); err != nil {
			return err
		}
		rc.made++
	}
	return nil
}

// closureOf returns the closure of the leaf's literals, built on first use.
func (rc *refineCtx) closureOf() *leafEval {
	if !rc.closureMade {
		rc.closure, rc.closureMade = newLeafEval(rc.leaf.lits), true
	}
	return rc.closure
}

func (rc *refineCtx) push(lit *smt.Formula) { rc.chain = append(rc.chain, lit) }

// pop drops the last branch value, released when it was assumed.
func (rc *refineCtx) pop() error {
	n := len(rc.chain)
	rc.chain = rc.chain[:n-1]
	if rc.made == leafAssumptions+n {
		rc.made--
		return rc.solver.Release()
	}
	return nil
}

// releaseAll releases what is still assumed: φ_q's reference part and the
// leaf's literals when a question made them, and after an error the
// values of the atoms branched on too. The worlds are handed on (yield)
// with or without the assumptions made: emit asks the solver nothing.
func (rc *refineCtx) releaseAll() error {
	var err error
	for ; rc.made > 0; rc.made-- {
		if rerr := rc.solver.Release(); err == nil {
			err = rerr
		}
	}
	rc.chain = rc.chain[:0]
	return err
}

// visibleAtoms calls yield with the reference atoms (a = b) of fs in a
// pre-order walk, each once, until it returns false.
func visibleAtoms(fs []*smt.Formula, yield func(*smt.Formula) bool) {
	seen := map[*smt.Formula]bool{}
	var walk func(g *smt.Formula) bool
	walk = func(g *smt.Formula) bool {
		if g == nil || seen[g] || len(g.Refs()) == 0 {
			return true
		}
		seen[g] = true
		if g.Op() == smt.OpEq {
			return yield(g)
		}
		for _, k := range g.Kids() {
			if !walk(k) {
				return false
			}
		}
		return true
	}
	for _, f := range fs {
		if !walk(f) {
			return
		}
	}
}

// decideAtoms gives the reference atoms of fs truth values the solver's
// assumptions allow, while fs shows them (visibleAtoms, outermost first),
// branching where both values are possible, and calls yield with fs under
// each complete choice. The atoms the assumptions force are substituted
// together, in one pass (a pass per atom was most of the data half on a
// summary state's long guards), and the first atom left open is branched
// on. ctx names the assumptions in memo (the values an atom can take
// under them are looked up there before they are asked).
func decideAtoms(rc *refineCtx, memo *atomMemo, ctx int32, fs []*smt.Formula, yield func([]*smt.Formula) error) error {
	atoms := memo.atomsOf(fs)
	if len(atoms) == 0 {
		return yield(fs)
	}
	can := make([][2]bool, len(atoms))
	var ask []*smt.Formula
	var askAt []int
	for i, a := range atoms {
		if c, ok := memo.get(ctx, a); ok {
			can[i] = c
			continue
		}
		ask = append(ask, a)
		askAt = append(askAt, i)
	}
	if len(ask) > 0 {
		asked, err := possible(rc.solver, rc.ensure, rc.closureOf(), ask)
		if err != nil {
			return err
		}
		for k, i := range askAt {
			can[i] = asked[k]
			memo.put(ctx, atoms[i], asked[k])
		}
	}
	forced := map[[2]smt.Ref]bool{}
	var open *smt.Formula
	for i, a := range atoms {
		x, y := a.Atom()
		switch {
		case can[i][0] != can[i][1]:
			forced[[2]smt.Ref{x, y}] = can[i][1]
		case !can[i][0]:
			return fmt.Errorf("a leaf of the concretization search is unsatisfiable")
		case open == nil:
			open = a
		}
	}
	if open == nil {
		return yield(memo.substAll(ctx, false, fs, forced))
	}
	x, y := open.Atom()
	for i, lit := range []*smt.Formula{smt.Not(open), open} {
		rc.push(lit)
		forced[[2]smt.Ref{x, y}] = i == 1
		child := memo.branch(ctx, open, i == 1)
		err := decideAtoms(rc, memo, child, memo.substAll(child, true, fs, forced), yield)
		if rerr := rc.pop(); err == nil {
			err = rerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// possible tells, for each atom, which of its values the solver's
// assumptions allow: can[i][1] a true, can[i][0] false. The closure of
// the leaf's literals decides what it can; a value a kept model shows
// (Solver.Witnessed) is possible; the others are asked together, as one
// disjunction, whose model (when there is one) shows more of them, until
// the disjunction of those left is unsatisfiable: most atoms are forced,
// and a leaf's two dozen atoms cost two or three questions, not one or
// two each. Without kept models (the Go decider off, faults injected)
// every value left is asked alone.
//
// ensure makes the solver's assumptions; it is called before the first
// question, and not at all when the closure decides every atom.
func possible(solver *smt.Solver, ensure func() error, closure *leafEval, atoms []*smt.Formula) ([][2]bool, error) {
	can := make([][2]bool, len(atoms))
	asked := make([][2]bool, len(atoms)) // the values settled (possible or not)
	lit := func(i, v int) *smt.Formula {
		if v == 1 {
			return atoms[i]
		}
		return smt.Not(atoms[i])
	}
	ask := func(i, v int) (bool, error) {
		ok, err := solver.Sat(lit(i, v))
		if err == nil {
			can[i][v], asked[i][v] = ok, true
		}
		return ok, err
	}
	for i, a := range atoms {
		if t := closure.truth(a); t != 0 {
			v := 0
			if t > 0 {
				v = 1
			}
			can[i][v], asked[i] = true, [2]bool{true, true}
		}
	}
	settled := true
	for i := range atoms {
		settled = settled && asked[i][0] && asked[i][1]
	}
	if settled {
		return can, nil
	}
	if err := ensure(); err != nil {
		return nil, err
	}
	for {
		var rest []*smt.Formula
		unseen := -1 // an atom no model shows either way, not settled
		for i := range atoms {
			for v := 0; v < 2; v++ {
				if asked[i][v] {
					continue
				}
				if solver.Witnessed(lit(i, v)) {
					can[i][v], asked[i][v] = true, true
					continue
				}
				rest = append(rest, lit(i, v))
			}
			if unseen < 0 && !can[i][0] && !can[i][1] && !(asked[i][0] && asked[i][1]) {
				unseen = i
			}
		}
		if len(rest) == 0 {
			return can, nil
		}
		// Such an atom is asked alone, true first, then false (the
		// disjunction of both its values is true, and would find no
		// model): the model of its possible value then shows the others.
		if unseen >= 0 {
			for v := 1; v >= 0; v-- {
				if asked[unseen][v] {
					continue
				}
				if ok, err := ask(unseen, v); err != nil || ok {
					if err != nil {
						return nil, err
					}
					break
				}
			}
			continue
		}
		ok, err := solver.Sat(smt.Or(rest...))
		if err != nil {
			return nil, err
		}
		if !ok {
			return can, nil // none of the rest is possible
		}
		progress := false
		for i := range atoms {
			for v := 0; v < 2; v++ {
				if !asked[i][v] && solver.Witnessed(lit(i, v)) {
					progress = true
				}
			}
		}
		if progress {
			continue
		}
		for i := range atoms {
			for v := 0; v < 2; v++ {
				if !asked[i][v] {
					if _, err := ask(i, v); err != nil {
						return nil, err
					}
				}
			}
		}
		return can, nil
	}
}

// ExactData checks the data half of P ⊏ q (see above) for a group whose
// reference half holds. The outcome names the world or the GSE state that
// breaks it.
func ExactData(P []*machine.State, q *machine.State, solver *smt.Solver, budget Budget) ExactResult {
	return ExactDataLeaves(P, q, nil, solver, budget)
}

// ExactDataLeaves is ExactData with the leaves of q's concretization that
// the reference half made (ExactResult.Leaves of a check that held), nil:
// searched here. They are what the search here would give: the same
// search of the same state, complete, and the same leaves in the same
// order (the concretization cache that the first search filled replays
// them). Only their number can differ in effect: the data half's search
// stops at its own bound (Budget.Models, DefaultBudget's when unbounded),
// so leaves over that bound are not taken, and the search here reports
// the enumeration incomplete as before.
func ExactDataLeaves(P []*machine.State, q *machine.State, leaves Leaves, solver *smt.Solver, budget Budget) ExactResult {
	if len(leaves) > dataLimit(budget) {
		leaves = nil
	}
	d, stop := prepareData(P, q, solver, budget, leaves)
	if stop != nil {
		return *stop
	}
	return d.exact(nil, solver)
}

// exact is ExactData over the states of P whose keep is true (all of them
// when keep is nil); a PIndex is an index into P.
func (d *dataWorlds) exact(keep []bool, solver *smt.Solver) ExactResult {
	return d.exactParts(keep, keep, solver)
}

// exactParts is exact with (b) over the states of P whose bKeep is true
// and (a) over those whose aKeep is true (nil: all of them).
func (d *dataWorlds) exactParts(bKeep, aKeep []bool, solver *smt.Solver) ExactResult {
	heaps, ps, ws, facts, worlds, byKey, byWorld := d.heaps, d.ps, d.ws, d.facts, d.worlds, d.byKey, d.byWorld
	in := func(i int) bool { return bKeep == nil || bKeep[i] }
	inA := func(i int) bool { return aKeep == nil || aKeep[i] }
	undecided := func(what string, err error) ExactResult {
		return ExactResult{Outcome: Inconclusive, PIndex: -1, Heaps: len(heaps), Reason: "data: " + what + ": " + err.Error()}
	}
	fails := func(ambiguous bool, res ExactResult) ExactResult {
		res.Heaps = len(heaps)
		if ambiguous {
			res.Outcome = Inconclusive
			res.Reason += " (unreachable locations of one class: another isomorphism may match the data)"
		} else {
			res.Outcome = Fails
		}
		return res
	}
	// (b) every world's data is some GSE state's.
	for j, h := range heaps {
		if knobs.DataSkipB.Load() || (knobs.DataSkipLastWorldB.Load() && j == len(heaps)-1) {
			continue // a checker mutation (tests only)
		}
		var alts []*smt.Formula
		amb := ws[j].ambiguous
		for _, i := range byKey[ws[j].key] {
			if !in(i) {
				continue
			}
			eq, ok := equal(ps[i].data, ws[j].data)
			if !ok {
				continue
			}
			alts = append(alts, smt.And(facts[i], eq))
		}
		ok, err := solver.Sat(smt.And(worlds[j], smt.Not(smt.Or(alts...))))
		if err != nil {
			return undecided(fmt.Sprintf("(b) world %d", j), err)
		}
		if ok {
			return fails(amb, ExactResult{PIndex: -1, Heap: h,
				Reason: "(b) data: in a concretization of q some input gives slot values no GSE state of the group has: " + h.String()})
		}
	}
	// (a) every GSE state's data is reached by q.
	for i := range ps {
		if !inA(i) || knobs.DataSkipA.Load() {
			continue
		}
		js := byWorld[ps[i].key]
		if len(js) == 0 {
			return ExactResult{Outcome: Inconclusive, PIndex: i, Heaps: len(heaps),
				Reason: fmt.Sprintf("data: P[%d] is isomorphic to no concretization of q", i)}
		}
		var alts []*smt.Formula
		for _, j := range js {
			eq, ok := equal(ps[i].data, ws[j].data)
			if !ok {
				continue
			}
			alts = append(alts, smt.And(worlds[j], eq))
		}
		ok, err := solver.Sat(smt.And(facts[i], smt.Not(smt.Or(alts...))))
		if err != nil {
			return undecided(fmt.Sprintf("(a) P[%d]", i), err)
		}
		if ok {
			return fails(ps[i].ambiguous, ExactResult{PIndex: i,
				Reason: fmt.Sprintf("(a) data: for some input of P[%d], q has no world with its slot values", i)})
		}
	}
	return ExactResult{Outcome: Holds, PIndex: -1, Heaps: len(heaps)}
}

// ExactDataCompatible is the data half of exactness for a sibling of a
// Partition engine (PRIMITIVES.md §5, partition exactness). P are the GSE
// states whose heaps q represents; keep[i] says whether P[i] also meets
// the satisfiability half of the data condition of representation,
// S(φ_p^h ∧ φ_q ∧ HC_h): some input reaches both P[i] and a world of q
// isomorphic to it. Siblings may share a heap shape and differ only in
// data (the two branches of If (sym) joining at one control, as in
// (if c true else true)), so the GSE states a sibling stands for are the
// compatible ones, and res is ExactData, (a) and (b), over them alone.
// Where the canonical isomorphism is not the only one (unreachable
// locations of one class), an incompatibility under it decides nothing
// and the state is kept: ExactData then reports inconclusive, never a
// violation. keep is nil when res is inconclusive before it was decided.
func ExactDataCompatible(P []*machine.State, q *machine.State, solver *smt.Solver, budget Budget) (keep []bool, res ExactResult) {
	return ExactDataCompatibleLeaves(P, q, nil, solver, budget)
}

// ExactDataCompatibleLeaves is ExactDataCompatible with q's complete
// concretization leaves, which the caller has made for the reference half
// (nil: searched here).
func ExactDataCompatibleLeaves(P []*machine.State, q *machine.State, leaves Leaves, solver *smt.Solver, budget Budget) (keep []bool, res ExactResult) {
	d, stop := prepareData(P, q, solver, budget, leaves)
	if stop != nil {
		return nil, *stop
	}
	// P[i] is this sibling's when the sibling reaches every input of it
	// with its data: (a) for P[i] alone. A shape match is not enough:
	// two siblings can concretize to one heap shape whose isomorphism
	// maps an input object to another input object (a δ resolved to an
	// alias in one sibling, fresh in the other; FINDINGS.md, the Kiasan
	// data case), and the spec's isomorphism keeps input objects. A state
	// no sibling keeps breaks the cover (P2), checked by the caller over
	// the union. (b) is over every state the sibling matches by shape:
	// each of its worlds must be some GSE state's.
	keep = make([]bool, len(P))
	for i := range P {
		var alts []*smt.Formula
		for _, j := range d.byWorld[d.ps[i].key] {
			eq, ok := equal(d.ps[i].data, d.ws[j].data)
			if ok {
				alts = append(alts, smt.And(d.worlds[j], eq))
			}
		}
		if len(alts) == 0 {
			continue
		}
		missed, err := solver.Sat(smt.And(d.facts[i], smt.Not(smt.Or(alts...))))
		if err != nil {
			return nil, ExactResult{Outcome: Inconclusive, PIndex: i, Heaps: len(d.heaps), Reason: fmt.Sprintf("data: compatibility of P[%d]: %v", i, err)}
		}
		keep[i] = !missed || d.ps[i].ambiguous
	}
	return keep, d.exactParts(nil, keep, solver)
}

// SortConsistent is well-formedness's sort consistency (PRIMITIVES.md §5):
// every primitive field of every location holds a term of the field's sort.
func SortConsistent(q *machine.State) *Violation {
	for l, info := range q.Locs {
		for _, f := range info.Class.PrimFields {
			t := q.PrimField(machine.Loc(l), f)
			if t == nil || t.Sort() != machine.Sort(f.T) {
				return &Violation{Check: "sorts", Reason: fmt.Sprintf("l%d.%s holds %v, not a term of sort %s", l, f.Name, t, f.T)}
			}
		}
	}
	return nil
}
