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

// model is a class representative per constant index.
type model []int32

func (m model) rep(i int32) int32 {
	if int(i) < len(m) {
		return m[i]
	}
	return i
}

// snapshot is the current state as a model (valid only at a leaf of the
// search that found every pending disjunction true).
func (d *decider) snapshot() model {
	m := make(model, len(d.parent))
	for i := range m {
		m[i] = d.find(int32(i))
	}
	return m
}

// addModel keeps m at level lv, dropping the oldest past the bound.
func (d *decider) addModel(lv int, m model) {
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
	for _, m := range d.models[n] {
		d.nextEpoch()
		if d.evalIn(root, m) {
			return true
		}
	}
	return false
}

// evalIn is the truth value of node n in model m, memoized in the current
// epoch (formulas are DAGs).
func (d *decider) evalIn(n int32, m model) bool {
	if d.stamp[n] == d.epoch {
		return d.memo[n] == triTrue
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
	d.stamp[n] = d.epoch
	if v {
		d.memo[n] = triTrue
	} else {
		d.memo[n] = triFalse
	}
	return v
}
