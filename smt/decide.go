package smt

import (
	"fmt"
	"math/bits"
	"os"
)

// A decision procedure in Go for the whole formula fragment.
//
// Every formula of this package is a Boolean combination of equalities
// between constants of one uninterpreted sort: no function symbols, no
// theory. A conjunction of equalities and disequalities is satisfiable iff
// no disequality joins two constants that the equalities put in one class
// (union-find decides it in near-linear time), and then the model that
// gives every class its own element satisfies it; the sort is uninterpreted,
// so it has as many elements as classes. Disjunctions are case splits. The
// decider below is a small DPLL over that: it asserts the conjunctive part of
// the query into a union-find with a list of disequalities, keeps the
// disjunctions pending, and splits on the pending disjunction with fewest
// undecided operands, undoing its unions on backtrack (an undo log; find
// does no path compression so that undo is exact).
//
// Both answers are exact: "unsat" means every branch ended in a conflict
// between an equality class and a disequality (or a constant), "sat" means a
// branch asserted an operand of every disjunction, and the class model
// satisfies everything asserted. A disjunction is "true" only when an
// operand is true in every extension of the state (same class, or classes
// kept apart by a disequality), so nothing is assumed about constants
// the state leaves open. The only way it does not answer is its
// work budget; then the query goes to Z3, which may itself say unknown,
// and unknown stays an error. Nothing is ever guessed.
//
// Incremental use (Assume/Release) maps onto the same structure: an
// assumption's conjunctive part is asserted into the union-find once, at a
// level that Release undoes, and its disjunctions join the pending list, so
// a question under assumptions only adds its own formula. Z3 is told about
// the assumptions lazily, only when a question has to go to Z3.

// decideBudget bounds the work (atoms asserted plus operands evaluated) of
// one Go decision before the query is handed to Z3. A variable so tests can
// shrink it to exercise the fallback.
var decideBudget = 200_000

// decideEnv, when set to "z3" in the environment, turns the Go decision
// procedure off in every new solver: every query goes to Z3 as before. It
// exists for side-by-side measurements with one binary.
const decideEnv = "LOCKSTEP_SMT"

var decideOffByEnv = os.Getenv(decideEnv) == "z3"

// tri is a three-valued truth value under a partial assignment.
type tri int8

const (
	triFalse tri = iota
	triTrue
	triOpen
)

// lit is a formula that must have truth value pos.
type lit struct {
	f   *Formula
	pos bool
}

// plit is a compiled formula (a node of the decider's arena) that must
// have truth value pos.
type plit struct {
	n   int32
	pos bool
	off bool // known true under the state: skipped until undone
	// The entry's last value and open operand count, computed when the
	// clock read at (0: never); see fresh.
	val  tri
	open int32
	at   uint64
}

// cnode is a formula compiled for evaluation: refs by dense index, operands
// as node indices kids[k0:k1].
//
// The value of the node at the current search node (memo, valid where
// stamp == the decider's epoch; see eval) is kept in the node itself, so
// that evaluating a node reads one cache line, not three arrays.
type cnode struct {
	op   Op
	memo tri
	// kept: the node's value is kept across search nodes (val, computed
	// at clock at; see the node cache below eval).
	kept   bool
	val    tri
	stamp  uint32
	a, b   int32
	k0, k1 int32
	at     uint64
}

// mark is a point of the decider's undo log.
type mark struct{ unions, seps, pend, done int }

