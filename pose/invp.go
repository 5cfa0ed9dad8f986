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
// both must hold equal terms there (primINVP). It pinpoints a lost alias
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
			same := smt.Eq(s.Locs[a].Identity, s.Locs[b].Identity)
			if v, err := primINVP(s, solver, phi, la, lb, same); v != nil || err != nil {
				return v, err
			}
			for _, f := range s.Locs[a].Class.RefFields {
				ia, va := initialized(s.Get(s.Field(la, f)))
				ib, vb := initialized(s.Get(s.Field(lb, f)))
				if len(va) == 0 || len(vb) == 0 {
					continue
				}
				bad := smt.And(phi, same, exists(s, la), exists(s, lb), ia, ib, smt.Not(equality(s, va, vb, false)))
				if bad.IsFalse() {
					continue
				}
				ok, err := solver.Sat(bad)
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
							machine.RefString(s.Locs[a].Identity), machine.RefString(s.Locs[b].Identity)),
					}, nil
				}
			}
		}
	}
	return nil, nil
}

// primINVP is INV-P on the primitive fields of two symbolic locations of
// one class: where both are materialized, their symbols equal and the
// field bound in both, the two terms are equal:
//
//	UNSAT(φ ∧ r_Y = r_Y' ∧ m(Y) ∧ m(Y') ∧ ¬(Y.f = Y'.f))
//
// A primitive field is bound in every world at once (data.go), also where
// its symbol stands for no object; there its identity is unconstrained and
// its term no object's field, hence m(Y) ∧ m(Y').
func primINVP(s *machine.State, solver *smt.Solver, phi *smt.Formula, la, lb machine.Loc, same *smt.Formula) (*relation.Violation, error) {
	for _, f := range s.Locs[la].Class.PrimFields {
		ta, tb := s.PrimField(la, f), s.PrimField(lb, f)
		if ta == nil || tb == nil {
			continue
		}
		bad := smt.And(phi, same, exists(s, la), exists(s, lb), smt.Not(smt.EqT(ta, tb)))
		if bad.IsFalse() {
			continue
		}
		ok, err := solver.Sat(bad)
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
	}
	return nil, nil
}

// InvariantName implements engine.Invariant: INV-P is a lemma of the
// checker's catalog.
func (e *Engine) InvariantName() string { return "INV-P" }

// CheckInvariant implements engine.Invariant with CheckINVP, asking the
// engine's solver (the checker's worker's).
func (e *Engine) CheckInvariant(s *machine.State) (string, error) {
	v, err := CheckINVP(s, e.solver)
	if err != nil || v == nil {
		return "", err
	}
	return v.Error(), nil
}

var _ engine.Invariant = (*Engine)(nil)
