package relation

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Result is the outcome of Represents.
type Result struct {
	Outcome Outcome
	Hom     *Hom         // the homomorphism that establishes p ⊏ q (Holds only)
	HC      *smt.Formula // its homomorphism constraint (Holds only)
	Reason  string       // why it fails or is inconclusive
	Nodes   int          // homomorphism search nodes used
}

// Represents decides p ⊏ q (Def. 16): the controls agree (η, e and k
// compared through ControlKey), both states are well formed, and some
// injective homomorphism h has S(φ_q ∧ HC). Homomorphisms are tried in turn
// until one has a satisfiable HC; the outcome is Fails only when the search
// finished without one, Inconclusive when the budget ran out first or the
// solver could not decide.
func Represents(p, q *machine.State, solver *smt.Solver, budget Budget) Result {
	return represents(p, q, solver, budget, Options{MaxNodes: budget.HomNodes, Done: budget.Done}, false)
}

// RepresentsWellFormed is Represents for a q the caller has already found
// well formed (WellFormedChecks), so that q is not checked again for every
// p: the Partition driver asks it of every GSE state of a group and every
// engine state at that control.
func RepresentsWellFormed(p, q *machine.State, solver *smt.Solver, budget Budget) Result {
	return represents(p, q, solver, budget, Options{MaxNodes: budget.HomNodes, Done: budget.Done}, true)
}

// RepresentsBothWellFormed is RepresentsWellFormed for a p that the caller
// has also found well formed, with q's path condition phiQ built once by
// the caller: the Partition driver asks it of every GSE state of a group
// for every sibling, and checking each p again and conjoining φ_q anew for
// each were a quarter of its time on the reference-only stream.
func RepresentsBothWellFormed(p, q *machine.State, phiQ *smt.Formula, solver *smt.Solver, budget Budget) Result {
	return representsPhi(p, q, phiQ, solver, Options{MaxNodes: budget.HomNodes, Done: budget.Done}, [2]bool{true, true})
}

// RepresentsWith is Represents with the homomorphism options of opt (for
// the literal, non-injective reading of Def. 14). opt.MaxNodes overrides
// budget.HomNodes when set.
func RepresentsWith(p, q *machine.State, solver *smt.Solver, budget Budget, opt Options) Result {
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = budget.HomNodes
	}
	if opt.Done == nil {
		opt.Done = budget.Done
	}
	return represents(p, q, solver, budget, opt, false)
}

// RepresentedByHeap is RepresentsWellFormed for a p whose heap is isomorphic to a
// concretization of q (exact): the isomorphism is a homomorphism with
// satisfiable HC, so only the checks before the search are made.
func RepresentedByHeap(p, q *machine.State, solver *smt.Solver) Result {
	if r, done := representsPre(p, q, solver, [2]bool{false, true}); done {
		return r
	}
	return Result{Outcome: Holds}
}

// RepresentedByHeapBothWellFormed is RepresentedByHeap for a p and a q
// that the caller has already found well formed.
func RepresentedByHeapBothWellFormed(p, q *machine.State) Result {
	if r, done := representsPre(p, q, nil, [2]bool{true, true}); done {
		return r
	}
	return Result{Outcome: Holds}
}

// representedByBuiltHeap is RepresentedByHeap for a GSE state p whose
// heap HeapOf built without an error (exact: through Budget.Heaps, on p as
// it is), with controlsEqual saying that the caller has found p's control
// key's bytes equal to q's (Budget.ControlsEqual).
//
// Why it is exact: HeapOf (and HeapOfSame, which is HeapOf on the states
// it is given) fails unless checkState(p) passes, every reference of
// RefsInUse(p) (the roots, then R of every field of every location) has
// the value set {(true l)}, l a location of p or null or l_un (resolve
// rejects one out of range), and every location exists unconditionally.
// On such a state the well-formedness pipeline (WellFormedChecks) finds
// nothing past StackOnlyRoots: typeConsistent compares the classes of two
// entries of one value set and rejects a location out of range, and a
// value set has one entry, in range; deterministic asks about pairs of
// entries, and there are none; total skips a value set with an entry whose
// guard is true. None of them asks the solver, so nothing of its state
// differs either. So WellFormedResult("p", p) is StackOnlyRoots's answer,
// given here as WellFormedResult gives it. The control comparison, when
// the caller made it, would find the same bytes. wellFormedFromHeap
// turns this off (TestRepresentedByBuiltHeap compares with it off).
func representedByBuiltHeap(p, q *machine.State, solver *smt.Solver, controlsEqual bool) Result {
	if !wellFormedFromHeap {
		return RepresentedByHeap(p, q, solver)
	}
	if r, done := representsPreControls(p, q, solver, [2]bool{true, true}, controlsEqual); done {
		return r
	}
	if v := StackOnlyRoots(p); v != nil {
		return Result{Outcome: Fails, Reason: "p is not well formed: " + v.Error()}
	}
	return Result{Outcome: Holds}
}

