package uber_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/uber"
)

// TestDataMutantsKilled: each mutation of uber's data rules (PRIMITIVES.md
// §4; docs/MUTANTS.md) is refuted by a lemma verdict of the checker at the
// catalog's k = −1 and 60 steps, on a hand-written data program on which
// the unmutated defer holds.
func TestDataMutantsKilled(t *testing.T) {
	cases := []struct {
		mutant, file string
		lemma        checker.Lemma
		rule         string
	}{
		// x := this.f; x.v read, resolving x: v is 0 in every world, the
		// concretizations with x.v ≥ 7 (the else branch) have no GSE state
		{"m-resolve-prim-defaults", "data/uber_prim_resolve.jl", checker.L2, "Field access (A)"},
		// x.v read with x unresolved: no A′ where this.f is null
		{"m-prim-read-no-resolve", "data/uber_prim_resolve.jl", checker.L2, "Field access (A′)"},
		// y.v := 7 with y resolved to null, x or a new object: under φ'_g
		// every candidate is written, x.v too where y is not x
		{"m-prim-write-guard-phi", "data/write_alias.jl", checker.L3, "Field write (W)"},
	}
	names := map[string]bool{}
	for _, m := range uber.Mutations {
		names[m.Name] = true
	}
	solver := testutil.Solver(t)
	for _, c := range cases {
		require.True(t, names[c.mutant], "%s is in uber.Mutations", c.mutant)
		t.Run(c.mutant, func(t *testing.T) {
			p := testutil.Program(t, "../testdata/"+c.file)
			opt := checker.DefaultOptions()
			opt.Engine, opt.K, opt.Steps = "uber:defer", -1, 60
			rep, err := checker.Run(context.Background(), p, opt, solver)
			require.NoError(t, err)
			require.Equal(t, checker.Holds, rep.Verdict.Status, "base: %s %s", rep.Verdict.Lemma, rep.Verdict.Reason)
			opt.Engine = "uber:defer+" + c.mutant
			rep, err = checker.Run(context.Background(), p, opt, solver)
			require.NoError(t, err)
			require.Equal(t, checker.Violated, rep.Verdict.Status, "%s survives", c.mutant)
			require.Equal(t, c.lemma, rep.Verdict.Lemma, rep.Verdict.Reason)
			require.Equal(t, c.rule, rep.Verdict.Rule, rep.Verdict.Reason)
			t.Logf("%s killed: %s at %s: %s", c.mutant, rep.Verdict.Lemma, rep.Verdict.Rule, rep.Verdict.Reason)
		})
	}
}
