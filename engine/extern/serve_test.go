package extern_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	_ "github.com/lockstep-dev/lockstep/engine/builtin"
	"github.com/lockstep-dev/lockstep/engine/extern"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestGoEngineThroughExec: a Go engine served through the protocol
// (extern.ServeRegistered in this test binary) is checked exactly as the
// same engine in-process: the same verdict, paths and checks of every
// lemma but those of the optional interfaces protocol version 1 does not
// carry (Initializer: L1, L4 and the well-formedness of →S*'s states;
// Invariant: INV-P). The serialization is exercised both ways, with
// Views (lazier is no identity), calls (invoke and enter) and formulas
// with guards.
func TestGoEngineThroughExec(t *testing.T) {
	if testing.Short() {
		t.Skip("starts engine processes")
	}
	defer extern.Shutdown()
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	for _, c := range []struct {
		spec, serve string
		k           int
		files       []string
	}{
		// With data (protocol version 2, If (sym) and Assume served both
		// ways); bst_removeMin has a var of a caller below a call's pop.
		{"summary:fixed", "summary#fixed", 2, []string{"swap.jl", "hasnull.jl", "alias_write_read.jl", "selfref.jl",
			"../data/if_sym.jl", "../data/alias_constrained.jl", "../trees/bst_removeMin.jl"}},
		{"lazier:default", "lazier#default", -1, []string{"swap.jl", "hasnull.jl", "nullderef.jl", "../data/write_alias.jl"}},
		{"uber", "uber", -1, []string{"uber_noalias.jl", "swap.jl"}},
	} {
		for _, f := range append(c.files, "calls") {
			p := callsProgram(t)
			if f != "calls" {
				p = load(t, f)
			}
			in := checker.DefaultOptions()
			in.Engine, in.K, in.Steps = c.spec, c.k, 120
			ex := in
			ex.Engine = "exec:" + os.Args[0] + " serve " + c.serve
			a, err := checker.Run(context.Background(), p, in, solver)
			require.NoError(t, err)
			b, err := checker.Run(context.Background(), p, ex, solver)
			require.NoError(t, err)
			require.Equal(t, a.Verdict.Status, b.Verdict.Status, "%s %s:\n%s\n%s", c.spec, f, a.Text(false), b.Text(false))
			require.Equal(t, a.SummaryPaths, b.SummaryPaths, "%s %s", c.spec, f)
			require.Equal(t, a.Pairs, b.Pairs, "%s %s", c.spec, f)
			for l, n := range a.Checked {
				switch l {
				case checker.L1, checker.L4, checker.WF, checker.INVP:
					continue
				case checker.ORC:
					// The oracle's valuations are the solver's models,
					// which depend on the queries it answered before (the
					// if_sym requests' S(φ ∧ t) through exec:).
					continue
				}
				require.Equal(t, n, b.Checked[l], "%s %s: lemma %s", c.spec, f, l)
			}
		}
	}
	// Its variants are the engine's.
	info, v, err := engine.Lookup("exec:" + os.Args[0] + " serve summary")
	require.NoError(t, err)
	require.Equal(t, "published", v)
	require.NotNil(t, info.Mutants)
}

// callsProgram has calls with two arguments, nested, and with none: the
// frames that carry the arguments evaluated so far (call_arg's env).
func callsProgram(t *testing.T) *javalite.Program {
	p, err := javalite.ParseAndCheck("calls.jl", []byte(`(((class Node ([Node next])
    ((Node pick [Node a] [Node b] (if (a = b) a else b))
     (Node none null)
     (bool main [bool unused]
       (((this $ next) @ pick ((this $ next) @ pick this (this @ none)) (this $ next)) = this)))))
 (Node main))`))
	require.NoError(t, err)
	return p
}
