// Package bench reproduces the evaluation of the seed papers (seed 000's
// Table 1 and Figure 2, seed 003's Fig. 1 and Table 1) on lockstep's own
// engines: it runs a suite of Javalite programs through GSE (gse.New), the
// engine compared with it (heap summaries, summary.New, by default) and
// the engines of Options.Also (`lockstep bench` runs Kiasan's lazier and
// lazier#, POSE-J and uber-lazy) on the shared machine, one exploration
// per engine and case, and reports paths by end kind, states, steps, solver
// work, wall time and peak heap side by side, as a table (one line per
// case and engine), JSON, CSV, and two plots. Beside each engine stands the
// number a seed paper publishes for the algorithm it implements (Published:
// seed 000's lazy, lazier# and SH paths, seed 003's lazy, lazier# and POSE
// traces and queries), with its source, and whether our count equals it.
//
// Programs with int and bool data (PRIMITIVES.md: seed 000's and seed
// 002's tree programs at k = 1..3, seed 003's AVL, list and red-black
// programs at k = ∞, seed 000's LinkedList driver with its invariant
// assumed; Data, `lockstep bench -data`) run beside seed 002's Table 1
// (the cases of lazy, lazier and lazier#) and App. B's fewest cases for
// the operation (LowerBound, the floor no engine's completed paths can go
// below; Row.BelowBound flags an engine that does). An engine without the
// data rules (engine.Info.Data false, or a run that refuses the program
// with engine.ErrNoData or machine.ErrNoData) gets the status NoData on
// those cases instead of failing the run, so its cells fill in once it
// learns data.
//
// Design choices that shape the numbers:
//
//   - Every engine runs with the same k-bound and the same step bound, as
//     RULES.md requires for them to be comparable. An engine without a
//     k-bound (Unbounded: POSE) runs only the cases without one. A path is counted at every
//     end of the explorer: value, error, cut (step bound) and stuck, and the
//     table shows the four kinds separately, because the papers count only
//     completed executions and Javalite makes a null dereference an explicit
//     error path.
//   - The step bound plays the role of the paper's acyclicity invariant.
//     The reference-only LinkedList drivers have no assume and no integers
//     (linkedlist_inv5.jl, with data, states the invariant instead), so
//     `contains` over a list whose lazily initialized next fields form a
//     cycle recurses until the step bound. After the cycle is closed every field on it is
//     initialized, so the rest of the path is deterministic: each cyclic
//     shape contributes exactly one cut path whatever the bound, provided the
//     bound exceeds the longest acyclic path. The runner checks both halves of
//     that claim for every case: it reports the longest completed path
//     (MaxSteps) and how many cut paths end in a heap with a cycle
//     (CutCyclic); a cut path without a cycle means the bound was too small,
//     and the row says so.
//   - A time budget bounds each exploration through its context. An
//     exploration that exceeds it is reported as cut with its budget and the
//     lower-bound counts it reached; later cases of the same series (larger k,
//     more calls) are then not run for that engine and are marked as skipped,
//     never left out.
//   - Each run of an engine other than GSE gets its own solver, so its
//     cache starts empty and the solver counts belong to that run alone.
//     GSE never asks the solver, and neither do Kiasan's explicit engines.
//   - Peak memory is the largest Go heap (runtime/metrics
//     /memory/classes/heap/objects:bytes, live and not yet swept objects)
//     sampled every 5 ms during a run, minus the heap before it. Z3's own C
//     heap is not included.
package bench
