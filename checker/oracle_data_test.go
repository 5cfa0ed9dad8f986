package checker

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// orcDataSrc returns input data through the heap: a sum on one branch, a
// field of another input object on the other.
const orcDataSrc = `(((class A ([A f] [int k])
    ((int main [int x]
       (if ((this $ k) < 2)
           ((this $ k) + 1)
        else (var A y := (this $ f) in (if (y = null) 0 else (y $ k))))))))
 (A main))`

func dataOptions(k int) Options {
	opt := DefaultOptions()
	opt.Engine = "summary:fixed"
	opt.K = k
	opt.Steps = 120
	return opt
}

// TestORCData: ORC runs concrete inputs with data (PRIMITIVES.md §6) on
// the data programs and holds; with several valuations per path it runs
// more cases than GSE has paths.
func TestORCData(t *testing.T) {
	solver := testutil.Solver(t)
	for _, c := range []struct {
		name string
		p    *javalite.Program
		k    int
	}{
		{"orcDataSrc", parse(t, orcDataSrc), 2},
		{"write_alias.jl", testutil.Program(t, "../testdata/data/write_alias.jl"), 2},
		{"bst_lookup.jl", testutil.Program(t, "../testdata/data/bst_lookup.jl"), 1},
	} {
		rep, err := Run(context.Background(), c.p, dataOptions(c.k), solver)
		require.NoError(t, err)
		require.Equal(t, Holds, rep.Verdict.Status, "%s: %s", c.name, rep.Text(false))
		require.Positive(t, rep.Checked[ORC], c.name)
		t.Logf("%s: %d ORC runs on %d GSE paths", c.name, rep.Checked[ORC], rep.GSEPaths)
	}
	rep, err := Run(context.Background(), parse(t, orcDataSrc), dataOptions(2), solver)
	require.NoError(t, err)
	require.Greater(t, int64(rep.Checked[ORC]), rep.GSEPaths, "several valuations per path")
}

// TestORCDataKills: a common rule broken in both engines alike is caught
// by ORC on a program with data.
func TestORCDataKills(t *testing.T) {
	solver := testutil.Solver(t)
	p := testutil.Program(t, "../testdata/data/bst_lookup.jl")
	opt := DefaultOptions()
	opt.Variant = variant(t, "fixed")
	opt.K, opt.Steps = 1, 120
	rep, err := Run(context.Background(), p, opt, solver)
	require.NoError(t, err)
	require.Equal(t, Holds, rep.Verdict.Status, "the unmutated rules hold: %s", rep.Text(false))
	opt.Variant.Common = machine.Mutation{BeginFirstTwice: true}
	rep, err = Run(context.Background(), p, opt, solver)
	require.NoError(t, err)
	require.Equal(t, Violated, rep.Verdict.Status, rep.Text(false))
	require.Equal(t, ORC, rep.Verdict.Lemma, rep.Text(false))
}

// TestORCDataCompares: the data half of ORC is not vacuous. A GSE path
// whose result term is off by one, or whose path condition lost its data
// facts (so that valuations of the other branch are run on it), is a
// violation; the paths as GSE made them hold.
func TestORCDataCompares(t *testing.T) {
	p := parse(t, orcDataSrc)
	for _, tamper := range []string{"none", "value", "facts"} {
		t.Run(tamper, func(t *testing.T) {
			r := &run{ctx: context.Background(), opt: dataOptions(2), data: true,
				rep: &Report{Program: p, Checked: map[Lemma]int{}}}
			domain := concrete.Domain(p)
			var failed error
			runs := 0
			_, err := gse.ExploreWith(context.Background(), machine.Initial(p), gse.New(2), 120, oraclePath{},
				func(parent oraclePath, _ int, sc machine.Succ) oraclePath { return parent.record(sc) },
				func(end *machine.State, op oraclePath, kind machine.EndKind) bool {
					end = end.CloneDeep()
					switch tamper {
					case "value":
						if kind == machine.EndValue && end.Val.IsTerm() {
							end.Val = machine.PrimVal(smt.Add(end.Val.Term(), smt.Int(1)))
						}
					case "facts":
						end.Facts = nil
					}
					n, err := r.oracleRun(p, end, op, kind, 120, domain)
					runs += n
					if err != nil {
						failed = err
						return false
					}
					return true
				})
			require.NoError(t, err)
			if tamper == "none" {
				require.NoError(t, failed)
				require.Positive(t, runs)
				return
			}
			require.ErrorIs(t, failed, errStop)
			require.Equal(t, ORC, r.rep.Verdict.Lemma)
			require.Contains(t, r.rep.Verdict.Reason, "the concrete interpreter on its input heap ends")
			t.Logf("%s: %s (%s)", tamper, r.rep.Verdict.Reason, r.rep.Verdict.Witness)
		})
	}
}

// TestORCCompleteTimeout: ORC's other half (every concrete input within the
// k-bound runs along some GSE path) stopped by the run's time limit is
// inconclusive, never a pass. It used to return nil, and treemap_get.jl at
// k = 3 (whose input enumeration outlasts the limit) was reported as
// holding at the time limit (docs/FINDINGS.md, C-ORC-TIME).
func TestORCCompleteTimeout(t *testing.T) {
	p := parse(t, orcDataSrc)
	solver := testutil.Solver(t)
	newRun := func(ctx context.Context) *run {
		opt := dataOptions(2)
		return &run{ctx: ctx, opt: opt, solver: solver, data: true,
			mopt: machine.Options{}, rep: &Report{Program: p, Checked: map[Lemma]int{}}}
	}
	r := newRun(context.Background())
	require.NoError(t, r.oracleComplete(p))
	require.Equal(t, 1, r.rep.Checked[ORC], "the whole enumeration ran")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = newRun(ctx)
	err := r.oracleComplete(p)
	var inc *inconclusive
	require.ErrorAs(t, err, &inc)
	require.Equal(t, ORC, inc.lemma)
	require.Contains(t, inc.reason, "timeout")
	require.Zero(t, r.rep.Checked[ORC])
}
