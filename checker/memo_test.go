package checker

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestExactKey: the memo key of (P, q) ignores the order of P and a step
// that moves only the control, and tells apart the two parts of exactness,
// a different group, and pairs whose controls differ (those are never
// memoized).
func TestExactKey(t *testing.T) {
	prog := testutil.Program(t, "../testdata/perf/seed1-021.jl")
	eng := &gse.Engine{K: 2}
	// Step GSE until a field access has split the initial state.
	P := []*machine.State{machine.Initial(prog)}
	for len(P) < 2 {
		var next []*machine.State
		for _, p := range P {
			succ, err := machine.Step(p.Clone(), eng, eng.Opt)
			require.NoError(t, err)
			for _, s := range succ {
				next = append(next, s.S)
			}
		}
		P = next
	}
	for _, p := range P {
		require.Equal(t, P[0].ControlKey(), p.ControlKey())
	}
	q := P[0]
	k1, ok := exactKey(&keyHash{}, P, q, true, false, "")
	require.True(t, ok)
	rev := slices.Clone(P)
	slices.Reverse(rev)
	k2, ok := exactKey(&keyHash{}, rev, q, true, false, "")
	require.True(t, ok)
	require.Equal(t, k1, k2, "P is a set")
	k3, _ := exactKey(&keyHash{}, P, q, false, false, "")
	require.NotEqual(t, k1, k3, "part (a) alone is another check")
	k4, _ := exactKey(&keyHash{}, P[:1], q, true, false, "")
	require.NotEqual(t, k1, k4, "another group")

	// A step that only moves the control (here: one more frame that holds
	// no reference) keeps the key.
	moved := func(s *machine.State) *machine.State {
		c := s.Clone()
		c.K = &machine.Kont{Kind: machine.KBegin, Idx: 7, Next: c.K}
		return c
	}
	var mP []*machine.State
	for _, p := range P {
		mP = append(mP, moved(p))
	}
	k5, ok := exactKey(&keyHash{}, mP, moved(q), true, false, "")
	require.True(t, ok)
	require.Equal(t, k1, k5)

	mP[1] = P[1]
	_, ok = exactKey(&keyHash{}, mP, moved(q), true, false, "")
	require.False(t, ok, "controls differ: not memoized")
}

// TestExactReuseSameVerdicts: on programs 2–13 of the seed-1 stream (1
// runs into the group bound after seconds),
// reusing exactness answers (memo.go) gives every program the same verdict
// and the same per-lemma counts as computing every answer, and it does
// reuse answers.
func TestExactReuseSameVerdicts(t *testing.T) {
	opt := DefaultOptions()
	opt.Engine = "summary:fixed"
	opt.Steps = 150
	opt.MaxGroup = 150
	opt.Timeout = 10 * time.Minute // a safety net only: budgets decide
	s := testutil.Solver(t)
	defer func() { reuseExact, reuseConcretizations, vouchControls = true, true, true }()
	reused, concReused, wfReused := 0, 0, 0
	last := 13
	if testing.Short() {
		last = 6
	}
	for i := 2; i <= last; i++ {
		off, on := sameWithReuse(t, ProgramOf(ProgramSeed(1, i)), opt, s, func(on bool) { reuseExact, reuseConcretizations, vouchControls = on, on, on }, i)
		require.Zero(t, off.exactReused)
		reused += on.exactReused
		concReused += on.concretizationsReused
		wfReused += on.wellFormedReused
		require.Zero(t, off.wellFormedReused)
	}
	require.Positive(t, wfReused, "no well-formedness answer was reused")
	require.Positive(t, reused, "no exactness answer was reused")
	require.Positive(t, concReused, "no concretization was built from cached leaves")
}

// TestRootsBelowSameVerdicts: on seed 1's program 196 of the data stream
// (field reads that alias each other; its summary states' cached leaves
// are replayed with new roots, and the same roots again), resolving the
// roots of a replayed leaf by the leaves an earlier search built below it
// gives the verdict and counts of the checks without the cache, and it
// is used.
func TestRootsBelowSameVerdicts(t *testing.T) {
	opt := DefaultOptions()
	opt.Engine = "summary:fixed"
	opt.MaxGroup = 150 // the program's groups grow to 8,320: stop early, inconclusive on both sides
	opt.Timeout = 10 * time.Minute
	s := testutil.Solver(t)
	defer func() { reuseExact, reuseConcretizations, vouchControls = true, true, true }()
	_, on := sameWithReuse(t, ProgramOfData(ProgramSeed(1, 196), gen.DataMixed), opt, s, func(on bool) { reuseExact, reuseConcretizations = on, on }, 196)
	require.Positive(t, on.rootsBelow, "no replay's roots were resolved by the leaves below it")
}

