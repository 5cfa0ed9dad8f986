package extern_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/engine/extern"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
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

// runData checks the data program file (relative to testdata/) with the
// engine spec at k and returns the report.
// A timeout of 0 is the checker's default.
func runData(t *testing.T, spec, file string, k int, timeout time.Duration, solver *smt.Solver) *checker.Report {
	t.Helper()
	p, err := javalite.LoadFile("../../testdata/" + file)
	require.NoError(t, err)
	opt := checker.FileOptions() // a named program's bounds, as check FILE
	opt.Engine, opt.K = spec, k
	if timeout > 0 {
		opt.Timeout = timeout
	}
	rep, err := checker.Run(context.Background(), p, opt, solver)
	require.NoError(t, err, file)
	return rep
}

// TestPythonGSEData: the Python GSE with data (protocol version 2: terms,
// primitive fields, If (sym) and Assume of its own) holds on programs with
// int keys and bool colours with exactly GSE's paths and pruned ends, and
// L12 and L13 are checked on it; a version-1 engine is refused them with
// its reason. The full sweep of the tree programs is TestPythonGSETreesSoak.
func TestPythonGSEData(t *testing.T) {
	spec := pythonGSE(t)
	defer extern.Shutdown()
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	for _, f := range []string{"data/if_sym.jl", "data/alias_constrained.jl", "data/bst_find.jl", "data/write_alias.jl", "trees/rb_rotateLeft.jl"} {
		rep := runData(t, spec, f, 1, 0, solver)
		require.Equal(t, checker.Holds, rep.Verdict.Status, "%s:\n%s", f, rep.Text(false))
		require.Equal(t, rep.GSEPaths, rep.SummaryPaths, "%s: the Python GSE has GSE's paths", f)
		require.Equal(t, rep.GSEPruned, rep.EnginePruned, "%s: and GSE's pruned ends", f)
		require.Positive(t, rep.Checked[checker.L12]+rep.Checked[checker.L13], f)
	}
	info, _, err := engine.Lookup(spec)
	require.NoError(t, err)
	require.True(t, info.Data)

	// The same engine speaking version 1: refused with one line that says why.
	info, _, err = engine.Lookup(spec + " --v1")
	require.NoError(t, err)
	require.False(t, info.Data)
	err = engine.RefuseData(spec + " --v1")
	require.ErrorContains(t, err, "protocol version 1, which carries no data")
	require.NotContains(t, err.Error(), "\n")
}

// TestPythonGSEDataMistakeRefuted: the planted data mistake (If (sym)
// forgets to negate the condition on its else branch) is refuted on the
// generated data stream, under L12, with a shrunk program. It runs under
// make soak; make test has the same hunt through the CLI (package cli,
// TestExecEngineCommands: `check -engine exec:…#else-not-negated -gen`,
// VIOLATED L12 on the data stream the CLI draws for the engine, shrunk).
func TestPythonGSEDataMistakeRefuted(t *testing.T) {
	if os.Getenv("LOCKSTEP_SOAK") == "" {
		t.Skip("make soak (LOCKSTEP_SOAK=1); cli TestExecEngineCommands hunts the same mistake")
	}
	spec := pythonGSE(t)
	defer extern.Shutdown()
	opt := checker.DefaultOptions()
	opt.Engine, opt.K = spec+"#else-not-negated", 2
	res, err := checker.Hunt(context.Background(), opt, checker.HuntOptions{N: 40, Seed: 1, Workers: 2, Data: gen.DataMixed, ShrinkTime: 5 * time.Second})
	require.NoError(t, err)
	require.Positive(t, res.Violated)
	cex := res.Counterexamples[res.First]
	require.NotNil(t, cex)
	require.Equal(t, checker.Violated, cex.Shrunk.Verdict.Status)
	require.Equal(t, checker.L12, cex.Shrunk.Verdict.Lemma)
	require.True(t, machine.UsesData(cex.Shrunk.Program), "a program with data")
}

// TestPythonGSETreesSoak (LOCKSTEP_SOAK=1): the Python GSE holds on every
// program of testdata/data, testdata/trees and testdata/bench's tree
// programs at k = 1 and 2 with the built-in GSE's path counts.
func TestPythonGSETreesSoak(t *testing.T) {
	if os.Getenv("LOCKSTEP_SOAK") == "" {
		t.Skip("the tree sweep runs under make soak (LOCKSTEP_SOAK=1)")
	}
	spec := pythonGSE(t)
	defer extern.Shutdown()
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	var files []string
	for _, g := range []string{"data/*.jl", "trees/*.jl", "bench/bst_*.jl", "bench/avl*.jl", "bench/treemap_*.jl"} {
		m, err := filepath.Glob("../../testdata/" + g)
		require.NoError(t, err)
		for _, f := range m {
			files = append(files, strings.TrimPrefix(f, "../../testdata/"))
		}
	}
	require.NotEmpty(t, files)
	for _, k := range []int{1, 2} {
		for _, f := range files {
			// tree_mirror_sum at k = 2 is 198,000 pairs: more than the
			// default minute on a loaded machine.
			rep := runData(t, spec, f, k, 15*time.Minute, solver)
			require.Equal(t, checker.Holds, rep.Verdict.Status, "%s k=%d:\n%s", f, k, rep.Text(false))
			require.Equal(t, rep.GSEPaths, rep.SummaryPaths, "%s k=%d: GSE's paths", f, k)
		}
	}
}