type decider struct {
	idx    map[Ref]int32 // dense index of every constant seen
	parent []int32
	size   []int32
	unions [][2]int32 // (child root, new root) of each union, for undo
	seps   [][2]int32 // bits set in the separation matrix, for undo
	pend   []plit     // disjunctions still to satisfy (∨ true or ∧ false)
	done   []int32    // pend entries turned off, for undo
	stack  []lit      // scratch of assert

	// The arena of compiled formulas: a pending formula is compiled once
	// (local maps a formula to its node) and stays compiled across queries
	// (path conditions recur), so that the search evaluates arrays, not
	// maps. The arena is independent of the search state; it is dropped
	// with the constants when it grows past a bound between queries.
	nodes []cnode
	form  []*Formula // by node
	kids  []int32
	local map[*Formula]int32
	// size1[n] is the size of node n as a tree (capped), for cnode.kept.
	size1 []int32
	// inModel[n] holds node n's value in up to modelWays models, each
	// entry the model's id shifted left by one, or'ed with the value
	// (0: empty); see evalIn. modelIDs numbers the models made.
	inModel  [][modelWays]uint64
	modelIDs uint64

	levels []mark // one per Assume
	// models[i] are models of the assumptions of levels 0..i (models.go).
	models [][]*model
	// found is the model of the last search that answered sat, when
	// capture asks for it.
	capture bool
	found   *model
	// fromModel counts questions answered from a kept model.
	fromModel int64
	// incModelMiss counts sat answers of clause learning's incremental
	// route whose model did not make the question true (refDecide asked
	// decide again); TestIncModelsCheck reads it.
	incModelMiss int64
	// Constraint independence (models.go): base is the model of the
	// assumptions a restricted search completes; rmark marks the classes
	// of R (== rq); nrefs caches the constant indices of arena nodes;
	// restricted counts the restricted searches.
	base       *model
	rmark      []uint32
	rq         uint32
	nrefs      [][]int32
	relBuf     []bool
	restricted int64
	// unrestricted[i]: at level i a question shared classes with every
	// pending disjunction, and restrict is not tried again there. Under
	// a path condition that connects all its constants (the concretizer's
	// levels) it never turned anything off, and the attempt was a few
	// percent of the stream's time. Skipping it changes no answer.
	unrestricted []bool
	unsatAt      int   // first level whose assumption conflicted, or -1
	atomSplits   int64 // splits on an atom (splitAtom), for the tests

	// The separation matrix: bit (a, b) (row a, column b, rows of stride
	// bits) is set when a disequality separates the classes of roots a and
	// b. It is kept up to date as the state changes: a disequality sets two
	// bits, a union ORs the row of the absorbed root into the new root's
	// (and the column), and undo clears the bits set after the mark. Rows
	// of roots that stop being roots are left alone, and are right again
	// when an undo makes them roots again.
	bits   []uint64
	stride int

	// epoch numbers the search nodes: a node's memo is valid where its
	// stamp equals it (see cnode, eval).
	epoch uint32

	// Class versions (see fresh): clock counts the changes of the state;
	// ver[i] is the clock of the last change of constant i's parent
	// pointer, or of a separation bit in its row while a root; pv/pvAt
	// memoize pathVer per epoch.
	clock uint64
	ver   []uint64
	pv    []uint64
	pvAt  []uint32

	work   int
	gaveUp bool
	// budget, when positive, is a lower bound than decideBudget for the
	// questions asked while it is set (split.go's cases).
	budget int

	off   bool // every query goes to Z3
	cross bool // every Go answer is checked against Z3

	crossChecked int64    // Go answers compared with Z3's
	mismatches   []string // the disagreements found, for the test's report
}

func newDecider() *decider {
	return &decider{
		idx:     make(map[Ref]int32),
		local:   make(map[*Formula]int32),
		unsatAt: -1,
		off:     decideOffByEnv,
	}
}

func (d *decider) index(r Ref) int32 {
	if i, ok := d.idx[r]; ok {
		return i
	}
	i := int32(len(d.parent))
	d.idx[r] = i
	d.parent = append(d.parent, i)
	d.size = append(d.size, 1)
	d.ver = append(d.ver, 0)
	d.pv = append(d.pv, 0)
	d.pvAt = append(d.pvAt, 0)
	if int(i) >= d.stride {
		d.grow(int(i) + 1)
	}
	return i
}

// grow widens the separation matrix to hold n constants.
func (d *decider) grow(n int) {
	stride := max(64, d.stride)
	for stride < n {
		stride *= 2
	}
	bits := make([]uint64, stride*stride/64)
	ow, nw := d.stride/64, stride/64
	for r := 0; r < d.stride; r++ {
		copy(bits[r*nw:r*nw+ow], d.bits[r*ow:(r+1)*ow])
	}
	d.bits, d.stride = bits, stride
}

func (d *decider) sepBit(a, b int32) bool {
	x := int(a)*d.stride + int(b)
	return d.bits[x/64]&(1<<(x%64)) != 0
}

