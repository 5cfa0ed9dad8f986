package checker

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestDerivedExactSameVerdicts: every pair whose exactness the checker
// derives from its predecessor's (derive.go) is exact when computed from
// scratch (relation.Exact with no cache), and the checks give the
// verdicts, failing steps and per-lemma counts of computing every pair,
// on LinkedList×4 at k = 2 and on the first programs of the
// reference-only stream of seed 1, under summary:fixed and uber, also
// under GSE's E′ that records r0 = r1 (a wrong fact); on LinkedList×4
// some of them follow an equality of references (E, E′).
func TestDerivedExactSameVerdicts(t *testing.T) {
	s := testutil.Solver(t)
	defer func() { deriveExact, exactDerivedHook = true, nil }()
	derived := exactFromScratch(t, s)
	set := func(on bool) { deriveExact = on }
	for _, eng := range []string{"summary:fixed", "uber"} {
		for _, m := range []machine.Mutation{{}, {GSEEqualsNotRecordsEq: true}} {
			opt := reuseOptions(eng, m)
			sameOnStream(t, opt, s, set, func(off, _ *Report) { require.Zero(t, off.exactDerived) })
			if m == (machine.Mutation{}) {
				off, on := sameOnLinkedList4(t, opt, s, set)
				require.Zero(t, off.exactDerived)
				require.Positive(t, on.exactDerived, eng)
				require.Positive(t, on.exactDerivedEq, "%s: no equality of references derived", eng)
				t.Logf("%s LinkedList×4: %d derived, %d of them after an equality", eng, on.exactDerived, on.exactDerivedEq)
			}
		}
	}
	// V5's readings of E′ and E's condition without the exclusions: the
	// inner reading and the mutant are conditions the derivation
	// recognizes (both hold exactly where the comparison has the branch's
	// outcome on a well-formed state), seed 004's is not one (L9 fails at
	// the same step with the derivation on).
	for _, eng := range []string{"summary:fixed+v5-literal-inner", "summary:fixed+m-equals-true-no-exclusion", "summary:fixed+u-eqand"} {
		off, on := sameOnLinkedList4(t, reuseOptions(eng, machine.Mutation{}), s, set)
		require.Zero(t, off.exactDerived)
		if eng != "summary:fixed+u-eqand" {
			require.Positive(t, on.exactDerivedEq, "%s: no equality of references derived", eng)
		}
	}
	t.Logf("%d pairs' exactness derived", *derived)
	require.Positive(t, *derived)
}

// TestDerivedFromInitSameVerdicts: the field access's successors whose
// exactness is derived from the initialized group's (derive.go, "A field
// access after L1") are exact when computed from scratch, and the checks
// give the verdicts, failing steps and counts of deriving only from the
// predecessor pair, on LinkedList×4 at k = 2 and the first programs of
// the reference-only stream of seed 1, under summary:fixed and
// summary:published (the engines with an initialization machine of their
// own; their →S* guards differ, V7).
func TestDerivedFromInitSameVerdicts(t *testing.T) {
	s := testutil.Solver(t)
	defer func() { deriveFromInit, exactDerivedHook = true, nil }()
	derived := exactFromScratch(t, s)
	set := func(on bool) { deriveFromInit = on }
	for _, eng := range []string{"summary:fixed", "summary:published"} {
		opt := reuseOptions(eng, machine.Mutation{})
		sameOnStream(t, opt, s, set, func(off, _ *Report) { require.Zero(t, off.exactDerivedInit) })
		off, on := sameOnLinkedList4(t, opt, s, set)
		require.Zero(t, off.exactDerivedInit)
		require.Positive(t, on.exactDerivedInit, eng)
		require.GreaterOrEqual(t, on.exactDerived, off.exactDerived, eng)
		t.Logf("%s LinkedList×4: %d derived (%d without the initialized group), %d of them from it", eng, on.exactDerived, off.exactDerived, on.exactDerivedInit)
	}
	require.Positive(t, *derived)
}

