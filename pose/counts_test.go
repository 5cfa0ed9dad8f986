package pose

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/machine"
)

// Path optimality (C13) and C12: POSE-J has one path per distinct GSE
// control-flow sequence, and the same sequences.
func TestPathOptimality(t *testing.T) {
	for _, tc := range []struct {
		file  string
		steps int // the step bound cuts the unbounded recursion of linkedlist
	}{
		{"testdata/programs/swap.jl", -1},
		{"testdata/programs/hasnull.jl", -1},
		{"testdata/programs/sum.jl", -1},
		{"testdata/programs/alias_write_read.jl", -1},
		{"testdata/programs/alias_two_fields.jl", -1},
		{"testdata/programs/selfref.jl", -1},
		{"testdata/programs/nullderef.jl", -1},
		{"testdata/programs/linkedlist.jl", 60},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			p := load(t, tc.file)
			steps := tc.steps
			gn, gseqs := sequences(t, p, gse.New(-1), steps)
			pn, pseqs := sequences(t, p, New(Variant{}, newSolver(t), machine.Options{}), steps)
			assert.Equal(t, int64(len(gseqs)), pn, "C13: POSE-J paths vs distinct GSE sequences (GSE has %d paths)", gn)
			for d := range pseqs {
				assert.Contains(t, gseqs, d, "C12: a POSE-J sequence GSE lacks")
			}
			for d := range gseqs {
				assert.Contains(t, pseqs, d, "C12: a GSE sequence POSE-J lacks")
			}
			for d, n := range pseqs {
				assert.Equal(t, 1, n, "C13: a sequence with %d POSE-J paths", n, d)
			}
		})
	}
}

// Seed 003 Fig. 1 and Table 1: POSE's trace counts are value paths (POSE
// has no NPE traces; POSE-J's null dereferences are error ends).
func TestPublishedCounts(t *testing.T) {
	for _, tc := range []struct {
		file          string
		values, error int64
	}{
		{"testdata/programs/swap.jl", 2, 0},    // Fig. 1 (a): POSE 2
		{"testdata/programs/hasnull.jl", 6, 0}, // Fig. 1 (c) max = 4: POSE 6
		{"testdata/bench/hasnull10.jl", 12, 0}, // Table 1, max = 10: POSE 12
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			st := paths(t, load(t, tc.file), New(Variant{}, newSolver(t), machine.Options{}), -1)
			require.Equal(t, tc.values, st.Ends[machine.EndValue], "value paths")
			require.Equal(t, tc.error, st.Ends[machine.EndError], "error paths")
			require.Zero(t, st.Ends[machine.EndCut]+st.Ends[machine.EndStuck])
		})
	}
}

// Seed 003 Table 1 rows that need no integers, translated in
// testdata/bench (each file's header explains the translation). POSE's
// traces are value paths; POSE-J adds the null-dereference error ends POSE
// assumes away (see docs/POSE.md for GSE's and summary:fixed's counts).
func TestTable1Counts(t *testing.T) {
	for _, tc := range []struct {
		file          string
		values, error int64
	}{
		{"testdata/bench/dll_removeFirst.jl", 2, 4}, // POSE 2, lazy 91
		{"testdata/bench/dll_removeLast.jl", 2, 4},  // POSE 2, lazy 91
		{"testdata/bench/dll_getFirst.jl", 2, 2},    // POSE 2, lazy 12
		{"testdata/bench/dll_getLast.jl", 2, 2},     // POSE 2, lazy 12
		{"testdata/bench/ncll_add.jl", 2, 5},        // POSE 2, lazy 108
		{"testdata/bench/dll_indexOf.jl", 42, 3},    // POSE 42, lazy 332,856
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			if testing.Short() && tc.values > 2 {
				t.Skip("dll_indexOf takes half a minute")
			}
			st := paths(t, load(t, tc.file), New(Variant{}, newSolver(t), machine.Options{}), -1)
			require.Equal(t, tc.values, st.Ends[machine.EndValue], "value paths")
			require.Equal(t, tc.error, st.Ends[machine.EndError], "error paths")
			require.Zero(t, st.Ends[machine.EndCut]+st.Ends[machine.EndStuck])
		})
	}
}