// setSep records that roots a and b are separated (both bits), trailing
// what it sets.
func (d *decider) setSep(a, b int32) {
	for _, p := range [2][2]int32{{a, b}, {b, a}} {
		x := int(p[0])*d.stride + int(p[1])
		if d.bits[x/64]&(1<<(x%64)) == 0 {
			d.bits[x/64] |= 1 << (x % 64)
			d.seps = append(d.seps, p)
			d.touch(p[0])
		}
	}
}

func (d *decider) find(i int32) int32 {
	for d.parent[i] != i {
		i = d.parent[i]
	}
	return i
}

func (d *decider) mark() mark {
	return mark{len(d.unions), len(d.seps), len(d.pend), len(d.done)}
}

func (d *decider) undo(m mark) {
	for _, p := range d.seps[m.seps:] {
		x := int(p[0])*d.stride + int(p[1])
		d.bits[x/64] &^= 1 << (x % 64)
		d.touch(p[0])
	}
	d.seps = d.seps[:m.seps]
	for j := len(d.unions) - 1; j >= m.unions; j-- {
		c, r := d.unions[j][0], d.unions[j][1]
		d.parent[c] = c
		d.size[r] -= d.size[c]
		d.touch(c)
	}
	d.unions = d.unions[:m.unions]
	for _, i := range d.done[m.done:] {
		if int(i) < m.pend {
			d.pend[i].off = false
		}
	}
	d.done = d.done[:m.done]
	d.pend = d.pend[:m.pend]
}

// compile returns the arena node of f, compiling it (and its operands)
// the first time.
func (d *decider) compile(f *Formula) int32 {
	if n, ok := d.local[f]; ok {
		return n
	}
	c := cnode{op: f.op}
	sz := int32(1)
	switch f.op {
	case OpEq:
		c.a, c.b = d.index(f.a), d.index(f.b)
	case OpNot, OpAnd, OpOr:
		ks := make([]int32, len(f.kids))
		size := 1
		for i, k := range f.kids {
			ks[i] = d.compile(k)
			size += int(d.size1[ks[i]])
		}
		c.k0 = int32(len(d.kids))
		d.kids = append(d.kids, ks...)
		c.k1 = int32(len(d.kids))
		c.kept = size >= keptSize && keptRefsPer*len(f.refs) <= size
		sz = int32(min(size, 1<<30))
	}
	n := int32(len(d.nodes))
	d.nodes = append(d.nodes, c)
	d.size1 = append(d.size1, sz)
	d.inModel = append(d.inModel, [modelWays]uint64{})
	d.form = append(d.form, f)
	d.nrefs = append(d.nrefs, nil)
	d.local[f] = n
	return n
}

// union asserts a = b; false on a conflict with a disequality.
func (d *decider) union(a, b Ref) bool { return d.unionIdx(d.index(a), d.index(b)) }

func (d *decider) unionIdx(a, b int32) bool {
	ra, rb := d.find(a), d.find(b)
	if ra == rb {
		return true
	}
	if d.sepBit(ra, rb) {
		return false
	}
	if d.size[ra] < d.size[rb] {
		ra, rb = rb, ra
	}
	d.parent[rb] = ra
	d.size[ra] += d.size[rb]
	d.touch(rb)
	d.unions = append(d.unions, [2]int32{rb, ra})
	// Whatever was separated from rb's class is now separated from ra's.
	w := d.stride / 64
	row := d.bits[int(rb)*w : (int(rb)+1)*w]
	for i, word := range row {
		for word != 0 {
			c := int32(i*64 + bits.TrailingZeros64(word))
			word &= word - 1
			d.setSep(ra, c)
		}
		d.work++
	}
	return true
}

// separate asserts a ≠ b; false if they are already in one class.
func (d *decider) separate(a, b Ref) bool {
	ra, rb := d.find(d.index(a)), d.find(d.index(b))
	if ra == rb {
		return false
	}
	d.setSep(ra, rb)
	return true
}

