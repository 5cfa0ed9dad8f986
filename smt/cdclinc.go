package smt

// The incremental route of clause learning: a question's conjuncts as
// assumptions, kept on the trail from one question to the next.
//
// satRefCases (split.go) asks, along a path of the summary engine, the
// questions R ∧ g ∧ (σ1 ∨ … ∨ σm): R the path condition's reference part,
// which grows by a conjunct or two a step and on bst_delete2 at k = 3
// reaches thousands of nodes, g a guard. decide (cdcl.go) makes each
// question's root its first decision, so every question propagates the
// whole of R again and walks R's whole cone: a path costs the square of
// its length. decideInc makes each conjunct of the question an
// assumption, a decision level of its own (the first levels of the trail,
// in the order they were first asked), and keeps on the trail the levels
// whose conjuncts the next question also has, with what their propagation
// assigned: a question costs the propagation and the search of what it
// adds.
//
// The route is the textbook one for assumptions (MiniSat's), so that the
// solver's invariants are those of a solver that never keeps a trail:
//
//   - Clauses are added only at level 0. A question with a conjunct or a
//     constant not encoded yet sends the trail to level 0 first, encodes
//     it there (addConst, encode, addClause as in decide) and pushes its
//     assumptions again. Along a path most questions add no node (their
//     guard was encoded by the state before); the others pay what decide
//     pays.
//   - Every literal is assigned at the level its reason makes it true at:
//     a conflict goes back to the level first-UIP learning names, even
//     below the last assumption, and the assumptions above it are pushed
//     again by the search loop (a learned clause of one literal goes to
//     level 0). So the trail is always ordered by level, each level a
//     fixpoint of propagation when the next is pushed, and going back to
//     a level leaves the state it had then plus what was learned since
//     (each learned clause asserting at the level it is unit at).
//   - Unsat is answered only when the assumptions alone (no search
//     decision on the trail) meet a conflict in propagation, or find an
//     assumption false: the assumptions are the question's conjuncts and
//     every clause is a consequence of the definitions and transitivity
//     clauses (cdcl), so the question is unsatisfiable. Such a conflict
//     is not learned: the trail goes back to the level below it, which was
//     a fixpoint of propagation before the conflicting level was pushed.
//   - Sat is answered, as in decide, when every pair variable of the
//     question's constants is assigned without a conflict: the question's
//     nodes are then all assigned by propagation (each node's definition
//     is over its operands), every clause over them and the pairs holds,
//     and the classes the pairs give are a model of the question (the
//     transitivity clauses of its constants hold). Variables outside the
//     question are not decided; what earlier questions left on them does
//     not enter the question's model.
//
// decide and decideInc share the encoding and the learned clauses; decide
// leaves the incremental route first (the trail back to level 0).
//
// Every incremental answer can be compared with a fresh decide (on a
// solver of its own, nothing kept) by setting LOCKSTEP_CDCL_CHECK=1: a
// disagreement panics with the question.

import (
	"cmp"
	"fmt"
	"os"
	"slices"
)

// cdclCheck asks every incremental answer again of a fresh solver.
var cdclCheck = os.Getenv("LOCKSTEP_CDCL_CHECK") != ""

// cdclAskedMax bounds the conjuncts whose questions decideInc counts.
const cdclAskedMax = 1 << 16

// alevel is one assumption: a conjunct of the question and its literal.
type alevel struct {
	f   *Formula
	lit clit
}

// leaveInc goes back to decide's use of the solver: level 0, no
// assumption kept.
func (s *cdcl) leaveInc() {
	if !s.incMode {
		return
	}
	s.cancel(0)
	s.incMode = false
	s.alev = s.alev[:0]
	s.apushed = 0
	s.newStamp()
}

// needsEncoding reports whether a conjunct of kids or a constant of refs
// is not encoded yet.
func (s *cdcl) needsEncoding(kids []*Formula, refs []Ref) bool {
	for _, r := range refs {
		if _, ok := s.ridx[r]; !ok {
			return true
		}
	}
	for _, k := range kids {
		if _, ok := s.node[k]; !ok {
			return true
		}
	}
	return false
}

