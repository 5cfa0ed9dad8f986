package relation

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Concretize enumerates the concrete heaps q stands for (RULES.md §7): for
// every satisfying assignment of φ_q (over the equalities among q's input
// references and r_null), the heap in which every reference takes the one
// location whose guard holds. Locations made by (new C) are always in the
// heap; an input location is in it when its existence guard holds.
//
// Rather than enumerate assignments and evaluate every guard under each
// (all-SAT over the guards' atoms gives some twenty assignments per heap on
// the LinkedList states, because atoms that only matter for absent
// locations are enumerated too), the heaps are built by a search over the
// choices themselves: starting from the roots, each reference in use takes
// in turn each entry whose guard is satisfiable together with the choices
// made so far; a location reached this way joins the heap and its fields
// are resolved next; input locations never reached are then decided
// present or absent by their existence guards. The constraints of a branch
// are the conjunction of the guards chosen, so the leaves partition the
// assignments of φ_q, and there is one leaf per heap up to the renaming of
// interchangeable locations. Heap.AssignmentFormula is that conjunction.
//
// The search trusts a reference to take exactly one location only where
// that holds under φ_q for all assignments (its guards are pairwise
// exclusive and cover φ_q, checked once per reference). For any other
// reference, every branch that resolves it checks whether zero or two of
// its guards can hold, and returns the first such case as a *WitnessError
// naming the reference and the assignment constraint; so is a reference to
// an input location that may be absent.
//
// The result holds one heap per isomorphism class, in the order first met.
// complete is false when budget.Models leaves were built and the search
// was cut.
func Concretize(q *machine.State, solver *smt.Solver, budget Budget) ([]*Heap, bool, error) {
	return concretizeState(q, solver, budget, false, nil)
}

// ConcretizeWellFormed is Concretize for a q that the caller has already
// found well formed (WellFormedChecks reported no violation): every
// reference in use is trusted without asking, and budget.Cache, if set,
// is used (reuse.go).
func ConcretizeWellFormed(q *machine.State, solver *smt.Solver, budget Budget) ([]*Heap, bool, error) {
	return concretizeState(q, solver, budget, true, nil)
}

// concretizeLeaves runs the search of ConcretizeWellFormed and hands every
// leaf to yield, isomorphic heaps included, with the branch's literals
// (h.lits) holding: a leaf is a set of assignments of φ_q, and the
// leaves partition them. The data half uses the leaves as q's worlds
// (data.go): two leaves with one heap shape can differ in the data read
// through references the heap no longer shows. A leaf built from
// budget.Cache's leaves (reuse.go) may come without its literals
// asserted: yield asserts h's literals before it asks a question, and
// releases what it assumed before it returns. complete is false when
// budget.Models leaves were reached.
func concretizeLeaves(q *machine.State, solver *smt.Solver, budget Budget, yield func(h *Heap) error) (bool, error) {
	_, complete, err := concretizeState(q, solver, budget, true, yield)
	return complete, err
}

// Leaves are the leaves of the concretization search of a well-formed
// state (concretizeLeaves), isomorphic heaps included, each with its
// literals: what ConcretizeWellFormed's heaps are made of (Distinct keeps
// one per isomorphism class), and the worlds of the data half, which
// ExactDataCompatibleLeaves takes instead of searching again.
type Leaves []*Heap

// ConcretizeLeavesWellFormed is ConcretizeWellFormed keeping every leaf.
func ConcretizeLeavesWellFormed(q *machine.State, solver *smt.Solver, budget Budget) (Leaves, bool, error) {
	var leaves Leaves
	complete, err := concretizeLeaves(q, solver, budget, func(h *Heap) error {
		leaves = append(leaves, h)
		return nil
	})
	return leaves, complete, err
}

// Distinct is one heap per isomorphism class of the leaves, in the order
// first met: ConcretizeWellFormed's answer.
func (ls Leaves) Distinct() []*Heap {
	out, _ := ls.distinct()
	return out
}

// distinct is Distinct with the set of the heaps' canonical forms
// (Canonical), which are the leaves' forms too.
func (ls Leaves) distinct() ([]*Heap, map[string]bool) {
	seen := make(map[string]bool, len(ls))
	var out []*Heap
	for _, h := range ls {
		if k := Canonical(h); !seen[k] {
			seen[k] = true
			out = append(out, h)
		}
	}
	return out, seen
}