// assert adds f (or ¬f when !pos) to the state: atoms go into the
// union-find and the disequalities, disjunctions onto the pending list. It
// returns false on a conflict, leaving the state to be undone by the caller.
func (d *decider) assert(f *Formula, pos bool) bool {
	base := len(d.stack)
	d.stack = append(d.stack, lit{f, pos})
	for len(d.stack) > base {
		l := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		d.work++
		ok := true
		switch l.f.op {
		case OpTrue:
			ok = l.pos
		case OpFalse:
			ok = !l.pos
		case OpEq:
			if l.pos {
				ok = d.union(l.f.a, l.f.b)
			} else {
				ok = d.separate(l.f.a, l.f.b)
			}
		case OpNot:
			d.stack = append(d.stack, lit{l.f.kids[0], !l.pos})
		case OpAnd, OpOr:
			if (l.f.op == OpAnd) == l.pos {
				// A conjunction to make true: every operand must hold.
				for _, k := range l.f.kids {
					d.stack = append(d.stack, lit{k, l.pos})
				}
			} else {
				d.pend = append(d.pend, plit{n: d.compile(l.f), pos: l.pos})
			}
		default:
			panic("smt: bad formula op " + l.f.op.String())
		}
		if !ok {
			d.stack = d.stack[:base]
			return false
		}
	}
	return true
}

// eval is the value of node n under the current state: true when every
// extension of the state makes it true, false when none does. Formulas are
// DAGs with much sharing (guards are built from guards), so values are
// memoized per search node: eval is linear in the DAG, never in the tree.
func (d *decider) eval(n int32) tri {
	c := &d.nodes[n]
	if c.stamp == d.epoch {
		return c.memo
	}
	d.work++
	if c.kept && c.at != 0 && d.untouched(n, c.at) {
		if nodeCacheCheck != nil {
			nodeCacheCheck(d, n, c.val)
		}
		c.stamp, c.memo = d.epoch, c.val
		return c.val
	}
	var v tri
	switch c.op {
	case OpTrue:
		v = triTrue
	case OpFalse:
		v = triFalse
	case OpEq:
		v = d.evalEq(c)
	case OpNot:
		v = d.eval(d.kids[c.k0])
		if v != triOpen {
			v = 1 - v
		}
	case OpAnd, OpOr:
		// absorbing is the operand value that decides the node.
		absorbing := triFalse
		if c.op == OpOr {
			absorbing = triTrue
		}
		v = 1 - absorbing // the unit
		for _, k := range d.kids[c.k0:c.k1] {
			// The operand's memo and atoms inline: most operands are
			// one or the other, and the call was a third of eval's time.
			var kv tri
			switch kn := &d.nodes[k]; {
			case kn.stamp == d.epoch:
				kv = kn.memo
			case kn.op == OpEq:
				d.work++
				kv = d.evalEq(kn)
				kn.stamp, kn.memo = d.epoch, kv
			default:
				kv = d.eval(k)
			}
			if kv == absorbing {
				v = absorbing
				break
			}
			if kv == triOpen {
				v = triOpen
			}
		}
	default:
		panic("smt: bad formula op " + c.op.String())
	}
	c.stamp, c.memo = d.epoch, v
	if c.kept {
		c.val, c.at = v, d.clock
	}
	return v
}

// The node cache: values of large nodes kept across search nodes.
//
// The argument of the entry cache below holds of any node: its value
// depends only on the classes of its constants and the separation bits
// between their roots, so a node none of whose constants' paths was
// touched since its value was computed has that value still. eval keeps
// the value of a node that is large for its constants (cnode.kept: at
// least keptSize nodes as a tree, and keptRefsPer of them per constant),
// where looking the constants up is cheaper than evaluating the operands:
// the concretizer's questions nest View guards in guards, and each
// assumption or search node evaluated them again whole although the
// unions in between touched a few constants (the evaluations were 40 % of
// POSE-J's check of testdata/trees/successor.jl at k = 3). A value served
// this way is the value, exactly; only its operands' memos are not filled
// in this search node, so every reader of an operand's memo (evalOpen,
// search, propagate, openAtom) first evaluates an operand whose memo is
// not of this search node (kidsNow), which gives it the memo it had when
// its parent was evaluated whole: the open counts, the splits and so the
// models and answers are the same as without the cache.

// keptSize and keptRefsPer decide cnode.kept (see above); variables so
// that a test can keep every node.
var (
	keptSize    = 16
	keptRefsPer = 2
)

// nodeCacheCheck, set only by a test, is told of every value the node
// cache serves.
var nodeCacheCheck func(d *decider, n int32, v tri)

// kidsNow evaluates the operands of node n whose memo is not of this
// search node (n's own value came from the node cache).
func (d *decider) kidsNow(n int32) {
	c := d.nodes[n]
	for _, k := range d.kids[c.k0:c.k1] {
		if d.nodes[k].stamp != d.epoch {
			d.eval(k)
		}
	}
}

