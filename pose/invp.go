package pose

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
)

// CheckINVP is the POSE invariant INV-P (ENGINES.md §4.3): two symbolic
// locations of one class are one object in the worlds where their symbols
// are equal and both exist, so wherever a field f is initialized in both,
// the two value sets must agree:
//
//	UNSAT(φ ∧ r_Y = r_Y' ∧ m(Y) ∧ m(Y') ∧ I ∧ I' ∧ ¬eq(L(R(l_Y,f)), L(R(l_Y',f))))
//
// with eq the symbolic equality of E/E′, I, I' the disjunctions of the
// non-l_un guards, and m(Y) = Exists(l_Y); the primitive fields bound in
// both must hold equal terms there (invpPair.prim). It pinpoints a lost alias
// write (P-MERGE) at the step that loses it. The violation names the
// second location's field reference and the two value sets; an undecided
// solver answer is an error.
//
// m(Y) ∧ m(Y') (docs/POSE.md D15): ENGINES.md states INV-P in every world
// where the symbols are equal, but in a world where Y stands for no object
// (it is null there, or aliases an earlier object, or its read was not
// reached) r_Y is unconstrained and Y's fields are no object's fields: the
// View never reads them (it takes the first materialized symbol), and no
// GSE state has them. The world-exact engine keeps them ⊥ there (D1), so it
// meets either form; pose-published-merge fills them with fresh symbols, and
// without the guard INV-P reported programs on which every other lemma
// holds (three lines, no write: `y := this.f; (y.f.f = this.f.f)`).
func CheckINVP(s *machine.State, solver *smt.Solver) (*relation.Violation, error) {
	return checkINVP(s, solver, nil)
}

// checkINVP is CheckINVP skipping the questions that memo holds answered
// unsat (memo nil: none), and adding to it the ones it answers so.
func checkINVP(s *machine.State, solver *smt.Solver, memo *invpMemo) (*relation.Violation, error) {
	if memo != nil && solver.Assumptions() > 0 {
		memo = nil // answers under assumptions are not about the question alone (as relation.TotalityMemo)
	}
	phi := s.PathCondition()
	for a := range s.Locs {
		la := machine.Loc(a)
		if !symbolic(s, la) {
			continue
		}
		for b := a + 1; b < len(s.Locs); b++ {
			lb := machine.Loc(b)
			if !symbolic(s, lb) || s.Locs[b].Class != s.Locs[a].Class {
				continue
			}
			q := invpPair{s: s, solver: solver, memo: memo, phi: phi, la: la, lb: lb}
			if v, err := q.prim(); v != nil || err != nil {
				return v, err
			}
			if v, err := q.refs(); v != nil || err != nil {
				return v, err
			}
		}
	}
	return nil, nil
}

// invpPair is INV-P's questions on one pair of symbolic locations of one
// class.
type invpPair struct {
	s      *machine.State
	solver *smt.Solver
	memo   *invpMemo
	phi    *smt.Formula
	la, lb machine.Loc
	pair   *smt.Formula // r_Y = r_Y' ∧ m(Y) ∧ m(Y'), built when first asked
}

// worlds is r_Y = r_Y' ∧ m(Y) ∧ m(Y'), the worlds in which the pair is one
// object.
func (q *invpPair) worlds() *smt.Formula {
	if q.pair == nil {
		q.pair = smt.And(smt.Eq(q.s.Locs[q.la].Identity, q.s.Locs[q.lb].Identity), exists(q.s, q.la), exists(q.s, q.lb))
	}
	return q.pair
}

// ask is Sat(φ ∧ rest), asked as φ and the rest (SatBoth): φ is the same
// formula at the next state of a path, and the solver answers a pair met
// again from its cache without building the conjunction (which flattens
// and sorts φ's conjuncts: most of INV-P's time on the tree programs).
func (q *invpPair) ask(rest *smt.Formula) (bool, error) {
	if rest.IsFalse() {
		return false, nil
	}
	return q.solver.SatBoth(q.phi, rest)
}

