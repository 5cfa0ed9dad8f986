package checker

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/internal/testutil"
)

// TestExactReuseSameVerdicts: on programs 2–13 of the seed-1 stream (1
// runs into the group bound after seconds),
// reusing exactness answers (memo.go) gives every program the same verdict
// and the same per-lemma counts as computing every answer, and it does
// reuse answers.
func TestExactReuseSameVerdicts(t *testing.T) {
	opt := DefaultOptions()
	opt.Engine = "summary:fixed"
	opt.Steps = 150
	opt.MaxGroup = 150
	opt.Timeout = 10 * time.Minute // a safety net only: budgets decide
	s := testutil.Solver(t)
	defer func() { reuseExact = true }()
	reused := 0
	last := 13
	if testing.Short() {
		last = 6
	}
	for i := 2; i <= last; i++ {
		p := ProgramOf(ProgramSeed(1, i))
		reuseExact = false
		off, err := Run(context.Background(), p, opt, s)
		require.NoError(t, err)
		reuseExact = true
		on, err := Run(context.Background(), p, opt, s)
		require.NoError(t, err)
		require.Equal(t, off.Verdict.Status, on.Verdict.Status, "program %d", i)
		require.Equal(t, off.Verdict.Lemma, on.Verdict.Lemma, "program %d", i)
		require.Equal(t, off.Checked, on.Checked, "program %d", i)
		require.Zero(t, off.exactReused)
		reused += on.exactReused
	}
	require.Positive(t, reused, "no exactness answer was reused")
}