// evalEq is the value of the equality c: true when its constants are in
// one class, false when a disequality keeps their classes apart.
func (d *decider) evalEq(c *cnode) tri {
	ra, rb := d.find(c.a), d.find(c.b)
	if ra == rb {
		return triTrue
	}
	if d.sepBit(ra, rb) {
		return triFalse
	}
	return triOpen
}

// Values of pending entries kept across search nodes and questions.
//
// The value of a formula depends only on the classes of its constants and
// on the separation bits between those classes: on find of each constant
// and on the bit of each pair of their roots. find(x) can change only when
// the parent pointer of a constant on x's path to its root changes (a
// union sets the absorbed root's, an undo resets it), and a bit of the
// current roots only when it is set or cleared; every such change touches
// (stamps with a new clock) the constant whose pointer it writes (union:
// the absorbed root; undo: the root it restores), and a separation bit
// set or cleared the root of its row (both rows of a pair are set and
// cleared). The surviving root of a union is not touched: its own pointer
// and the finds of its members do not change, and the bits its row gains
// from the absorbed root's are set (and touched) one by one. So if no constant on the path
// of any constant of a pending entry has been touched since its value was
// computed, every parent pointer on those paths and every bit between
// their roots is what it was then, and so is the value, whatever happened
// elsewhere, deeper in the search, or in questions in between. An entry
// whose constants' paths are untouched is not evaluated again; any other
// is, as before. The values, the open counts and so the splits are the
// same as without the cache: answers, models and search order do not
// change, only the work.

func (d *decider) touch(i int32) {
	d.clock++
	d.ver[i] = d.clock
}

// pathVer is the newest touch of a constant on i's path to its root,
// memoized per epoch (the state does not change within one).
func (d *decider) pathVer(i int32) uint64 {
	if d.pvAt[i] == d.epoch {
		return d.pv[i]
	}
	v := d.ver[i]
	if p := d.parent[i]; p != i {
		v = max(v, d.pathVer(p))
	}
	d.pv[i], d.pvAt[i] = v, d.epoch
	return v
}

// value is the value of pending entry i and, when open, how many of its
// operands are open: from the entry's cache when no constant of it was
// touched since (see above), else evaluated and cached.
func (d *decider) value(i int) (tri, int) {
	l := &d.pend[i]
	if l.at != 0 && d.untouched(l.n, l.at) {
		if entryCacheCheck != nil {
			v, open := d.evalOpen(l.n)
			entryCacheCheck(v == l.val && open == int(l.open))
		}
		return l.val, int(l.open)
	}
	v, open := d.evalOpen(l.n)
	l.val, l.open, l.at = v, int32(open), d.clock
	return v, open
}

// entryCacheCheck, set only by a test, is told at every use of a pending
// entry's cached value whether a fresh evaluation agrees with it.
var entryCacheCheck func(agrees bool)

// evalOpen is eval(n) and, when open, how many operands of n are open.
func (d *decider) evalOpen(n int32) (tri, int) {
	v := d.eval(n)
	open := 0
	if v == triOpen {
		d.kidsNow(n)
		c := &d.nodes[n]
		for _, k := range d.kids[c.k0:c.k1] {
			if kn := &d.nodes[k]; kn.stamp == d.epoch && kn.memo == triOpen {
				open++
			}
		}
	}
	return v, open
}

// untouched reports whether no constant on the path of a constant of node
// n was touched after clock at.
func (d *decider) untouched(n int32, at uint64) bool {
	for _, x := range d.nodeRefs(n) {
		if d.pathVer(x) > at {
			return false
		}
	}
	return true
}

// settle evaluates pending entry i: ok is false when the entry is false
// (its disjunction cannot be satisfied: a conflict); an entry that is true
// is turned off (true stays true as the state grows, until an undo past
// this point turns it on again) and open is 0; otherwise open is the
// number of its open operands.
func (d *decider) settle(i int) (open int, ok bool) {
	l := d.pend[i]
	v, open := d.value(i)
	if v == triOpen {
		return open, true
	}
	if (v == triTrue) != l.pos {
		return 0, false
	}
	d.pend[i].off = true
	d.done = append(d.done, int32(i))
	return 0, true
}