// decideInc answers whether q (no data) is satisfiable, as decide does,
// keeping on the trail the assumption levels of the conjuncts that q
// shares with the questions before it (see the file's comment).
func (s *cdcl) decideInc(q *Formula) (sat, decided bool) {
	refs := q.Refs()
	if len(refs) > cdclMaxRefs {
		return false, false
	}
	kids := []*Formula{q}
	if q.op == OpAnd {
		kids = q.kids
	}
	fresh := 0
	for _, r := range refs {
		if _, ok := s.ridx[r]; !ok {
			fresh++
		}
	}
	if s.broken || len(s.ridx)+fresh > cdclMaxRefs || s.nvars > cdclMaxVars || len(s.lits) > cdclMaxLits {
		s.reset() // the trail with it
		s.incMode, s.alev, s.apushed = false, s.alev[:0], 0
	}
	if !s.incMode {
		s.cancel(0)
		s.incMode = true
		s.alev, s.apushed = s.alev[:0], 0
	}
	if s.kidset == nil {
		s.kidset = make(map[*Formula]bool)
		s.asked = make(map[*Formula]int32)
	}
	need := s.needsEncoding(kids, refs)
	if need && s.stale {
		s.reset()
		s.alev, s.apushed = s.alev[:0], 0
	}
	// The kept prefix: the levels whose conjuncts q has.
	clear(s.kidset)
	for _, k := range kids {
		s.kidset[k] = true
	}
	j := int32(0)
	for j < s.apushed && s.kidset[s.alev[j].f] {
		s.kidset[s.alev[j].f] = false
		j++
	}
	s.cancel(j)
	if need {
		// On the kept levels: each new node gets its value at the
		// level its operands give it, each new clause is watched so
		// that going back keeps it propagated (addLive).
		for _, r := range refs {
			if _, ok := s.ridx[r]; !ok {
				s.addConst(r)
			}
		}
		for _, k := range kids {
			s.encode(k)
		}
		if s.broken {
			s.alev, s.apushed = s.alev[:0], 0
			return false, false
		}
		// The kept encoding against the question's cone (cdclKeep),
		// measured (one walk of the cone) when it has grown past
		// cdclKeep times the cone last measured, and by an eighth of
		// that cone since the last measure.
		if int(s.nvars) > cdclKeep*s.coneVars && int(s.nvars-s.keptAt) > s.coneVars/8 {
			s.keptAt = s.nvars
			s.coneVars = s.coneSize(kids, len(refs))
			s.stale = int(s.nvars) > cdclKeep*s.coneVars
		}
	}
	// The rest: first the conjuncts of the levels just undone that q has
	// (in their order: they were in the question before), then q's
	// others, those met in more questions first (a path condition's
	// conjuncts before a state's guards), so that the next question
	// keeps more levels.
	rest := s.restTmp[:0]
	for _, a := range s.alev[j:] {
		if s.kidset[a.f] {
			s.kidset[a.f] = false
			rest = append(rest, a)
		}
	}
	s.alev = append(s.alev[:j], rest...)
	s.apushed = j
	from := len(s.alev)
	for _, k := range kids {
		if s.kidset[k] {
			s.alev = append(s.alev, alevel{f: k, lit: s.node[k]})
		}
	}
	slices.SortStableFunc(s.alev[from:], func(a, b alevel) int {
		return cmp.Compare(s.asked[b.f], s.asked[a.f])
	})
	s.restTmp = rest[:0]
	if len(s.asked) > cdclAskedMax {
		clear(s.asked)
	}
	for _, k := range kids {
		s.asked[k]++
	}
	s.pairCone(refs)
	s.conflicts = 0
	sat, decided = s.solveInc()
	if sat && decided && s.wantModel {
		s.takeModel(refs)
	}
	if len(s.trailLim) > int(s.apushed) {
		s.cancel(s.apushed)
	}
	s.alev = s.alev[:s.apushed]
	if cdclCheck && decided && !s.broken {
		if fs, fok := newCDCL().decide(q); fok && fs != sat {
			panic(fmt.Sprintf("smt: cdcl: incremental answer %v, fresh decide %v, on %s", sat, fs, q))
		}
	}
	return sat, decided
}

// pairCone makes the pair variables of refs the question's cone: the
// decision heap holds the open ones (cancel puts back those it undoes).
func (s *cdcl) pairCone(refs []Ref) {
	s.newStamp()
	for _, v := range s.heap {
		s.hpos[v] = -1
	}
	s.heap = s.heap[:0]
	for a := range refs {
		ia := s.ridx[refs[a]]
		for b := a + 1; b < len(refs); b++ {
			v := s.pair(ia, s.ridx[refs[b]]).vr()
			if s.cone[v] == s.stamp {
				continue
			}
			s.cone[v] = s.stamp
			if s.val[posLit(v)] == 0 {
				s.hpos[v] = int32(len(s.heap))
				s.heap = append(s.heap, v)
			}
		}
	}
	s.heapify()
	s.compacted = true
}

