package smt

// A second decision procedure in Go, for the questions the DPLL of
// decide.go gives up on: conflict-driven clause learning over the eager
// encoding of equality logic into propositional logic.
//
// Every formula of the fragment is a Boolean combination of equalities
// between constants of one uninterpreted sort. Give each unordered pair
// {a, b} of the question's constants a propositional variable e_ab, and
// add, for every three constants a, b, c, the transitivity clauses
// e_ab ∧ e_bc → e_ac (three per triple, one for each pair as conclusion).
// An assignment that satisfies them makes "e_ab true" an equivalence
// relation (reflexivity and symmetry hold by construction), whose classes,
// one element each, are a model of the atoms exactly as the assignment
// says; every model of the formula induces such an assignment. So the
// formula, Tseitin-encoded over these variables, is satisfiable iff the
// clauses are: both answers are exact. The encoding has n(n−1)/2
// variables and 3·C(n, 3) transitivity clauses for n constants, so it is
// used up to cdclMaxRefs constants.
//
// The DPLL of decide.go splits without learning: on the determinism
// questions (two guards of one value set that must exclude each other,
// each an Or of canonicalized pieces with nested negated existence
// conditions) it meets the same conflict below every split and runs out
// of budget. A learned clause records the conflict once. The solver below
// is the textbook one (two watched literals, first-UIP learning with
// local minimization, activity-based decisions with phase saving, Luby
// restarts); it keeps every learned clause, since a question gets at most
// cdclMaxConflicts conflicts. Past that budget it does not answer and the
// question goes to Z3, as before: nothing is ever guessed.

import "slices"

// cdclMaxRefs bounds the constants of a question the encoding takes:
// 48 constants are 1,128 variables and 51,888 transitivity clauses.
const cdclMaxRefs = 48

// cdclMaxConflicts is the work budget of one question, in conflicts.
var cdclMaxConflicts = 20_000

// learnAfter is the DPLL's budget (in its work units) on a question
// that clause learning can take (no assumptions, at most cdclMaxRefs
// constants). The DPLL answers nearly every question far below it, and
// at once, since it needs no encoding; on the determinism questions it
// spent its whole budget (200,000) and gave up, which cost as much as
// the clause learning that answers them. Seed 1's reference-only stream
// (docs/PERFORMANCE.md) was measured with 2,000, 20,000 and without it.
const learnAfter = 20_000

// goDecide answers f in Go: by the DPLL (decide.go) and, past learnAfter,
// by clause learning, and past its conflict budget by the DPLL's whole
// budget again, so that nothing the DPLL answered before goes to Z3 now.
// decided is false when neither answers.
func (s *Solver) goDecide(f *Formula) (r Result, decided bool) {
	d := s.dec
	if len(d.levels) > 0 || d.budget > 0 || len(f.Refs()) > cdclMaxRefs {
		return d.query(f)
	}
	d.budget = learnAfter
	r, decided = d.query(f)
	d.budget = 0
	if decided {
		return r, true
	}
	if s.learn == nil {
		s.learn = newCDCL()
	}
	if sat, ok := s.learn.decide(f); ok {
		s.stats.Learned++
		if sat {
			return Sat, true
		}
		return Unsat, true
	}
	return d.query(f)
}

// clit is a literal: variable v true is 2v, false 2v+1.
type clit int32

func (l clit) neg() clit  { return l ^ 1 }
func (l clit) vr() int32  { return int32(l >> 1) }
func posLit(v int32) clit { return clit(2 * v) }

type watch struct {
	c       int32 // the clause
	blocker clit  // a literal of the clause; when true the clause is skipped
	// bin: the clause has two literals, the blocker is the other one and
	// the clause need not be read.
	bin bool
}

