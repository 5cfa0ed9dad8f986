package checker

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// TestORCDeterministic: one program checked again and again gives the
// same per-lemma counts, the same ORC statistics and the same ORC inputs,
// valuations included, in the same order. The models behind the
// valuations once followed the garbage collector (a formula collected and
// rebuilt gets a new ID, and the solver saw conjunctions in ID order:
// smt/modelctx.go), so each run here collects garbage at a different
// rhythm — a run that depended on it would differ. Two runs in make
// test (the collector forced every second ORC input, then every third),
// five under make soak.
func TestORCDeterministic(t *testing.T) {
	runs := 2
	if os.Getenv("LOCKSTEP_SOAK") != "" {
		runs = 5
	}
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	p := testutil.Program(t, "../testdata/data/bst_lookup.jl")
	var (
		firstChecked map[Lemma]int
		firstOracle  OracleStats
		firstInputs  []string
	)
	for i := range runs {
		var inputs []string
		opt := DefaultOptions()
		opt.Engine = "summary:fixed"
		opt.K, opt.Steps = 2, 120
		opt.Runner = func(p *javalite.Program, h *concrete.Heap, bound int, mopt machine.Options) (concrete.Result, error) {
			inputs = append(inputs, h.String())
			if len(inputs)%(i+2) == 0 {
				runtime.GC()
			}
			return concrete.InterpretWith(p, h, bound, mopt)
		}
		rep, err := Run(context.Background(), p, opt, testutil.Solver(t))
		require.NoError(t, err)
		require.Equal(t, Holds, rep.Verdict.Status, rep.Text(false))
		st := rep.Oracle
		if i == 0 {
			firstChecked, firstOracle, firstInputs = rep.Checked, st, inputs
			require.Greater(t, int64(st.Runs), st.Paths, "several valuations per path")
			continue
		}
		require.Equal(t, firstChecked, rep.Checked, "run %d: per-lemma counts", i+1)
		require.Equal(t, firstOracle, st, "run %d: ORC statistics", i+1)
		require.Equal(t, firstInputs, inputs, "run %d: ORC's inputs and valuations", i+1)
	}
}