// concretizeState is Concretize; wellFormed says that q is known to be well
// formed (WellFormedChecks found no violation), so that every reference in
// use is trusted without asking: determinism makes its guards pairwise
// exclusive (even without φ_q) and totality makes them cover φ_q.
func concretizeState(q *machine.State, solver *smt.Solver, budget Budget, wellFormed bool, onLeaf func(*Heap) error) ([]*Heap, bool, error) {
	if err := checkState(q); err != nil {
		return nil, false, err
	}
	c := &concretizer{q: q, solver: solver, limit: budget.Models, budget: budget, seen: map[string]bool{}, wellFormed: wellFormed, onLeaf: onLeaf}
	phi := q.PathCondition()
	ok, err := c.sat(phi)
	if err != nil || !ok {
		return nil, err == nil, err
	}
	c.lits = []*smt.Formula{phi}
	c.onBranch = map[*smt.Formula]int{phi: 1}
	// The search asks its questions incrementally: every literal it
	// chooses is asserted in a solver scope (push), so a question is only
	// the new guard, relative to φ_q and the choices above it; so are the
	// questions of prepare, relative to φ_q. φ_q itself is assumed before
	// the first question or literal (assumePhi): a concretization replayed
	// from cached leaves often asks nothing, and assuming a φ_q with data
	// projects it, a question per case of its data (smt's split.go; on
	// testdata/bench/treemap_remove.jl at k = 3 a seventh of the check).
	// Every exit leaves the solver as it found it.
	base := solver.Assumptions()
	defer func() {
		for solver.Assumptions() > base {
			_ = solver.Release()
		}
	}()
	c.phiPending = phi
	if err := c.prepare(); err != nil {
		return nil, false, err
	}
	cache := budget.Cache
	if !wellFormed {
		cache = nil // only well-formed states' searches are cached
	}
	if cache != nil {
		content, shape := contentKey(q)
		if ls, extends := cache.lookup(content, shape, phi); ls != nil {
			cache.reused++
			var kept []*leafRec
			kept, err = c.fromLeaves(ls, extends && !dataOnlyExtension(phi, ls.pc))
			if extends {
				cache.extended++
				if err == nil {
					cache.store(content, shape, &leafSet{roots: ls.roots, pc: conjuncts(phi), leaves: kept})
				}
			}
		} else {
			c.recording = true
			err = c.search(0)
			c.recording = false
			if err == nil {
				cache.store(content, shape, &leafSet{roots: c.roots, pc: conjuncts(phi), leaves: c.recorded})
			}
			c.recorded = nil
		}
	} else {
		err = c.search(0)
	}
	if err == errStop {
		return c.out, false, nil
	}
	if err != nil {
		return c.out, false, err
	}
	return c.out, true, nil
}

var errStop = fmt.Errorf("relation: concretization budget reached")

// item is a reference to resolve: a root (loc < 0) or field fi of loc.
type item struct {
	ref machine.Ref
	loc machine.Loc
	fi  int
}

type concretizer struct {
	q      *machine.State
	index  []Target // leaf's map from q's locations to a heap's, reused
	solver *smt.Solver
	limit  int

	lits    []*smt.Formula  // φ_q and the guards chosen so far
	exists  []int8          // by location: 1 present, -1 absent, 0 undecided
	agenda  []item          // references to resolve, in order
	target  [][]machine.Loc // by location and field index: the chosen target
	roots   []machine.Ref   // sorted
	rootTo  map[machine.Ref]machine.Loc
	trusted map[machine.Ref]bool
	leaves  int
	out     []*Heap
	seen    map[string]bool
	// wellFormed: q is well formed, every reference in use is trusted.
	wellFormed bool
	budget     Budget // for Done
	// onBranch counts the literals of the current branch (c.lits) by
	// formula: a guard that is one of them holds without asking.
	onBranch map[*smt.Formula]int
	// leafLits are the literals of the cached leaf being replayed
	// (underLeaf), on the branch but not counted in onBranch unless the
	// replay searches.
	leafLits []*smt.Formula
	// ors and notEx keep formulas built during the search (disjunction,
	// notExists).
	ors   map[string]*smt.Formula
	notEx []*smt.Formula
	// onLeaf, when set, gets every leaf's heap (concretizeLeaves) instead
	// of out keeping one per isomorphism class.
	onLeaf func(*Heap) error
	// recording: every leaf is kept in recorded, for Budget.Cache.
	recording bool
	recorded  []*leafRec
	// evalMemo is the scratch memo of a replayed leaf's closure (evalOf).
	evalMemo map[*smt.Formula]int8
	evalFor  *leafEval // the closure whose truths evalMemo holds
	// phiPending is φ_q until it is assumed in the solver (assumePhi).
	phiPending *smt.Formula
	// capture, when set, is told of every leaf (searchRoots), whose
	// literals chosen below the replayed leaf start at captureMark.
	capture     func()
	captureMark int
	// replay, when set, is the cached leaf being replayed (underLeaf),
	// whose literals start in lits at replayMark (leafLiterals).
	replay     *leafRec
	replayMark int
}

