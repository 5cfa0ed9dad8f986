package modtest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestExampleModule builds examples/myengine, a module of its own whose
// main is engine.Register of one engine and cli.Main (the whole lockstep
// command line with a researcher's engine among the built-in ones), and
// runs it: its engine is listed, holds on a program, and its deliberately
// wrong variant is refuted there (exit 1) with the lemma of the rule it
// breaks. The example's go.mod points at this checkout with a replace
// line; the build is offline (the module cache has every dependency).
func TestExampleModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module: not in -short")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	bin := filepath.Join(t.TempDir(), "myengine")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = filepath.Join(root, "examples", "myengine")
	build.Env = append(os.Environ(), "GOFLAGS=-mod=readonly -buildvcs=false "+os.Getenv("GOFLAGS"), "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	out, err := build.CombinedOutput()
	require.NoErrorf(t, err, "go build in examples/myengine:\n%s", out)

	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		}
		require.NoError(t, err)
		return string(out), 0
	}
	out2, code := run("engines")
	require.Equal(t, 0, code, out2)
	require.Contains(t, out2, "mine")
	require.Contains(t, out2, "summary", "the built-in engines are there too")

	prog := "testdata/programs/nullderef.jl"
	out2, code = run("check", "-engine", "mine", prog)
	require.Equal(t, 0, code, out2)
	require.Contains(t, out2, "holds")
	require.Contains(t, out2, "L1×", "the wrapped summary engine is still checked for L1")

	out2, code = run("check", "-engine", "mine:wrong", prog)
	require.Equal(t, 1, code, out2)
	require.Contains(t, out2, "VIOLATED L2")

	// A program with int keys: the wrapped engine keeps the summary
	// engine's data rules, and is checked for them (L12: If (sym)).
	out2, code = run("check", "-engine", "mine", "testdata/data/bst_lookup.jl")
	require.Equal(t, 0, code, out2)
	require.Contains(t, out2, "holds")
	require.Contains(t, out2, "L12×")
	require.Contains(t, out2, "mine 39 paths", "summary:fixed's path count")
}
