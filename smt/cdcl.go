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
// restarts), kept from question to question (see the cdcl type). A
// question gets at most cdclMaxConflicts conflicts; past that budget it
// is not answered here and goes on to the DPLL's whole budget and Z3, as
// before: nothing is ever guessed.

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
// the clause learning that answers them. POSE-J on seed 1's
// reference-only stream (docs/PERFORMANCE.md) took 9.5, 9.4 and 10.8 s of
// CPU with 2,000, 20,000 and 200,000 (one run each, on a loaded machine).
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

// Bounds of the kept encoding: past them it is dropped before a question.
// cdclKeep bounds it relative to the last question: the definitions and
// learned clauses of nodes a question does not mention cost nothing to
// its answer, but propagation still visits them, and a stream of
// unrelated programs would keep them all. Measured on the questions of
// seed 1's stream and of the successor tree at k = 3 (docs/PERFORMANCE.md):
// dropping everything before every question, 2, 3, 4 and never. 2 kept
// most of the gain on the successor's questions (0.5 s of CPU for 1,637
// questions, against 4.5 s with nothing kept and 0.4 s with everything)
// and lost least on the stream's (2.4 s for 862, against 1.6 s and 3.2 s).
const (
	cdclKeep    = 2
	cdclMaxVars = 1 << 17
	cdclMaxLits = 1 << 22
)

// cdcl is the clause-learning solver of one Solver. Its clauses outlive
// a question: every formula node is encoded once (its variable and
// definition kept, keyed by the node; formulas are hash-consed, so a
// node met again in a later question is the same pointer), every
// constant once (its pairs with the constants before it, and their
// transitivity clauses), and the learned clauses are kept. The question
// itself is never a clause: its root is the first decision, so every
// clause learned is a consequence of the definitions and the
// transitivity clauses alone, true in every later question. (The
// definitions of nodes that a question does not mention are satisfied by
// any values of the atoms, and the pairs of constants it does not
// mention by classes of their own, so they change no answer.) The
// determinism questions of successive states share most of their guards,
// so that the encoding and most conflicts are met once, not per question.
//
// A question decides only the variables of its cone (its nodes, the
// pairs of its constants): when they are all assigned without a conflict,
// every clause over them holds, and so does the question.
type cdcl struct {
	nvars int32
	// Clause c is lits[c+1 : c+1+lits[c]]: its length, then its literals.
	lits  []clit
	watch [][]watch // by literal: clauses watching it (visited when it becomes false)

	val      []int8 // by literal: 1 true, -1 false, 0 open
	level    []int32
	reason   []int32 // by variable: the clause that implied it, or -1
	trail    []clit
	trailLim []int32
	qhead    int

	act   []float64
	inc   float64
	heap  []int32 // the cone's variables by activity (a binary max-heap)
	hpos  []int32 // position of each variable in heap, or -1
	phase []bool  // saved value of each variable
	cone  []uint32
	stamp uint32 // the question: cone[v] == stamp for its variables
	// The operands of each connective's variable, subs[sub0[v]:sub1[v]]
	// (empty for a pair's), so that a question's cone is walked over
	// arrays, not over its formula and the node map.
	sub0, sub1 []int32
	subs       []int32
	// compacted: the heap has been rid of the variables assigned by the
	// question's first propagation (pickVar).
	compacted bool

	seen      []bool
	tmp2      []int32
	learnt    []clit
	keep      []clit
	tmp       []clit
	conflicts int // of the last question
	// wantModel asks decide to record the classes of a satisfying
	// assignment in model (satRefCases keeps them).
	wantModel bool
	model     refModel
	broken    bool  // a conflict at level 0 (never expected): drop everything
	stale     bool  // the kept encoding is past cdclKeep times the last question's cone
	coneVars  int   // variables in the last question's cone
	resets    int64 // for the tests

	// The kept encoding: the constants' dense indices, the pair variables
	// (pairs[i*cdclMaxRefs+j], i < j), the literal of every node, and the
	// variable that is always true.
	ridx  map[Ref]int32
	pairs []clit
	node  map[*Formula]clit
	tru   clit

	// The incremental route (cdclinc.go): incMode when the trail's first
	// levels are the assumptions alev[:apushed] of decideInc, kept
	// between its questions; kidset is its scratch set of a question's
	// conjuncts, asked the number of questions each conjunct was in,
	// restTmp scratch.
	incMode bool
	alev    []alevel
	apushed int32
	kidset  map[*Formula]bool
	asked   map[*Formula]int32
	restTmp []alevel
	keptAt  int32 // nvars when the kept encoding was last measured
}

