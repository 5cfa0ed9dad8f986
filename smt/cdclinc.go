package smt

// The incremental route of clause learning: a question's conjuncts as
// assumptions, kept on the trail from one question to the next.
//
// satRefCases (split.go) asks, along a path of the summary engine, the
// questions R ∧ g ∧ (σ1 ∨ … ∨ σm): R the path condition's reference part,
// which grows by a conjunct or two a step and on bst_delete2 at k = 3
// reaches thousands of nodes, g a guard. decide (cdcl.go) makes each
// question's root its first decision, so every question propagates the
// whole of R again (most of them are unsat by that propagation alone,
// with one or two conflicts) and walks R's whole cone, so that a path
// costs the square of its length. Here each conjunct of the question is
// an assumption of its own, a decision level of its own (the first levels
// of the trail, in the order they were first asked), and the levels whose
// conjuncts the next question also has stay on the trail, with what their
// propagation assigned: a question costs the propagation and the search
// of what it adds. The search decides pair variables only, so no cone is
// walked.
//
// Why every answer is decide's. The clauses are those of decide (the
// definitions of the encoded nodes, the transitivity clauses, clauses
// learned from them), each a consequence of the definitions and the
// transitivity clauses, which every model of a question extends to
// (cdcl). An assumption is a decision, so a clause learned under
// assumptions is such a consequence too. Unsat is answered only when
// propagation, from the assumptions alone (no search decision on the
// trail), meets a conflict or finds an assumption false: the assumptions
// are the question's conjuncts, so the question is unsatisfiable. Sat is
// answered when every pair variable (of every constant encoded) is
// assigned without conflict: then every connective's variable is
// assigned too (its definition clauses propagate it from its operands,
// bottom up), the assignment is total, no clause is false, and the pair
// variables of the question's constants, an equivalence by the
// transitivity clauses, are a model of its conjuncts, which are true.
//
// What keeping the trail asks of the solver, beyond decide:
//
//   - A clause added with the trail above level 0 (the definitions of the
//     nodes a question adds, the transitivity clauses of a new constant)
//     is watched on its two literals that are not false, or else on the
//     ones assigned last (addLate). A clause with one such literal left
//     open is unit: it is assigned at the current level with the clause
//     as its reason (later than at the level it became unit, as in
//     chronological backtracking: the trail stays ordered by level, each
//     literal after its reason's). A clause that every literal falsifies
//     sends the trail back to level 0 (never met: a new node's
//     definition has its fresh variable, a new constant's clauses two
//     fresh pairs). A clause left with one literal is a level-0 fact;
//     so is a learned clause of one literal. Above level 0 such a fact is
//     assigned at the current level with a clause of its one literal as
//     its reason, and asserted at level 0 when the trail is next there.
//   - A conflict under search decisions goes back to the level first-UIP
//     learning names or to the last assumption level, whichever is
//     higher, and assigns the learned clause's asserting literal there
//     (its other literals are false at the level learning names or
//     below): the assumptions are not undone by a conflict below them.
//     A conflict on the assumption levels alone (level L) proves the
//     question unsat; its clause is learned, the trail goes back to L−1
//     and propagates the clause's literal there, so that what the levels
//     below L keep is a fixpoint of propagation.
//   - The decision heap holds the pair variables, kept from question to
//     question: every open one is in it (cancel puts back those it
//     undoes, addConst adds new ones), and pickVarInc drops the assigned
//     ones it meets.
//   - The kept encoding is measured against a question's cone (cdclKeep)
//     by one walk of the cone, only when it has grown past cdclKeep times
//     the last cone measured, by an eighth of that since.

// incState is the state of cdcl's incremental route.
type incState struct {
	// incMode: the trail's first levels are alev's (decideInc); decide
	// leaves the mode first.
	incMode bool
	// alev are the question's assumptions in level order; the first
	// apushed are on the trail, as its levels 1..apushed. Between
	// questions alev is the kept prefix.
	alev    []alevel
	apushed int32
	// units are the clauses of one literal (level-0 facts) assigned above
	// level 0, to be asserted at level 0 when the trail is there.
	units []int32
	// rootAgain: a clause was added that the trail falsifies; the trail
	// goes back to level 0.
	rootAgain bool
	// keptAt is nvars when the kept encoding was last measured against
	// a question's cone (cdclKeep).
	keptAt int32
	// kids is decideInc's scratch set of the question's conjuncts.
	kids map[*Formula]bool
}