// TestExactDataReuseSameVerdicts: on programs of the data stream, the
// memoized data half (exactDataMemoized, and the worlds built from cached
// concretization leaves) gives the verdicts and counts of the checks
// without reuse.
func TestExactDataReuseSameVerdicts(t *testing.T) {
	opt := DefaultOptions()
	opt.Engine = "summary:fixed"
	opt.Timeout = 10 * time.Minute // a safety net only: budgets decide
	s := testutil.Solver(t)
	defer func() { reuseExact, reuseConcretizations, vouchControls = true, true, true }()
	reused, withData := 0, 0
	// The first 15 programs of the stream in make test, 30 under make soak.
	last := 15
	switch {
	case os.Getenv("LOCKSTEP_SOAK") != "":
		last = 30
	case testing.Short():
		last = 12
	}
	for i := 0; i < last; i++ {
		p := ProgramOfData(ProgramSeed(1, i), gen.DataMixed)
		if !machine.UsesData(p) {
			continue
		}
		withData++
		_, on := sameWithReuse(t, p, opt, s, func(on bool) { reuseExact, reuseConcretizations, vouchControls = on, on, on }, i)
		reused += on.exactReused
	}
	require.Positive(t, withData, "no program of the data stream has data")
	require.Positive(t, reused, "no exactness answer was reused")
}

// TestPartitionReuseSameVerdicts: on programs of the data stream and of
// the reference-only stream, the Partition driver's shortcuts (p ⊏ v
// answered once per heap shape; with data only for the GSE states among
// the sibling's concretizations; without, p's well-formedness checked and
// v's path condition built once) give the verdicts and counts of the
// plain homomorphism search for every GSE state and sibling. The first 5
// programs of each stream in make test, 15 under make soak.
func TestPartitionReuseSameVerdicts(t *testing.T) {
	s := testutil.Solver(t)
	defer func() { reuseRepresents = true }()
	last := 5
	if os.Getenv("LOCKSTEP_SOAK") != "" {
		last = 15
	}
	for _, eng := range []string{"lazier", "lazier#"} {
		opt := DefaultOptions()
		opt.Engine = eng
		opt.K = -1
		opt.Timeout = 10 * time.Minute // a safety net only: budgets decide
		// Small bounds keep the stream's few large programs cheap: their
		// inconclusive verdicts are compared like the others.
		opt.MaxGroup, opt.MaxPairs = 300, 3000
		held := 0
		for i := 0; i < last; i++ {
			for _, d := range []gen.DataMode{gen.DataMixed, gen.DataNone} {
				_, on := sameWithReuse(t, ProgramOfData(ProgramSeed(1, i), d), opt, s, func(on bool) { reuseRepresents = on }, i)
				if on.Verdict.Status == Holds {
					held++
				}
			}
		}
		require.Positive(t, held, eng)
	}
}

// sameWithReuse checks p with a reuse switched off, then on (set), and
// requires the same verdict, lemma and counts of checks.
func sameWithReuse(t *testing.T, p *javalite.Program, opt Options, s *smt.Solver, set func(on bool), i int) (off, on *Report) {
	t.Helper()
	set(false)
	off, err := Run(context.Background(), p, opt, s)
	require.NoError(t, err)
	set(true)
	on, err = Run(context.Background(), p, opt, s)
	require.NoError(t, err)
	require.Equal(t, off.Verdict.Status, on.Verdict.Status, "%s program %d", opt.Engine, i)
	require.Equal(t, off.Verdict.Lemma, on.Verdict.Lemma, "%s program %d", opt.Engine, i)
	require.Equal(t, off.Checked, on.Checked, "%s program %d", opt.Engine, i)
	return off, on
}

