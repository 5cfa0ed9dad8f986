package smt

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestEntryCacheAgreesWithEval: every value of a pending entry taken from
// its cache (decide.go, "Values of pending entries kept across search
// nodes and questions") equals a fresh evaluation under the state of the
// moment, over random Assume/Release/Sat sequences; and the cache is used.
func TestEntryCacheAgreesWithEval(t *testing.T) {
	var hits, wrong int
	entryCacheCheck = func(agrees bool) {
		hits++
		if !agrees {
			wrong++
		}
	}
	defer func() { entryCacheCheck = nil }()
	g := goSolver(t)
	rapid.Check(t, func(t *rapid.T) {
		defer func() {
			for g.Assumptions() > 0 {
				_ = g.Release()
			}
		}()
		n := rapid.IntRange(10, 80).Draw(t, "ops")
		for range n {
			switch op := rapid.IntRange(0, 6).Draw(t, "op"); {
			case op == 0:
				require.NoError(t, g.Assume(wideGen(4).Draw(t, "assume")))
			case op == 1 && g.Assumptions() > 0:
				require.NoError(t, g.Release())
			default:
				_, err := g.Sat(wideGen(3).Draw(t, "query"))
				require.NoError(t, err)
			}
			require.Zero(t, wrong, "a cached entry value differs from its evaluation")
		}
	})
	require.Positive(t, hits, "no cached entry value was used")
	t.Logf("%d cached entry values checked", hits)
}
