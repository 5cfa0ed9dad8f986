package smt

import (
	"errors"
	"slices"

	"github.com/lockstep-dev/lockstep/internal/knobs"
)

// Questions with data, asked in parts.
//
// The summary engine's path conditions over data are conjunctions of a
// reference part R (conjuncts without data, which the Go decider decides)
// and of comparisons of primitive values read through the heap, such as
// α(r1.f4) < ite(r4 ≠ null ∧ r7 ≠ null ∧ r4 ≠ r7, α(r7.f2), α(r4.f2)), the
// ite's condition being the guard of a field read. Asked whole, such a
// question is Z3's, with its hundreds of guards, and as the path grows by
// one conjunct a step Z3 gets a new, larger question every step: on the
// tree programs at k = 3 that was nearly all of the engine's time
// (docs/PERFORMANCE.md, "Questions with data"). Sat (outside assumptions)
// asks it in parts instead, in two steps, each exact:
//
//   - Reference cases. Let D be the data conjuncts and A the reference
//     atoms a = b that occur in D. For a valuation σ of A, D[σ] (every atom
//     of A replaced by its value, the constructors folding the ites and
//     comparisons that become constant) mentions no reference. So R ∧ D is
//     satisfiable iff some σ has R ∧ σ satisfiable and D[σ] satisfiable:
//     the two share no symbol, and a model of R ∧ σ with a model of D[σ]
//     is a model of R ∧ D. The valuations are enumerated depth first over
//     A with R pushed into the Go decider as one level and each literal of
//     σ as one more, so a branch R contradicts is cut at once and an atom R
//     (with the literals so far) decides is not split on; each complete σ
//     is checked by the decider. A question with too many atoms or cases
//     (caseAtoms, caseLeaves), or one the decider's budget stops, is asked
//     whole, as before. The D[σ] of a question recur (the determinism check
//     and the null guards ask φ ∧ g for many reference guards g, with one
//     D), so they are remembered by D and σ.
//
//   - The data's cases first. When the decider cannot settle R, or the
//     cases under it, within a small budget (R is then a guard of many
//     references nested in disjunctions, as on a long path of the BST
//     delete at k = 3), and D has at most refCaseAtoms atoms, the cases
//     are taken the other way round (satRefCases): every valuation σ of
//     A that equality allows has D[σ] asked (cached as above), and
//     R ∧ D is satisfiable iff R ∧ (σ1 ∨ … ∨ σm) is, over the σi with
//     D[σi] satisfiable, by the same argument. That is one question
//     without data, answered by a model kept from an earlier one of these
//     (a witness) or by clause learning (cdcl.go), whose learned clauses
//     carry over from one question to the next, and only past its bounds
//     by the whole route (DPLL, Z3's reference solver). Z3 then sees only
//     D[σ], small questions without references. After the decider gives
//     up once, the next refFirstRun questions come here at once.
//
//   - Constraint independence (KLEE's). Conjuncts are grouped by the free
//     symbols they share: references (r_null too, a constant like the
//     others) and input symbols α(r, f) (whose r only names the symbol: it
//     is no constant of the formula). Groups that share no symbol are
//     satisfiable together exactly when each is: models of each, over
//     disjoint symbols, make a model of the whole (the reference sort is
//     uninterpreted and equality is its only predicate, so the models'
//     domains can be put side by side). Each group is asked, and cached, as
//     a formula of its own; a group without data goes to the Go decider.
//     This applies to each D[σ], and to a question the cases do not take.
//
// Once the guards fold, the data of a path condition is a conjunction of
// comparisons between input symbols that recurs from one question to the
// next: a case is answered from the cache, or is one small question without
// references for Z3.
//
// Unknown stays unknown. A conjunction of groups is unsat as soon as one
// group is unsat (that proves the whole unsatisfiable), sat only when every
// group is sat, and otherwise unknown; a question in cases is sat as soon
// as one case is sat (its model is the whole question's), unsat only when
// every case is unsat, and otherwise unknown. Unknown is an error wrapping
// ErrUnknown, as from Check. Model requests (Model) never come here: they
// ask the whole question, so their values are unchanged. Nothing is asked
// in parts under the term-layer mutant (knobs.SMTLeAsLt, which changes
// Z3's translation of <=: folding in Go would bypass it) or under fault
// injection (faults.go), so that a run with faults asks, and draws faults
// for, the questions it always did.