// cdcl is one question's solver; it is reused across questions (its slices
// keep their capacity).
type cdcl struct {
	nvars int32
	// Clause c is lits[c+1 : c+1+lits[c]]: its length, then its
	// literals; cls lists the clauses.
	lits  []clit
	cls   []int32
	watch [][]watch // by literal: clauses watching it (visited when it becomes false)

	val      []int8 // by literal: 1 true, -1 false, 0 open
	level    []int32
	reason   []int32 // by variable: the clause that implied it, or -1
	trail    []clit
	trailLim []int32
	qhead    int

	act   []float64
	inc   float64
	heap  []int32 // variables by activity (a binary max-heap)
	hpos  []int32 // position of each variable in heap, or -1
	phase []bool  // saved value of each variable

	seen      []bool
	learnt    []clit
	keep      []clit
	conflicts int

	// Encoding scratch: the constants' dense indices and the literal of
	// every formula node.
	ridx map[Ref]int32
	node map[*Formula]clit
}

func newCDCL() *cdcl {
	return &cdcl{ridx: make(map[Ref]int32), node: make(map[*Formula]clit)}
}

// decide answers whether f (no data) is satisfiable; decided is false when
// f has too many constants or the conflict budget ran out.
func (s *cdcl) decide(f *Formula) (sat, decided bool) {
	refs := f.Refs()
	if len(refs) > cdclMaxRefs {
		return false, false
	}
	s.reset()
	n := int32(len(refs))
	for i, r := range refs {
		s.ridx[r] = int32(i)
	}
	// Variables 0..n(n−1)/2−1 are the pairs; variable pairs+0 is "true".
	pairs := n * (n - 1) / 2
	s.nvars = pairs + 1
	tru := posLit(pairs)
	ok := s.addClause(tru)
	pair := func(i, j int32) clit {
		if i > j {
			i, j = j, i
		}
		// Pairs (i, j), i < j, numbered row by row.
		return posLit(i*(2*n-i-1)/2 + (j - i - 1))
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			for k := j + 1; k < n; k++ {
				ij, jk, ik := pair(i, j), pair(j, k), pair(i, k)
				s.store(ij.neg(), jk.neg(), ik)
				s.store(ij.neg(), ik.neg(), jk)
				s.store(ik.neg(), jk.neg(), ij)
			}
		}
	}
	root := s.encode(f, pair, tru)
	ok = ok && s.addClause(root)
	s.initSearch()
	if !ok {
		return false, true
	}
	return s.solve()
}

func (s *cdcl) reset() {
	clear(s.ridx)
	clear(s.node)
	s.lits, s.cls = s.lits[:0], s.cls[:0]
	s.trail, s.trailLim, s.qhead = s.trail[:0], s.trailLim[:0], 0
	s.conflicts = 0
}

// newVar adds a variable for the encoding of a node.
func (s *cdcl) newVar() clit {
	v := s.nvars
	s.nvars++
	return posLit(v)
}

// encode returns the literal of f, adding the Tseitin clauses of its
// connectives.
func (s *cdcl) encode(f *Formula, pair func(i, j int32) clit, tru clit) clit {
	if l, ok := s.node[f]; ok {
		return l
	}
	var l clit
	switch f.op {
	case OpTrue:
		l = tru
	case OpFalse:
		l = tru.neg()
	case OpEq:
		l = pair(s.ridx[f.a], s.ridx[f.b])
	case OpNot:
		l = s.encode(f.kids[0], pair, tru).neg()
	case OpAnd, OpOr:
		ks := make([]clit, len(f.kids))
		for i, k := range f.kids {
			ks[i] = s.encode(k, pair, tru)
		}
		x := s.newVar()
		// Or is And with every literal negated: x ↔ ∨k is ¬x ↔ ∧¬k.
		conj, kl := x, ks
		if f.op == OpOr {
			conj = x.neg()
			for i := range kl {
				kl[i] = kl[i].neg()
			}
		}
		long := make([]clit, 0, len(kl)+1)
		long = append(long, conj)
		for _, k := range kl {
			s.store(conj.neg(), k) // conj is fresh: no duplicate, no tautology
			long = append(long, k.neg())
		}
		s.addClause(long...)
		l = x
	default:
		panic("smt: cdcl: formula with data")
	}
	s.node[f] = l
	return l
}

