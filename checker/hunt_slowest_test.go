package checker

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestKeepSlowest: the list keeps the SlowestKept slowest, slowest first,
// ties in stream order, whatever the order the programs finish in.
func TestKeepSlowest(t *testing.T) {
	var ts []Timed
	for i, ms := range []int{5, 1, 9, 3, 9, 7, 2, 8, 6} {
		ts = keepSlowest(ts, Timed{Index: i, Elapsed: time.Duration(ms) * time.Millisecond})
	}
	var idx []int
	for _, x := range ts {
		idx = append(idx, x.Index)
	}
	require.Equal(t, []int{2, 4, 7, 5, 8}, idx)
}
