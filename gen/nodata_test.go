package gen

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/javalite"
)

// programSeed is checker.ProgramSeed (the stream of `check -gen`), copied
// because gen may not import checker.
func programSeed(seed int64, i int) int64 {
	x := uint64(seed)*0x9E3779B97F4A7C15 + uint64(i)*0xBF58476D1CE4E5B9
	x ^= x >> 31
	return int64(x & (1<<62 - 1))
}

// noDataStream prints the two streams pinned by testdata/nodata_seed1.golden:
// gen.Programs(1, 12, cfg) and the first 12 programs of `check -gen -seed 1`
// (ProgramWith(cfg).Example(ProgramSeed(1, i))).
func noDataStream(cfg Config) string {
	var b strings.Builder
	for i, p := range Programs(1, 12, cfg) {
		fmt.Fprintf(&b, "=== Programs(1, Default) #%d\n%s", i, javalite.Print(p))
	}
	g := ProgramWith(cfg)
	for i := range 12 {
		fmt.Fprintf(&b, "=== check -gen -seed 1 #%d\n%s", i, javalite.Print(g.Example(int(programSeed(1, i)))))
	}
	return b.String()
}

// TestNoDataReproducesTheOldStream: -data none is the generator before
// data, draw for draw. The golden file was printed by the generator of
// main at 6fd6c44 (before data existed), so every seed-indexed result
// recorded before data replays with NoData.
func TestNoDataReproducesTheOldStream(t *testing.T) {
	want, err := os.ReadFile("testdata/nodata_seed1.golden")
	require.NoError(t, err)
	require.Equal(t, string(want), noDataStream(NoData))
	// And the default stream is a different one: it has data.
	require.NotEqual(t, string(want), noDataStream(Default.WithData(DataMixed))) // the stream with data is another one
}
