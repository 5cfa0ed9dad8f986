package checker

import (
	"strings"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
)

// Reusing exactness answers along a program.
//
// Most steps move only the control (an expression is evaluated, a frame
// is pushed or popped) and leave the heaps, the references the stacks
// hold and the path conditions of both sides as they were. Exactness
// (relation.ExactWellFormed) reads nothing else once the controls agree,
// so a pair (P, q) whose content (relation.ContentKey of q and of every
// member of P, in order) was found exact before at another control is
// exact again. Only Holds is reused: an inconclusive or failing answer is
// always computed afresh, so a reused answer never hides a violation, and
// the budget and solver are those of the same run. Measured on the seed-1
// stream (docs/PERFORMANCE.md): about two exactness checks in three are
// repeats.

// reuseExact turns the reuse on (tests compare with it off).
var reuseExact = true

// exactMemoKey is the key of (P, q) when every member of P has q's control
// (otherwise represents fails on the controls, and nothing is reused).
func exactMemoKey(P []*machine.State, q *machine.State) (string, bool) {
	ck := q.ControlKey()
	var b strings.Builder
	b.WriteString(relation.ContentKey(q))
	for _, p := range P {
		if p.ControlKey() != ck {
			return "", false
		}
		b.WriteByte('|')
		b.WriteString(relation.ContentKey(p))
	}
	return b.String(), true
}

// exactMemoized is ExactWellFormed with the Holds answers of this run
// reused.
func (r *run) exactMemoized(P []*machine.State, q *machine.State) relation.ExactResult {
	if !reuseExact {
		return relation.ExactWellFormed(P, q, r.solver, r.opt.Budget, !r.opt.NoExactness)
	}
	key, ok := exactMemoKey(P, q)
	if ok {
		if res, found := r.exactHeld[key]; found {
			r.rep.exactReused++
			return res
		}
	}
	res := relation.ExactWellFormed(P, q, r.solver, r.opt.Budget, !r.opt.NoExactness)
	if ok && res.Outcome == relation.Holds {
		if r.exactHeld == nil {
			r.exactHeld = map[string]relation.ExactResult{}
		}
		r.exactHeld[key] = res
	}
	return res
}