// caseAtoms and caseLeaves bound the reference cases of one question: at
// most caseAtoms atoms in D, and at most caseLeaves valuations reaching a
// check of D[σ]; past either the question is asked whole.
const (
	caseAtoms  = 24
	caseLeaves = 64
	caseBudget = 20_000
	// caseBudgetShort is the decider's budget for the cases of a
	// question that satRefCases can take instead (satCases).
	caseBudgetShort = 500
)

// satParts answers the question f with data in parts. done is false when
// it does not split: the caller asks f whole.
func (s *Solver) satParts(f *Formula) (v, done bool, err error) {
	if f.op != OpAnd || knobs.SMTLeAsLt.Load() || s.z.gate.faults != nil {
		return false, false, nil
	}
	ref, data := byData(f.kids)
	guarded := slices.ContainsFunc(data, func(k *Formula) bool { return len(k.refs) > 0 })
	if guarded && !s.dec.off {
		if v, done, err := s.satCases(ref, data); done {
			return v, true, err
		}
	}
	parts := groups(f.kids)
	if len(parts) == 1 {
		return false, false, nil
	}
	s.stats.Split++
	return s.satGroups(parts)
}

// byData splits the conjuncts fs into those without data (ref) and those
// with (data), each in its order.
func byData(fs []*Formula) (ref, data []*Formula) {
	for _, k := range fs {
		if k.data {
			data = append(data, k)
		} else {
			ref = append(ref, k)
		}
	}
	return ref, data
}

// satGroups answers the conjunction of parts that share no symbol.
func (s *Solver) satGroups(parts []*Formula) (v, done bool, err error) {
	// The groups without data first: the Go decider answers them at once,
	// and one unsat settles the question.
	slices.SortStableFunc(parts, func(x, y *Formula) int {
		switch {
		case x.data == y.data:
			return 0
		case !x.data:
			return -1
		}
		return 1
	})
	var unknown error
	for _, p := range parts {
		ok, err := s.satPart(p)
		switch {
		case err != nil && errors.Is(err, ErrUnknown):
			if unknown == nil {
				unknown = err
			}
		case err != nil:
			return false, true, err
		case !ok:
			return false, true, nil
		}
	}
	if unknown != nil {
		return false, true, unknown
	}
	return true, true, nil
}

// partFault, set only by a test, fails the parts it returns an error for,
// as Z3 would, to show how a part's unknown decides the question.
var partFault func(p *Formula) error

// satRefFree answers a formula without references: from the cache, or by
// its independent groups.
func (s *Solver) satRefFree(d *Formula) (bool, error) {
	if d.op != OpAnd {
		return s.satPart(d)
	}
	if v, ok := s.sat[d.id]; ok {
		s.stats.CacheHits++
		return v, nil
	}
	parts := groups(d.kids)
	if len(parts) == 1 {
		return s.satPart(d)
	}
	v, _, err := s.satGroups(parts)
	if err != nil {
		return false, err
	}
	remember(s.sat, d.id, v, s.satLimit)
	return v, nil
}

// satCases answers R ∧ D (R the conjunction of ref, D of data) by the
// reference cases of D's atoms. done is false when the cases are past the
// bounds or the decider's budget.
func (s *Solver) satCases(ref, data []*Formula) (v, done bool, err error) {
	// An answer found in Go passes the gate as the decider's do
	// (interrupt.go), so that a canceled solver says so.
	answer := func(v bool) (bool, bool, error) {
		s.stats.Split++
		r := Unsat
		if v {
			r = Sat
		}
		lr, err := s.z.goAnswer(r)
		if err != nil {
			return false, true, err
		}
		return lr == lTrue, true, nil
	}
	// When satRefCases can take the question, the decider gets a
	// smaller budget for it: a reference part past that budget is a
	// guard of many references nested in disjunctions, which clause
	// learning answers at less cost than the DPLL's whole caseBudget.
	budget := caseBudget
	if len(s.atomsOf(And(data...))) <= refCaseAtoms {
		budget = caseBudgetShort
		// The questions after one the decider gave up on are its
		// path's, with the same hard reference part and more: they go
		// to satRefCases at once, and the decider is tried again after
		// refFirstRun of them.
		if s.refFirst > 0 {
			s.refFirst--
			if v, done, err := s.satRefCases(ref, data); done {
				return v, true, err
			}
		}
	}
	var unknown error
	sat := false
	ok := s.eachCase(ref, data, budget, func(c *Formula, _ [][2]Ref, _ []tri) bool {
		v, err := s.satRefFree(c)
		switch {
		case err == nil && v:
			sat = true
			return true
		case err != nil && unknown == nil:
			unknown = err
		}
		// An error other than unknown (a cancellation) ends the search.
		return unknown != nil && !errors.Is(unknown, ErrUnknown)
	})
	switch {
	case !ok:
		if budget == caseBudgetShort {
			s.refFirst = refFirstRun
		}
		return s.satRefCases(ref, data)
	case sat:
		return answer(true)
	case unknown != nil:
		s.stats.Split++
		return false, true, unknown
	}
	return answer(false)
}

