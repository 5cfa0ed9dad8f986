package checker

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"lockstep/javalite"
	"lockstep/smt"
	"lockstep/summary"
)

func load(t *testing.T, path string) *javalite.Program {
	t.Helper()
	p, err := javalite.LoadFile(path)
	require.NoError(t, err)
	return p
}

// TestPrograms runs the default variant on every example program.
func TestPrograms(t *testing.T) {
	files, err := filepath.Glob("../testdata/programs/*.jl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	for _, f := range files {
		p := load(t, f)
		opt := DefaultOptions()
		if v := os.Getenv("VARIANT"); v != "" {
			opt.Variant, err = summary.Lookup(v)
			require.NoError(t, err)
		}
		rep, err := Run(context.Background(), p, opt, solver)
		require.NoError(t, err, f)
		t.Logf("%s: %s", filepath.Base(f), rep.Text(false))
	}
}

func TestSeed000(t *testing.T) {
	if os.Getenv("X") == "" {
		t.Skip()
	}
	v, err := summary.Lookup("seed000")
	require.NoError(t, err)
	solver, _ := smt.NewSolver()
	defer solver.Close()
	opt := DefaultOptions()
	opt.Variant = v
	rep, err := Run(context.Background(), load(t, "../testdata/programs/nullderef.jl"), opt, solver)
	require.NoError(t, err)
	t.Log(rep.Text(false))
}
