// Package smt holds the path-condition formulas of the heap-summary engine
// and decides them, in Go where it can and with Z3 through a small cgo
// binding otherwise.
//
// # Formulas
//
// Constraint atoms are equalities between input references and r_null
// (RULES.md §2). A Formula is a tree of such atoms under ¬, ∧ and ∨, built
// only through the constructors (Eq, Neq, Not, And, Or, Implies), which
// simplify structurally (double negation, constants, flattening,
// duplicates, complementary pairs) and hash-cons the result in a global
// intern table. Hash-consing is what makes the rest cheap: structurally equal
// formulas are one pointer with one ID, so the engine can compare path
// conditions by pointer, and a solver can cache both its answers and its Z3
// translations by ID instead of hashing trees on every query. The table
// holds formulas weakly, so formulas the engine has dropped are collected.
// Constructors are safe for concurrent use; the table is sharded.
//
// # Solvers
//
// A Solver owns one long-lived Z3 context and solver and runs every query as
// push/assert/check/pop. Z3 contexts are not thread-safe, and locking one
// shared context would serialise the workers, so every worker creates its
// own Solver; only the formulas are shared.
//
// The context is created in reference-counted mode (Z3_mk_context_rc) and
// the binding takes and drops references explicitly: every AST the solver
// keeps (the sort, one constant per Ref, the translation of each formula) is
// inc_ref'd when cached and dec_ref'd when the bounded translation cache is
// cleared or the solver is closed. Releasing Z3 objects from Go finalizers
// alone was measured (on this project, before this binding) to grow to
// gigabytes: the Go collector sees only the small Go wrappers, not the Z3
// memory behind them, so it has no reason to run often enough, and a
// finalizer runs at least one GC cycle late anyway. With explicit counts and
// a bounded translation cache, the resident set of a solver stays flat over
// a million queries (TestSolverMemoryFlat; docs/PERFORMANCE.md). A runtime
// cleanup that deletes the context exists only as a safety net for a Solver
// dropped without Close.
//
// The Z3 context is made when a question, a model or an AST first needs
// it, not by NewSolver (z3.go, open): a context costs about 7 ms of CPU
// in a process (BenchmarkContext measures about 1.5 ms for a further one
// in a warm process), and a Solver the Go deciders answer entirely (the
// one a check makes only to validate its options; the runs and checks of
// programs without data, mostly: LinkedList×4's make none) never makes one. What is set before it exists
// holds for it: parameters (a timeout, a seed) are applied when each Z3
// solver is made, assumptions are told to Z3 at the first question under
// them as always (incremental.go), and a bound context.Context reaches it
// (the watcher's interrupt and open both take the gate's lock, and a
// context made after cancellation is interrupted at once). Close of a
// Solver that never made one deletes nothing; "closed" is s.z == nil,
// "not made yet" is a nil context in s.z.
//
// In front of Z3 sits an exact decision procedure in Go (decide.go): the
// fragment is equality of constants of one uninterpreted sort, which a
// union-find with disequalities decides for conjunctions, with DPLL-style
// splits for disjunctions. It answers nearly every query of the engines
// and the checker without a cgo call; a query past its work budget goes to
// Z3, so "unknown" can still only come from Z3. LOCKSTEP_SMT=z3 (or
// SetGoDecide(false)) sends everything to Z3, as before.
//
// Behind it, for a question without assumptions that the DPLL has not
// answered within a smaller budget, sits clause learning (cdcl.go): the
// question is encoded into propositional logic exactly (a variable per
// pair of constants, the transitivity clauses of every three, a Tseitin
// variable per connective) and decided by conflict-driven clause
// learning, which records a conflict once where the DPLL meets it again
// below every split. The encoding and the learned clauses are kept from
// question to question (a question's root is its first decision, so every
// learned clause holds in later ones). It answers the checker's
// determinism questions (can two guards of a View's value set hold
// together?) and the totality questions of the tree programs, which went
// to Z3 before; past its conflict budget a question goes on to the DPLL's
// whole budget and then Z3. It also answers, at once and without the
// DPLL's first budget, the question without data that a question with
// data becomes when its reference part is past the decider (split.go,
// satRefCases), behind the last models it found for such questions.
// Those questions come along a path, each its path condition and a guard,
// so there its route is incremental (cdclinc.go): each conjunct is an
// assumption, a decision level of its own, and the levels of the
// conjuncts the next question shares stay on the trail with what they
// propagated, so that a question pays for the conjuncts it adds.
//
// Its incremental use is what the concretizer's depth-first search needs:
// Assume (and AssumeAll, several formulas as one scope without building
// their conjunction) asserts into the union-find once per level and
// propagates the units the level forces, so that no question under it
// finds them again; under assumptions a real case split is on an open
// equality (both values), which decides the guards nested in guards at
// every place at once; each level keeps the last models found under it,
// which answer satisfiable questions at once and witness candidates
// without a question (Witnessed); SatBoth caches the satisfiability of
// pairs of formulas without interning their conjunction. Every one of
// these is exact, and each is compared with Z3 by a property test
// (decide_test.go, models_test.go) and on the checker's own questions
// (checker/decide_test.go).
//
// Z3's default error handler prints and exits; the binding installs a C
// handler that records the error code, and every C helper returns that code,
// so Z3 errors surface as *Z3Error values. An "unknown" answer is an error
// wrapping ErrUnknown: the package never guesses.
package smt
