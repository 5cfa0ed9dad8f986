package mutation

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
)

// TestKillOnProgram: one mutant of each engine besides the summary engine,
// and one mutant of every engine's data rules (uber's three), is killed on
// a small fixed program (the shrunk counterexample of its
// hunt, docs/MUTANTS.md) by the lemma the hunt reported, at the bounds
// the catalog gives it, and the base engine holds on the same program at
// the same bounds. A checker that stopped seeing the mutation, or a
// catalog whose bounds made the base fail, fails this test.
func TestKillOnProgram(t *testing.T) {
	cases := []struct {
		mutant string
		lemma  checker.Lemma
		ret    string // main's type
		body   string // main's body in class A ([A f] [A g]); with ret "", the whole program
		file   string // instead of body: a program of testdata (the data mutants)
	}{
		{"lazier:default+lazier-no-null-read", checker.P2, "A", `(this $ f)`, ""},
		{"lazier:default+resolve-fresh-beyond-k", checker.KB, "A", `((this $ f) $ f)`, ""}, // at its own k = 0
		{"lazier#:default+ifnull-forget-nonnull", checker.L9, "bool", `((this $ f) = null)`, ""},
		{"pose:world-exact+no-update", checker.INVP, "bool", // INV-P at the write, before L3
			`(var bool y := (var A z := (this $ f) in (begin (z $ f := (new A)) true)) in true)`, ""},
		{"uber:defer+m-drop-null", checker.L2, "bool", `(((this $ f) $ f) = null)`, ""},
		// One mutant of each engine's data rules (issue 26), on a
		// hand-written data program.
		{"lazier:default+fresh-prim-defaults", checker.L2, "", "", "data/bst_lookup.jl"},
		{"pose:world-exact+prim-update-swapped", checker.INVP, "", "", "data/pose_prim_ite.jl"},
		{"uber:defer+m-resolve-prim-defaults", checker.L2, "", "", "data/uber_prim_resolve.jl"},
		{"uber:defer+m-prim-read-no-resolve", checker.L2, "", "", "data/uber_prim_resolve.jl"},
		{"uber:defer+m-prim-write-guard-phi", checker.L3, "", "", "data/write_alias.jl"},
		// the shrunk counterexamples of the data-stream hunts (docs/MUTANTS.md)
		{"lazier#:default+prim-read-no-resolve", checker.L2, "", primRead, ""},
		{"summary:fixed+m-prim-read-first", checker.L2, "", primRead, ""},
	}
	solver := testutil.Solver(t)
	opt := Options{Check: checker.DefaultOptions()}
	for _, c := range cases {
		t.Run(c.mutant, func(t *testing.T) {
			m, err := Lookup(c.mutant)
			require.NoError(t, err)
			var p *javalite.Program
			switch {
			case c.file != "":
				p = testutil.Program(t, "../../testdata/"+c.file)
			case c.ret == "":
				p = testutil.Parse(t, c.body)
			default:
				p = testutil.Parse(t, `(((class A ([A f] [A g]) ((`+c.ret+` main [bool x] `+c.body+`)))) (A main))`)
			}
			copt := opt.checkOptions(m)
			rep, err := checker.Run(context.Background(), p, copt, solver)
			require.NoError(t, err)
			require.Equal(t, checker.Violated, rep.Verdict.Status, "%s survives: %s %s", m.Name, rep.Verdict.Lemma, rep.Verdict.Reason)
			require.Equal(t, c.lemma, rep.Verdict.Lemma, rep.Verdict.Reason)
			copt.Engine = m.Base
			base, err := checker.Run(context.Background(), p, copt, solver)
			require.NoError(t, err)
			require.Equal(t, checker.Holds, base.Verdict.Status, "base %s at k = %d: %s %s", m.Base, copt.K, base.Verdict.Lemma, base.Verdict.Reason)
			t.Logf("%s (k = %d, %d steps): %s at %s", m.Name, copt.K, copt.Steps, rep.Verdict.Lemma, rep.Verdict.Rule)
		})
	}
}

// primRead reads a bool field of this.f: where this.f is null, this or a
// new object.
const primRead = `(((class A ([A f] [bool g])
    ((bool main [bool x]
       ((this $ f) $ g)))))
 (A main))`
