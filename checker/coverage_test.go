package checker

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
)

// TestDataCoverage: the first 100 programs of the default stream (`check
// -gen`, seed 1, programs with data) reach every data rule of
// PRIMITIVES.md in every outcome CoverageItems lists: both If (sym)
// branches alone and together, Assume kept, pruned and on a literal,
// every Binary operator on a term, Equals (prim) on ints and on bools,
// primitive reads and writes through a receiver with one target and
// through a possibly aliased one, and the ite on a negation that POSE-J's
// View builds. The reference-only stream reaches none of them.
func TestDataCoverage(t *testing.T) {
	stream := func(n int, d gen.DataMode) []*javalite.Program {
		ps := make([]*javalite.Program, n)
		for i := range ps {
			ps[i] = ProgramOfData(ProgramSeed(1, i), d)
		}
		return ps
	}
	cov, err := DataCoverage(context.Background(), stream(100, gen.DataMixed), CoverageOptions{}, nil)
	require.NoError(t, err)
	require.Empty(t, cov.Missing(), "reached: %v", cov.Reached)
	none, err := DataCoverage(context.Background(), stream(20, gen.DataNone), CoverageOptions{}, nil)
	require.NoError(t, err)
	require.Len(t, none.Missing(), len(CoverageItems), "reached: %v", none.Reached)
}