// refs is q's questions on the reference fields.
func (q *invpPair) refs() (*relation.Violation, error) {
	s, la, lb := q.s, q.la, q.lb
	for _, f := range s.Locs[la].Class.RefFields {
		all, bll := s.Get(s.Field(la, f)), s.Get(s.Field(lb, f))
		if !anyInitialized(all) || !anyInitialized(bll) || q.memo.heldRef(q.phi, s, la, lb, all, bll) {
			continue
		}
		ia, va := initialized(all)
		ib, vb := initialized(bll)
		ok, err := q.ask(smt.And(q.worlds(), ia, ib, smt.Not(equality(s, va, vb, false))))
		if err != nil {
			return nil, fmt.Errorf("INV-P on %v.%s, %v.%s: %w", la, f.Name, lb, f.Name, err)
		}
		if ok {
			return &relation.Violation{
				Check:   "INV-P",
				Ref:     s.Field(lb, f),
				Entries: append(append([]machine.Entry(nil), va...), vb...),
				Reason: fmt.Sprintf("%v.%s (%s) and %v.%s (%s) are one field where %s = %s, and both are initialized, but their values differ",
					la, f.Name, machine.RefString(s.Field(la, f)), lb, f.Name, machine.RefString(s.Field(lb, f)),
					machine.RefString(s.Locs[la].Identity), machine.RefString(s.Locs[lb].Identity)),
			}, nil
		}
		q.memo.hold()
	}
	return nil, nil
}

// prim is q's questions on the primitive fields: where both locations are
// materialized, their symbols equal and the field bound in both, the two
// terms are equal:
//
//	UNSAT(φ ∧ r_Y = r_Y' ∧ m(Y) ∧ m(Y') ∧ ¬(Y.f = Y'.f))
//
// A primitive field is bound in every world at once (data.go), also where
// its symbol stands for no object; there its identity is unconstrained and
// its term no object's field, hence m(Y) ∧ m(Y').
func (q *invpPair) prim() (*relation.Violation, error) {
	s, la, lb := q.s, q.la, q.lb
	for _, f := range s.Locs[la].Class.PrimFields {
		ta, tb := s.PrimField(la, f), s.PrimField(lb, f)
		if ta == nil || tb == nil || q.memo.heldPrim(q.phi, s, la, lb, ta, tb) {
			continue
		}
		ok, err := q.ask(smt.And(q.worlds(), smt.Not(smt.EqT(ta, tb))))
		if err != nil {
			return nil, fmt.Errorf("INV-P on %v.%s, %v.%s: %w", la, f.Name, lb, f.Name, err)
		}
		if ok {
			return &relation.Violation{
				Check: "INV-P",
				Ref:   machine.RUn, // a primitive field has no reference
				Reason: fmt.Sprintf("%v.%s = %s and %v.%s = %s are one field where %s = %s and both exist, but their values differ",
					la, f.Name, smt.Short(ta), lb, f.Name, smt.Short(tb),
					machine.RefString(s.Locs[la].Identity), machine.RefString(s.Locs[lb].Identity)),
			}, nil
		}
		q.memo.hold()
	}
	return nil, nil
}

// anyInitialized reports whether a value set has a non-l_un entry (else
// its I is false and INV-P has nothing to ask of the field).
func anyInitialized(set machine.GVS) bool {
	for _, en := range set {
		if en.Loc != machine.LUn {
			return true
		}
	}
	return false
}

// InvariantName implements engine.Invariant: INV-P is a lemma of the
// checker's catalog.
func (e *Engine) InvariantName() string { return "INV-P" }

// CheckInvariant implements engine.Invariant with CheckINVP, asking the
// engine's solver (the checker's worker's).
func (e *Engine) CheckInvariant(s *machine.State) (string, error) {
	v, err := checkINVP(s, e.solver, &e.invp)
	if err != nil || v == nil {
		return "", err
	}
	return v.Error(), nil
}

var _ engine.Invariant = (*Engine)(nil)