// splitEarly: the scan of search stops at the first open disjunction with
// at most this many open operands (one: a unit, which propagates without a
// real split). Measured: 0 and 1 cost alike; a larger value, more nodes.
const splitEarly = 1

// search decides whether the pending disjunctions can all be satisfied on
// top of the current state. At each node it evaluates every pending
// disjunction (three-valued, memoized); a false one ends the branch, and if
// none is open the state's class model satisfies the query. Otherwise it
// splits the open disjunction with fewest open operands: each open operand
// in turn is asserted, with the operands tried before it asserted false, so
// the branches are disjoint. The disjunction itself is off the list while
// its operand is asserted (it is satisfied). The state is left as found.
func (d *decider) search() bool {
	if d.work > decideBudget || (d.budget > 0 && d.work > d.budget) {
		d.gaveUp = true
		return false
	}
	d.nextEpoch()
	best, bestOpen := -1, 0
	// Newest entries first: the question's own disjunctions, then those of
	// the deepest assumptions, are the ones the latest assertions touch, so
	// the units and conflicts are found there; scanning φ's old
	// disjunctions first (in order of assertion) made unsat questions of
	// the concretizer take three times as many search nodes.
	for i := len(d.pend) - 1; i >= 0; i-- {
		l := d.pend[i]
		if l.n < 0 || l.off {
			continue // being split on above, or known true
		}
		open, ok := d.settle(i)
		if !ok {
			return false
		}
		if open == 0 {
			continue
		}
		if best < 0 || open < bestOpen {
			best, bestOpen = i, open
		}
		if bestOpen <= splitEarly {
			break
		}
	}
	if best < 0 {
		if d.capture {
			if d.base != nil {
				d.found = d.combined(d.base)
			} else {
				d.found = d.snapshot()
			}
		}
		return true // every pending disjunction is true
	}
	l := d.pend[best]
	c := d.nodes[l.n]
	// An open disjunction evaluated every operand (none absorbed), so the
	// memo says which are open; a value from the entry's cache is
	// evaluated again here to fill the memo of this node.
	if d.nodes[l.n].stamp != d.epoch {
		d.eval(l.n)
	}
	d.kidsNow(l.n)
	if bestOpen >= 2 && len(d.levels) > 0 {
		if a, b, ok := d.openAtom(l.n); ok {
			return d.splitAtom(a, b)
		}
	}
	open := make([]*Formula, 0, bestOpen)
	for _, k := range d.kids[c.k0:c.k1] {
		if d.nodes[k].memo == triOpen {
			open = append(open, d.form[k])
		}
	}
	d.pend[best].n = -1
	defer func() { d.pend[best] = l }()
	start := d.mark()
	for _, k := range open {
		m := d.mark()
		if d.assert(k, l.pos) && d.search() {
			d.undo(start)
			return true
		}
		d.undo(m)
		if d.gaveUp || !d.assert(k, !l.pos) {
			break
		}
	}
	d.undo(start)
	return false
}

// A real split (no unit left) under assumptions is on an atom, not on the
// operands of the disjunction chosen: an equality a = b open in it, true
// in one branch and false in the other (both complete, so the answer is
// exact). The concretizer's questions are asked under assumptions whose
// formulas nest guards in guards, and the same few equalities decide them
// at many places; splitting on an operand decides one occurrence and
// leaves the others to be split again further down, while an atom is
// decided everywhere at once. On seed 1's program 21 the search nodes
// under assumptions went from 2.0 to 0.87 million, and the questions that
// needed more than a thousand nodes from 72 to 0. Without assumptions
// (the well-formedness checks' questions, conjunctions of two guards) the
// operand split was measured better (fewer nodes), and stays.

// openAtom returns the constants of an open equality below node n, found
// through open operands (n's memo of the current search node is open).
func (d *decider) openAtom(n int32) (a, b int32, ok bool) {
	c := &d.nodes[n]
	if c.stamp != d.epoch || c.memo != triOpen {
		return 0, 0, false
	}
	if c.op == OpEq {
		return c.a, c.b, true
	}
	d.kidsNow(n)
	for _, k := range d.kids[c.k0:c.k1] {
		if a, b, ok := d.openAtom(k); ok {
			return a, b, true
		}
	}
	return 0, 0, false
}

