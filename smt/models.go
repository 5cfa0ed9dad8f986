package smt

// Model reuse under assumptions (KLEE's counterexample cache, for the
// equality fragment).
//
// A search that answers "sat" ends in a state of the union-find that is a
// model: every class one element, so an atom a = b is true iff a and b are
// in one class. When the query was asked under assumptions, that model
// satisfies every assumption in force; it stays a model of those
// assumptions as long as they are in force, and it is a model of every
// shallower level too (a deeper level only adds assumptions). So each
// assumption level keeps the last few models found at it or below it, and
// a question under the level is answered "sat" at once when one of them
// makes the question's formula true. That answer is exact (the model is a
// witness); any other question is searched as before, and "unsat" is never
// answered from a model.
//
// A model is the class representative of every constant indexed when it
// was found. A constant indexed later appears in no assumption of the
// level (assumptions are indexed when asserted), so the model may give it
// an element of its own: its representative is itself.

// modelsPerLevel bounds the models a level keeps (the newest are kept).
const modelsPerLevel = 4

// A model is a class representative per constant index, and a number of
// its own (id) by which the values of the arena's nodes in it are
// remembered (evalIn). A model is never changed once made, so a node's
// value in it never changes either.
type model struct {
	reps []int32
	id   uint64
}

func (m *model) rep(i int32) int32 {
	if int(i) < len(m.reps) {
		return m.reps[i]
	}
	return i
}

// newModel numbers reps as a model; ids start at 1 (0 marks an empty
// slot of inModel) and are never reused within a decider.
func (d *decider) newModel(reps []int32) *model {
	d.modelIDs++
	return &model{reps: reps, id: d.modelIDs}
}

// snapshot is the current state as a model (valid only at a leaf of the
// search that found every pending disjunction true).
func (d *decider) snapshot() *model {
	reps := make([]int32, len(d.parent))
	for i := range reps {
		reps[i] = d.find(int32(i))
	}
	return d.newModel(reps)
}

// addModel keeps m at level lv, dropping the oldest past the bound.
func (d *decider) addModel(lv int, m *model) {
	ms := d.models[lv]
	if len(ms) >= modelsPerLevel {
		copy(ms, ms[1:])
		ms = ms[:len(ms)-1]
	}
	d.models[lv] = append(ms, m)
}

// fromModels reports whether a kept model of the newest level makes f
// true, so that the assumptions ∧ f are satisfiable.
func (d *decider) fromModels(f *Formula) bool {
	n := len(d.levels) - 1
	if n < 0 || len(d.models[n]) == 0 {
		return false
	}
	if f.op == OpTrue {
		return true
	}
	root := d.compile(f)
	// evalIn leaves the search's memo (cnode.stamp) alone; a new epoch
	// still marks that the state may have changed since the last search
	// node, as it did when evalIn kept its values there.
	d.nextEpoch()
	for _, m := range d.models[n] {
		if d.evalIn(root, m) {
			return true
		}
	}
	return false
}

// modelWays is how many models' values a node remembers (inModel).
const modelWays = 4

// evalIn is the truth value of node n in model m, remembered per node and
// model (inModel): a node's value in a model is a function of the two,
// and neither changes, so the value computed once is the value. The
// concretizer asks the guards of every reference on every branch of its
// search, in the models a level inherits from its parent (the same
// models, asked again and again for the same guards), and the guards of a
// View share most of their subformulas: evaluated afresh each time (a
// memo per call, for the sharing within one formula), this was 45 % of
// POSE-J's check of testdata/trees/successor.jl at k = 3
// (docs/PERFORMANCE.md). A node keeps the values of modelWays models, in
// the slot of the model's id modulo modelWays, so the models of one level
// (consecutive ids, or inherited ones) seldom displace each other; a
// displaced value is computed again, never guessed.
func (d *decider) evalIn(n int32, m *model) bool {
	if e := d.inModel[n][m.id%modelWays]; e>>1 == m.id {
		return e&1 == 1
	}
	c := &d.nodes[n]
	var v bool
	switch c.op {
	case OpTrue:
		v = true
	case OpFalse:
		v = false
	case OpEq:
		v = m.rep(c.a) == m.rep(c.b)
	case OpNot:
		v = !d.evalIn(d.kids[c.k0], m)
	case OpAnd:
		v = true
		for _, k := range d.kids[c.k0:c.k1] {
			if !d.evalIn(k, m) {
				v = false
				break
			}
		}
	case OpOr:
		v = false
		for _, k := range d.kids[c.k0:c.k1] {
			if d.evalIn(k, m) {
				v = true
				break
			}
		}
	default:
		panic("smt: bad formula op " + c.op.String())
	}
	e := m.id << 1
	if v {
		e |= 1
	}
	d.inModel[n][m.id%modelWays] = e
	return v
}