// addClause stores a clause before the search (the unit ones are asserted
// at level 0 by initSearch). It returns false for the empty clause.
func (s *cdcl) addClause(ls ...clit) bool {
	if len(ls) == 0 {
		return false
	}
	if len(ls) > 1 {
		// Duplicate literals off (the watches need two distinct ones); a
		// clause with a literal and its negation always holds.
		ls = slices.Clone(ls)
		slices.Sort(ls)
		ls = slices.Compact(ls)
		for i := 1; i < len(ls); i++ {
			if ls[i] == ls[i-1].neg() {
				return true
			}
		}
	}
	s.store(ls...)
	return true
}

// store adds a clause of distinct literals.
func (s *cdcl) store(ls ...clit) int32 {
	c := int32(len(s.lits))
	s.lits = append(s.lits, clit(len(ls)))
	s.lits = append(s.lits, ls...)
	s.cls = append(s.cls, c)
	return c
}

// initSearch sizes the per-variable state and sets up the watches.
func (s *cdcl) initSearch() {
	nv := int(s.nvars)
	if cap(s.val) < 2*nv {
		s.val = make([]int8, 2*nv)
	}
	if cap(s.level) < nv {
		s.level = make([]int32, nv)
		s.reason = make([]int32, nv)
		s.act = make([]float64, nv)
		s.hpos = make([]int32, nv)
		s.phase = make([]bool, nv)
		s.seen = make([]bool, nv)
	}
	for len(s.watch) < 2*nv {
		s.watch = append(s.watch, nil)
	}
	for i := range s.watch {
		s.watch[i] = s.watch[i][:0]
	}
	s.val = s.val[:2*nv]
	clear(s.val)
	s.level, s.reason, s.act = s.level[:nv], s.reason[:nv], s.act[:nv]
	s.hpos, s.phase, s.seen = s.hpos[:nv], s.phase[:nv], s.seen[:nv]
	clear(s.act)
	clear(s.phase)
	clear(s.seen)
	s.inc = 1
	s.heap = s.heap[:0]
	for v := int32(nv) - 1; v >= 0; v-- {
		s.hpos[v] = int32(len(s.heap))
		s.heap = append(s.heap, v)
		s.reason[v] = -1
	}
	for _, c := range s.cls {
		s.attach(c)
	}
}

func (s *cdcl) clause(c int32) []clit {
	return s.lits[c+1 : c+1+int32(s.lits[c])]
}

// attach watches the first two literals of clause c (a unit clause is
// watched by nothing; solve asserts it).
func (s *cdcl) attach(c int32) {
	cl := s.clause(c)
	if len(cl) < 2 {
		return
	}
	bin := len(cl) == 2
	s.watch[cl[0]] = append(s.watch[cl[0]], watch{c, cl[1], bin})
	s.watch[cl[1]] = append(s.watch[cl[1]], watch{c, cl[0], bin})
}

func (s *cdcl) assign(l clit, reason int32) {
	v := l.vr()
	s.val[l], s.val[l.neg()] = 1, -1
	s.level[v] = int32(len(s.trailLim))
	s.reason[v] = reason
	s.trail = append(s.trail, l)
}