// project is the reference projection of an assumption f with data: a
// formula without data that has, for every question g without data, f ∧ g
// satisfiable exactly when it is. With R the conjuncts of f without data
// and D the others, it is R ∧ ⋁{σ : D[σ] satisfiable} over the reference
// cases σ of D (satCases): f ∧ g is satisfiable iff some σ has R ∧ σ ∧ g
// satisfiable and D[σ] satisfiable, D[σ] sharing no symbol with the rest.
// It is made only for the outermost assumption (so that D[σ] is asked, and
// cached, in the empty context, and no other assumption constrains its
// symbols), and ok is false past the cases' bounds, under fault injection
// or the term-layer mutant, or when a D[σ] is unknown: the scope is then
// Z3's, as every scope with data was before.
func (s *Solver) project(f *Formula) (p *Formula, ok bool) {
	if s.depth != 0 || s.dec.off || s.z.gate.faults != nil || knobs.SMTLeAsLt.Load() {
		return nil, false
	}
	// The scope being opened is already recorded (Assume appends it
	// before opening the decider's level), and the parts below are asked
	// and cached as answers in the empty context: asked under f, a part
	// that f's other parts contradict would be remembered unsatisfiable
	// for good. Hide f while they are asked.
	n := len(s.assumed)
	hidden, dataAt := s.assumed[n-1], s.dataAt
	s.assumed, s.dataAt = s.assumed[:n-1], -1
	defer func() { s.assumed, s.dataAt = append(s.assumed, hidden), dataAt }()
	kids := []*Formula{f}
	if f.op == OpAnd {
		kids = f.kids
	}
	ref, data := byData(kids)
	var some []*Formula
	failed := false
	ok = s.eachCase(ref, data, caseBudget, func(c *Formula, atoms [][2]Ref, val []tri) bool {
		v, err := s.satRefFree(c)
		if err != nil {
			failed = true
			return true
		}
		if v {
			some = append(some, valuationOf(atoms, val))
		}
		return false
	})
	if !ok || failed {
		return nil, false
	}
	s.stats.Projected++
	return And(And(ref...), Or(some...)), true
}

// eachCase calls visit with D[σ] (D the conjunction of data) for each
// valuation σ of D's reference atoms such that R ∧ σ is satisfiable (R the
// conjunction of ref), until visit returns true (stop). It runs with no
// assumption in force in the decider, and leaves it so. ok is false when
// the cases are past the bounds or the decider's budget: nothing is known
// then (visit may have been called).
func (s *Solver) eachCase(ref, data []*Formula, budget int, visit func(c *Formula, atoms [][2]Ref, val []tri) (stop bool)) (ok bool) {
	d := s.dec
	if len(d.levels) > 0 {
		return false
	}
	// A reference part the decider cannot settle within caseBudget is
	// left to Z3 with the whole question: asking it once a case would
	// cost more than the question.
	d.budget = budget
	defer func() {
		for len(d.levels) > 0 {
			d.pop()
		}
		d.budget = 0
	}()
	R := And(ref...)
	if v, ok := s.sat[R.id]; ok && !v {
		s.stats.CacheHits++
		return true // no case
	}
	switch r, ok := d.query(R); {
	case !ok:
		return false
	case r == Unsat:
		remember(s.sat, R.id, false, s.satLimit)
		return true
	}
	remember(s.sat, R.id, true, s.satLimit)
	// R is satisfiable: an unsatisfiable one answers the question with no
	// more than its atoms, however many D has.
	D := And(data...)
	atoms := s.atomsOf(D)
	if len(atoms) > caseAtoms {
		return false
	}
	d.push(ref...)
	val := make([]tri, len(atoms))
	leaves := 0
	gaveUp := false
	// rec reports whether to stop, from atom i on.
	var rec func(i int) bool
	rec = func(i int) bool {
		if d.unsatAt >= 0 {
			return false
		}
		if i == len(atoms) {
			if r, ok := d.query(trueF); !ok {
				gaveUp = true
				return true
			} else if r == Unsat {
				return false
			}
			if leaves++; leaves > caseLeaves {
				gaveUp = true
				return true
			}
			return visit(s.caseOf(D, atoms, val), atoms, val)
		}
		a := atoms[i]
		if t := d.atomValue(a[0], a[1]); t != triOpen {
			val[i] = t
			return rec(i + 1)
		}
		for _, t := range [2]tri{triFalse, triTrue} {
			val[i] = t
			lit := Eq(a[0], a[1])
			if t == triFalse {
				lit = Not(lit)
			}
			d.push(lit)
			stop := rec(i + 1)
			d.pop()
			if stop {
				return true
			}
		}
		return false
	}
	rec(0)
	return !gaveUp
}