// Constraint independence (KLEE's other trick), made exact by a model.
//
// A question f under assumptions whose newest level has a kept model M (so
// the assumptions are satisfiable) need not satisfy again the pending
// disjunctions of the assumptions that share no class with f. Let R be the
// classes, after f's conjunctive part is asserted, of f's constants,
// closed under the pending disjunctions that touch them (a disjunction
// touching a class of R brings all of its classes in). The search then
// only has to satisfy the disjunctions inside R (and f's own): it decides
// unions and separations among the constants of R only. If it finds a
// model N, the partition that is N on the constants of R and M on all
// others satisfies everything: the state's equalities and disequalities
// inside each side (N extends the state on R; M extends it elsewhere, and
// f asserted nothing outside R), those across the sides (the two sides
// share no element), the disjunctions inside R (by N) and those outside
// (their constants are all outside R, where it is M). If it finds none,
// there is none with more constraints either. So the answer is exact both
// ways, and the combined partition is kept as a model.

// restrict turns off, until the query's undo, the pending disjunctions
// below from (the assumptions') that share no class with f or with the
// disjunctions f added, closing over shared classes. It reports whether
// it turned any off.
func (d *decider) restrict(f *Formula, from int) bool {
	d.rq++
	if d.rq == 0 {
		clear(d.rmark)
		d.rq = 1
	}
	for len(d.rmark) < len(d.parent) {
		d.rmark = append(d.rmark, 0)
	}
	markRefs := func(ix []int32) {
		for _, i := range ix {
			d.rmark[d.find(i)] = d.rq
		}
	}
	touches := func(ix []int32) bool {
		for _, i := range ix {
			if d.rmark[d.find(i)] == d.rq {
				return true
			}
		}
		return false
	}
	for _, r := range f.refs {
		if i, ok := d.idx[r]; ok {
			d.rmark[d.find(i)] = d.rq
		}
	}
	for _, l := range d.pend[from:] {
		markRefs(d.nodeRefs(l.n))
	}
	rel := d.relBuf[:0]
	for range from {
		rel = append(rel, false)
	}
	d.relBuf = rel
	for changed := true; changed; {
		changed = false
		for j := range from {
			if rel[j] || d.pend[j].off {
				continue
			}
			if ix := d.nodeRefs(d.pend[j].n); touches(ix) {
				rel[j], changed = true, true
				markRefs(ix)
			}
		}
	}
	any := false
	for j := range from {
		if !rel[j] && !d.pend[j].off {
			d.pend[j].off = true
			d.done = append(d.done, int32(j))
			any = true
		}
	}
	return any
}

// nodeRefs is the dense indices of the constants of node n.
func (d *decider) nodeRefs(n int32) []int32 {
	if ix := d.nrefs[n]; ix != nil {
		return ix
	}
	refs := d.form[n].refs
	ix := make([]int32, 0, len(refs))
	for _, r := range refs {
		ix = append(ix, d.index(r))
	}
	d.nrefs[n] = ix
	return ix
}

// combined is the model at a leaf of a restricted search: the state's
// classes on the constants of R, base's elsewhere (shifted so that the two
// sides share no representative).
func (d *decider) combined(base *model) *model {
	reps := make([]int32, len(d.parent))
	shift := int32(len(d.parent))
	for i := range reps {
		if r := d.find(int32(i)); int(r) < len(d.rmark) && d.rmark[r] == d.rq {
			reps[i] = r
		} else {
			reps[i] = base.rep(int32(i)) + shift
		}
	}
	return d.newModel(reps)
}

// inherit gives the newest level the models of its parent that make its
// assumptions fs true (they are models of the new level).
func (d *decider) inherit(fs []*Formula) {
	n := len(d.levels) - 1
	if n < 1 || len(d.models[n-1]) == 0 {
		return
	}
	roots := make([]int32, len(fs))
	for i, f := range fs {
		roots[i] = d.compile(f)
	}
	d.nextEpoch() // as in fromModels
models:
	for _, m := range d.models[n-1] {
		for _, root := range roots {
			if !d.evalIn(root, m) {
				continue models
			}
		}
		d.addModel(n, m)
	}
}

// Witnessed reports whether a model kept for the assumptions in force makes
// f true, so that Sat(f) would answer true; false says nothing (no kept
// model satisfies f, or there is no model to ask). It asks no question and
// counts none. A caller with several candidates, of which it expects most
// to be unsatisfiable, can take the witnessed ones at once and ask one
// question about the disjunction of the rest. With the Go decision
// procedure off or fault injection on, nothing is witnessed, so that every
// question is asked as before; nor is anything with data, in f or in the
// assumptions (the kept models give references only).
func (s *Solver) Witnessed(f *Formula) bool {
	if s.z == nil || s.dec.off || s.z.gate.faults != nil || s.depth == 0 || s.dec.unsatAt >= 0 || f.data || s.dataAt >= 0 {
		return false
	}
	return s.dec.fromModels(f)
}
