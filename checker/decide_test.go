package checker

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

// TestGoDecisionAgreesWithZ3OnStream: every satisfiability question the
// checker asks on the generated stream (engine, homomorphisms, exactness,
// concretization, well-formedness), answered by the Go decision procedure
// of smt/decide.go, gets the same answer from Z3 (smt's cross-check mode).
// The questions are the real ones, path conditions and guards as the
// engines build them, not random formulas.
func TestGoDecisionAgreesWithZ3OnStream(t *testing.T) {
	n := 6
	if testing.Short() {
		n = 2
	}
	opt := DefaultOptions()
	opt.Variant = variant(t, "fixed")
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	solver.SetGoDecide(true)
	solver.SetCrossCheck(true)
	for i := range n {
		rep, err := Run(context.Background(), ProgramOf(ProgramSeed(1, i)), opt, solver)
		require.NoError(t, err)
		_, bad := solver.CrossChecked()
		require.Empty(t, bad, "program %d (verdict %v)", i, rep.Verdict)
	}
	checked, _ := solver.CrossChecked()
	require.Positive(t, checked)
	require.Equal(t, checked, solver.Stats().Decided)
}

// TestGoDecisionAgreesWithZ3OnLinkedList5: the same on the summary
// engine's questions for seed 000's five-call LinkedList at k = 2.
func TestGoDecisionAgreesWithZ3OnLinkedList5(t *testing.T) {
	p, err := javalite.LoadFile("../testdata/bench/linkedlist_calls5.jl")
	require.NoError(t, err)
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	solver.SetGoDecide(true)
	solver.SetCrossCheck(true)
	eng := summary.New(variant(t, "published"), 2, solver)
	st, err := machine.Explore(context.Background(), machine.Initial(p), eng, 26*5*3+10, nil)
	require.NoError(t, err)
	require.True(t, st.Complete)
	checked, bad := solver.CrossChecked()
	require.Empty(t, bad)
	require.Positive(t, checked)
}