func newCDCL() *cdcl {
	s := &cdcl{ridx: make(map[Ref]int32), node: make(map[*Formula]clit)}
	s.reset()
	return s
}

// reset drops the kept encoding and every learned clause.
func (s *cdcl) reset() {
	s.resets++
	clear(s.ridx)
	clear(s.node)
	s.pairs = make([]clit, cdclMaxRefs*cdclMaxRefs)
	s.nvars = 0
	s.lits = s.lits[:0]
	s.watch = s.watch[:0]
	s.val, s.level, s.reason = s.val[:0], s.level[:0], s.reason[:0]
	s.act, s.hpos, s.phase, s.cone, s.seen = s.act[:0], s.hpos[:0], s.phase[:0], s.cone[:0], s.seen[:0]
	s.sub0, s.sub1, s.subs = s.sub0[:0], s.sub1[:0], s.subs[:0]
	s.trail, s.trailLim, s.qhead = s.trail[:0], s.trailLim[:0], 0
	s.heap = s.heap[:0]
	s.inc = 1
	s.broken, s.stale = false, false
	s.keptAt = 0
	s.tru = s.newVar()
	s.assign(s.tru, -1)
}

// newVar adds a variable.
func (s *cdcl) newVar() clit {
	v := s.nvars
	s.nvars++
	s.val = append(s.val, 0, 0)
	s.watch = append(s.watch, nil, nil)
	s.level = append(s.level, 0)
	s.reason = append(s.reason, -1)
	s.act = append(s.act, 0)
	s.hpos = append(s.hpos, -1)
	s.phase = append(s.phase, false)
	s.cone = append(s.cone, 0)
	s.seen = append(s.seen, false)
	s.sub0 = append(s.sub0, 0)
	s.sub1 = append(s.sub1, 0)
	return posLit(v)
}

// decide answers whether f (no data) is satisfiable; decided is false when
// f has too many constants or the conflict budget ran out.
func (s *cdcl) decide(f *Formula) (sat, decided bool) {
	s.leaveInc()
	refs := f.Refs()
	if len(refs) > cdclMaxRefs {
		return false, false
	}
	fresh := 0
	for _, r := range refs {
		if _, ok := s.ridx[r]; !ok {
			fresh++
		}
	}
	if s.broken || s.stale || len(s.ridx)+fresh > cdclMaxRefs || s.nvars > cdclMaxVars || len(s.lits) > cdclMaxLits {
		s.reset()
	}
	for _, r := range refs {
		if _, ok := s.ridx[r]; !ok {
			s.addConst(r)
		}
	}
	root := s.encode(f)
	s.conflicts = 0
	if s.broken {
		return false, false
	}
	s.setCone(f, refs)
	sat, decided = s.solve(root)
	if sat && decided && s.wantModel {
		s.takeModel(refs)
	}
	// Leaving the question: the next one builds its own heap, so the
	// variables unassigned now are not put back into this one's.
	s.newStamp()
	s.cancel(0)
	s.stale = int(s.nvars) > cdclKeep*s.coneVars
	return sat, decided
}

// takeModel records, in s.model, the classes of the satisfying
// assignment just found over refs (the question's constants): each
// constant's representative is the first of refs in its class.
func (s *cdcl) takeModel(refs []Ref) {
	m := make([]Ref, len(refs))
	for i, r := range refs {
		m[i] = r
		for j := range i {
			if s.val[s.pair(s.ridx[refs[j]], s.ridx[r])] == 1 {
				m[i] = refs[j]
				break
			}
		}
	}
	s.model = refModel{refs: refs, rep: m}
}

// addConst gives constant r its pairs with the constants before it and
// their transitivity clauses.
func (s *cdcl) addConst(r Ref) {
	k := int32(len(s.ridx))
	s.ridx[r] = k
	for i := range k {
		s.pairs[i*cdclMaxRefs+k] = s.newVar()
	}
	for i := range k {
		for j := i + 1; j < k; j++ {
			ij, ik, jk := s.pair(i, j), s.pair(i, k), s.pair(j, k)
			s.addClause(ij.neg(), jk.neg(), ik)
			s.addClause(ij.neg(), ik.neg(), jk)
			s.addClause(ik.neg(), jk.neg(), ij)
		}
	}
}

