// Package bench reproduces the evaluation of the seed papers (seed 000's
// Table 1 and Figure 2, seed 003's Fig. 1 table) on lockstep's own engines:
// it runs a suite of Javalite programs through GSE (gse.New) and heap
// summaries (summary.New) on the shared machine, one exploration per engine
// and case, and reports paths by end kind, states, solver work, wall time and
// peak heap side by side, as a table, JSON, CSV, and a plot.
//
// Design choices that shape the numbers:
//
//   - Both engines run with the same k-bound and the same step bound, as
//     RULES.md requires for them to be comparable. A path is counted at every
//     end of the explorer: value, error, cut (step bound) and stuck, and the
//     table shows the four kinds separately, because the papers count only
//     completed executions and Javalite makes a null dereference an explicit
//     error path.
//   - The step bound plays the role of the paper's acyclicity invariant.
//     Javalite has no assume, no loops and no integers, so `contains` over a
//     list whose lazily initialized next fields form a cycle recurses until
//     the step bound. After the cycle is closed every field on it is
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
//   - Each summary run gets its own solver, so its cache starts empty and
//     the solver counts belong to that run alone. GSE never asks the solver.
//   - Peak memory is the largest Go heap (runtime/metrics
//     /memory/classes/heap/objects:bytes, live and not yet swept objects)
//     sampled every 5 ms during a run, minus the heap before it. Z3's own C
//     heap is not included.
package bench