// RepresentedBuiltHeap is representedByBuiltHeap for a caller that
// vouches that HeapOf builds p's heap without an error (the checker, when
// it derives a pair's exactness from its predecessor's: checker/derive.go)
// and, with controlsEqual, that p's control key is q's: what exactness
// asks of a member met by a concretization of q.
func RepresentedBuiltHeap(p, q *machine.State, solver *smt.Solver, controlsEqual bool) Result {
	return representedByBuiltHeap(p, q, solver, controlsEqual)
}

// wellFormedFromHeap lets representedByBuiltHeap read a member's
// well-formedness from its built heap and skip a control comparison the
// caller made.
var wellFormedFromHeap = true

// representsPre makes the checks of represents before the search; done
// is false when they all passed.
func representsPre(p, q *machine.State, solver *smt.Solver, checked [2]bool) (Result, bool) {
	return representsPreControls(p, q, solver, checked, false)
}

// representsPreControls is representsPre, without comparing the controls
// when controlsEqual says that the caller found them equal.
func representsPreControls(p, q *machine.State, solver *smt.Solver, checked [2]bool, controlsEqual bool) (Result, bool) {
	if err := checkState(p); err != nil {
		return Result{Outcome: Inconclusive, Reason: "p: " + err.Error()}, true
	}
	if err := checkState(q); err != nil {
		return Result{Outcome: Inconclusive, Reason: "q: " + err.Error()}, true
	}
	// The keys' bytes on the stack, compared without making strings:
	// this runs for every member of every group exactness computes.
	var pb, qb [256]byte
	if !controlsEqual && !bytes.Equal(p.AppendControlKey(pb[:0]), q.AppendControlKey(qb[:0])) {
		return Result{Outcome: Fails, Reason: fmt.Sprintf("controls differ: p has %s, q has %s", p.ControlString(), q.ControlString())}, true
	}
	for _, side := range []struct {
		name string
		st   *machine.State
		skip bool
	}{{"p", p, checked[0]}, {"q", q, checked[1]}} {
		if side.skip {
			continue
		}
		if r := WellFormedResult(side.name, side.st, solver); r.Outcome != Holds {
			return r, true
		}
	}
	return Result{}, false
}

// WellFormedResult is the well-formedness part of ⊏ (Def. 16) for the
// state st on side ("p" or "q"), as the Result that ⊏ gives when it
// fails: Holds when st is well formed, Fails with the violation,
// Inconclusive when a check was undecided.
func WellFormedResult(side string, st *machine.State, solver *smt.Solver) Result {
	v, err := WellFormed(st, solver)
	switch {
	case err != nil:
		return Result{Outcome: Inconclusive, Reason: side + " well-formedness undecided: " + err.Error()}
	case v != nil:
		return Result{Outcome: Fails, Reason: side + " is not well formed: " + v.Error()}
	}
	return Result{Outcome: Holds}
}

func represents(p, q *machine.State, solver *smt.Solver, budget Budget, opt Options, qChecked bool) Result {
	return representsPhi(p, q, nil, solver, opt, [2]bool{false, qChecked})
}

// representsPhi is represents with q's path condition phiQ (nil: built
// here) and checked saying which of p, q is known well formed.
func representsPhi(p, q *machine.State, phiQ *smt.Formula, solver *smt.Solver, opt Options, checked [2]bool) Result {
	if r, done := representsPre(p, q, solver, checked); done {
		return r
	}
	// The prune loses no homomorphism that matters here: a partial map
	// whose guards are already unsatisfiable with φ_q has no completion
	// with S(φ_q ∧ HC).
	opt.PruneHC = true
	if phiQ == nil {
		phiQ = q.PathCondition()
	}
	var found *Hom
	var satErr error
	nodes, err := homomorphisms(p, q, solver, opt, func(h *Hom) bool {
		if h.sat { // the search established S(φ_q ∧ HC)
			found = h
			return false
		}
		ok, err := solver.Sat(smt.And(phiQ, h.HC))
		if err != nil {
			satErr = err
			return false
		}
		if ok {
			found = h
		}
		return !ok
	})
	if found != nil {
		return Result{Outcome: Holds, Hom: found, HC: found.HC, Nodes: nodes}
	}
	if err == nil {
		err = satErr
	}
	if err != nil {
		if errors.Is(err, ErrBudget) {
			return Result{Outcome: Inconclusive, Reason: "no homomorphism with satisfiable HC found before the budget ran out: " + err.Error(), Nodes: nodes}
		}
		return Result{Outcome: Inconclusive, Reason: err.Error(), Nodes: nodes}
	}
	return Result{Outcome: Fails, Nodes: nodes,
		Reason: fmt.Sprintf("no homomorphism p ⇀ q with S(φ_q ∧ HC) (%d search nodes)", nodes)}
}
