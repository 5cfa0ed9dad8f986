// Package knobs holds switches that break the checker on purpose, for
// tests only: mutation testing of the checker itself (a checker mutation
// must let some catalog mutant that the intact checker kills survive, or
// the part it breaks is not needed by any test and could rot unnoticed).
// The package is internal, so no user of the module can set them; every
// switch is off unless a test turns it on, and a test that does turns it
// off again before it ends. They are atomic because the checker's workers
// read them concurrently.
package knobs

import "sync/atomic"

// The data half of exactness (relation.ExactData, PRIMITIVES.md §5).
var (
	// DataSkipA skips direction (a): every GSE state's data is reached by q.
	DataSkipA atomic.Bool
	// DataSkipB skips direction (b): every world's data is some GSE state's.
	DataSkipB atomic.Bool
	// DataSkipLastWorldB skips direction (b) for the last world of q.
	DataSkipLastWorldB atomic.Bool
	// DataKeyNoSlots leaves the slots' terms out of the data half's memo
	// key (the data part of relation.FingerprintSum).
	DataKeyNoSlots atomic.Bool
)

// smt's term layer, shared by every engine, GSE and the concrete engine
// (the mutants of a shared layer, hunted under every engine).
var (
	// SMTLeAsLt translates a term a <= b to Z3 as a < b.
	SMTLeAsLt atomic.Bool
	// SMTLtSelfTrue folds a < a as true. (Folding a < b of two integer
	// constants as a <= b would be equivalent: equal constants are one
	// interned node, and a < a is folded before the constants are.)
	SMTLtSelfTrue atomic.Bool
)
