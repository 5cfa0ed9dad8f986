package relation

import "github.com/lockstep-dev/lockstep/smt"

// TotalityMemo remembers the totality questions answered unsatisfiable
// in one run, so that the same question, or one it implies, is not built
// and asked again.
//
// Totality asks, for every reference in use, whether φ ∧ ¬⋁guards is
// satisfiable. A step leaves most references with the value set they had
// (the same guards, so the same ¬⋁guards, one hash-consed formula) and the
// path condition as it was or stronger: a branch conjoins its condition,
// and φ is a conjunction whose conjuncts a step only adds to. The solver
// caches a question by the IDs of its two formulas, so a stronger φ is a
// new question, built (φ ∧ ¬⋁guards, a merge of φ's conjuncts) and
// decided again, for every reference of every new state. On LinkedList×4
// (summary:fixed, k = 3, 300 steps) the engine's states ask 30,361
// totality questions, of which the solver's cache answers 23,372 and
// 6,989 are built and decided; with the memo 572 are asked.
//
// The memo keeps, for each ¬⋁guards, the path conditions φ₀ under which
// it was found unsatisfiable. A question (φ, ¬⋁guards) is answered
// unsatisfiable without the solver when some kept φ₀ has every conjunct
// (smt.And's operands; φ₀ itself when it is no conjunction) among φ's:
// then φ implies φ₀, so φ ∧ ¬⋁guards implies φ₀ ∧ ¬⋁guards, which is
// unsatisfiable. That is the only inference: nothing is assumed of
// formulas beyond their conjuncts, a satisfiable answer is never kept (a
// stronger φ may make totality hold where a weaker one did not, and a
// weaker φ may break it where a stronger one held), and an answer the
// solver could not give is not knowledge. Answers are kept only from a
// solver without assumptions in force (smt.Solver.Assumptions), whose
// answers are about the formula alone.
//
// Formulas are compared by pointer: they are hash-consed, so equal
// formulas are one pointer, and a pointer kept in the memo keeps its
// formula alive, never standing for another.
//
// A TotalityMemo belongs to one goroutine (one run's solver); the zero
// value is not ready, use NewTotalityMemo.
type TotalityMemo struct {
	held map[*smt.Formula][]*smt.Formula // ¬⋁guards → φ₀s under which it is unsatisfiable
	// Reused counts the questions answered by the memo.
	Reused int
}

// totalityMemoWidth is how many path conditions are kept for one
// ¬⋁guards; a new one replaces the oldest. A reference's value set is
// asked about along every path the program takes after it was written,
// under path conditions that share a prefix, so the few most recent
// weakest ones answer nearly every later question, and the scan of the
// list stays short.
const totalityMemoWidth = 4

// totalityMemoKeys bounds the value sets kept: the memo holds its
// formulas alive, so past the bound it starts again empty (as the
// solver's caches do), which costs questions, never an answer. A check
// keeps a few hundred (LinkedList×4 at k = 3: 365; TreeMap remove at
// k = 3: 553).
const totalityMemoKeys = 1 << 14

// NewTotalityMemo returns an empty memo.
func NewTotalityMemo() *TotalityMemo {
	return &TotalityMemo{held: map[*smt.Formula][]*smt.Formula{}}
}

// implied reports whether phi ∧ none is unsatisfiable by an answer kept:
// some φ₀ kept for none whose conjuncts are all conjuncts of phi.
func (m *TotalityMemo) implied(phi, none *smt.Formula) bool {
	for _, phi0 := range m.held[none] {
		if phi0 == phi || smt.ConjunctsWithin(phi0, phi) {
			return true
		}
	}
	return false
}

// unsat keeps that phi ∧ none is unsatisfiable. A kept φ₀ whose conjuncts
// include all of phi's is dropped: phi answers everything it answered.
func (m *TotalityMemo) unsat(phi, none *smt.Formula) {
	list := m.held[none]
	kept := list[:0]
	for _, phi0 := range list {
		if !smt.ConjunctsWithin(phi, phi0) {
			kept = append(kept, phi0)
		}
	}
	if len(kept) == totalityMemoWidth {
		copy(kept, kept[1:])
		kept = kept[:len(kept)-1]
	}
	if len(list) == 0 && len(m.held) >= totalityMemoKeys {
		clear(m.held)
	}
	m.held[none] = append(kept, phi)
}