// alevel is one assumption: a conjunct of the question and its literal.
type alevel struct {
	f   *Formula
	lit clit
}

// clear forgets the route's state (reset has dropped the trail).
func (st *incState) clear() {
	st.incMode = false
	st.alev = st.alev[:0]
	st.apushed, st.keptAt = 0, 0
	st.units = st.units[:0]
	st.rootAgain = false
}

// enterInc starts the incremental route at level 0, with every open
// pair variable in the decision heap.
func (s *cdcl) enterInc() {
	s.cancel(0)
	s.rootUnits()
	for _, v := range s.heap {
		s.hpos[v] = -1
	}
	s.heap = s.heap[:0]
	s.incState.clear()
	s.incMode = true
	s.compacted = true
	if s.kids == nil {
		s.kids = make(map[*Formula]bool)
	}
	n := int32(len(s.ridx))
	for i := range n {
		for j := i + 1; j < n; j++ {
			if v := s.pair(i, j).vr(); s.val[posLit(v)] == 0 {
				s.heapInsert(v)
			}
		}
	}
}

// isPair reports whether v is a pair's variable (not a connective's, not
// the one always true).
func (s *cdcl) isPair(v int32) bool {
	return v != s.tru.vr() && s.sub1[v] == s.sub0[v]
}

// leaveInc goes back to decide's use: level 0, a heap decide builds.
func (s *cdcl) leaveInc() {
	if !s.incMode {
		return
	}
	s.cancel(0)
	s.rootUnits()
	s.incState.clear()
	s.newStamp()
}

// rootUnits asserts, with the trail at level 0, the level-0 facts that
// were assigned above it.
func (s *cdcl) rootUnits() {
	if len(s.trailLim) > 0 {
		return
	}
	for _, c := range s.units {
		l := s.clause(c)[0]
		switch s.val[l] {
		case -1:
			s.broken = true
		case 0:
			s.assign(l, -1)
		}
	}
	s.units = s.units[:0]
	s.rootAgain = false
	if s.propagate() >= 0 {
		s.broken = true
	}
}

// addLate adds clause ls (no literal assigned at level 0, at least one)
// with the trail above level 0 (see the file's comment).
func (s *cdcl) addLate(ls []clit) {
	if len(ls) == 1 {
		c := s.store(ls[0])
		s.units = append(s.units, c)
		switch s.val[ls[0]] {
		case 0:
			s.assign(ls[0], c)
		case -1:
			s.rootAgain = true
		}
		return
	}
	// Watch the literals not false first, then the false ones assigned
	// last.
	rank := func(l clit) int32 {
		if s.val[l] != -1 {
			return 1 << 30
		}
		return s.level[l.vr()]
	}
	for i := 0; i < 2; i++ {
		best := i
		for k := i + 1; k < len(ls); k++ {
			if rank(ls[k]) > rank(ls[best]) {
				best = k
			}
		}
		ls[i], ls[best] = ls[best], ls[i]
	}
	c := s.store(ls...)
	s.attach(c)
	switch {
	case s.val[ls[0]] == -1:
		s.rootAgain = true
	case s.val[ls[0]] == 0 && s.val[ls[1]] == -1:
		s.assign(ls[0], c)
	}
}

