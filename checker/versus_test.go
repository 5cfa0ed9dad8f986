package checker

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestVersusSame: an engine against itself holds on the example programs
// and a generated stream, with VS really checked.
func TestVersusSame(t *testing.T) {
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	opt := DefaultOptions()
	opt.Engine, opt.Versus, opt.Steps = "summary:fixed", "summary:fixed", 80
	files, err := filepath.Glob("../testdata/programs/alias*.jl")
	require.NoError(t, err)
	vs := 0
	for _, f := range files {
		rep, err := Run(context.Background(), load(t, f), opt, solver)
		require.NoError(t, err, f)
		require.Equal(t, Holds, rep.Verdict.Status, "%s:\n%s", f, rep.Text(false))
		require.Equal(t, 1, rep.Checked[C12])
		vs += rep.Checked[VS]
	}
	for i := 0; i < 10; i++ {
		rep, err := Run(context.Background(), gen.ProgramWith(gen.NoData).Example(i), opt, solver)
		require.NoError(t, err)
		require.NotEqual(t, Violated, rep.Verdict.Status, rep.Text(false))
		vs += rep.Checked[VS]
	}
	require.Positive(t, vs)
}

// TestVersusDiffers: published against fixed on finding F2's program: the
// published rules have a control-flow sequence the fixed ones do not.
func TestVersusDiffers(t *testing.T) {
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	opt := DefaultOptions()
	opt.Engine, opt.Versus, opt.K, opt.Steps = "summary:published", "summary:fixed", 3, 150
	rep, err := Run(context.Background(), load(t, "../testdata/fixedbugs/published_V7_C12.jl"), opt, solver)
	require.NoError(t, err)
	require.Equal(t, Violated, rep.Verdict.Status, rep.Text(false))
	require.Contains(t, []Lemma{C12, VS}, rep.Verdict.Lemma, rep.Text(false))
	t.Logf("%s", rep.Text(false))

	// The reference is no party to an engine-against-engine check.
	opt.Versus = "gse"
	_, err = Run(context.Background(), load(t, "../testdata/fixedbugs/published_V7_C12.jl"), opt, solver)
	require.Error(t, err)
}

// TestVersusData: on programs with data, engine against engine compares
// the data input by input (relation.SameData): POSE-J holds against the
// fixed summary engine on the data programs, with VS checked; a data
// mutant of either engine is refuted by VS on its data ("data:" in the
// reason), where both engines have the same heap shapes.
func TestVersusData(t *testing.T) {
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	run := func(eng, vs string, k int, file string) *Report {
		opt := DefaultOptions()
		opt.Engine, opt.Versus, opt.K, opt.Steps = eng, vs, k, 150
		rep, err := Run(context.Background(), load(t, "../testdata/data/"+file), opt, solver)
		require.NoError(t, err, "%s -vs %s %s", eng, vs, file)
		return rep
	}
	for _, f := range []string{"if_sym.jl", "if_join.jl", "write_alias.jl", "pose_prim_update.jl"} {
		rep := run("pose", "summary:fixed", -1, f)
		require.Equal(t, Holds, rep.Verdict.Status, "%s:\n%s", f, rep.Text(false))
		require.Positive(t, rep.Checked[VS], f)
	}
	for _, tc := range []struct {
		eng  string
		k    int
		file string
	}{
		{"summary:fixed+m-prim-read-first", 2, "if_join.jl"},
		{"pose:world-exact+prim-no-update", -1, "pose_prim_update.jl"},
	} {
		rep := run(tc.eng, "summary:fixed", tc.k, tc.file)
		require.Equal(t, Violated, rep.Verdict.Status, "%s on %s:\n%s", tc.eng, tc.file, rep.Text(false))
		require.Equal(t, VS, rep.Verdict.Lemma, rep.Text(false))
		require.Contains(t, rep.Verdict.Reason, "data:", rep.Text(false))
	}
}
