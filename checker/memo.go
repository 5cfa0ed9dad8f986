package checker

import (
	"crypto/sha256"
	"encoding/binary"

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
// (otherwise represents fails on the controls, and nothing is reused): the
// SHA-256 of the contents, so that a run with large groups does not keep
// their whole contents per pair. Each content is length-prefixed, so
// different sequences of contents hash different inputs; equal hashes of
// different inputs (a SHA-256 collision) are not a practical concern.
func exactMemoKey(P []*machine.State, q *machine.State) ([sha256.Size]byte, bool) {
	ck := q.ControlKey()
	h := sha256.New()
	write := func(k string) {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(k)))])
		h.Write([]byte(k))
	}
	write(relation.ContentKey(q))
	for _, p := range P {
		if p.ControlKey() != ck {
			return [sha256.Size]byte{}, false
		}
		write(relation.ContentKey(p))
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key, true
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
			r.exactHeld = map[[sha256.Size]byte]relation.ExactResult{}
		}
		r.exactHeld[key] = res
	}
	return res
}
