package checker

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/internal/testutil"
)

// TestDataPrograms: programs with data (PRIMITIVES.md) hold under the
// corrected rules, and each single-point mutant of the data rules is
// refuted by the lemma of the rule it breaks (issue 22 item 5c).
func TestDataPrograms(t *testing.T) {
	solver := testutil.Solver(t)
	cases := []struct {
		file, variant string
		k             int
		want          Status
		lemma         Lemma
	}{
		{"write_alias.jl", "fixed", 2, Holds, ""},
		{"write_alias.jl", "fixed+m-prim-write-guard-phi", 2, Violated, L3},
		{"write_alias.jl", "fixed+m-prim-read-first", 2, Violated, L2},
		{"write_alias.jl", "fixed+m-write-drops-old", 2, Violated, L3},
		{"bst_lookup.jl", "fixed", 1, Holds, ""},
		{"if_sym.jl", "fixed", 1, Holds, ""},
		{"fold_branch.jl", "fixed", 1, Holds, ""},
		{"fold_branch.jl", "fixed+d1-if-sym-values", 1, Violated, C13},
		{"new_int.jl", "fixed", 1, Holds, ""},
		// Mutants of the common data rules, shared by GSE and the engine:
		// the lockstep relations cannot see them, the oracle does.
		{"if_sym.jl", "fixed+m-if-sym-then-only", 1, Violated, ORC},
		{"new_int.jl", "fixed+m-new-prim-symbolic", 1, Violated, L10},
		// Two reference worlds with one heap and different data: the data
		// half must enumerate valuations, not heaps.
		{"overwritten_read.jl", "fixed", 2, Holds, ""},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.variant, func(t *testing.T) {
			p := testutil.Program(t, "../testdata/data/"+c.file)
			opt := DefaultOptions()
			opt.Engine = "summary:" + c.variant
			opt.K = c.k
			opt.Steps = 120
			rep, err := Run(context.Background(), p, opt, solver)
			require.NoError(t, err)
			require.Equal(t, c.want, rep.Verdict.Status, rep.Verdict.Reason)
			if c.lemma != "" {
				require.Equal(t, c.lemma, rep.Verdict.Lemma)
			} else {
				require.Positive(t, rep.Checked[L13], "no Binary or Equals (prim) checked")
			}
		})
	}
}

// An engine without the data rules (engine.Info.Data false), registered
// for the tests only: the refusal is about such an engine, a researcher's
// own (every built-in engine has the data rules).
func init() {
	engine.Register(engine.Info{
		Name: "nodata-test",
		Doc:  "summary:fixed registered without the data rules (tests only)",
		New: func(variant string, cfg engine.Config) (engine.UnderTest, error) {
			return engine.New("summary:fixed", cfg)
		},
	})
}

// TestDataRefused: an engine without the data rules refuses a program with
// data instead of giving a verdict on rules it does not have.
func TestDataRefused(t *testing.T) {
	p := testutil.Program(t, "../testdata/data/write_alias.jl")
	opt := DefaultOptions()
	opt.Engine = "nodata-test"
	opt.K = -1
	_, err := Run(context.Background(), p, opt, testutil.Solver(t))
	require.ErrorContains(t, err, "no rules for int and bool data")
}

// TestDataPartition: partition exactness with data (PRIMITIVES.md §5) for
// lazier and lazier# at k = −1. if_join.jl has two siblings with one heap
// shape that differ only in data (If (sym) joining at one control): each
// stands for the GSE states its data is compatible with, and the data half
// holds over them; a mutant that materializes without the initial-value
// symbols is refuted by the data half ((b): a slot value no GSE state has).
func TestDataPartition(t *testing.T) {
	solver := testutil.Solver(t)
	for _, c := range []struct {
		file, engine string
		want         Status
		reason       string
	}{
		{"if_join.jl", "lazier", Holds, ""},
		{"if_join.jl", "lazier#", Holds, ""},
		{"alias_constrained.jl", "lazier", Holds, ""},
		{"alias_constrained.jl", "lazier#", Holds, ""},
		{"alias_constrained.jl", "lazier#:default+fresh-prim-defaults", Violated, "(b) data"},
	} {
		t.Run(c.file+"/"+c.engine, func(t *testing.T) {
			p := testutil.Program(t, "../testdata/data/"+c.file)
			opt := DefaultOptions()
			opt.Engine, opt.K, opt.Steps = c.engine, -1, 120
			rep, err := Run(context.Background(), p, opt, solver)
			require.NoError(t, err)
			require.Equal(t, c.want, rep.Verdict.Status, "%s: %s", rep.Verdict.Lemma, rep.Verdict.Reason)
			if c.want == Holds {
				require.Positive(t, rep.Checked[P1], "siblings compared")
				require.Positive(t, rep.Checked[P3])
				require.Positive(t, rep.Checked[L12])
			} else {
				require.Equal(t, L2, rep.Verdict.Lemma)
				require.Contains(t, rep.Verdict.Reason, c.reason)
			}
		})
	}
}