// reuseOptions are the options of the tests that compare a shortcut with
// it off on generated programs: a step bound and group bounds that keep
// each program to a second, and a timeout that never decides.
func reuseOptions(eng string, m machine.Mutation) Options {
	opt := DefaultOptions()
	opt.Engine = eng
	opt.Steps = 120
	opt.MaxGroup, opt.MaxPairs = 150, 4000
	opt.Timeout = 10 * time.Minute // a safety net only: budgets decide
	opt.Semantics.Mutation = m
	return opt
}

// TestWalkedSequencesSame: the engine's and GSE's control-flow
// sequences, paths and pruned ends collected along the lockstep walk
// (sequences.go) are the ones their own explorations give: same verdicts,
// counts, path and sequence numbers and pruned ends, on the first
// programs of both streams under summary:fixed and uber, with a step
// bound that cuts paths.
func TestWalkedSequencesSame(t *testing.T) {
	s := testutil.Solver(t)
	defer func() { noWalkedSequences = false }()
	walked, pruned := 0, int64(0)
	for _, eng := range []string{"summary:fixed", "uber"} {
		opt := DefaultOptions()
		opt.Engine = eng
		opt.Steps = 60
		opt.MaxGroup, opt.MaxPairs = 300, 3000
		opt.Timeout = 10 * time.Minute // a safety net only: budgets decide
		for i := 0; i < 8; i++ {
			for _, d := range []gen.DataMode{gen.DataMixed, gen.DataNone} {
				p := ProgramOfData(ProgramSeed(1, i), d)
				off, on := sameWithReuse(t, p, opt, s, func(on bool) { noWalkedSequences = !on }, i)
				require.Equal(t, off.SummaryPaths, on.SummaryPaths, "%s program %d", eng, i)
				require.Equal(t, off.GSESequences, on.GSESequences, "%s program %d", eng, i)
				require.Equal(t, off.EnginePruned, on.EnginePruned, "%s program %d", eng, i)
				require.Equal(t, off.GSEPaths, on.GSEPaths, "%s program %d", eng, i)
				require.Equal(t, off.GSEPruned, on.GSEPruned, "%s program %d", eng, i)
				pruned += on.GSEPruned
				require.False(t, off.gseWalked)
				if on.Verdict.Status == Holds {
					require.True(t, on.gseWalked, "%s program %d", eng, i)
				}
				require.Equal(t, off.Verdict.Reason, on.Verdict.Reason, "%s program %d", eng, i)
				if on.Verdict.Status == Holds {
					walked++
				}
			}
		}
	}
	require.Positive(t, walked)
	t.Logf("%d checks held; %d GSE ends pruned", walked, pruned)
	require.Positive(t, pruned, "no GSE path was pruned")
}

// TestTotalityReuseSameVerdicts: on programs of both streams of seed 1,
// answering totality questions from the run's relation.TotalityMemo
// gives every program the verdict and the per-lemma counts of asking
// every question, and it does answer questions.
func TestTotalityReuseSameVerdicts(t *testing.T) {
	opt := DefaultOptions()
	opt.Engine = "summary:fixed"
	opt.Steps = 150
	opt.MaxGroup = 150
	opt.Timeout = 10 * time.Minute // a safety net only: budgets decide
	s := testutil.Solver(t)
	defer func() { reuseTotality = true }()
	reused := 0
	for _, d := range []gen.DataMode{gen.DataNone, gen.DataMixed} {
		for i := 2; i <= 12; i++ {
			off, on := sameWithReuse(t, ProgramOfData(ProgramSeed(1, i), d), opt, s, func(on bool) { reuseTotality = on }, i)
			require.Zero(t, off.totalReused)
			reused += on.totalReused
		}
	}
	require.Positive(t, reused, "no totality question was answered by the memo")
}

