package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestVersionFlags: -version and --version are `lockstep version`.
func TestVersionFlags(t *testing.T) {
	for _, f := range []string{"-version", "--version"} {
		code, out, stderr := runCode(f)
		require.Equal(t, exitOK, code, stderr)
		require.Contains(t, out, "github.com/lockstep-dev/lockstep", f)
	}
}

// TestProgressModeWarning: a LOCKSTEP_PROGRESS that is no mode is named in
// one line on stderr instead of being ignored in silence; "lines" is not.
func TestProgressModeWarning(t *testing.T) {
	t.Setenv("LOCKSTEP_PROGRESS", "bogus")
	code, _, stderr := runCode("engines")
	require.Equal(t, exitOK, code)
	require.Contains(t, stderr, `LOCKSTEP_PROGRESS="bogus"`)
	require.Contains(t, stderr, "LOCKSTEP_PROGRESS=lines")
	require.Equal(t, 1, strings.Count(stderr, "LOCKSTEP_PROGRESS=\""))
	t.Setenv("LOCKSTEP_PROGRESS", "lines")
	_, _, stderr = runCode("engines")
	require.NotContains(t, stderr, "ignoring")
}

// TestProgressETA: the bar's ETA is never "0s" with items left: it rounds
// up, and says "?" when the count has stood still for longer than the
// estimate (a slow item after fast ones).
func TestProgressETA(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, total: 200}
	require.Equal(t, "?", p.eta(0, time.Second))
	require.Equal(t, "19s", p.eta(10, time.Second))    // 190 left at 10/s
	require.Equal(t, "1s", p.eta(199, 10*time.Second)) // 0.05 s left: rounded up
	require.Equal(t, "?", p.eta(199, 20*time.Second))  // stuck on the last one for 10 s
	require.Equal(t, "0s", p.eta(200, 21*time.Second))
	p.draw(100, "x", 5*time.Second)
	require.Contains(t, b.String(), "100/200")
	require.NotContains(t, b.String(), "ETA 0s")
}

// TestPlural: "1 program", not "1 programs".
func TestPlural(t *testing.T) {
	require.Equal(t, "1 program", plural(1, "program"))
	require.Equal(t, "0 programs", plural(0, "program"))
	require.Equal(t, "2 mutants", plural(int64(2), "mutant"))
	// One worker: program 0 fails, and nothing else has finished by then
	// (with two, the other worker's program can finish first on a busy
	// machine: "after 2 programs").
	code, out, _ := runCode("check", "-gen", "-n", "5", "-seed", "1", "-variant", "seed000", "-workers", "1", "-save", t.TempDir())
	require.Equal(t, exitViolation, code, out)
	require.Contains(t, out, "after 1 program (")
}

// TestFmtSaysCommentsGo: fmt prints the canonical form, which has no
// comments, and says so on stderr when the file had some.
func TestFmtSaysCommentsGo(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, exitOK, run([]string{"fmt", "../testdata/data/bst_lookup.jl"}, &out, &errb))
	require.NotContains(t, out.String(), ";")
	require.Contains(t, errb.String(), "4 comment lines")
	// Its own output has none left to lose.
	f := filepath.Join(t.TempDir(), "canonical.jl")
	require.NoError(t, os.WriteFile(f, out.Bytes(), 0o644))
	out.Reset()
	errb.Reset()
	require.Equal(t, exitOK, run([]string{"fmt", f}, &out, &errb))
	require.Empty(t, errb.String())
}

// TestRunPathsTermValue: a path ending in a term prints the term, with no
// "↦ {}" (which belongs to a reference's locations).
func TestRunPathsTermValue(t *testing.T) {
	out := runOK(t, "run", "-engine", "gse", "-k", "1", "-paths", "../testdata/data/bst_lookup.jl")
	require.Contains(t, out, "value true")
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "path ") {
			require.NotContains(t, line, "↦ {}", line)
		}
	}
}