// propagate runs unit propagation; it returns a conflicting clause or -1.
// The watch list of literal l holds the clauses in which l is watched;
// they are visited when l becomes false.
func (s *cdcl) propagate() int32 {
	for s.qhead < len(s.trail) {
		p := s.trail[s.qhead]
		s.qhead++
		f := p.neg() // just became false
		ws := s.watch[f]
		i, j := 0, 0
		for i < len(ws) {
			w := ws[i]
			i++
			if s.val[w.blocker] == 1 {
				ws[j] = w
				j++
				continue
			}
			if w.bin {
				ws[j] = w
				j++
				if s.val[w.blocker] == 0 {
					s.assign(w.blocker, w.c)
					continue
				}
				for i < len(ws) {
					ws[j] = ws[i]
					i, j = i+1, j+1
				}
				s.watch[f] = ws[:j]
				s.qhead = len(s.trail)
				return w.c
			}
			cl := s.clause(w.c)
			if cl[0] == f {
				cl[0], cl[1] = cl[1], f
			}
			first := cl[0]
			if first != w.blocker && s.val[first] == 1 {
				ws[j] = watch{w.c, first, false}
				j++
				continue
			}
			moved := false
			for k := 2; k < len(cl); k++ {
				if s.val[cl[k]] != -1 {
					cl[1], cl[k] = cl[k], f
					s.watch[cl[1]] = append(s.watch[cl[1]], watch{w.c, first, false})
					moved = true
					break
				}
			}
			if moved {
				continue
			}
			ws[j] = watch{w.c, first, false}
			j++
			if s.val[first] == -1 {
				// Conflict: keep the rest of the list.
				for i < len(ws) {
					ws[j] = ws[i]
					i, j = i+1, j+1
				}
				s.watch[f] = ws[:j]
				s.qhead = len(s.trail)
				return w.c
			}
			s.assign(first, w.c)
		}
		s.watch[f] = ws[:j]
	}
	return -1
}

// analyze derives the first-UIP clause of conflict c into s.learnt (the
// asserting literal first) and returns the level to go back to.
func (s *cdcl) analyze(c int32) int32 {
	s.learnt = append(s.learnt[:0], 0)
	cur := int32(len(s.trailLim))
	pathC := 0
	var p clit = -1
	idx := len(s.trail) - 1
	for {
		cl := s.clause(c)
		for _, q := range cl {
			if q == p {
				continue // the literal this reason implied
			}
			v := q.vr()
			if s.seen[v] || s.level[v] == 0 {
				continue
			}
			s.seen[v] = true
			s.bump(v)
			if s.level[v] == cur {
				pathC++
			} else {
				s.learnt = append(s.learnt, q)
			}
		}
		for !s.seen[s.trail[idx].vr()] {
			idx--
		}
		p = s.trail[idx]
		idx--
		s.seen[p.vr()] = false
		pathC--
		if pathC == 0 {
			break
		}
		c = s.reason[p.vr()]
	}
	s.learnt[0] = p.neg()
	// Local minimization: a literal whose reason's other literals are all
	// in the clause (or at level 0) is implied by them.
	s.keep = append(s.keep[:0], s.learnt[1:]...)
	out := 1
	for _, q := range s.keep {
		if !s.redundant(q) {
			s.learnt[out] = q
			out++
		}
	}
	for _, q := range s.keep {
		s.seen[q.vr()] = false
	}
	s.learnt = s.learnt[:out]
	// Back to the second highest level of the clause, whose literal is
	// watched with the asserting one.
	back := int32(0)
	for i := 1; i < len(s.learnt); i++ {
		if lv := s.level[s.learnt[i].vr()]; lv > back {
			back = lv
			s.learnt[1], s.learnt[i] = s.learnt[i], s.learnt[1]
		}
	}
	return back
}

func (s *cdcl) redundant(q clit) bool {
	r := s.reason[q.vr()]
	if r < 0 {
		return false
	}
	for _, x := range s.clause(r) {
		if x.vr() != q.vr() && !s.seen[x.vr()] && s.level[x.vr()] > 0 {
			return false
		}
	}
	return true
}

// cancel undoes the assignments above level lv.
func (s *cdcl) cancel(lv int32) {
	if int32(len(s.trailLim)) <= lv {
		return
	}
	start := int(s.trailLim[lv])
	for i := len(s.trail) - 1; i >= start; i-- {
		l := s.trail[i]
		v := l.vr()
		s.val[l], s.val[l.neg()] = 0, 0
		s.phase[v] = l&1 == 0
		if s.hpos[v] < 0 {
			s.heapInsert(v)
		}
	}
	s.trail = s.trail[:start]
	s.trailLim = s.trailLim[:lv]
	s.qhead = start
}