// TestDerivedPrunedSameVerdicts: the pairs derived although the engine
// left out entries that cannot hold under the predecessor's path
// condition (derive.go, "Entries pruned": uber's resolution prunes) are
// exact when computed from scratch, and the checks give the verdicts,
// failing steps and counts of deriving only from equal value sets, on
// LinkedList×4 at k = 2 and the first programs of the reference-only
// stream of seed 1, under uber and two of its mutants that break L9.
func TestDerivedPrunedSameVerdicts(t *testing.T) {
	s := testutil.Solver(t)
	defer func() { derivePruned, exactDerivedHook = true, nil }()
	derived := exactFromScratch(t, s)
	set := func(on bool) { derivePruned = on }
	for _, eng := range []string{"uber", "uber:m-equals-left-only", "uber:m-alias-all"} {
		opt := reuseOptions(eng, machine.Mutation{})
		if eng == "uber" {
			sameOnStream(t, opt, s, set, nil)
		}
		off, on := sameOnLinkedList4(t, opt, s, set)
		if eng == "uber" {
			require.Greater(t, on.exactDerived, off.exactDerived, "uber: nothing derived over pruned value sets")
			t.Logf("uber LinkedList×4: %d derived (%d with equal value sets only)", on.exactDerived, off.exactDerived)
		}
	}
	require.Positive(t, *derived)
}

// TestWellFormedDerivedSameVerdicts: every state whose well-formedness
// the checker derives (derive.go, wellFormedDerived) is well formed when
// checked from scratch (relation.WellFormedChecks, no memo), and the
// checks give the verdicts, failing steps and counts of checking every
// state, on LinkedList×4 at k = 2 and the first programs of the
// reference-only stream of seed 1, under summary:fixed, uber and
// summary:published (which fails WF on LinkedList×4).
func TestWellFormedDerivedSameVerdicts(t *testing.T) {
	s := testutil.Solver(t)
	defer func() { deriveWellFormed, wellFormedDerivedHook = true, nil }()
	derived := 0
	wellFormedDerivedHook = func(q *machine.State) {
		derived++
		v, check, err := relation.WellFormedChecks(q, s)
		require.NoError(t, err)
		require.Nil(t, v, "a derived well-formedness does not hold (%s)", check)
	}
	set := func(on bool) { deriveWellFormed = on }
	for _, eng := range []string{"summary:fixed", "uber", "summary:published"} {
		opt := reuseOptions(eng, machine.Mutation{})
		sameOnStream(t, opt, s, set, func(off, _ *Report) { require.Zero(t, off.wellFormedDerived) })
		_, on := sameOnLinkedList4(t, opt, s, set)
		require.Positive(t, on.wellFormedDerived, eng)
		t.Logf("%s LinkedList×4: %d states' well-formedness derived of %d derived pairs", eng, on.wellFormedDerived, on.exactDerived)
	}
	require.Positive(t, derived)
}

// exactFromScratch makes exactDerivedHook compute every derived pair's
// exactness from scratch (relation.Exact with no cache; it must hold) and
// returns the count of pairs so checked. The caller's defer sets the hook
// back to nil.
func exactFromScratch(t *testing.T, s *smt.Solver) *int {
	n := new(int)
	exactDerivedHook = func(P []*machine.State, q *machine.State) {
		*n++
		res := relation.Exact(P, q, s, relation.DefaultBudget)
		require.Equal(t, relation.Holds, res.Outcome, "a derived exactness does not hold: %s", res.Reason)
	}
	return n
}

// sameOnStream is sameWithReuse on the first programs of seed 1's
// reference-only stream (ten, five under -short), each with the same
// failing step and reason with set off and on; each, if not nil, checks
// a program's two reports further.
func sameOnStream(t *testing.T, opt Options, s *smt.Solver, set func(on bool), each func(off, on *Report)) {
	t.Helper()
	last := 9
	if testing.Short() {
		last = 4
	}
	for i := 0; i <= last; i++ {
		off, on := sameWithReuse(t, ProgramOfData(ProgramSeed(1, i), gen.DataNone), opt, s, set, i)
		require.Equal(t, off.Verdict.Step, on.Verdict.Step, "%s program %d", opt.Engine, i)
		require.Equal(t, off.Verdict.Reason, on.Verdict.Reason, "%s program %d", opt.Engine, i)
		if each != nil {
			each(off, on)
		}
	}
}

// sameOnLinkedList4 is sameWithReuse on LinkedList×4 at k = 2 and 200
// steps under the named files' bounds, with the same failing step and
// reason with set off and on.
func sameOnLinkedList4(t *testing.T, opt Options, s *smt.Solver, set func(on bool)) (off, on *Report) {
	t.Helper()
	opt.K, opt.Steps = 2, 200
	opt.MaxGroup, opt.MaxPairs = FileMaxGroup, FileMaxPairs
	off, on = sameWithReuse(t, testutil.Program(t, "../testdata/bench/linkedlist_calls4.jl"), opt, s, set, -1)
	require.Equal(t, off.Verdict.Step, on.Verdict.Step, opt.Engine)
	require.Equal(t, off.Verdict.Reason, on.Verdict.Reason, opt.Engine)
	return off, on
}
