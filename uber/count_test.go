package uber

import (
	"testing"

	"github.com/lockstep-dev/lockstep/summary"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCountsEqualSummary: U-DEFER branches only where the summary engine
// does (A/A′, W/W′, E/E′, Invoke/Invoke′), so its path counts, split by
// end, are predicted equal to summary:fixed's at k = −1 (one path per
// control-flow sequence). The summary counts are ENGINES.md §9's current
// ones (swap 2, sum 1 v + 3 e, hasNull 6 and 12).
func TestCountsEqualSummary(t *testing.T) {
	solver := newSolver(t)
	fixed, err := summary.Lookup("fixed")
	require.NoError(t, err)
	for _, c := range []struct {
		file string
		want counts
	}{
		{"programs/swap.jl", counts{Value: 2}},
		{"programs/sum.jl", counts{Value: 1, Error: 3}},
		{"programs/hasnull.jl", counts{Value: 6}},
		{"bench/hasnull10.jl", counts{Value: 12}},
		{"programs/alias_two_fields.jl", counts{Value: 2}},
		{"programs/selfref.jl", counts{Value: 2, Error: 1}},
	} {
		p := loadProgram(t, c.file)
		got := explore(t, p, mustNew(t, "defer", -1, solver), 400)
		sum := explore(t, p, summary.New(fixed, -1, solver), 400)
		assert.Equal(t, sum, got, "%s: uber:defer vs summary:fixed", c.file)
		assert.Equal(t, c.want, got, c.file)
		t.Logf("%s: uber:defer %+v, summary:fixed %+v", c.file, got, sum)
	}
}