// caseOf is D[σ], σ giving atoms[i] the value val[i] (true or false),
// remembered by D and σ.
func (s *Solver) caseOf(D *Formula, atoms [][2]Ref, val []tri) *Formula {
	key := caseKey{d: D.id, n: len(val)}
	for i, t := range val {
		if t == triTrue {
			key.bits[i/64] |= 1 << (i % 64)
		}
	}
	if c, ok := s.cases[key]; ok {
		return c
	}
	m := make(map[[2]Ref]bool, len(atoms))
	for i, a := range atoms {
		m[a] = val[i] == triTrue
	}
	c := SubstAtoms([]*Formula{D}, m)[0]
	if len(s.cases) >= s.satLimit/4 {
		clear(s.cases)
	}
	s.cases[key] = c
	return c
}

// caseKey names a case D[σ]: D's ID and σ's values, one bit an atom.
type caseKey struct {
	d    uint64
	n    int
	bits [(caseAtoms + 63) / 64]uint64
}

// eqAtoms is the reference atoms a = b (a < b) occurring in f, sorted.
func eqAtoms(f *Formula) [][2]Ref {
	seen := make(map[*Formula]bool)
	var out [][2]Ref
	var walk func(g *Formula)
	walk = func(g *Formula) {
		if len(g.refs) == 0 || seen[g] {
			return
		}
		seen[g] = true
		if g.op == OpEq {
			out = append(out, [2]Ref{g.a, g.b})
			return
		}
		for _, k := range g.kids {
			walk(k)
		}
	}
	walk(f)
	slices.SortFunc(out, func(x, y [2]Ref) int {
		if x[0] != y[0] {
			return int(x[0]) - int(y[0])
		}
		return int(x[1]) - int(y[1])
	})
	return out
}

// satPart answers one part: from the cache, by the Go decider when it has
// no data, else by Z3.
func (s *Solver) satPart(p *Formula) (bool, error) {
	switch p.op {
	case OpTrue:
		return true, nil
	case OpFalse:
		return false, nil
	}
	if v, ok := s.sat[p.id]; ok {
		s.stats.CacheHits++
		return v, nil
	}
	if partFault != nil {
		if err := partFault(p); err != nil {
			return false, err
		}
	}
	return s.checkRemember(p)
}

// groups partitions the conjuncts fs into the conjunctions of the classes
// of "shares a free symbol" (a reference or an input symbol), closed
// transitively. The groups come in the order of their first conjunct.
func groups(fs []*Formula) []*Formula {
	parent := make([]int, len(fs))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	owner := make(map[uint64]int) // symbol → a conjunct that has it
	see := func(key uint64, i int) {
		if j, ok := owner[key]; ok {
			a, b := find(i), find(j)
			if a != b {
				parent[a] = b
			}
			return
		}
		owner[key] = i
	}
	// A node shared by two conjuncts joins them: whatever symbols lie
	// under it are the first one's too. So each node is walked once.
	seen := make(map[*Formula]int)
	var syms func(g *Formula, i int)
	syms = func(g *Formula, i int) {
		if !g.data || g.op == OpInt {
			return // a constant joins nothing
		}
		if j, ok := seen[g]; ok {
			if a, b := find(i), find(j); a != b {
				parent[a] = b
			}
			return
		}
		seen[g] = i
		if g.op == OpSym {
			see(g.id, i)
			return
		}
		for _, k := range g.kids {
			syms(k, i)
		}
	}
	for i, f := range fs {
		for _, r := range f.refs {
			see(1<<63|uint64(uint32(r)), i) // formula IDs stay below 2^63
		}
		syms(f, i)
	}
	var order []int
	members := make(map[int][]*Formula)
	for i, f := range fs {
		r := find(i)
		if _, ok := members[r]; !ok {
			order = append(order, r)
		}
		members[r] = append(members[r], f)
	}
	out := make([]*Formula, len(order))
	for i, r := range order {
		out[i] = And(members[r]...)
	}
	return out
}

