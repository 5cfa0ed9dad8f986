package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckHonoursCaseHeader: a case file is checked with the engine, k,
// step bound and semantics its header records, each unless its flag is
// given, and the output says which it used. A saved L1 counterexample of
// summary:fixed+m-guard-true (what check -gen -save writes) replays as
// VIOLATED without flags, where the default engine would hold.
func TestCheckHonoursCaseHeader(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := runCode("check", "-gen", "-n", "5", "-seed", "1", "-engine", "summary:fixed+m-guard-true", "-shrink-steps", "200", "-save", dir)
	require.Equal(t, exitViolation, code, "%s\n%s", out, stderr)
	files, err := filepath.Glob(filepath.Join(dir, "*.jl"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	code, out, _ = runCode("check", files[0])
	require.Equal(t, exitViolation, code, out)
	require.Contains(t, out, "checked with the case header's engine summary:fixed+m-guard-true, k 2, steps 200, semantics java")
	require.Contains(t, out, "VIOLATED L1")
	code, out, _ = runCode("check", "-variant", "fixed", "-k", "1", files[0])
	require.Equal(t, exitOK, code, out)
	require.Contains(t, out, "checked with the case header's steps 200, semantics java; -engine, -k from the flags")
	// A file without a header is checked as before, with no note.
	code, out, _ = runCode("check", "-variant", "fixed", "-k", "1", "../testdata/programs/swap.jl")
	require.Equal(t, exitOK, code, out)
	require.NotContains(t, out, "case header")
}

// TestCaseHeaderNeverRunsACommand: a header is data. One that names an
// exec: engine is refused (exit 2) without starting it: the marker its
// command would create never appears; -allow-exec is the explicit opt-in
// (then the command runs).
func TestCaseHeaderNeverRunsACommand(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "MARKER")
	file := filepath.Join(dir, "case.jl")
	src := "; variant: exec:sh -c 'touch " + marker + "'\n; expect: L1\n; k: 1\n; steps: 20\n" +
		"(((class A ([A f]) ((bool main (this = null))))) (A main))\n"
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	for _, args := range [][]string{{"check", file}, {"check", "-k", "1", file}, {"check", "-json", file}} {
		code, _, stderr := runCode(args...)
		require.Equal(t, exitUsage, code, "%v: %s", args, stderr)
		require.Contains(t, stderr, "-allow-exec")
		_, err := os.Stat(marker)
		require.True(t, os.IsNotExist(err), "%v started the header's command", args)
	}
	runCode("check", "-allow-exec", file)
	_, err := os.Stat(marker)
	require.NoError(t, err, "with -allow-exec the header's engine runs")
}
