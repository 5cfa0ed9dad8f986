package concrete

import "sync/atomic"

// plantLtAsLe makes Interpret read `<` as `<=`: a deliberate mistake in
// the interpreter, for the test of package jvm that shows its differential
// against the JVM finds such a mistake and shrinks it. Only Interpret reads
// it (Run computes with the machine's terms), at exactly one place (arith).
var plantLtAsLe atomic.Bool

// PlantLtAsLe switches the planted mistake on or off and returns a function
// that restores the previous setting. It exists for tests only: nothing
// outside a test may call it, as it changes every Interpret of the process.
func PlantLtAsLe(on bool) (restore func()) {
	old := plantLtAsLe.Swap(on)
	return func() { plantLtAsLe.Store(old) }
}