// decideInc answers whether q (no data) is satisfiable, as decide does,
// keeping on the trail the assumption levels of the conjuncts that q
// shares with the question before it (see the file's comment).
func (s *cdcl) decideInc(q *Formula) (sat, decided bool) {
	refs := q.Refs()
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
	if !s.incMode {
		s.enterInc()
	}
	kids := []*Formula{q}
	if q.op == OpAnd {
		kids = q.kids
	}
	// The kept prefix: the levels whose conjuncts q has.
	clear(s.kids)
	for _, k := range kids {
		s.kids[k] = true
	}
	j := int32(0)
	for j < s.apushed && s.kids[s.alev[j].f] {
		s.kids[s.alev[j].f] = false
		j++
	}
	s.cancel(j)
	s.alev = s.alev[:j]
	for _, r := range refs {
		if _, ok := s.ridx[r]; !ok {
			s.addConst(r)
		}
	}
	// The rest in q's order (by ID: the conjuncts made last, a guard or
	// the data's valuations, last).
	for _, k := range kids {
		if s.kids[k] {
			s.alev = append(s.alev, alevel{f: k, lit: s.encode(k)})
		}
	}
	if !s.broken && len(s.trailLim) > 0 {
		// Level-0 facts undone since they were assigned above it are
		// assigned again (their clause is their reason); one the kept
		// levels falsify sends the trail to level 0.
		for _, c := range s.units {
			switch l := s.clause(c)[0]; s.val[l] {
			case 0:
				s.assign(l, c)
			case -1:
				s.rootAgain = true
			}
		}
		if s.rootAgain {
			s.cancel(0)
		}
	}
	s.rootUnits()
	s.conflicts = 0
	if s.broken {
		return false, false
	}
	sat, decided = s.solveInc()
	if sat && decided && s.wantModel {
		s.takeModel(refs)
	}
	s.cancel(s.apushed)
	// The kept encoding against the question's cone, measured (one walk
	// of the cone) only when it has grown past cdclKeep times the last
	// cone measured, and by an eighth of it since.
	if int(s.nvars) > cdclKeep*s.coneVars && s.nvars-s.keptAt > int32(s.coneVars/8) {
		s.keptAt = s.nvars
		s.coneVars = s.coneSize(q)
		s.stale = int(s.nvars) > cdclKeep*s.coneVars
	}
	s.alev = s.alev[:s.apushed]
	return sat, decided
}

// coneSize is the number of variables in q's cone: the pairs of its
// constants and the connectives under its conjuncts (alev, before the
// levels past apushed are dropped).
func (s *cdcl) coneSize(q *Formula) int {
	s.newStamp()
	n := len(q.refs)
	size := n * (n - 1) / 2
	stack := s.tmp2[:0]
	for _, a := range s.alev {
		if v := a.lit.vr(); s.sub1[v] > s.sub0[v] {
			stack = append(stack, v)
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.cone[v] == s.stamp {
			continue
		}
		s.cone[v] = s.stamp
		size++
		for _, k := range s.subs[s.sub0[v]:s.sub1[v]] {
			if s.sub1[k] > s.sub0[k] && s.cone[k] != s.stamp {
				stack = append(stack, k)
			}
		}
	}
	s.tmp2 = stack[:0]
	return size
}

// solveInc is solve over the assumption levels alev.
func (s *cdcl) solveInc() (sat, decided bool) {
	restart, nextRestart := 0, 100*luby(0)
	sinceRestart := 0
	failed := false
	for {
		if c := s.propagate(); c >= 0 {
			lv := int32(len(s.trailLim))
			if lv == 0 {
				s.broken = true
				return false, false
			}
			back := s.analyze(c)
			if lv <= s.apushed {
				// The assumptions of levels 1..lv contradict the
				// clauses: q is unsat. The levels below lv stay, at a
				// fixpoint of propagation with the clause learned.
				failed = true
				s.learnAt(lv - 1)
				continue
			}
			s.conflicts++
			sinceRestart++
			if s.conflicts > cdclMaxConflicts {
				return false, false
			}
			s.learnAt(max(back, s.apushed))
			s.inc /= 0.95
			continue
		}
		if failed {
			return false, true
		}
		if sinceRestart >= nextRestart {
			restart++
			nextRestart, sinceRestart = 100*luby(restart), 0
			s.cancel(s.apushed)
		}
		if int(s.apushed) < len(s.alev) {
			a := &s.alev[s.apushed]
			if s.val[a.lit] == -1 {
				return false, true
			}
			s.trailLim = append(s.trailLim, int32(len(s.trail)))
			s.apushed++
			if s.val[a.lit] == 0 {
				s.assign(a.lit, -1)
			}
			continue
		}
		v := s.pickVarInc()
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

// learnAt goes back to level lv and asserts the clause just learned
// there (its other literals are false at lv or below).
func (s *cdcl) learnAt(lv int32) {
	s.cancel(lv)
	if len(s.learnt) == 1 {
		if lv == 0 {
			s.assign(s.learnt[0], -1)
			return
		}
		c := s.store(s.learnt[0])
		s.units = append(s.units, c)
		s.assign(s.learnt[0], c)
		return
	}
	nc := s.store(s.learnt...)
	s.attach(nc)
	s.assign(s.learnt[0], nc)
}

// pickVarInc is the open pair variable of highest activity, or -1.
func (s *cdcl) pickVarInc() int32 {
	for len(s.heap) > 0 {
		v := s.heapPop()
		if s.val[posLit(v)] == 0 {
			return v
		}
	}
	return -1
}