// coneSize is the number of variables in the cone of the conjuncts kids
// (encoded) with n constants: the pairs of the constants and the
// connectives under the conjuncts.
func (s *cdcl) coneSize(kids []*Formula, n int) int {
	s.newStamp()
	size := n * (n - 1) / 2
	stack := s.tmp2[:0]
	for _, k := range kids {
		if v := s.node[k].vr(); s.sub1[v] > s.sub0[v] {
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

// solveInc is solve over the assumption levels alev: levels 1..apushed
// of the trail are alev[:apushed], the levels above them search
// decisions.
func (s *cdcl) solveInc() (sat, decided bool) {
	restart, nextRestart := 0, 100*luby(0)
	sinceRestart := 0
	for {
		if c := s.propagate(); c >= 0 {
			lv := int32(len(s.trailLim))
			if lv == 0 {
				s.broken = true
				return false, false
			}
			if lv <= s.apushed {
				// The assumptions of levels 1..lv contradict the
				// clauses: q is unsat. Level lv−1 was a fixpoint of
				// propagation when lv was pushed.
				s.cancel(lv - 1)
				s.apushed = lv - 1
				return false, true
			}
			s.conflicts++
			sinceRestart++
			if s.conflicts > cdclMaxConflicts {
				return false, false
			}
			s.apushed = min(s.apushed, s.backjump(c))
			continue
		}
		if sinceRestart >= nextRestart {
			restart++
			nextRestart, sinceRestart = 100*luby(restart), 0
			s.cancel(s.apushed)
		}
		if int(s.apushed) < len(s.alev) {
			if int32(len(s.trailLim)) != s.apushed {
				panic("smt: cdcl: assumption pushed above a search decision")
			}
			a := s.alev[s.apushed]
			if s.val[a.lit] == -1 {
				// The assumptions below imply its negation.
				return false, true
			}
			s.trailLim = append(s.trailLim, int32(len(s.trail)))
			s.apushed++
			if s.val[a.lit] == 0 {
				s.assign(a.lit, -1)
			}
			continue
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

// settle gives the fresh variable of a node, conj ↔ ∧ks, its value when
// its operands ks decide it on the trail (above level 0), at the level
// they decide it at: false at the lowest level of a false operand, true at
// the highest of the operands when all are true. It returns the reason's
// clause (why): i for ¬conj ∨ ks[i], −1 for conj ∨ ¬ks[0] ∨ …, −2 for
// none (open, or at level 0, where a fact needs no reason).
func (s *cdcl) settle(conj clit, ks []clit) int {
	why, lv := -2, int32(0)
	all := true
	for i, k := range ks {
		switch s.val[k] {
		case -1:
			if why < 0 || s.level[k.vr()] < lv {
				why, lv = i, s.level[k.vr()]
			}
		case 0:
			all = false
		}
	}
	lit := conj.neg()
	if why < 0 {
		if !all {
			return -2
		}
		why, lit = -1, conj
		for _, k := range ks {
			lv = max(lv, s.level[k.vr()])
		}
	}
	s.insertAt(lit, lv)
	if lv == 0 {
		return -2
	}
	return why
}

// because makes clause c the reason of the value settle gave conj's
// variable. settle's reasons are never dropped by addLive (their literals
// are assigned above level 0); if one were, the solver is marked broken
// rather than left with an implied literal without a reason.
func (s *cdcl) because(conj clit, c int32) {
	if c < 0 {
		s.broken = true
		return
	}
	s.reason[conj.vr()] = c
}

// insertAt assigns l (a fresh variable's literal, in no clause but those
// being added) at level lv, at the end of lv's part of the trail, so that
// the trail stays ordered by level. No clause watches it yet, so it is
// not propagated: the clauses added for it are watched as its value
// makes them (addLive).
func (s *cdcl) insertAt(l clit, lv int32) {
	v := l.vr()
	s.val[l], s.val[l.neg()] = 1, -1
	s.level[v] = lv
	s.reason[v] = -1
	if int(lv) >= len(s.trailLim) {
		s.trail = append(s.trail, l)
		return
	}
	pos := s.trailLim[lv]
	s.trail = slices.Insert(s.trail, int(pos), l)
	for i := lv; i < int32(len(s.trailLim)); i++ {
		s.trailLim[i]++
	}
	if s.qhead > int(pos) {
		s.qhead++
	}
}

// addLive adds a clause with the trail above level 0: a literal true at
// level 0 drops it, the ones false at level 0 are left out, and it is
// watched on its two literals that going back keeps propagated: true
// ones first (lowest level first), then open ones, then false ones
// (highest level first). The clauses of a new constant have two fresh
// pairs, those of a node its fresh variable settled first (settle), so
// that a watched false literal always has the other watched literal true
// at a level no higher: a clause the kept levels would make unit or false
// is never met; if one were, the solver is marked broken (the question
// goes on to Z3, the instance is dropped). It returns the clause, or −1.
func (s *cdcl) addLive(ls []clit) int32 {
	out, holds := s.reduceAtZero(ls)
	defer func() { s.tmp = out[:0] }()
	if holds {
		return -1
	}
	switch len(out) {
	case 0:
		s.broken = true
		return -1
	case 1:
		if s.val[out[0]] == 0 {
			s.insertAt(out[0], 0)
		} else {
			s.broken = true
		}
		return -1
	}
	rank := func(l clit) int64 {
		switch s.val[l] {
		case 1:
			return int64(s.level[l.vr()])
		case 0:
			return 1 << 40
		}
		return 1<<41 + 1<<32 - int64(s.level[l.vr()])
	}
	slices.SortStableFunc(out, func(a, b clit) int { return cmp.Compare(rank(a), rank(b)) })
	if a, b := out[0], out[1]; s.val[b] == -1 && (s.val[a] != 1 || s.level[a.vr()] > s.level[b.vr()]) {
		s.broken = true
		return -1
	}
	c := s.store(out...)
	s.attach(c)
	return c
}
