package checker

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestZeroOptionsAreTheDefaults: Options with only an engine named check
// at DefaultOptions' bounds (the published rules are refuted on
// LinkedList, the fixed ones hold having checked pairs), never at a step
// bound of 0, which would explore nothing and hold; and a Steps of 0 next
// to other bounds is refused by Validate and Run alike.
func TestZeroOptionsAreTheDefaults(t *testing.T) {
	src, err := os.ReadFile("../testdata/programs/linkedlist.jl")
	require.NoError(t, err)
	p, err := javalite.ParseAndCheck("linkedlist.jl", src)
	require.NoError(t, err)
	ctx := context.Background()

	o, err := Options{Engine: "summary:published"}.Resolved()
	require.NoError(t, err)
	d, err := DefaultOptions().Resolved()
	require.NoError(t, err)
	require.Equal(t, d.K, o.K)
	require.Equal(t, d.Steps, o.Steps)
	require.Equal(t, d.MaxGroup, o.MaxGroup)
	require.Equal(t, d.Timeout, o.Timeout)

	rep, err := Run(ctx, p, Options{Engine: "summary:published"}, nil)
	require.NoError(t, err)
	require.Equal(t, Violated, rep.Verdict.Status, rep.Text(false))
	rep, err = Run(ctx, p, Options{Engine: "summary:fixed"}, nil)
	require.NoError(t, err)
	require.Equal(t, Holds, rep.Verdict.Status, rep.Text(false))
	require.Greater(t, rep.Pairs, 1)

	s, err := smt.NewSolver()
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, Options{Engine: "pose"}.Validate(s))
	bad := Options{Engine: "summary:fixed", K: 2}
	require.ErrorContains(t, bad.Validate(s), "Steps is 0")
	_, err = Run(ctx, p, bad, s)
	require.ErrorContains(t, err, "Steps is 0")
}
