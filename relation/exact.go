package relation

import (
	"errors"
	"fmt"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// ExactResult is the outcome of Exact.
type ExactResult struct {
	Outcome Outcome
	Reason  string
	// PIndex is the index in P of a GSE state q does not represent (part
	// (a) failed or was inconclusive), or -1.
	PIndex int
	// Represents is the result of Represents for P[PIndex].
	Represents Result
	// Heap is a concretization of q isomorphic to no member of P (part (b)
	// failed), or nil.
	Heap *Heap
	// Heaps is the number of distinct concretizations of q enumerated.
	Heaps int
	// Leaves are the leaves of q's concretization search, every one
	// (isomorphic heaps included) with its literals, when both parts were
	// asked and held (else nil): what the data half takes as q's worlds
	// (ExactDataLeaves) instead of searching again. A caller that keeps
	// the result (a memo) can drop them.
	Leaves Leaves
}

// Exact checks P ⊏ q in the published form, both ways: (a) every p ∈ P has
// p ⊏ q, and (b) every concretization of q is isomorphic to the heap of a
// member of P. A failure names its witness (the p, or the concrete heap and
// the assignment it came from); a concretization that breaks
// well-formedness fails with that witness. P must hold GSE states.
func Exact(P []*machine.State, q *machine.State, solver *smt.Solver, budget Budget) ExactResult {
	if err := checkState(q); err != nil {
		return ExactResult{Outcome: Inconclusive, PIndex: -1, Reason: "q: " + err.Error()}
	}
	v, err := WellFormed(q, solver)
	if err != nil {
		return ExactResult{Outcome: Inconclusive, PIndex: -1, Reason: "q well-formedness undecided: " + err.Error()}
	}
	if v != nil {
		return ExactResult{Outcome: Fails, PIndex: -1, Reason: "q is not well formed: " + v.Error()}
	}
	return exact(P, q, solver, budget, true)
}

// ExactWellFormed is Exact for a q that the caller has already found well
// formed (WellFormed reported no violation), so that the check is not
// repeated; the lockstep checker establishes it before asking. With
// concretize false only part (a) is checked: every p ∈ P is represented.
func ExactWellFormed(P []*machine.State, q *machine.State, solver *smt.Solver, budget Budget, concretize bool) ExactResult {
	if err := checkState(q); err != nil {
		return ExactResult{Outcome: Inconclusive, PIndex: -1, Reason: "q: " + err.Error()}
	}
	return exact(P, q, solver, budget, concretize)
}

// exact is Exact after q's well-formedness is established.
//
// With both parts asked, the concretizations of q are enumerated first,
// and a member p of P whose heap is isomorphic to one of them is
// represented without a homomorphism search: the isomorphism, followed
// from the heap's locations back to the locations of q they were made
// from, is an injective homomorphism p ⇀ q of matching classes and input
// flags, every guard it uses (roots, field edges, and the existence guard
// of every input location in the heap) is a literal chosen on the branch
// that built the heap, and that branch is satisfiable with φ_q — so
// S(φ_q ∧ HC) holds. Only the members met by no concretization are
// searched for, which on a group of hundreds of GSE states is the
// difference between one search per member and none. The verdict is the
// one the plain order gives: a failure of (a) is reported before any of
// (b), and an undecided enumeration discharges nothing.
func exact(P []*machine.State, q *machine.State, solver *smt.Solver, budget Budget, concretize bool) ExactResult {
	res := ExactResult{Outcome: Holds, PIndex: -1}
	var (
		have      map[string]bool // canonical heaps of P (concretize only)
		heapErr   = -1            // first member whose heap cannot be built
		heapErrE  error
		heaps     []*Heap
		leaves    Leaves
		complete  bool
		concErr   error
		met       map[string]bool // canonical concretizations of q
		undecided ExactResult     // the outcome of (a) when it did not fail
	)
	if concretize {
		have = make(map[string]bool, len(P))
		canon := make([]string, len(P))
		for i, p := range P {
			h, err := budget.Heaps.HeapOf(p)
			if err != nil {
				if heapErr < 0 {
					heapErr, heapErrE = i, err
				}
				continue
			}
			canon[i] = Canonical(h)
			have[canon[i]] = true
		}
		// Every leaf is kept (concretizeLeaves), not only one heap per
		// isomorphism class: the leaves are the data half's worlds
		// (ExactDataLeaves), which would otherwise search again. The
		// heaps are one per class in the order first met, as
		// concretizeState gives them.
		complete, concErr = concretizeLeaves(q, solver, budget, func(h *Heap) error { // q is well formed (Exact, ExactWellFormed)
			leaves = append(leaves, h)
			return nil
		})
		// Distinct's set of forms is the set of the distinct heaps' forms:
		// met without a second map.
		var forms map[string]bool
		heaps, forms = leaves.distinct()
		if concErr == nil {
			met = forms
		}
		// met is nil when the enumeration failed: nothing is discharged.
		undecided = exactA(P, q, solver, budget, func(i int) bool { return canon[i] != "" && met[canon[i]] })
		if undecided.Outcome == Fails {
			return undecided
		}
	} else {
		return exactA(P, q, solver, budget, func(int) bool { return false })
	}
	// (b) Every concretization is some p.
	if heapErr >= 0 {
		return ExactResult{Outcome: Inconclusive, PIndex: heapErr, Reason: fmt.Sprintf("P[%d]: %v", heapErr, heapErrE)}
	}
	res.Heaps = len(heaps)
	var w *WitnessError
	switch {
	case errors.As(concErr, &w):
		return ExactResult{Outcome: Fails, PIndex: -1, Heaps: len(heaps), Reason: "(b) a concretization of q is not a heap: " + w.Error()}
	case concErr != nil:
		return ExactResult{Outcome: Inconclusive, PIndex: -1, Heaps: len(heaps), Reason: "(b) " + concErr.Error()}
	}
	for _, h := range heaps {
		if !have[Canonical(h)] {
			return ExactResult{Outcome: Fails, PIndex: -1, Heap: h, Heaps: len(heaps),
				Reason: "(b) a concretization of q is isomorphic to no member of P: " + h.String()}
		}
	}
	if undecided.Outcome == Inconclusive {
		undecided.Heaps = len(heaps)
		return undecided
	}
	if !complete {
		return ExactResult{Outcome: Inconclusive, PIndex: -1, Heaps: len(heaps),
			Reason: fmt.Sprintf("(b) more than %d concretization leaves: enumeration incomplete", budget.Models)}
	}
	res.Leaves = leaves
	return res
}

// exactA is part (a) of exactness: every p ∈ P is represented by q, where
// met(i) says that P[i]'s heap, built by HeapOf, is a concretization of
// q (then only the checks of Represents other than the search are made). An inconclusive
// member does not hide a failing one further on: keep looking, report the
// failure first.
func exactA(P []*machine.State, q *machine.State, solver *smt.Solver, budget Budget, met func(int) bool) ExactResult {
	undecided := -1
	var undecidedRes Result
	satQ := map[*smt.Formula]bool{}
	for i, p := range P {
		var r Result
		if met(i) {
			// met: P[i]'s heap was built by HeapOf (exact above).
			r = representedByBuiltHeap(p, q, solver, budget.ControlsEqual)
		} else {
			r = represents(p, q, solver, budget, Options{MaxNodes: budget.HomNodes, Done: budget.Done, satQ: satQ}, true)
		}
		switch r.Outcome {
		case Fails:
			return ExactResult{Outcome: Fails, PIndex: i, Represents: r,
				Reason: fmt.Sprintf("(a) P[%d] is not represented by q: %s", i, r.Reason)}
		case Inconclusive:
			if undecided < 0 {
				undecided, undecidedRes = i, r
			}
		}
	}
	if undecided >= 0 {
		return ExactResult{Outcome: Inconclusive, PIndex: undecided, Represents: undecidedRes,
			Reason: fmt.Sprintf("(a) P[%d] undecided: %s", undecided, undecidedRes.Reason)}
	}
	return ExactResult{Outcome: Holds, PIndex: -1}
}

// SameResult is the outcome of SameConcretizations.
type SameResult struct {
	Outcome Outcome
	Reason  string
	// Only is a concretization of one state that the other does not have
	// (Fails), and InA says whose it is.
	Only *Heap
	InA  bool
}

// SameConcretizations decides whether two states stand for the same
// concrete heaps: their concretizations, as canonical forms, are the same
// set (engine against engine, ENGINES.md §8.4). Both must be well formed;
// a concretization that is not a heap fails, an enumeration cut by the
// budget is inconclusive.
func SameConcretizations(a, b *machine.State, solver *smt.Solver, budget Budget) SameResult {
	sets := [2]map[string]*Heap{}
	for i, q := range []*machine.State{a, b} {
		heaps, complete, err := Concretize(q, solver, budget)
		var w *WitnessError
		switch {
		case errors.As(err, &w):
			return SameResult{Outcome: Fails, Reason: fmt.Sprintf("a concretization of state %c is not a heap: %s", 'A'+i, w.Error())}
		case err != nil:
			return SameResult{Outcome: Inconclusive, Reason: fmt.Sprintf("state %c: %v", 'A'+i, err)}
		case !complete:
			return SameResult{Outcome: Inconclusive, Reason: fmt.Sprintf("state %c: more than %d concretization leaves: enumeration incomplete", 'A'+i, budget.Models)}
		}
		sets[i] = make(map[string]*Heap, len(heaps))
		for _, h := range heaps {
			sets[i][Canonical(h)] = h
		}
	}
	for i := range sets {
		for c, h := range sets[i] {
			if _, ok := sets[1-i][c]; !ok {
				return SameResult{Outcome: Fails, Only: h, InA: i == 0,
					Reason: fmt.Sprintf("a concretization of state %c is none of state %c's: %s", 'A'+i, 'B'-i, h.String())}
			}
		}
	}
	return SameResult{Outcome: Holds}
}