func (s *cdcl) pair(i, j int32) clit {
	if i > j {
		i, j = j, i
	}
	return s.pairs[i*cdclMaxRefs+j]
}

// encode returns the literal of f, adding the Tseitin definitions of the
// connectives not encoded before.
func (s *cdcl) encode(f *Formula) clit {
	if l, ok := s.node[f]; ok {
		return l
	}
	var l clit
	switch f.op {
	case OpTrue:
		l = s.tru
	case OpFalse:
		l = s.tru.neg()
	case OpEq:
		l = s.pair(s.ridx[f.a], s.ridx[f.b])
	case OpNot:
		l = s.encode(f.kids[0]).neg()
	case OpAnd, OpOr:
		ks := make([]clit, len(f.kids))
		for i, k := range f.kids {
			ks[i] = s.encode(k)
		}
		x := s.newVar()
		s.sub0[x.vr()] = int32(len(s.subs))
		for _, k := range ks {
			s.subs = append(s.subs, k.vr())
		}
		s.sub1[x.vr()] = int32(len(s.subs))
		// Or is And with every literal negated: x ↔ ∨k is ¬x ↔ ∧¬k.
		conj := x
		if f.op == OpOr {
			conj = x.neg()
			for i := range ks {
				ks[i] = ks[i].neg()
			}
		}
		// Above level 0 (decideInc's kept levels) x is fresh but its
		// operands may be assigned: it gets its value first, at the
		// level they give it (cdclinc.go), why naming its reason.
		why := -2
		if len(s.trailLim) > 0 {
			why = s.settle(conj, ks)
		}
		long := make([]clit, 0, len(ks)+1)
		long = append(long, conj)
		for i, k := range ks {
			if c := s.addClause(conj.neg(), k); why == i {
				s.because(conj, c)
			}
			long = append(long, k.neg())
		}
		if c := s.addClause(long...); why == -1 {
			s.because(conj, c)
		}
		l = x
	default:
		panic("smt: cdcl: formula with data")
	}
	s.node[f] = l
	return l
}

// addClause adds a clause at level 0 (between questions): a clause a
// level-0 literal satisfies is dropped, the level-0 false literals are
// left out, and a clause left with one literal asserts it at level 0.
// None is left empty (the clauses are satisfiable together, see cdcl);
// if one were, the solver is marked broken and dropped. Above level 0 it
// is addLive's (cdclinc.go). It returns the clause stored, or -1.
func (s *cdcl) addClause(ls ...clit) int32 {
	if len(s.trailLim) > 0 {
		return s.addLive(ls)
	}
	out, holds := s.reduceAtZero(ls)
	defer func() { s.tmp = out[:0] }()
	if holds {
		return -1
	}
	switch len(out) {
	case 0:
		s.broken = true
	case 1:
		s.assign(out[0], -1)
	default:
		c := s.store(out...)
		s.attach(c)
		return c
	}
	return -1
}

// reduceAtZero is the clause ls over what level 0 has settled, built in
// s.tmp: its literals false at level 0 and its repeats left out. holds
// reports a literal true at level 0, or a literal with its negation: the
// clause always holds and is not added. addClause (at level 0, where
// every assigned literal is) and addLive (above it) share it.
func (s *cdcl) reduceAtZero(ls []clit) (out []clit, holds bool) {
	out = s.tmp[:0]
	for _, l := range ls {
		if s.val[l] != 0 && s.level[l.vr()] == 0 {
			if s.val[l] == 1 {
				return out, true
			}
			continue
		}
		if slices.Contains(out, l) {
			continue
		}
		if slices.Contains(out, l.neg()) {
			return out, true
		}
		out = append(out, l)
	}
	return out, false
}

// store adds a clause of distinct literals.
func (s *cdcl) store(ls ...clit) int32 {
	c := int32(len(s.lits))
	s.lits = append(s.lits, clit(len(ls)))
	s.lits = append(s.lits, ls...)
	return c
}

