package relation

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// concretizeAllSAT is the plain reading of RULES.md §7, kept as the oracle
// for Concretize: all-SAT over φ_q projected onto the equality atoms of the
// guards (ConcretizationAtoms: all that a heap depends on), and for each
// model the heap in which every reference takes the one location whose
// guard holds. It enumerates many more models than there are heaps, which
// is why Concretize searches instead.
func concretizeAllSAT(q *machine.State, solver *smt.Solver, budget Budget) ([]*Heap, bool, error) {
	if err := checkState(q); err != nil {
		return nil, false, err
	}
	atoms := ConcretizationAtoms(q)
	models, complete, err := solver.AllSAT(q.PathCondition(), atoms, budget.Models)
	if err != nil {
		return nil, false, fmt.Errorf("concretize: %w", err)
	}
	index := make(map[*smt.Formula]int, len(atoms))
	for i, a := range atoms {
		index[a] = i
	}
	var out []*Heap
	seen := map[string]bool{}
	for _, m := range models {
		lits := make([]*smt.Formula, len(atoms))
		for i, a := range atoms {
			lits[i] = a
			if !m[i] {
				lits[i] = smt.Not(a)
			}
		}
		holds := func(f *smt.Formula) bool {
			if f == nil {
				return true
			}
			return f.Eval(func(a, b smt.Ref) bool {
				i, ok := index[smt.Eq(a, b)]
				// Every atom of a guard is projected; an atom outside
				// the projection would be a bug here, and reading it as
				// false keeps Eval total while buildHeap's checks catch
				// the inconsistency it causes.
				return ok && m[i]
			})
		}
		h, err := buildHeap(q, holds, smt.And(lits...))
		if err != nil {
			return out, complete, err
		}
		c := Canonical(h)
		if !seen[c] {
			seen[c] = true
			out = append(out, h)
		}
	}
	return out, complete, nil
}