// TestGPCCarriedSameVerdicts: on programs of both streams of seed 1 under
// summary:fixed and uber, carrying GPC from a pair to its successors
// (gsepc.go, reuseGPC) gives every program the verdict, failing step and
// per-lemma counts of checking GPC at every pair, and it does carry; so it
// does with GSE's E′ recording r0 = r1 (a wrong fact GPC must catch), on
// the programs where that breaks GPC.
func TestGPCCarriedSameVerdicts(t *testing.T) {
	s := testutil.Solver(t)
	defer func() { reuseGPC = true }()
	carried, caught := 0, 0
	last := 9
	if testing.Short() {
		last = 5
	}
	for _, eng := range []string{"summary:fixed", "uber"} {
		for _, m := range []machine.Mutation{{}, {GSEEqualsNotRecordsEq: true}} {
			opt := reuseOptions(eng, m)
			for i := 0; i <= last; i++ {
				for _, d := range []gen.DataMode{gen.DataNone, gen.DataMixed} {
					off, on := sameWithReuse(t, ProgramOfData(ProgramSeed(1, i), d), opt, s, func(on bool) { reuseGPC = on }, i)
					require.Zero(t, off.gpcCarried)
					require.Equal(t, off.Verdict.Step, on.Verdict.Step, "%s program %d", eng, i)
					require.Equal(t, off.Verdict.Reason, on.Verdict.Reason, "%s program %d", eng, i)
					carried += on.gpcCarried
					if m.GSEEqualsNotRecordsEq && on.Verdict.Lemma == GPC {
						caught++
					}
				}
			}
		}
	}
	t.Logf("GPC carried at %d pairs; the wrong fact caught by GPC on %d programs", carried, caught)
	require.Positive(t, carried, "GPC was never carried")
	require.Positive(t, caught, "the wrong fact broke GPC on no program")
}

// TestHeapSumsSameVerdicts: a GSE state's heap sum taken from its
// ancestor's record (memo.go, heapRec) is the sum of its heap, a member's
// sum from its group's roots (relation.ControlRoots) is its fingerprint's
// (relation.FingerprintSum), and a
// heap built from its ancestor's heap (relation.HeapOfSame) is the heap
// relation.HeapOf builds, on every member it is done for along
// LinkedList×4 at k = 2 and on programs of both streams of seed 1, under
// summary:fixed and uber; and the checks give the verdicts and per-lemma
// counts of summing and building every heap.
func TestHeapSumsSameVerdicts(t *testing.T) {
	s := testutil.Solver(t)
	defer func() { reuseHeapSums, reuseHeaps, heapReuseHook, memberSumHook = true, true, nil, nil }()
	taken, built, summed := 0, 0, 0
	memberSumHook = func(p *machine.State, data bool, sum stateKey) {
		summed++
		if sum != stateSum(p, data) {
			t.Fatalf("a member's sum is not its fingerprint's: %s", p.ControlString())
		}
	}
	heapReuseHook = func(p *machine.State, sum [2]uint64, heap *relation.Heap) {
		taken++
		if sum != relation.HeapSum(p) {
			t.Fatalf("a reused heap sum is not the state's: %s", p.ControlString())
		}
		if heap == nil {
			return
		}
		built++
		want, err := relation.HeapOf(p)
		require.NoError(t, err)
		got, err := relation.HeapOfSame(p, heap)
		require.NoError(t, err)
		require.Equal(t, relation.Canonical(want), relation.Canonical(got), p.ControlString())
		require.Equal(t, want.Roots, got.Roots)
		require.Equal(t, len(want.Locs), len(got.Locs))
		for i := range want.Locs {
			require.Equal(t, want.Locs[i].Fields, got.Locs[i].Fields)
			require.Equal(t, want.Locs[i].Orig, got.Locs[i].Orig)
		}
	}
	set := func(on bool) { reuseHeapSums, reuseHeaps = on, on }
	for _, eng := range []string{"summary:fixed", "uber"} {
		opt := reuseOptions(eng, machine.Mutation{})
		for i := 0; i <= 7; i++ {
			for _, d := range []gen.DataMode{gen.DataNone, gen.DataMixed} {
				off, on := sameWithReuse(t, ProgramOfData(ProgramSeed(1, i), d), opt, s, set, i)
				require.Zero(t, off.heapsReused)
				require.Equal(t, off.Verdict.Reason, on.Verdict.Reason, "%s program %d", eng, i)
			}
		}
		opt.K, opt.Steps = 2, 200
		off, on := sameWithReuse(t, testutil.Program(t, "../testdata/bench/linkedlist_calls4.jl"), opt, s, set, -1)
		require.Equal(t, Holds, on.Verdict.Status, on.Text(false))
		require.Zero(t, off.heapsReused)
		require.Positive(t, on.heapsReused, eng)
	}
	t.Logf("%d heap sums taken from records, %d heaps built from an ancestor's, %d members' sums checked", taken, built, summed)
	require.Positive(t, taken)
	require.Positive(t, built)
}