// setCone marks the variables of f's question and puts the open ones in
// the decision heap (in activity order).
func (s *cdcl) setCone(f *Formula, refs []Ref) {
	s.newStamp()
	for _, v := range s.heap {
		s.hpos[v] = -1
	}
	s.heap = s.heap[:0]
	s.coneVars = 0
	mark := func(l clit) bool {
		v := l.vr()
		if s.cone[v] == s.stamp {
			return false
		}
		s.cone[v] = s.stamp
		s.coneVars++
		if s.val[l] == 0 {
			s.hpos[v] = int32(len(s.heap))
			s.heap = append(s.heap, v)
		}
		return true
	}
	for a := range refs {
		for b := a + 1; b < len(refs); b++ {
			mark(s.pair(s.ridx[refs[a]], s.ridx[refs[b]]))
		}
	}
	// The connectives under f, depth first over the operand lists (a
	// pair's variable has none and is marked above; so is a constant's).
	stack := s.tmp2[:0]
	if v := s.node[f].vr(); s.sub1[v] > s.sub0[v] {
		stack = append(stack, v)
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !mark(posLit(v)) {
			continue
		}
		for _, k := range s.subs[s.sub0[v]:s.sub1[v]] {
			if s.sub1[k] > s.sub0[k] && s.cone[k] != s.stamp {
				stack = append(stack, k)
			}
		}
	}
	s.tmp2 = stack[:0]
	// Not yet in heap order: pickVar orders it at the first decision,
	// once the root's propagation has assigned most of it (bump's
	// heapUp before then only moves a variable within it).
	s.compacted = false
}

// heapify restores the heap order of s.heap.
func (s *cdcl) heapify() {
	for i := len(s.heap)/2 - 1; i >= 0; i-- {
		s.heapDown(int32(i))
	}
}

// newStamp starts a new cone (cone[v] == stamp for none).
func (s *cdcl) newStamp() {
	s.stamp++
	if s.stamp == 0 {
		clear(s.cone)
		s.stamp = 1
	}
}

func (s *cdcl) clause(c int32) []clit {
	return s.lits[c+1 : c+1+int32(s.lits[c])]
}

// attach watches the first two literals of clause c.
func (s *cdcl) attach(c int32) {
	cl := s.clause(c)
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
		if s.hpos[v] < 0 && s.cone[v] == s.stamp {
			s.heapInsert(v)
		}
	}
	s.trail = s.trail[:start]
	s.trailLim = s.trailLim[:lv]
	s.qhead = start
}

// solve is the search loop for the question whose literal is root: the
// root is the first decision, the cone's variables the others.
func (s *cdcl) solve(root clit) (sat, decided bool) {
	restart, nextRestart := 0, 100*luby(0)
	sinceRestart := 0
	for {
		if c := s.propagate(); c >= 0 {
			if len(s.trailLim) == 0 {
				s.broken = true
				return false, false
			}
			s.conflicts++
			sinceRestart++
			if s.conflicts > cdclMaxConflicts {
				return false, false
			}
			s.backjump(c)
			continue
		}
		if sinceRestart >= nextRestart {
			restart++
			nextRestart, sinceRestart = 100*luby(restart), 0
			s.cancel(0)
		}
		if len(s.trailLim) == 0 {
			switch s.val[root] {
			case -1:
				return false, true
			case 0:
				s.trailLim = append(s.trailLim, int32(len(s.trail)))
				s.assign(root, -1)
				continue
			}
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
	if !s.compacted {
		// The first decision after the root's propagation: most of the
		// cone is assigned, and popping each assigned variable would
		// cost a heap step. The unassigned ones are the same set either
		// way (cancel puts back those it unassigns), so the heap's
		// maximum, the decision, is the same.
		s.compacted = true
		h := s.heap[:0]
		for _, v := range s.heap {
			if s.val[posLit(v)] == 0 {
				s.hpos[v] = int32(len(h))
				h = append(h, v)
			} else {
				s.hpos[v] = -1
			}
		}
		s.heap = h
		s.heapify()
	}
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

// The decision heap is indexed (hpos) and written out here rather than
// through container/heap: its Push and Pop take and return any, which
// boxes a variable number at every decision and every conflict's bump.

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

// backjump learns the first-UIP clause of conflict c, goes back to the
// level it names, asserts it there and decays the activities; it returns
// that level. decide and decideInc's search share it.
func (s *cdcl) backjump(c int32) int32 {
	back := s.analyze(c)
	s.cancel(back)
	if len(s.learnt) == 1 {
		s.assign(s.learnt[0], -1)
	} else {
		// Stored as is: the asserting literal and the one of the level
		// gone back to must stay first, watched.
		nc := s.store(s.learnt...)
		s.attach(nc)
		s.assign(s.learnt[0], nc)
	}
	s.inc /= 0.95
	return back
}
