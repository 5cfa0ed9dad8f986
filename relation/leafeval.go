package relation

import (
	"cmp"
	"slices"

	"github.com/lockstep-dev/lockstep/smt"
)

// Replaying a cached leaf without the solver.
//
// fromLeaves replays the leaves of an earlier search for a state with the
// same content (or shape) and new roots (or a stronger path condition).
// Each replay used to assert the leaf's literals and ask the solver where
// every new root points, and, when the path condition grew, whether the
// leaf is still satisfiable: on seed 1's program 196 under summary:fixed,
// 61,060 of 156,732 replays went to the solver for their roots, and
// 40,501 for the check. But the guard of a root and a new conjunct of φ
// are often decided by the equalities and disequalities among the leaf's
// literals alone (16,058 replays go to the solver for their roots now):
// closing the positive atoms under equality (union–find) and
// separating the classes the negative atoms name decides an atom a = b
// true when a and b are in one class, false when their classes are
// separated. A formula true under that closure is true in every assignment
// of the leaf, one false is false in every one; anything else (an atom
// neither way, a term with data) is unknown and goes to the solver as
// before. Literals that are not conjunctions of (negated) atoms (the
// summary engine's guards are disjunctions) are left out of the closure:
// deciding from part of the facts is sound, it only decides less.

// leafEval is the closure of one leaf's literals.
type leafEval struct {
	parent map[smt.Ref]smt.Ref
	sep    map[[2]smt.Ref]bool
	// bad: the literals separate two references of one class; the leaf is
	// satisfiable, so this cannot happen, and if it does nothing is
	// decided here.
	bad bool
	// memo keeps the truth of the subformulas met during the questions
	// asked of this closure (guards are DAGs that share most of their
	// subformulas): the concretizer's scratch map, lent to one closure at a
	// time and cleared when it goes to another (evalOf), so that the
	// leaves the cache keeps hold no map of every subformula.
	memo map[*smt.Formula]int8
	// known keeps the answers of the questions asked of this leaf (holds):
	// a state that reuses a leaf set resolves its fresh roots under every
	// leaf, and the states of consecutive steps share most of their roots
	// and value sets, so the same guard is asked of the same leaf again
	// and again (on testdata/trees/successor.jl at k = 3, 9.2 million
	// guards asked of leaves in 20 s, 14,000 distinct pairs of a leaf and
	// a guard). A guard's truth under the closure depends on the two
	// alone, so the answer is the same. Only the guards asked are kept,
	// not their subformulas, each answer packed with its guard's ID in
	// one word, sorted by ID (binary search): LinkedList×4 at k = 3 keeps
	// 43,613 answers on 2,872 leaves, a third of them past 16 answers,
	// and a map per such leaf raised the check's peak memory by a
	// twentieth. A guard is kept by its ID (formulas are hash-consed, and
	// an ID is never given again), not by pointer: the cache's leaves
	// outlive most states, and a pointer would keep their guards'
	// formulas from being collected.
	known []uint64 // ID<<2 | truth+1
	// data: some literal has data, so the leaf's satisfiability with a
	// data part of φ is not independent of its references.
	data bool
}

// evalOf returns the closure of rec's literals, built on first use (the
// leaves of a cached set are replayed by every state that reuses it),
// with the concretizer's scratch memo, emptied when it last served
// another closure (its entries are truths under the closure that made
// them).
func (c *concretizer) evalOf(rec *leafRec) *leafEval {
	if rec.eval == nil {
		rec.eval = newLeafEval(rec.lits)
	}
	if c.evalMemo == nil {
		c.evalMemo = map[*smt.Formula]int8{}
	}
	if c.evalFor != rec.eval {
		clear(c.evalMemo)
		c.evalFor = rec.eval
	}
	rec.eval.memo = c.evalMemo
	return rec.eval
}

func newLeafEval(lits []*smt.Formula) *leafEval {
	e := &leafEval{parent: map[smt.Ref]smt.Ref{}, sep: map[[2]smt.Ref]bool{}}
	var neq [][2]smt.Ref
	var walk func(f *smt.Formula, pos bool)
	walk = func(f *smt.Formula, pos bool) {
		switch f.Op() {
		case smt.OpEq:
			a, b := f.Atom()
			if pos {
				e.union(a, b)
			} else {
				neq = append(neq, [2]smt.Ref{a, b})
			}
		case smt.OpNot:
			walk(f.Kids()[0], !pos)
		case smt.OpAnd:
			if pos {
				for _, k := range f.Kids() {
					walk(k, true)
				}
			}
		case smt.OpOr:
			if !pos { // ¬(a ∨ b) is ¬a ∧ ¬b
				for _, k := range f.Kids() {
					walk(k, false)
				}
			}
		}
	}
	for _, f := range lits {
		e.data = e.data || f.HasData()
		walk(f, true)
	}
	for _, p := range neq {
		a, b := e.find(p[0]), e.find(p[1])
		if a == b {
			e.bad = true
			return e
		}
		e.sep[sepKey(a, b)] = true
	}
	return e
}

