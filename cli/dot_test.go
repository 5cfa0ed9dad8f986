package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDotWithoutGraphviz: -png without Graphviz still writes the DOT file
// and says, in one line, how to render it; the exit status is 0.
func TestDotWithoutGraphviz(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no 'dot' on it
	out := filepath.Join(t.TempDir(), "x.dot")
	code, _, stderr := runCode("dot", "-final", "-o", out, "-png", "../testdata/programs/swap.jl")
	require.Equal(t, exitOK, code, stderr)
	text, err := os.ReadFile(out)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(text), "digraph state {"))
	require.Equal(t, 1, strings.Count(strings.TrimSpace(stderr), "\n")+1, "one line: %s", stderr)
	require.Contains(t, stderr, "dot -Tpng -o "+strings.TrimSuffix(out, ".dot")+".png "+out)
}

// TestDotData: the picture of a state with data shows the primitive
// fields' terms and φ's data atoms (machine.TestDOTData has the details).
func TestDotData(t *testing.T) {
	out := runOK(t, "dot", "-engine", "summary:fixed", "-k", "1", "-final", "-path", "2", "../testdata/data/bst_lookup.jl")
	require.Contains(t, out, `key = α(i1.key)`)
	require.Contains(t, out, `(0 < α(i1.key))`)
	require.NotContains(t, out, "∧  ∧")
}

// TestCounterexamplePictureNames: the pictures of a violation are named
// after the engine under test and the reference.
func TestCounterexamplePictureNames(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := runCode("check", "-engine", "pose:pose-published-merge", "-k", "-1", "-steps", "150", "-dot", dir, "../testdata/programs/pose_merge.jl")
	require.Equal(t, exitViolation, code, out)
	require.Contains(t, out, "picture: "+filepath.Join(dir, "pose.dot"))
	require.FileExists(t, filepath.Join(dir, "pose.dot"))
	require.FileExists(t, filepath.Join(dir, "gse.dot"))

	for _, tc := range []struct{ under, ref, u, r string }{
		{"summary", "gse", "summary.dot", "gse.dot"},
		{"lazier#", "gse", "lazier#.dot", "gse.dot"},
		{"pose", "summary", "pose.dot", "summary.dot"},
		{"summary", "summary", "summary.dot", "summary-ref.dot"},
		{"exec:python3 x/gse.py", "gse", "exec-python3-x-gse-py.dot", "gse.dot"},
	} {
		u, r := pictureNames(tc.under, tc.ref)
		require.Equal(t, tc.u, u, tc.under)
		require.Equal(t, tc.r, r, tc.under)
	}
}
