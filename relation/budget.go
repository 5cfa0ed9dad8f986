package relation

import (
	"errors"
	"fmt"

	"github.com/lockstep-dev/lockstep/smt"
)

// Budget bounds the work of one check. A check that exhausts a budget is
// Inconclusive.
type Budget struct {
	// HomNodes bounds the candidate images a homomorphism search tries
	// (the nodes of its search tree). ≤ 0 means unbounded.
	HomNodes int
	// Models bounds the satisfying assignments (equality partitions) that a
	// concretization enumerates. ≤ 0 means unbounded.
	Models int
	// Done, if not nil, stops the searches when it is closed (a context's
	// Done: the caller's time limit): the check is then inconclusive, with
	// an error wrapping ErrStopped and ErrBudget. A search of hundreds of
	// heaps runs for seconds, and without it a time limit is only noticed
	// after the check.
	Done <-chan struct{}
	// Cache, if not nil, keeps the leaves of complete concretizations of
	// well-formed states, and builds from them the concretizations of a
	// state whose content other than its roots was concretized before, or
	// whose path condition extends a cached one's (reuse.go). The checker
	// gives each program one.
	Cache *ConcretizationCache
	// Heaps, if not nil, keeps the heap of every GSE state asked about
	// (HeapOf), with its canonical names, for the several questions one
	// step asks about each member of a group (its shape's key, the data
	// half's renaming). The checker gives each step one.
	Heaps *HeapCache
	// ControlsEqual, in a question of exactness, says that the caller has
	// found every member of P to have q's control key (the same bytes of
	// machine.State.AppendControlKey): ⊏'s comparison of the controls is
	// not made again for a member whose heap is a concretization of q's.
	// The checker's memo key establishes it for every group it keys.
	ControlsEqual bool
}

// ErrStopped is wrapped by the errors of searches stopped by Budget.Done.
var ErrStopped = fmt.Errorf("relation: stopped by the caller: %w", ErrBudget)

// stopped reports whether the budget's Done is closed.
func (b Budget) stopped() bool {
	if b.Done == nil {
		return false
	}
	select {
	case <-b.Done:
		return true
	default:
		return false
	}
}

// DefaultBudget is generous for the states of k ≤ 5 runs of the paper's
// programs: the homomorphism searches there need tens to hundreds of nodes,
// and a summary state has at most a few hundred concretizations.
var DefaultBudget = Budget{HomNodes: 200_000, Models: 20_000}

// Outcome is the tri-state answer of a relation check (Holds, Fails,
// Inconclusive). It is not checker.Verdict, which is the whole result of
// checking a program (a status, the lemma, the evidence): the checker turns
// Outcomes into a Verdict.
type Outcome uint8

const (
	Holds        Outcome = iota // the property was established
	Fails                       // the property was refuted; the result carries a witness
	Inconclusive                // the budget ran out or the solver answered unknown
)

func (v Outcome) String() string {
	switch v {
	case Holds:
		return "holds"
	case Fails:
		return "fails"
	case Inconclusive:
		return "inconclusive"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(v))
}

// ErrBudget is wrapped by the errors of searches that ran out of budget.
var ErrBudget = errors.New("relation: budget exhausted")

// inconclusive reports whether err means "could not decide" (budget or an
// unknown solver answer) rather than a bad input.
func inconclusive(err error) bool {
	return errors.Is(err, ErrBudget) || errors.Is(err, smt.ErrUnknown)
}
