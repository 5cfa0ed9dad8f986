package summary

import (
	"github.com/lockstep-dev/lockstep/engine/guarded"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// SummarizeStar runs the Summarize machine →S* alone on field f of the
// locations of L(r), under φ'_g (RULES.md §6), and returns the state it
// reaches with φ'_g as its path condition. The checker compares this
// intermediate state with the GSE states after →I* (lemma L1) and checks
// its determinism (lemma L4), which the Field access rule hides inside one
// step. ok is false when r is null in every world (only A′ applies, and
// nothing is initialized). s is consumed.
func (e *Engine) SummarizeStar(s *machine.State, r machine.Ref, f *javalite.Field) (out *machine.State, ok bool, err error) {
	phiG := s.PathCondition()
	theta0, nonNull, err := e.nullGuards(s, r, phiG)
	if err != nil || !nonNull {
		return s, false, err
	}
	phiP := guarded.PhiPrime(phiG, theta0) // φ'_g
	assumed, err := e.summarizeStar(s, r, f, e.initPhi(phiG, phiP), phiP)
	if err != nil {
		return s, false, err
	}
	setPhi(s, smt.And(phiP, assumed))
	if e.v.Distributed { // U-ST, as in Field access (A)
		fires, err := e.distribute(s, smt.And(notAll(theta0), assumed))
		if err != nil || !fires {
			return s, false, err
		}
	}
	return s, true, nil
}
