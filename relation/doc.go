// Package relation implements the definitions of RULES.md §7 that the
// lemmas rest on, so that each lemma becomes a machine check between two
// machine.States: the homomorphism p ⇀_h q (Def. 14, extended to the stack
// roots), the homomorphism constraint HC (Def. 15), representation p ⊏ q
// (Def. 16), determinism (Def. 11) and the other well-formedness checks,
// concretization of a summary state into GSE-like concrete heaps, canonical
// forms of those heaps, and exactness P ⊏ q.
//
// # Design
//
// Nothing here knows which engine produced a state: a GSE state is simply a
// state whose guarded value sets are singletons {(true l)}, and every
// function accepts either kind on either side. The solver is always passed
// in (one *smt.Solver per goroutine); formulas are hash-consed, so the
// solver's cache makes the repeated queries of a search cheap.
//
// Every search is bounded by a Budget. A check that runs out of budget, or
// whose solver answers unknown, is Inconclusive, never Holds: a pass must
// mean that the property was established.
//
// The homomorphism search is a backtracking search over the locations of p
// that must be mapped (those reachable from the stack roots, and every input
// location, reachable or not, because a later initialization can alias
// it). Root images are fixed first, then images are propagated along the
// field edges of p in breadth-first order, so that every location after the
// first is constrained by an edge from an already mapped location and the
// candidate sets stay small. The homomorphisms are enumerated lazily: the
// caller sees one at a time and may stop the search.
//
// Concretization (concretize.go) is a search over the choices themselves:
// from the roots, each reference in use takes in turn each entry whose
// guard is satisfiable with the choices above it, a location reached joins
// the heap and its fields are resolved next, and the input locations never
// reached are present or absent as their existence guards say. The
// choices are assumed in the solver as they are made (smt.Solver.Assume),
// so a question is one guard relative to the branch. Most questions on a
// large group are refutations of the other choices, and the search asks
// them in bulk: the entries that a model the solver kept for the branch
// satisfies are taken without a question, and the rest are asked as one
// disjunction; the unreached locations of a leaf are asked as one. The
// all-SAT enumeration (smt.Solver.AllSAT, concretizeAllSAT) is the
// oracle of the property tests.
//
// Many steps change only the roots, or make the path condition stronger,
// and leave the rest of a state as it was. A ConcretizationCache
// (reuse.go, given through Budget.Cache, one per checked program) keeps
// the leaves of each complete search by content; a state with the same
// content but other roots resolves only its new roots under each leaf,
// and a state whose path condition extends a cached one's keeps the
// leaves satisfiable with it. The leaves partition the assignments of the
// path condition, which is why either is exact. A replayed leaf asks the
// solver only what the closure of its literals (leafeval.go: union–find
// of its equalities, separations of its disequalities) does not decide.
// The heaps of one step's GSE states are built once (HeapCache, through
// Budget.Heaps), and a heap keeps its canonical names.
//
// Totality is the same question from state to state: most references
// keep their value set, and the path condition only gains conjuncts. A
// TotalityMemo (totalmemo.go, one per run, through WellFormedChecksMemo)
// keeps each unsatisfiable φ ∧ ¬⋁guards with its φ and answers a later
// φ that has every conjunct of a kept one: it implies the kept φ, so its
// question is unsatisfiable too. Nothing else is inferred.
//
// Heaps are compared through a canonical string (Canonical): the part reachable from the roots is named
// by a breadth-first walk, which is forced once roots and field labels are
// fixed; the unreachable part (input locations that the stack no longer
// reaches) is labeled by colour refinement plus individualization, which is
// exact and, for the few unreachable locations of a k-bounded run, cheap.
package relation