func (c *concretizer) sat(f *smt.Formula) (bool, error) {
	if f.IsFalse() {
		return false, nil
	}
	if f.IsTrue() {
		return true, nil
	}
	if err := c.assumePhi(); err != nil {
		return false, err
	}
	ok, err := c.solver.Sat(f)
	if err != nil {
		return false, fmt.Errorf("concretize: %w", err)
	}
	return ok, nil
}

// assumePhi assumes φ_q in the solver if it is not yet: before anything
// is asked or assumed relative to it (sat, push, possible's models,
// underLeaf), so that the solver's scopes are φ_q's and then the
// branch's, as when φ_q was assumed first.
func (c *concretizer) assumePhi() error {
	if f := c.phiPending; f != nil {
		c.phiPending = nil
		return c.solver.Assume(f)
	}
	return nil
}

// with is the whole constraint of the current branch and fs, for reporting.
func (c *concretizer) with(fs ...*smt.Formula) *smt.Formula {
	return smt.And(append(slices.Clone(c.lits), fs...)...)
}

// satHere asks whether fs can hold together with the current branch, whose
// literals are asserted in the solver (see push).
func (c *concretizer) satHere(fs ...*smt.Formula) (bool, error) { return c.sat(smt.And(fs...)) }

// push chooses a literal on the current branch.
func (c *concretizer) push(f *smt.Formula) error {
	if err := c.assumePhi(); err != nil {
		return err
	}
	c.lits = append(c.lits, f)
	c.onBranch[f]++
	return c.solver.Assume(f)
}

// popTo undoes the choices after the first mark literals.
func (c *concretizer) popTo(mark int) error {
	for len(c.lits) > mark {
		f := c.lits[len(c.lits)-1]
		c.lits = c.lits[:len(c.lits)-1]
		if c.onBranch[f]--; c.onBranch[f] == 0 {
			delete(c.onBranch, f)
		}
		if err := c.solver.Release(); err != nil {
			return err
		}
	}
	return nil
}

// prepare runs with φ_q assumed.
func (c *concretizer) prepare() error {
	q := c.q
	c.trusted = map[machine.Ref]bool{}
	for _, r := range RefsInUse(q) {
		if c.wellFormed {
			c.trusted[r] = true
			continue
		}
		g := q.Get(r)
		trusted := true
		guards := make([]*smt.Formula, len(g))
		for i, e := range g {
			guards[i] = e.Guard
		}
		if ok, err := c.satHere(smt.Not(smt.Or(guards...))); err != nil {
			return err
		} else if ok {
			trusted = false
		}
		for i := 0; trusted && i < len(g); i++ {
			for j := i + 1; trusted && j < len(g); j++ {
				if ok, err := c.satHere(g[i].Guard, g[j].Guard); err != nil {
					return err
				} else if ok {
					trusted = false
				}
			}
		}
		c.trusted[r] = trusted
	}
	c.exists = make([]int8, len(q.Locs))
	c.target = make([][]machine.Loc, len(q.Locs))
	c.rootTo = map[machine.Ref]machine.Loc{}
	c.roots = q.Roots()
	slices.Sort(c.roots)
	for _, r := range c.roots {
		c.agenda = append(c.agenda, item{ref: r, loc: -1})
	}
	for l, info := range q.Locs {
		c.target[l] = make([]machine.Loc, len(info.Class.Fields))
		if !info.Input {
			c.include(machine.Loc(l))
		}
	}
	return nil
}

// include makes l present and queues its fields.
func (c *concretizer) include(l machine.Loc) {
	c.exists[l] = 1
	for fi, f := range c.q.Locs[l].Class.Fields {
		c.agenda = append(c.agenda, item{ref: c.q.Field(l, f), loc: l, fi: fi})
	}
}

func (c *concretizer) witness(it item, es []machine.Entry, why string, extra ...*smt.Formula) error {
	where := "root " + machine.RefString(it.ref)
	if it.loc >= 0 {
		where = fmt.Sprintf("%v.%s", it.loc, c.q.Locs[it.loc].Class.Fields[it.fi].Name)
	}
	return &WitnessError{Assignment: c.with(extra...),
		Violation: Violation{Check: CheckConcretization, Ref: it.ref, Entries: es, Reason: where + ": " + why}}
}

