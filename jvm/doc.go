// Package jvm makes the Java virtual machine a second concrete oracle for
// lockstep: it exports a Javalite program to Java, runs it on the JVM on
// the input heaps package concrete enumerates, and compares every outcome
// and final heap with lockstep's own interpreter (concrete.InterpretFinal).
// Lockstep's interpreter, its machine and GSE were all written from one
// reading of the spec; the JVM was not, so where they agree on a program
// and an input, the meaning of +, -, <, <=, =, null dereferences, calls,
// evaluation order and assume in lockstep is Java's.
//
// # Export
//
// Export writes one Java source per program: a static nested class per
// Javalite class (C_name), with the same fields (f_name: int is long,
// bool is boolean, a class is its class) and the same methods (m_name,
// parameters v1..vn), and a driver. A body is flattened into statements
// that compute each subexpression into a final temporary in the order of
// RULES.md §3 (receiver, then arguments left to right; left operand, then
// right; a field write's value before its variable is read), so the export
// states the evaluation order and the JVM decides everything else. An int
// is a long and + and - are Math.addExact and Math.subtractExact: a sum
// that leaves the range throws ArithmeticException, which the driver
// reports as "range", like lockstep's out of range, never wrapping. A call,
// field read or field write on null throws NullPointerException ("error",
// lockstep's Java semantics, V11); an assume whose condition is false
// throws the driver's PRUNED ("pruned"). Only the Java semantics can be
// exported: the paper readings of V10 and V11 are not Java.
//
// # Driver and batches
//
// runCase (in each export) decodes an input heap (Encode), runs the entry
// method with lockstep's entry arguments (true, 0, null), and prints the
// outcome and the final heap reachable from the inputs and the result in
// the canonical numbering Canonical computes on lockstep's side. A JVM
// start costs about a third of a second and javac's more, so a Batch
// holds many programs: a Server (one long-lived JVM) compiles it with the
// JDK's in-process compiler and runs its cases in a class loader of its
// own, for every batch of a Diff, a Shrink or an ORC; without a Server a
// Batch runs javac (a thousand sources per invocation) and one java of
// its own, whose runner reads "Class case-id case" lines.
//
// Divergence: every call spends one unit of a per-case fuel (DefaultFuel
// calls), and the cases run on a thread with a deep stack; a run that
// exhausts the fuel is "cut", one that exhausts the stack "overflow". The
// differential (Diff) names these, and lockstep's own step-bound cut, as
// explained categories rather than disagreements.
//
// # ORC on the JVM
//
// ORC is lemma ORC's concrete side on the JVM, `check -oracle jvm`: Run
// (checker.Runner) for the per-path half, where the JVM gives the end and
// the value and lockstep's interpreter the step count, which the JVM has
// no notion of; Also (concrete.Options.Also) for the completeness half,
// where each input's JVM run must end as the machine's run on it, which
// follows exactly one GSE path.
package jvm
