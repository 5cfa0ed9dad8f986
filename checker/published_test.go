package checker

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/internal/testutil"
)

// TestExplainPublished: a violation of summary:published names the finding
// it shows, the one whose fix alone summary:fixed cannot do without on the
// program, and says that summary:fixed holds there; any other report gets
// no note.
func TestExplainPublished(t *testing.T) {
	sol := testutil.Solver(t)
	for _, tc := range []struct{ file, finding string }{
		{"../testdata/fixedbugs/published_WF.jl", "F1"},
		{"../testdata/fixedbugs/published_V7_C12.jl", "F2"},
		{"../testdata/programs/linkedlist.jl", "F1"},
		{"../testdata/fixedbugs/kbound-assume_L1.jl", "F3"}, // published+idle-null alone holds
	} {
		p := testutil.Program(t, tc.file)
		opt := DefaultOptions()
		opt.Engine = PublishedEngine
		rep, err := Run(context.Background(), p, opt, sol)
		require.NoError(t, err)
		require.Equal(t, Violated, rep.Verdict.Status, tc.file)
		n, err := ExplainPublished(context.Background(), p, opt, rep, sol)
		require.NoError(t, err)
		require.NotNil(t, n, tc.file)
		require.Equal(t, tc.finding, n.Finding, tc.file)
		require.Equal(t, Holds, n.Fixed.Verdict.Status, tc.file)
		require.Contains(t, n.Line(), "docs/FINDINGS.md "+tc.finding)
		require.Contains(t, n.Line(), "-variant fixed (every proposed fix) holds on this file")
	}

	// summary:fixed holds: nothing to explain; nor for another engine.
	p := testutil.Program(t, "../testdata/programs/swap.jl")
	opt := DefaultOptions()
	opt.Engine = FixedEngine
	rep, err := Run(context.Background(), p, opt, sol)
	require.NoError(t, err)
	n, err := ExplainPublished(context.Background(), p, opt, rep, sol)
	require.NoError(t, err)
	require.Nil(t, n)
	rep.Verdict.Status = Violated
	n, err = ExplainPublished(context.Background(), p, opt, rep, sol)
	require.NoError(t, err)
	require.Nil(t, n, "only summary:published is explained")
}