func sepKey(a, b smt.Ref) [2]smt.Ref {
	if a > b {
		a, b = b, a
	}
	return [2]smt.Ref{a, b}
}

func (e *leafEval) find(r smt.Ref) smt.Ref {
	for {
		p, ok := e.parent[r]
		if !ok {
			return r
		}
		if gp, ok := e.parent[p]; ok {
			e.parent[r] = gp
		}
		r = p
	}
}

func (e *leafEval) union(a, b smt.Ref) {
	a, b = e.find(a), e.find(b)
	if a != b {
		e.parent[a] = b
	}
}

// truth is f under the closure: 1 true in every assignment of the leaf,
// -1 false in every one, 0 not decided here (always, for a nil closure).
func (e *leafEval) truth(f *smt.Formula) int {
	if e == nil || e.bad {
		return 0
	}
	if len(f.Kids()) == 0 {
		return e.truthOf(f)
	}
	if t, ok := e.memo[f]; ok {
		return int(t)
	}
	t := e.truthOf(f)
	e.memo[f] = int8(t)
	return t
}

// holds is truth(f), remembered in known: for the questions asked of a
// leaf again and again (rootsByEval, extensionByEval).
func (e *leafEval) holds(f *smt.Formula) int {
	if e == nil || e.bad {
		return 0
	}
	id := f.ID()
	i, found := slices.BinarySearchFunc(e.known, id, func(k, id uint64) int { return cmp.Compare(k>>2, id) })
	if found {
		return int(e.known[i]&3) - 1
	}
	t := e.truth(f)
	e.known = slices.Insert(e.known, i, id<<2|uint64(t+1))
	return t
}

func (e *leafEval) truthOf(f *smt.Formula) int {
	switch f.Op() {
	case smt.OpTrue:
		return 1
	case smt.OpFalse:
		return -1
	case smt.OpEq:
		a, b := f.Atom()
		a, b = e.find(a), e.find(b)
		switch {
		case a == b:
			return 1
		case e.sep[sepKey(a, b)]:
			return -1
		}
		return 0
	case smt.OpNot:
		return -e.truth(f.Kids()[0])
	case smt.OpAnd:
		all := 1
		for _, k := range f.Kids() {
			switch e.truth(k) {
			case -1:
				return -1
			case 0:
				all = 0
			}
		}
		return all
	case smt.OpOr:
		none := -1
		for _, k := range f.Kids() {
			switch e.truth(k) {
			case 1:
				return 1
			case 0:
				none = 0
			}
		}
		return none
	}
	return 0
}

// rootsByEval resolves the roots fresh under the leaf rec without the
// solver, when for each (trusted) root one entry's guard is true under the
// leaf's closure and points to null, r_un or a location present in the
// leaf: that entry holds in every assignment of the leaf and the others,
// exclusive with it under φ_q, cannot. Otherwise nothing changes and it
// reports false: the search resolves the roots (and reports what is
// wrong, if anything is).
func (c *concretizer) rootsByEval(rec *leafRec, fresh []item) bool {
	e := c.evalOf(rec)
	if !c.rootsWhere(fresh, func(g *smt.Formula) bool { return e.holds(g) == 1 }) {
		return false
	}
	if c.budget.Cache != nil {
		c.budget.Cache.byEval++
	}
	return true
}

// extensionByEval decides whether the leaf rec is satisfiable together
// with the conjuncts added to the path condition, added, without the
// solver: -1 when one of them is false under the leaf's closure (the leaf
// is empty under q), 1 when all are true (then they add nothing to the
// leaf and the cached path condition, with which it is satisfiable), 0
// when the solver must be asked. added holds only reference conjuncts (see
// refExtension).
func (c *concretizer) extensionByEval(rec *leafRec, added []*smt.Formula) int {
	e := c.evalOf(rec)
	all := 1
	if e.data {
		all = 0
	}
	for _, f := range added {
		switch e.holds(f) {
		case -1:
			return -1
		case 0:
			all = 0
		}
	}
	return all
}

// refExtension returns the conjuncts of phi that are not among old, when
// every one of them is over references alone and no conjunct of phi mixes
// references and data: then phi is (old's reference part ∧ added) ∧ a data
// part sharing no variable with it, satisfiable (concretizeState asked),
// and a leaf is satisfiable with phi exactly when it is with added (given
// it was with old). ok is false otherwise: each leaf is asked.
func refExtension(phi *smt.Formula, old []*smt.Formula) (added []*smt.Formula, ok bool) {
	had := make(map[*smt.Formula]bool, len(old))
	for _, f := range old {
		had[f] = true
	}
	for _, c := range conjuncts(phi) {
		if len(c.Refs()) == 0 {
			continue
		}
		if c.HasData() {
			return nil, false
		}
		if !had[c] {
			added = append(added, c)
		}
	}
	return added, true
}
