// Package view holds the Views of engines whose states extend the machine
// state (ENGINES.md §5): pure functions from an engine state to a guarded
// state of the shape RULES.md §2 describes — every location canonical (one
// location is one object in every world), every value set deterministic and
// total under the path condition — so that the relations of package
// relation (Represents, Concretize, Exact, WellFormed) apply unchanged and
// never read an extension.
//
// A View never modifies its argument, and builds no formula the engine
// state does not determine: two calls on one state give equal results
// (formulas are hash-consed), which lets the checker cache them per state.
//
// Unresolved (file unresolved.go) maps away the unresolved locations of
// Kiasan's lazier and lazier# (package kiasan): each becomes an input
// location that exists in the worlds where its identity reference differs
// from null and from every earlier candidate of its class, and each entry
// naming it becomes one entry per object it can be.
//
// Deferred (file deferred.go) is the View of uber-lazy's deferred engine
// (package uber): its unresolved locations sit in guarded value sets under
// a read guard, so the View resolves each one in a copy of the state with
// the same resolution the engine applies at a use (Summarize's θ at that
// time), rather than Unresolved's singleton rewriting.
//
// Symbolic (file symbolic.go) is POSE-J's canonicalizing View (package
// pose): each symbolic location l_Y becomes the first symbol of its class,
// in creation order, equal to Y and materialized in that world.
package view
