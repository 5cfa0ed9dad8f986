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
			r := &run{ctx: context.Background(), opt: dataOptions(2), data: true, solver: testutil.Solver(t),
				rep: &Report{Program: p, Checked: map[Lemma]int{}}}
			o := &oracleRun{r: r, p: p, st: &r.rep.Oracle, lits: concrete.Literals(p)}
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
					err := o.path(end, op, kind, 120)
					runs = o.st.Runs
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
	require.NoError(t, r.oracleComplete(p, nil))
	require.Equal(t, 1, r.rep.Checked[ORC], "the whole enumeration ran")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = newRun(ctx)
	err := r.oracleComplete(p, nil)
	var inc *inconclusive
	require.ErrorAs(t, err, &inc)
	require.Equal(t, ORC, inc.lemma)
	require.Contains(t, inc.reason, "timeout")
	require.Zero(t, r.rep.Checked[ORC])
}

// TestORCSeesData: the mutant that drops the else branch of every If
// (sym), in the engine and in GSE alike, is refuted by ORC at k = 2 and
// at k = −1 on programs whose comparisons are between input fields (no
// literal to draw values from): path-directed inputs leave each GSE path
// at each of its branches, and the completeness half runs at k = −1 too,
// bounded, and says so. The intact rules hold, and the report says which
// halves of ORC ran on how many runs and inputs.
func TestORCSeesData(t *testing.T) {
	solver := testutil.Solver(t)
	for _, file := range []string{"if_sym.jl", "max2.jl", "bst_contains.jl", "assume_order.jl"} {
		p := testutil.Program(t, "../testdata/data/"+file)
		for _, k := range []int{2, -1} {
			opt := dataOptions(k)
			rep, err := Run(context.Background(), p, opt, solver)
			require.NoError(t, err)
			require.Equal(t, Holds, rep.Verdict.Status, "%s k=%d: %s", file, k, rep.Text(false))
			o := rep.Oracle
			require.True(t, o.Ran)
			require.Positive(t, o.Runs)
			require.Positive(t, o.Directed, "%s k=%d: path-directed inputs", file, k)
			want := "ran"
			if k < 0 {
				want = "bounded"
			}
			require.Equal(t, want, o.Completeness, "%s k=%d", file, k)
			require.Contains(t, rep.Text(false), "ORC: per-path half")
			require.Contains(t, rep.Text(false), "completeness half "+want)
			require.NotNil(t, rep.JSON().Oracle)

			opt.Engine = "summary:fixed+m-if-sym-then-only"
			rep, err = Run(context.Background(), p, opt, solver)
			require.NoError(t, err)
			require.Equal(t, Violated, rep.Verdict.Status, "%s k=%d: %s", file, k, rep.Text(false))
			require.Equal(t, ORC, rep.Verdict.Lemma, "%s k=%d: %s", file, k, rep.Text(false))
		}
	}
}

// TestORCLiteralFreeValuations: on a program without literals the
// per-path half runs valuations that order the two input fields both
// ways and equal, not the single value 0 of the old domain.
func TestORCLiteralFreeValuations(t *testing.T) {
	p := testutil.Program(t, "../testdata/data/max2.jl")
	r := &run{ctx: context.Background(), opt: dataOptions(-1), data: true, solver: testutil.Solver(t),
		rep: &Report{Program: p, Checked: map[Lemma]int{}}}
	o := &oracleRun{r: r, p: p, st: &r.rep.Oracle}
	orders := map[int]bool{}
	_, err := gse.ExploreWith(context.Background(), machine.Initial(p), gse.New(-1), 120, oraclePath{},
		func(parent oraclePath, _ int, sc machine.Succ) oraclePath { return parent.record(sc) },
		func(end *machine.State, op oraclePath, kind machine.EndKind) bool {
			h, obj, err := concretization(end, op.inputs)
			require.NoError(t, err)
			d, why := newPathData(end, h, obj)
			require.Empty(t, why)
			require.Len(t, d.syms, 2)
			for _, g := range d.goals(nil) {
				res, vals, err := o.model(smt.And(append(d.facts, g)...), d.syms)
				require.NoError(t, err)
				if res == smt.Sat {
					orders[cmpInt(vals[0], vals[1])] = true
				}
			}
			return true
		})
	require.NoError(t, err)
	require.Equal(t, map[int]bool{-1: true, 0: true, 1: true}, orders)
	for _, d := range [][]int64{concrete.Domain(p)} {
		require.Equal(t, []int64{0}, d, "the literal domain has one value: the reason for path-directed inputs")
	}
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestORCInfeasiblePath: a GSE that decides If (sym) by S(t) instead of
// S(φ ∧ t) explores a path whose data facts no input meets; ORC reports
// it as a violation of GSE (it used to skip a path no valuation met).
func TestORCInfeasiblePath(t *testing.T) {
	p := parse(t, `(((class A ([int v])
    ((int main
       (if ((this $ v) < 1) (if ((this $ v) < 1) 1 else 2) else 3)))))
 (A main))`)
	solver := testutil.Solver(t)
	for _, mutated := range []bool{false, true} {
		opt := dataOptions(-1)
		mopt := machine.Options{Mutation: machine.Mutation{GSEFeasibleIgnoresPhi: mutated}}
		r := &run{ctx: context.Background(), opt: opt, data: true, solver: solver, mopt: mopt,
			rep: &Report{Program: p, Checked: map[Lemma]int{}}}
		r.gse = gseEngine(opt, mopt, solver)
		err := r.oracle()
		if !mutated {
			require.NoError(t, err)
			continue
		}
		require.ErrorIs(t, err, errStop)
		require.Equal(t, ORC, r.rep.Verdict.Lemma)
		require.Contains(t, r.rep.Verdict.Reason, "infeasible path")
		t.Log(r.rep.Verdict.Reason)
	}
}

// TestORCStuckRunIsVerdict: a concrete run of the completeness half that
// cannot go on (here an input the concrete rules refuse: a bool field
// holding 5) is a violation of ORC with its input, not an internal error.
func TestORCStuckRunIsVerdict(t *testing.T) {
	p := parse(t, `(((class A ([bool v])
    ((int main
       (if (this $ v) 1 else 2)))))
 (A main))`)
	solver := testutil.Solver(t)
	opt := dataOptions(2)
	r := &run{ctx: context.Background(), opt: opt, data: true, solver: solver,
		rep: &Report{Program: p, Checked: map[Lemma]int{}}}
	c := p.Entry.Owner
	bad := &concrete.Heap{Objects: []concrete.Object{{Class: c, Fields: []int{concrete.Null}, Prim: []int64{5}}}}
	err := r.oracleComplete(p, []*concrete.Heap{bad})
	require.ErrorIs(t, err, errStop, "%v", err)
	require.Equal(t, ORC, r.rep.Verdict.Lemma)
	require.Contains(t, r.rep.Verdict.Witness, "o0:A")
	t.Log(r.rep.Verdict.Reason)
}