// refFirstRun is how many questions go to satRefCases at once after the
// decider gave up on one (satCases).
const refFirstRun = 32

// refCaseAtoms bounds the atoms of D that satRefCases enumerates without
// R: at most 2^refCaseAtoms valuations, caseLeaves, each a question
// without references, cached by D and the valuation.
const refCaseAtoms = 6

// satRefCases answers R ∧ D (R the conjunction of ref, D of data) when the
// decider cannot enumerate D's reference cases under R within its budget:
// R is then a guard of many references nested in disjunctions. It asks the
// data first: every valuation σ of D's atoms that equality allows (no
// atom false whose constants the true ones join) has its case D[σ] asked
// (a formula without references, cached), and R ∧ D is satisfiable iff
// R ∧ (σ1 ∨ … ∨ σm) is, over the σi with D[σi] satisfiable: a question
// without data, the Go decider's and clause learning's (Check), asked and
// cached once. done is false (the caller asks the question whole) past
// the atoms' bound or when a case is unknown.
func (s *Solver) satRefCases(ref, data []*Formula) (v, done bool, err error) {
	D := And(data...)
	atoms := s.atomsOf(D)
	if len(atoms) > refCaseAtoms {
		return false, false, nil
	}
	idx := make(map[Ref]int)
	for _, a := range atoms {
		for _, r := range a {
			if _, ok := idx[r]; !ok {
				idx[r] = len(idx)
			}
		}
	}
	parent := make([]int, len(idx))
	find := func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	val := make([]tri, len(atoms))
	var some []*Formula
	for bits := 0; bits < 1<<len(atoms); bits++ {
		for i := range parent {
			parent[i] = i
		}
		for i, a := range atoms {
			val[i] = triFalse
			if bits&(1<<i) != 0 {
				val[i] = triTrue
				x, y := find(idx[a[0]]), find(idx[a[1]])
				parent[x] = y
			}
		}
		consistent := true
		for i, a := range atoms {
			if val[i] == triFalse && find(idx[a[0]]) == find(idx[a[1]]) {
				consistent = false
				break
			}
		}
		if !consistent {
			continue
		}
		ok, err := s.satRefFree(s.caseOf(D, atoms, val))
		switch {
		case err != nil && errors.Is(err, ErrUnknown):
			return false, false, nil
		case err != nil:
			return false, true, err
		case !ok:
			continue
		}
		some = append(some, valuationOf(atoms, val))
	}
	s.stats.Split++
	q := And(And(ref...), Or(some...))
	if q.op == OpFalse {
		return false, true, nil
	}
	if v, ok := s.sat[q.id]; ok {
		s.stats.CacheHits++
		return v, true, nil
	}
	if s.dec.cross {
		// Cross-checked with Z3 as every Go answer is (goCheck).
		v, err = s.checkRemember(q)
		return v, true, err
	}
	r, ok := s.refDecide(q)
	if !ok {
		v, err = s.checkRemember(q)
		return v, true, err
	}
	// Through the gate, as the decider's answers (interrupt.go).
	lr, err := s.z.goAnswer(r)
	if err != nil {
		return false, true, err
	}
	v = lr == lTrue
	remember(s.sat, q.id, v, s.satLimit)
	return v, true, nil
}

// refDecide answers q (no data, no assumption in force) by a kept model
// or by clause learning, without the DPLL's first budget (satCases has
// just spent one on q's reference part); decided is false past clause
// learning's bounds.
func (s *Solver) refDecide(q *Formula) (r Result, decided bool) {
	if s.refModelSat(q) {
		s.stats.Decided++
		s.dec.fromModel++
		s.stats.FromModels = s.dec.fromModel
		return Sat, true
	}
	if len(q.refs) > cdclMaxRefs {
		return Unknown, false
	}
	if s.learn == nil {
		s.learn = newCDCL()
	}
	s.learn.wantModel = true
	sat, ok := s.learn.decideInc(q)
	if ok && sat && !s.modelChecks(q, s.learn.model) {
		// Never seen: the incremental route's sat answer without a
		// model of q. decide starts from level 0 and keeps nothing of
		// the route's trail (leaveInc).
		s.dec.incModelMiss++
		s.learn.leaveInc()
		sat, ok = s.learn.decide(q)
	}
	s.learn.wantModel = false
	if !ok {
		return Unknown, false
	}
	s.stats.Decided++
	s.stats.Learned++
	if !sat {
		return Unsat, true
	}
	s.keepRefModel(s.learn.model)
	return Sat, true
}