// solve is the search loop.
func (s *cdcl) solve() (sat, decided bool) {
	// Unit clauses at level 0.
	for _, c := range s.cls {
		cl := s.clause(c)
		if len(cl) != 1 {
			continue
		}
		switch s.val[cl[0]] {
		case -1:
			return false, true
		case 0:
			s.assign(cl[0], c)
		}
	}
	restart, nextRestart := 0, 100*luby(0)
	sinceRestart := 0
	for {
		if c := s.propagate(); c >= 0 {
			s.conflicts++
			sinceRestart++
			if len(s.trailLim) == 0 {
				return false, true
			}
			if s.conflicts > cdclMaxConflicts {
				return false, false
			}
			back := s.analyze(c)
			s.cancel(back)
			if len(s.learnt) == 1 {
				s.assign(s.learnt[0], -1)
			} else {
				// Stored as is: the asserting literal and the one of
				// the level gone back to must stay first, watched.
				nc := s.store(s.learnt...)
				s.attach(nc)
				s.assign(s.learnt[0], nc)
			}
			s.inc /= 0.95
			continue
		}
		if sinceRestart >= nextRestart {
			restart++
			nextRestart, sinceRestart = 100*luby(restart), 0
			s.cancel(0)
		}
		v := s.pickVar()
		if v < 0 {
			return true, true
		}
		s.trailLim = append(s.trailLim, int32(len(s.trail)))
		l := posLit(v)
		if !s.phase[v] {
			l = l.neg()
		}
		s.assign(l, -1)
	}
}

// luby is the i-th term (from 0) of the Luby sequence 1 1 2 1 1 2 4 ...
func luby(i int) int {
	size, seq := 1, 0
	for size < i+1 {
		seq++
		size = 2*size + 1
	}
	x := i
	for size-1 != x {
		size = (size - 1) >> 1
		seq--
		x %= size
	}
	return 1 << seq
}

func (s *cdcl) pickVar() int32 {
	for len(s.heap) > 0 {
		v := s.heapPop()
		if s.val[posLit(v)] == 0 {
			return v
		}
	}
	return -1
}

func (s *cdcl) bump(v int32) {
	s.act[v] += s.inc
	if s.act[v] > 1e100 {
		for i := range s.act {
			s.act[i] *= 1e-100
		}
		s.inc *= 1e-100
	}
	if p := s.hpos[v]; p >= 0 {
		s.heapUp(p)
	}
}

func (s *cdcl) heapLess(a, b int32) bool {
	// Higher activity first; ties by index, so the search is the same on
	// every run.
	if s.act[a] != s.act[b] {
		return s.act[a] > s.act[b]
	}
	return a > b
}

func (s *cdcl) heapUp(p int32) {
	v := s.heap[p]
	for p > 0 {
		q := (p - 1) / 2
		if !s.heapLess(v, s.heap[q]) {
			break
		}
		s.heap[p] = s.heap[q]
		s.hpos[s.heap[p]] = p
		p = q
	}
	s.heap[p] = v
	s.hpos[v] = p
}

func (s *cdcl) heapDown(p int32) {
	v := s.heap[p]
	n := int32(len(s.heap))
	for {
		c := 2*p + 1
		if c >= n {
			break
		}
		if c+1 < n && s.heapLess(s.heap[c+1], s.heap[c]) {
			c++
		}
		if !s.heapLess(s.heap[c], v) {
			break
		}
		s.heap[p] = s.heap[c]
		s.hpos[s.heap[p]] = p
		p = c
	}
	s.heap[p] = v
	s.hpos[v] = p
}

func (s *cdcl) heapInsert(v int32) {
	s.hpos[v] = int32(len(s.heap))
	s.heap = append(s.heap, v)
	s.heapUp(s.hpos[v])
}

func (s *cdcl) heapPop() int32 {
	v := s.heap[0]
	last := s.heap[len(s.heap)-1]
	s.heap = s.heap[:len(s.heap)-1]
	s.hpos[v] = -1
	if len(s.heap) > 0 {
		s.heap[0] = last
		s.hpos[last] = 0
		s.heapDown(0)
	}
	return v
}
