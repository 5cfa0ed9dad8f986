package checker

import (
	"context"
	"os"
	"runtime"
	"testing"
	"weak"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestRunKeepsNothing: nothing a run built outlives it, though the
// worker's solver does: after Run, the program (which a global cache
// keyed by program kept) can be collected.
func TestRunKeepsNothing(t *testing.T) {
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	check := func() weak.Pointer[javalite.Program] {
		p, err := javalite.LoadFile("../testdata/programs/swap.jl")
		require.NoError(t, err)
		rep, err := Run(context.Background(), p, DefaultOptions(), solver)
		require.NoError(t, err)
		require.Equal(t, Holds, rep.Verdict.Status)
		return weak.Make(p)
	}
	wp := check()
	runtime.GC()
	runtime.GC()
	require.Nil(t, wp.Value(), "the program outlives its check")
}

// TestStreamMemoryFlat (LOCKSTEP_SOAK=1): the live heap after a
// collection, along a stream of 3,000 programs, stays within 2 MiB of its
// value after 500 (before Solver.Forget it grew by about 1.5 MiB per
// 1,000 programs at this k and step bound, and by 20 to 40 MiB per 1,000
// at the defaults: docs/TESTING.md "Memory").
func TestStreamMemoryFlat(t *testing.T) {
	if os.Getenv("LOCKSTEP_SOAK") == "" {
		t.Skip("LOCKSTEP_SOAK=1 runs it (make soak)")
	}
	opt := DefaultOptions()
	opt.Engine, opt.K, opt.Steps = "summary:fixed", 1, 40
	live := map[int64]uint64{}
	_, err := Hunt(context.Background(), opt, HuntOptions{N: 3000, Seed: 1, Workers: 1, Progress: func(done, _, _ int64) {
		if done == 500 || done == 3000 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			live[done] = ms.HeapAlloc
		}
	}})
	require.NoError(t, err)
	require.Len(t, live, 2)
	t.Logf("live heap after 500 programs %.1f MiB, after 3000 %.1f MiB", float64(live[500])/(1<<20), float64(live[3000])/(1<<20))
	require.Less(t, float64(live[3000]), float64(live[500])+2*(1<<20))
}