// atomsOf is eqAtoms(D), remembered by D's ID.
func (s *Solver) atomsOf(D *Formula) [][2]Ref {
	atoms, ok := s.atoms[D.id]
	if !ok {
		atoms = eqAtoms(D)
		if len(s.atoms) >= s.satLimit/4 {
			clear(s.atoms)
		}
		s.atoms[D.id] = atoms
	}
	return atoms
}

// refModel is a model of a question without data: the class of each of
// refs, named by its representative rep[i] (a constant not in refs has a
// class of its own).
type refModel struct {
	refs, rep []Ref
}

// refModelsKept bounds the models satRefCases keeps.
const refModelsKept = 16

// keepRefModel keeps m, dropping the oldest past the bound.
func (s *Solver) keepRefModel(m refModel) {
	if len(s.refModels) >= refModelsKept {
		copy(s.refModels, s.refModels[1:])
		s.refModels = s.refModels[:len(s.refModels)-1]
	}
	s.refModels = append(s.refModels, m)
}

// refModelSat reports whether a kept model makes q (no data) true: a
// witness that q is satisfiable, never a proof of the contrary. The
// questions of one state (its path condition with each guard of a value
// set) and of the states after it share most of their conjuncts, and one
// model often satisfies many of them; evaluating q in the decider's
// compiled arena costs one pass over q, far less than a search.
func (s *Solver) refModelSat(q *Formula) bool {
	d := s.dec
	if len(s.refModels) == 0 || len(d.levels) > 0 {
		return false
	}
	root := d.compile(q)
	top := int32(0)
	for _, r := range q.refs {
		top = max(top, d.index(r)+1)
	}
	found := false
	for k := len(s.refModels) - 1; k >= 0 && !found; k-- {
		found = s.evalRefModel(root, top, q, s.refModels[k])
	}
	if len(d.parent) > 4096 || len(d.nodes) > 1<<16 {
		d.reset()
	}
	return found
}

// evalRefModel reports whether the model km makes q, compiled to root in
// the decider's arena with top its constants' bound, true.
func (s *Solver) evalRefModel(root int32, top int32, q *Formula, km refModel) bool {
	d := s.dec
	// A model of its own each time (evalIn remembers a node's value by
	// the model's id, and these classes are q's, not km's).
	reps := make([]int32, top)
	for i := range reps {
		reps[i] = int32(i)
	}
	// The class of each constant of q: the first constant of q with the
	// same representative in km.
	first := make(map[Ref]int32, len(q.refs))
	for _, r := range q.refs {
		rep := r
		if i, ok := slices.BinarySearch(km.refs, r); ok {
			rep = km.rep[i]
		}
		if j, ok := first[rep]; ok {
			reps[d.index(r)] = j
		} else {
			first[rep] = d.index(r)
		}
	}
	d.nextEpoch()
	return d.evalIn(root, d.newModel(reps))
}

// modelChecks q (no data, no assumption in force) against m, the model
// clause learning's incremental route gave with its sat answer: one pass
// over q. The route answers from a trail kept across questions, whose
// invariants a bug could break without any single question showing it;
// a sat answer whose model does not make q true is not taken (refDecide
// asks decide afresh).
func (s *Solver) modelChecks(q *Formula, m refModel) bool {
	d := s.dec
	if len(d.levels) > 0 {
		return false
	}
	root := d.compile(q)
	top := int32(0)
	for _, r := range q.refs {
		top = max(top, d.index(r)+1)
	}
	ok := s.evalRefModel(root, top, q, m)
	if len(d.parent) > 4096 || len(d.nodes) > 1<<16 {
		d.reset()
	}
	return ok
}

// valuationOf is the valuation val of the data's reference atoms as a
// conjunction of literals: a = b where val is true, a ≠ b where false.
func valuationOf(atoms [][2]Ref, val []tri) *Formula {
	lits := make([]*Formula, len(atoms))
	for i, a := range atoms {
		lits[i] = Eq(a[0], a[1])
		if val[i] == triFalse {
			lits[i] = Not(lits[i])
		}
	}
	return And(lits...)
}
