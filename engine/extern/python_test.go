package extern_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/engine/extern"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// pythonGSE is the spec of the reference engine in Python, or the test is
// skipped when there is no python3.
func pythonGSE(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: the Python reference engine (examples/engines/gse.py) cannot run")
	}
	script, err := filepath.Abs("../../examples/engines/gse.py")
	require.NoError(t, err)
	return "exec:python3 " + script
}

func load(t *testing.T, name string) *javalite.Program {
	t.Helper()
	p, err := javalite.LoadFile("../../testdata/programs/" + name)
	require.NoError(t, err)
	return p
}

// TestPythonGSEHolds: GSE's heap rules in Python, through the protocol,
// hold as a Partition engine at k = 2 on example programs with every
// Partition lemma checked and exactly GSE's paths, and on a short
// generated stream.
func TestPythonGSEHolds(t *testing.T) {
	spec := pythonGSE(t)
	defer extern.Shutdown()
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	opt := checker.DefaultOptions()
	opt.Engine, opt.K = spec, 2
	require.NoError(t, opt.Validate(solver))
	for _, f := range []string{"nullderef.jl", "selfref.jl", "alias_two_fields.jl", "alias_write_read.jl", "swap.jl", "hasnull.jl", "newobj.jl"} {
		rep, err := checker.Run(context.Background(), load(t, f), opt, solver)
		require.NoError(t, err, f)
		require.Equal(t, checker.Holds, rep.Verdict.Status, "%s:\n%s", f, rep.Text(false))
		require.Equal(t, rep.GSEPaths, rep.SummaryPaths, "%s: the Python GSE has GSE's paths", f)
		require.Positive(t, rep.Checked[checker.P2], f)
		require.Positive(t, rep.Checked[checker.L2], f)
	}
	rep, err := checker.Run(context.Background(), callsProgram(t), opt, solver)
	require.NoError(t, err)
	require.Equal(t, checker.Holds, rep.Verdict.Status, rep.Text(false))
	require.Positive(t, rep.Checked[checker.L11])
	opt.Steps = 60
	res, err := checker.Hunt(context.Background(), opt, checker.HuntOptions{N: 12, Seed: 1, Workers: 2})
	require.NoError(t, err)
	require.Zero(t, res.Violated, "first: %s", res.First)
	require.Positive(t, res.Holds)
	require.Positive(t, res.Checked[checker.P1])
}

// TestPythonGSEMistakeRefuted: the planted mistake (no alias candidate
// is the location itself) is refuted on the generated stream and shrunk.
func TestPythonGSEMistakeRefuted(t *testing.T) {
	spec := pythonGSE(t)
	defer extern.Shutdown()
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	opt := checker.DefaultOptions()
	opt.Engine, opt.K = spec+"#no-self-alias", 2
	rep, err := checker.Run(context.Background(), load(t, "selfref.jl"), opt, solver)
	require.NoError(t, err)
	require.Equal(t, checker.Violated, rep.Verdict.Status, rep.Text(false))
	require.Equal(t, checker.P2, rep.Verdict.Lemma)
	// The same mistake by the engine's own argument.
	arg := opt
	arg.Engine = spec + " --mistake"
	rep, err = checker.Run(context.Background(), load(t, "selfref.jl"), arg, solver)
	require.NoError(t, err)
	require.Equal(t, checker.P2, rep.Verdict.Lemma, rep.Text(false))

	opt.Steps = 60
	res, err := checker.Hunt(context.Background(), opt, checker.HuntOptions{N: 40, Seed: 1, Workers: 2, ShrinkTime: 5 * time.Second})
	require.NoError(t, err)
	require.Positive(t, res.Violated)
	cex := res.Counterexamples[res.First]
	require.NotNil(t, cex)
	require.Equal(t, checker.Violated, cex.Shrunk.Verdict.Status)

	// The mutant catalog of the handshake names the same mistake.
	info, _, err := engine.Lookup(spec)
	require.NoError(t, err)
	require.NotNil(t, info.Mutants)
	require.Equal(t, "no-self-alias", info.Mutants.List()[0].Name)
}
