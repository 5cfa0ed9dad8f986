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
// are equal, so wherever a field f is initialized in both, the two value
// sets must agree:
//
//	UNSAT(φ ∧ r_Y = r_Y' ∧ I ∧ I' ∧ ¬eq(L(R(l_Y,f)), L(R(l_Y',f))))
//
// with eq the symbolic equality of E/E′ and I, I' the disjunctions of the
// non-l_un guards. It pinpoints a lost alias write (P-MERGE) at the step
// that loses it. The violation names the second location's field reference
// and the two value sets; an undecided solver answer is an error.
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
			for _, f := range s.Locs[a].Class.Fields {
				ia, va := initialized(s.Get(s.Field(la, f)))
				ib, vb := initialized(s.Get(s.Field(lb, f)))
				if len(va) == 0 || len(vb) == 0 {
					continue
				}
				bad := smt.And(phi, same, ia, ib, smt.Not(equality(s, va, vb, false)))
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
