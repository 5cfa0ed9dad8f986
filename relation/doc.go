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
// Concretization enumerates the equality partitions of the references the
// guards of q talk about (smt.Solver.Partitions, all-SAT), evaluates every
// guard under each, and builds the concrete Heap in which every reference
// takes the one location whose guard holds. Heaps are compared through a
// canonical string (Canonical): the part reachable from the roots is named
// by a breadth-first walk, which is forced once roots and field labels are
// fixed; the unreachable part (input locations that the stack no longer
// reaches) is labeled by colour refinement plus individualization, which is
// exact and, for the few unreachable locations of a k-bounded run, cheap.
package relation
