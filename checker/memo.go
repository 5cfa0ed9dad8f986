package checker

import (
	"bytes"
	"crypto/sha256"
	"slices"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
)

// Exactness held once is not checked again for the same (P, q).
//
// Many steps move only the control: a variable lookup, a branch on a
// boolean, a call's bookkeeping. After such a step every GSE state of the
// group and the engine's state have the heaps and path conditions they had
// before, and exactness would ask the same thousands of solver questions
// again (on the generated programs whose groups grow to hundreds of GSE
// states, the same group is checked at five to ten consecutive steps).
// relation.Fingerprint covers everything the relations read of a state
// except the control, and the controls of P and q agree at every pair (the
// driver groups by control; exactMemo checks it anyway), so a pair whose
// fingerprints equal those of a pair that held holds too.
//
// Only Holds is remembered: a violation stops the check, and an
// inconclusive answer is not knowledge. The key is a SHA-256 over the
// fingerprints of q and of the members of P (sorted: exactness is about
// the set P), the part of exactness asked, and nothing else of the run's
// options changes between pairs. The data half (relation.ExactData) is
// memoized the same way, its key adding every state's data
// (relation.DataFingerprint): a step that moves only the control leaves
// the terms as they were, and the data half's worlds are as many as the
// concretization's leaves.
type exactMemo map[[sha256.Size]byte]relation.ExactResult

// exactKey is the memo key of (P, q), or false when the controls of P and q
// differ (then the check is not memoized). With data, the key is the data
// half's.
func exactKey(P []*machine.State, q *machine.State, concretize, data bool) ([sha256.Size]byte, bool) {
	ck := q.ControlKey()
	h := sha256.New()
	write := func(s *machine.State) {
		relation.Fingerprint(h, s)
		if data {
			relation.DataFingerprint(h, s)
		}
	}
	sums := make([][]byte, len(P))
	for i, p := range P {
		if p.ControlKey() != ck {
			return [sha256.Size]byte{}, false
		}
		h.Reset()
		write(p)
		sums[i] = h.Sum(nil)
	}
	slices.SortFunc(sums, bytes.Compare)
	h.Reset()
	switch {
	case data:
		h.Write([]byte{2})
	case concretize:
		h.Write([]byte{1})
	default:
		h.Write([]byte{0})
	}
	write(q)
	for _, s := range sums {
		h.Write(s)
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key, true
}

// reuseExact turns the reuse on (TestExactReuseSameVerdicts compares with
// it off).
var reuseExact = true

// reuseRepresents lets the Partition driver answer p ⊏ v once per heap
// shape of a group (partitionAt); TestPartitionReuseSameVerdicts compares
// with it off.
var reuseRepresents = true

// reuseConcretizations gives exactness a concretization cache per program
// (relation.ConcretizationCache: the leaves of a state's concretization
// serve the states that differ from it only in their roots or by a
// stronger path condition);
// TestExactReuseSameVerdicts compares with it off.
var reuseConcretizations = true

// budget is the run's Budget for one check: the time limit reaches into
// the search (Done), and the program's concretization cache is in it.
func (r *run) budget() relation.Budget {
	budget := r.opt.Budget
	budget.Done = r.ctx.Done()
	if reuseConcretizations {
		if r.concretized == nil {
			r.concretized = relation.NewConcretizationCache()
		}
		budget.Cache = r.concretized
	}
	budget.Heaps = r.heaps
	return budget
}

// exactMemoized is relation.ExactWellFormed with the Holds answers of this
// run reused. The per-program time limit reaches into the check
// (Budget.Done), so a long check stops inside, not only between pairs.
func (r *run) exactMemoized(P []*machine.State, q *machine.State) relation.ExactResult {
	budget := r.budget()
	if !reuseExact {
		return relation.ExactWellFormed(P, q, r.solver, budget, !r.opt.NoExactness)
	}
	key, ok := exactKey(P, q, !r.opt.NoExactness, false)
	if ok {
		if res, seen := r.exactHeld[key]; seen {
			r.rep.exactReused++
			return res
		}
	}
	res := relation.ExactWellFormed(P, q, r.solver, budget, !r.opt.NoExactness)
	if ok && res.Outcome == relation.Holds {
		if r.exactHeld == nil {
			r.exactHeld = exactMemo{}
		}
		r.exactHeld[key] = res
	}
	return res
}

// wellFormedMemoized is relation.WellFormedChecks with the states found
// well formed in this run remembered by fingerprint: the checks read only
// what relation.Fingerprint covers (the roots and the stack values that
// StackOnlyRoots reads, the locations, the guarded value sets and the
// path condition), and most steps leave all of it as it was, so a state
// whose fingerprint was well formed before is well formed again. Only the
// absence of a violation is remembered; a violation or an undecided check
// is always computed again.
func (r *run) wellFormedMemoized(q *machine.State) (*relation.Violation, string, error) {
	if !reuseExact {
		return relation.WellFormedChecks(q, r.solver)
	}
	h := sha256.New()
	relation.Fingerprint(h, q)
	var key [sha256.Size]byte
	h.Sum(key[:0])
	if r.wellFormedHeld[key] {
		r.rep.wellFormedReused++
		return nil, "", nil
	}
	v, check, err := relation.WellFormedChecks(q, r.solver)
	if v == nil && err == nil {
		if r.wellFormedHeld == nil {
			r.wellFormedHeld = map[[sha256.Size]byte]bool{}
		}
		r.wellFormedHeld[key] = true
	}
	return v, check, err
}

// exactDataMemoized is relation.ExactData with the Holds answers of this
// run reused (see exactMemo).
func (r *run) exactDataMemoized(P []*machine.State, q *machine.State) relation.ExactResult {
	if !reuseExact {
		return relation.ExactData(P, q, r.solver, r.budget())
	}
	key, ok := exactKey(P, q, true, true)
	if ok {
		if res, seen := r.exactHeld[key]; seen {
			r.rep.exactReused++
			return res
		}
	}
	res := relation.ExactData(P, q, r.solver, r.budget())
	if ok && res.Outcome == relation.Holds {
		if r.exactHeld == nil {
			r.exactHeld = exactMemo{}
		}
		r.exactHeld[key] = res
	}
	return res
}