func (c *concretizer) search(i int) error {
	if c.budget.stopped() {
		return fmt.Errorf("concretization: %w", ErrStopped)
	}
	if i < len(c.agenda) {
		return c.resolve(i)
	}
	if done, err := c.allAbsent(); done || err != nil {
		return err
	}
	for l, info := range c.q.Locs {
		if c.exists[l] != 0 {
			continue
		}
		// An input location no chosen reference reaches: present or absent
		// as its existence guard decides.
		mark, agenda := len(c.lits), len(c.agenda)
		presentOK := false
		for _, present := range []bool{true, false} {
			g := info.Exists
			if !present {
				g = c.notExists(machine.Loc(l))
			}
			// The branch is satisfiable: if the location cannot be present
			// on it, it is absent without asking.
			ok := !present && !presentOK
			var err error
			if !ok {
				if ok, err = c.satHere(g); err != nil {
					return err
				}
			}
			if present {
				presentOK = ok
			}
			if !ok {
				continue
			}
			if err := c.push(g); err != nil {
				return err
			}
			if present {
				c.include(machine.Loc(l))
			} else {
				c.exists[l] = -1
			}
			err = c.search(i)
			c.agenda, c.exists[l] = c.agenda[:agenda], 0
			if perr := c.popTo(mark); err == nil {
				err = perr
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	return c.leaf()
}

// allAbsent finishes the branch with one question when no input location
// left undecided can be present on it: their existence guards are then all
// unsatisfiable with the branch, each is absent (¬ex joins the branch's
// literals without being asked, as in search), and the leaf follows. On
// the generated programs' large groups nearly every such location is
// absent (152,729 questions of seed 1's program 21 asked one location at a
// time; 19 were satisfiable), so one disjunction replaces a question per
// location. done is false when some location can be present (or none is
// undecided): search then decides them one by one.
func (c *concretizer) allAbsent() (done bool, err error) {
	var undecided []machine.Loc
	var exs []*smt.Formula
	key := append(make([]byte, 0, 1+2*len(c.q.Locs)), 'a')
	for l := range c.q.Locs {
		if c.exists[l] == 0 {
			undecided = append(undecided, machine.Loc(l))
			exs = append(exs, c.q.Locs[l].Exists)
			key = binary.AppendUvarint(key, uint64(l))
		}
	}
	if len(undecided) < 2 {
		return false, nil
	}
	if ok, err := c.satHere(c.disjunction(key, exs)); err != nil || ok {
		return false, err
	}
	// No question is asked below this point, so the literals ¬ex only
	// join the branch's assignment, not the solver or onBranch.
	mark := len(c.lits)
	for _, l := range undecided {
		c.exists[l] = -1
		c.lits = append(c.lits, c.notExists(l))
	}
	err = c.leaf()
	for _, l := range undecided {
		c.exists[l] = 0
	}
	c.lits = c.lits[:mark]
	return true, err
}

// disjunction is smt.Or(fs...), built once per key in a concretization:
// the same sets of unreached locations and of remaining entries recur at
// thousands of leaves, and interning the disjunction anew at each cost as
// much as the question.
func (c *concretizer) disjunction(key []byte, fs []*smt.Formula) *smt.Formula {
	if f, ok := c.ors[string(key)]; ok {
		return f
	}
	f := orMemoized(fs, c.solver)
	if c.ors == nil {
		c.ors = map[string]*smt.Formula{}
	}
	c.ors[string(key)] = f
	return f
}

// orMemoized is smt.Or(fs...), remembered by the solver (smt.Solver.Built)
// under the IDs of fs in their order, with a leading 'o' (a key of its
// own; see noneOfMemoized). The disjunctions of one concretization recur
// in the next one of the same View (a View is concretized at every pair
// it is in): interning them again was a sixteenth of POSE-J's check of
// testdata/trees/successor.jl at k = 3.
func orMemoized(fs []*smt.Formula, solver *smt.Solver) *smt.Formula {
	key := make([]byte, 1, 1+8*len(fs))
	key[0] = 'o'
	for _, f := range fs {
		key = binary.LittleEndian.AppendUint64(key, f.ID())
	}
	return solver.Built(string(key), func() *smt.Formula { return smt.Or(fs...) })
}

// notExists is ¬ex of location l, built once per concretization.
func (c *concretizer) notExists(l machine.Loc) *smt.Formula {
	if c.notEx == nil {
		c.notEx = make([]*smt.Formula, len(c.q.Locs))
	}
	if c.notEx[l] == nil {
		c.notEx[l] = smt.Not(c.q.Locs[l].Exists)
	}
	return c.notEx[l]
}

func (c *concretizer) resolve(i int) error {
	it := c.agenda[i]
	g := c.q.Get(it.ref)
	if !c.trusted[it.ref] {
		guards := make([]*smt.Formula, len(g))
		for k, e := range g {
			guards[k] = e.Guard
		}
		none := smt.Not(smt.Or(guards...))
		if ok, err := c.satHere(none); err != nil || ok {
			if err != nil {
				return err
			}
			return c.witness(it, slices.Clone(g), "no guard holds", none)
		}
		for a := 0; a < len(g); a++ {
			for b := a + 1; b < len(g); b++ {
				if ok, err := c.satHere(g[a].Guard, g[b].Guard); err != nil || ok {
					if err != nil {
						return err
					}
					return c.witness(it, []machine.Entry{g[a], g[b]}, "several guards hold", g[a].Guard, g[b].Guard)
				}
			}
		}
	}
	mark, agenda := len(c.lits), len(c.agenda)
	// The branch is satisfiable (every literal on it was found satisfiable
	// with the ones before it), so a trusted reference takes one of its
	// locations on it: when every entry but the last was unsatisfiable,
	// the last one holds without asking.
	// A guard that is a literal of the branch holds on it, and then the
	// other guards of a trusted reference (exclusive with it under φ_q)
	// cannot: that entry is the only one, and nothing is asked.
	only := -1
	if c.trusted[it.ref] {
		for k, e := range g {
			if e.Guard.IsTrue() || c.onBranch[e.Guard] > 0 {
				only = k
				break
			}
		}
	}
	known, err := c.possible(it.ref, g, only)
	if err != nil {
		return err
	}
	taken := false
	for k, e := range g {
		if only >= 0 && k != only {
			continue
		}
		if known != nil && known[k] < 0 {
			continue
		}
		ok := only == k || (known != nil && known[k] > 0) || (!taken && k == len(g)-1 && c.trusted[it.ref])
		if !ok {
			if ok, err = c.satHere(e.Guard); err != nil {
				return err
			}
		}
		if !ok {
			continue
		}
		taken = true
		l := e.Loc
		if l >= machine.Loc(len(c.q.Locs)) || (l < 0 && l != machine.LNull && l != machine.LUn) {
			return c.witness(it, []machine.Entry{e}, fmt.Sprintf("location %v does not exist", l), e.Guard)
		}
		if err := c.push(e.Guard); err != nil {
			return err
		}
		newly := false
		if l >= 0 {
			switch c.exists[l] {
			case -1:
				return c.witness(it, []machine.Entry{e}, fmt.Sprintf("points to %v, whose existence guard %s does not hold", l, smt.Short(c.q.Locs[l].Exists)))
			case 0:
				ex := c.q.Locs[l].Exists
				if ex != nil && (ex.IsTrue() || c.onBranch[ex] > 0) {
					// ex holds on the branch: ¬ex is unsatisfiable.
				} else if ok, err := c.satHere(smt.Not(ex)); err != nil || ok {
					if err != nil {
						return err
					}
					return c.witness(it, []machine.Entry{e}, fmt.Sprintf("points to %v, whose existence guard %s need not hold", l, smt.Short(ex)), smt.Not(ex))
				}
				if err := c.push(ex); err != nil {
					return err
				}
				c.include(l)
				newly = true
			}
		}
		if it.loc < 0 {
			c.rootTo[it.ref] = l
		} else {
			c.target[it.loc][it.fi] = l
		}
		err = c.search(i + 1)
		if newly {
			c.exists[l] = 0
		}
		c.agenda = c.agenda[:agenda]
		if perr := c.popTo(mark); err == nil {
			err = perr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// possible decides up front, for a trusted reference with entries g and no
// entry forced (only < 0), which entries can be taken on the current
// branch: known[k] is 1 (satisfiable), -1 (not) or 0 (ask as before), and
// nil means nothing is known. An entry that a model the solver kept for the
// branch satisfies is satisfiable without a question; on a branch deep in
// the search one entry of a reference is usually the only one possible
// (86 % of the entry questions on the large groups were unsatisfiable), so
// the others are asked about together, as one disjunction, and when that
// is unsatisfiable none of them needs its own question. Entries are then
// explored in their order, as before.
func (c *concretizer) possible(r machine.Ref, g []machine.Entry, only int) ([]int8, error) {
	if only >= 0 || !c.trusted[r] || len(g) < 2 {
		return nil, nil
	}
	if err := c.assumePhi(); err != nil {
		return nil, err
	}
	known := make([]int8, len(g))
	var rest []*smt.Formula
	for k, e := range g {
		if c.solver.Witnessed(e.Guard) {
			known[k] = 1
		} else {
			rest = append(rest, e.Guard)
		}
	}
	if len(rest) == len(g) {
		return nil, nil // no witness: one of them holds, ask them one by one
	}
	if len(rest) == 0 {
		return known, nil
	}
	key := binary.AppendUvarint([]byte{'p'}, uint64(r))
	for k := range known {
		if known[k] == 0 {
			key = binary.AppendUvarint(key, uint64(k))
		}
	}
	ok, err := c.satHere(c.disjunction(key, rest))
	if err != nil || ok {
		return known, err
	}
	for k := range known {
		if known[k] == 0 {
			known[k] = -1
		}
	}
	return known, nil
}

func (c *concretizer) leaf() error {
	if c.limit > 0 && c.leaves >= c.limit {
		return errStop
	}
	c.leaves++
	if c.capture != nil {
		c.capture()
	}
	if c.recording {
		c.record()
	}
	// The locations that exist, counted first: a leaf is made for every
	// concretization replayed, and its arrays are kept with it.
	n := 0
	for l := range c.q.Locs {
		if c.exists[l] == 1 {
			n++
		}
	}
	h := &Heap{Locs: make([]HeapLoc, 0, n), Roots: make([]Root, 0, len(c.roots))}
	// index is used within this call only: its space is the concretizer's.
	if cap(c.index) < len(c.q.Locs) {
		c.index = make([]Target, len(c.q.Locs))
	}
	index := c.index[:len(c.q.Locs)]
	for l, info := range c.q.Locs {
		if c.exists[l] != 1 {
			index[l] = TUn
			continue
		}
		index[l] = Target(len(h.Locs))
		h.Locs = append(h.Locs, HeapLoc{Class: info.Class, Input: info.Input, Orig: machine.Loc(l)})
	}
	tgt := func(l machine.Loc) Target {
		switch l {
		case machine.LNull:
			return TNull
		case machine.LUn:
			return TUn
		}
		return index[l]
	}
	fieldArrays(h.Locs)
	for i := range h.Locs {
		hl := &h.Locs[i]
		for fi := range hl.Fields {
			hl.Fields[fi] = tgt(c.target[hl.Orig][fi])
		}
	}
	for _, r := range c.roots {
		h.Roots = append(h.Roots, Root{Ref: r, To: tgt(c.rootTo[r])})
	}
	return c.emit(h)
}

// emit hands the leaf's heap h to onLeaf, or keeps it in out when it is
// the first of its isomorphism class, with the branch's literals.
func (c *concretizer) emit(h *Heap) error {
	if c.onLeaf != nil {
		h.lits = c.leafLiterals()
		return c.onLeaf(h)
	}
	if k := Canonical(h); !c.seen[k] {
		c.seen[k] = true
		// Only the heaps kept need their assignment (for reporting).
		h.lits = c.leafLiterals()
		c.out = append(c.out, h)
	}
	return nil
}

// leafLiterals are the current leaf's literals after φ_q, c.lits[1:]: a
// copy, or the replayed leaf's own (c.replay) when they are exactly its
// literals (nothing chosen above or below them: c.lits is φ_q and the
// leaf's literals, which underLeaf appended at replayMark). A heap's
// literals are only read (the data half's contexts, AssignmentFormula),
// and a cached leaf's are never changed once recorded, so sharing them
// gives the copy's value (the copies were a twentieth of the check's
// bytes on LinkedList×4; TestReplayedLeafSame compares).
func (c *concretizer) leafLiterals() []*smt.Formula {
	if rec := c.replay; shareLeafLits && rec != nil && c.replayMark == 1 && len(c.lits) == 1+len(rec.lits) {
		if c.budget.Cache != nil {
			c.budget.Cache.sharedLits++
		}
		return rec.lits[:len(rec.lits):len(rec.lits)]
	}
	return slices.Clone(c.lits[1:])
}

// shareLeafLits lets leafLiterals share a replayed leaf's literals;
// TestReplayedLeafSame compares with it off.
var shareLeafLits = true