// splitAtom searches with a = b and then with a ≠ b.
func (d *decider) splitAtom(a, b int32) bool {
	d.atomSplits++
	start := d.mark()
	if d.unionIdx(a, b) && d.search() {
		d.undo(start)
		return true
	}
	d.undo(start)
	if d.gaveUp {
		return false
	}
	sat := false
	if ra, rb := d.find(a), d.find(b); ra != rb {
		d.setSep(ra, rb)
		sat = d.search()
	}
	d.undo(start)
	return sat
}

// query decides the assumptions ∧ f. decided is false when the budget ran
// out (the caller asks Z3).
func (d *decider) query(f *Formula) (r Result, decided bool) {
	if d.unsatAt >= 0 {
		return Unsat, true
	}
	d.work, d.gaveUp = 0, false
	if d.fromModels(f) {
		d.fromModel++
		return Sat, true
	}
	m := d.mark()
	d.capture, d.found, d.base = len(d.levels) > 0, nil, nil
	ok := d.assert(f, true)
	if ok {
		if n := len(d.levels) - 1; n >= 0 && len(d.models[n]) > 0 && !d.unrestricted[n] {
			if d.restrict(f, m.pend) {
				d.restricted++
				d.base = d.models[n][len(d.models[n])-1]
			} else {
				d.unrestricted[n] = true
			}
		}
		ok = d.search()
	}
	d.capture, d.base = false, nil
	if ok && d.found != nil {
		d.addModel(len(d.levels)-1, d.found)
		d.found = nil
	}
	d.undo(m)
	if d.gaveUp {
		return Unknown, false
	}
	if len(d.levels) == 0 && (len(d.parent) > 4096 || len(d.nodes) > 1<<16) {
		d.reset()
	}
	if ok {
		return Sat, true
	}
	return Unsat, true
}

// reset forgets every constant; only valid with no assumption in force.
func (d *decider) reset() {
	d.undo(mark{})
	clear(d.idx)
	d.parent, d.size = d.parent[:0], d.size[:0]
	d.ver, d.pv, d.pvAt = d.ver[:0], d.pv[:0], d.pvAt[:0]
	clear(d.local)
	d.nodes, d.kids = d.nodes[:0], d.kids[:0]
	d.inModel = d.inModel[:0]
	d.size1 = d.size1[:0]
	clear(d.nrefs)
	d.nrefs = d.nrefs[:0]
	clear(d.rmark)
	clear(d.form)
	d.form = d.form[:0]
}

// push asserts the assumptions fs at a new level, turns off the pending
// disjunctions the level makes true and propagates the units it forces
// (propagate), so that no question under it does either again.
func (d *decider) push(fs ...*Formula) {
	d.levels = append(d.levels, d.mark())
	d.models = append(d.models, nil)
	d.unrestricted = append(d.unrestricted, false)
	if d.unsatAt >= 0 {
		return
	}
	for _, f := range fs {
		if !d.assert(f, true) {
			d.unsatAt = len(d.levels) - 1
			return
		}
	}
	// Turn off what the level makes true, find what it makes false (a
	// disjunction with every operand false: the level is unsatisfiable),
	// and propagate units.
	if !d.propagate() {
		d.unsatAt = len(d.levels) - 1
		return
	}
	d.inherit(fs)
}

// pushEmpty opens a level that asserts nothing, for a scope whose
// assumption has data (the solver asks Z3 every question under it). It
// keeps no models: none is searched for under it, and the parent's are not
// models of its data.
func (d *decider) pushEmpty() {
	d.levels = append(d.levels, d.mark())
	d.models = append(d.models, nil)
	d.unrestricted = append(d.unrestricted, false)
}

// propagate asserts, at the current level, the operand of every pending
// disjunction that has exactly one open operand left (the others are
// false under the level's assumptions, so that operand holds in every
// model of them), until none is left; false on a conflict. Without it
// every question under the level would find the same units again, one
// search node each (on the concretizer's questions, 70 % of the nodes were
// such units).
func (d *decider) propagate() bool {
	for again := true; again; {
		again = false
		d.nextEpoch()
		for i := len(d.pend) - 1; i >= 0; i-- {
			l := d.pend[i]
			if l.off || l.n < 0 {
				continue
			}
			open, ok := d.settle(i)
			if !ok {
				return false
			}
			if open != 1 {
				continue
			}
			if d.nodes[l.n].stamp != d.epoch {
				d.eval(l.n)
			}
			d.kidsNow(l.n)
			c := d.nodes[l.n]
			var unit *Formula
			for _, k := range d.kids[c.k0:c.k1] {
				if d.nodes[k].memo == triOpen {
					unit = d.form[k]
					break
				}
			}
			d.pend[i].off = true
			d.done = append(d.done, int32(i))
			if !d.assert(unit, l.pos) {
				return false
			}
			d.nextEpoch()
			again = true
		}
	}
	return true
}

