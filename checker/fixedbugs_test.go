package checker

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gen"
)

// TestFixedBugs replays every regression case of testdata/fixedbugs: each
// variant the case names still breaks exactly the lemma (and rule) it
// names, and every variant it lists under `holds:` holds, with the case's
// k and step bound. An inconclusive run fails either way: a case that can
// no longer be decided proves nothing. The cases are shrunk programs of a
// few lines, so this is quick.
func TestFixedBugs(t *testing.T) {
	Replay(t, "../testdata/fixedbugs")
}

// TestCaseFileReplays: a counterexample found by Hunt, written as a case
// file (what check -gen -save writes), parses and replays with its
// verdict; and Run without a solver makes one.
func TestCaseFileReplays(t *testing.T) {
	opt := DefaultOptions()
	opt.Engine, opt.K, opt.Steps = "summary:published", 1, 60
	res, err := Hunt(context.Background(), opt, HuntOptions{N: 9, Seed: 1, Data: gen.DataNone, Workers: 1, ShrinkTime: time.Second})
	require.NoError(t, err)
	cx := res.Counterexamples[res.First]
	require.NotNil(t, cx, "published fails within 9 programs")
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cx.jl"), cx.CaseFile(opt, "test"), 0o644))
	cases, err := ReadCases(dir)
	require.NoError(t, err)
	require.Len(t, cases, 1)
	runs, err := ReplayCase(context.Background(), cases[0], nil)
	require.NoError(t, err)
	require.Len(t, runs, 1)
	require.True(t, runs[0].OK(cases[0]), runs[0].Report.Text(false))
	Replay(t, dir)
}

// TestCaseExecRefused: a case file is data. A header naming an engine
// that runs as a process (exec:) is refused by ReplayCase before anything
// starts (the marker the command would create never appears); only an
// explicit ReplayOptions.AllowExec runs it (then the command does run,
// which shows the marker would have told).
func TestCaseExecRefused(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "MARKER")
	src := "; variant: exec:sh -c 'touch " + marker + "'\n; expect: L1\n; k: 1\n; steps: 20\n" +
		"(((class A ([A f]) ((bool main (this = null))))) (A main))\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "case.jl"), []byte(src), 0o644))
	cases, err := ReadCases(dir)
	require.NoError(t, err)
	require.Len(t, cases, 1)
	_, err = ReplayCase(context.Background(), cases[0], nil)
	require.ErrorIs(t, err, ErrCaseExec)
	require.ErrorIs(t, CheckCaseEngines(cases[0], ReplayOptions{}), ErrCaseExec)
	_, statErr := os.Stat(marker)
	require.True(t, os.IsNotExist(statErr), "the refused case started its command")

	_, _ = ReplayCaseWith(context.Background(), cases[0], nil, ReplayOptions{AllowExec: true})
	_, statErr = os.Stat(marker)
	require.NoError(t, statErr, "with AllowExec the case's engine runs")
}
