package mutation

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
)

// TestBlindSpotsKilled: each mutant of the reference side (a common rule,
// or GSE's E′) is killed on generated programs by a lemma verdict — GPC or
// ORC, the lemmas that exist for exactly these blind spots — and the base
// variant passes the shrunk counterexample. Before GPC and ORC, every one
// of them passed check and the concrete oracle on every generated program.
func TestBlindSpotsKilled(t *testing.T) {
	want := map[string]checker.Lemma{
		"m-gse-enot-records-eq":      checker.GPC,
		"m-invoke-pushes-callee-env": checker.ORC,
		"m-begin-first-twice":        checker.ORC,
	}
	require.ElementsMatch(t, BlindSpots(), []string{"m-gse-enot-records-eq", "m-invoke-pushes-callee-env", "m-begin-first-twice"})
	// Shrinking the three counterexamples is most of this test's cost and
	// none of what it asserts (the killer lemma): make test shrinks each
	// within 100 candidates (to 4 to 7 lines), make soak with the
	// default bound (checker.DefaultShrinkSteps).
	opt := Options{Check: checker.DefaultOptions(), N: 100, Seed: 1, Workers: 2, ShrinkSteps: 100, ShrinkTime: 5 * time.Second}
	if os.Getenv("LOCKSTEP_SOAK") != "" {
		opt.ShrinkSteps = 0
	}
	opt.Check.Timeout = 30 * time.Second
	for _, name := range BlindSpots() {
		m, err := Lookup(name)
		require.NoError(t, err)
		r, err := Run(context.Background(), m, opt)
		require.NoError(t, err)
		require.Equal(t, "killed", r.Status(), "%s: %+v", name, r)
		require.Equal(t, want[name], r.Killer, "%s: killed by %s: %s", name, r.Killer, r.Reason)
		t.Logf("%s: killed by %s after %d programs (%.1fs), shrunk to %d lines:\n%s", name, r.Killer, r.Programs, r.Seconds, r.ShrunkLines, r.Program)
	}
}