func (d *decider) nextEpoch() {
	d.epoch++
	if d.epoch == 0 { // wrapped: forget every stamp
		for i := range d.nodes {
			d.nodes[i].stamp = 0
		}
		clear(d.pvAt)
		d.epoch = 1
	}
}

// pop undoes the newest level.
func (d *decider) pop() {
	n := len(d.levels) - 1
	d.undo(d.levels[n])
	d.levels = d.levels[:n]
	// The models of the level are models of its parent's assumptions too.
	if n > 0 {
		for _, m := range d.models[n] {
			d.addModel(n-1, m)
		}
	}
	d.models[n] = nil
	d.models = d.models[:n]
	d.unrestricted = d.unrestricted[:n]
	if d.unsatAt >= n {
		d.unsatAt = -1
	}
}

// SetGoDecide turns the Go decision procedure on (the default) or off. Off,
// every query goes to Z3, as it did before the procedure existed; the
// environment variable LOCKSTEP_SMT=z3 turns it off in every new solver.
func (s *Solver) SetGoDecide(on bool) { s.dec.off = !on }

// SetCrossCheck makes the solver ask Z3 as well every query the Go decision
// procedure answers, and fail the query with an error if the answers
// differ. It is for tests: it costs a Z3 check per query.
func (s *Solver) SetCrossCheck(on bool) { s.dec.cross = on }

// decideFault, set only by a test, corrupts Go answers to show that the
// cross-check catches a wrong one.
var decideFault func(Result) Result

// CrossChecked returns how many Go answers were compared with Z3's under
// SetCrossCheck, and the disagreements found.
func (s *Solver) CrossChecked() (n int64, mismatches []string) {
	return s.dec.crossChecked, s.dec.mismatches
}

// goCheck answers f (relative to the assumptions) in Go when it can.
func (s *Solver) goCheck(f *Formula) (Result, bool, error) {
	if s.dec.off {
		return Unknown, false, nil
	}
	r, ok := s.goDecide(f)
	if !ok {
		return Unknown, false, nil
	}
	if decideFault != nil {
		r = decideFault(r)
	}
	s.stats.Decided++
	s.stats.FromModels = s.dec.fromModel
	if s.dec.cross {
		zr, err := s.z3Check(f)
		if err == nil {
			s.dec.crossChecked++
		}
		if err == nil && zr != r {
			err := fmt.Errorf("smt: the Go decision procedure says %v, Z3 says %v, on %v under assumptions %v", r, zr, f, s.assumptionList())
			s.dec.mismatches = append(s.dec.mismatches, err.Error())
			return Unknown, true, err
		}
		// Z3 unknown: nothing to compare.
	}
	return r, true, nil
}

// syncZ3 asserts, in Z3 scopes of their own, the assumptions the solver
// sv(data) has not been told about yet.
func (s *Solver) syncZ3(data bool) error {
	zdepth := &s.zdepth
	if data {
		zdepth = &s.dzdepth
	}
	for *zdepth < len(s.assumed) {
		a, err := s.translate(s.assumption(*zdepth))
		if err != nil {
			return err
		}
		if err := s.z.push(data); err != nil {
			return err
		}
		if err := s.z.assert(data, a); err != nil {
			_ = s.z.pop(data)
			return err
		}
		*zdepth++
	}
	return nil
}

// atomValue is the value of a = b in the current state: true when a and b
// are in one class, false when their classes are separated, else open.
func (d *decider) atomValue(a, b Ref) tri {
	ia, oka := d.idx[a]
	ib, okb := d.idx[b]
	if !oka || !okb {
		return triOpen
	}
	ra, rb := d.find(ia), d.find(ib)
	switch {
	case ra == rb:
		return triTrue
	case d.sepBit(ra, rb):
		return triFalse
	}
	return triOpen
}
