package checker

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gen"
)

// TestShrinkReproducible: shrinking is bounded by steps, not by a clock,
// so shrinking the same failure twice gives byte-identical case files.
// The published rules fail on the first program of seed 1's reference-only
// stream; 150 steps cut rapid's shrinking short of its end (it needs
// thousands there), which is where a clock made two runs differ. A bound
// of one step (the failing program's own run) shrinks nothing, and a
// negative one does not shrink at all.
func TestShrinkReproducible(t *testing.T) {
	opt := DefaultOptions()
	opt.Engine, opt.K, opt.Steps = "summary:published", 1, 60
	ctx := context.Background()
	res, err := Hunt(ctx, opt, HuntOptions{N: 3, Seed: 1, Data: gen.DataNone, Workers: 1, ShrinkSteps: -1})
	require.NoError(t, err)
	cx := res.Counterexamples[res.First]
	require.NotNil(t, cx, "published fails within 3 programs")
	require.False(t, cx.IsShrunk)
	var files [2][]byte
	for i := range files {
		c := *cx
		c.Shrunk, c.IsShrunk = ShrinkData(ctx, opt, gen.DataNone, cx.Seed, ShrinkBound{Steps: 150}, cx.Found)
		require.True(t, c.IsShrunk)
		require.Less(t, Lines(c.Shrunk.Program), Lines(cx.Found.Program))
		files[i] = c.CaseFile(opt, "test")
	}
	require.Equal(t, string(files[0]), string(files[1]))
	one, _ := ShrinkData(ctx, opt, gen.DataNone, cx.Seed, ShrinkBound{Steps: 1}, cx.Found)
	require.Equal(t, Lines(cx.Found.Program), Lines(one.Program), "one step is the failing program's own run")
}
