package checker

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// parse is the shared helper under the name these tests use.
var parse = testutil.Parse

// TestReferenceLemmasChecked: under fixed, GPC and ORC are really checked
// (not skipped) on the example programs and hold.
func TestReferenceLemmasChecked(t *testing.T) {
	s, err := smt.NewSolver()
	require.NoError(t, err)
	defer s.Close()
	opt := DefaultOptions()
	opt.Variant = variant(t, "fixed")
	for _, f := range []string{"../testdata/programs/linkedlist_guarded.jl", "../testdata/programs/swap.jl", "../testdata/programs/alias_write_read.jl"} {
		rep, err := Run(context.Background(), load(t, f), opt, s)
		require.NoError(t, err)
		require.Equal(t, Holds, rep.Verdict.Status, "%s: %s", f, rep.Text(false))
		require.Positive(t, rep.Checked[GPC], f)
		require.Positive(t, rep.Checked[ORC], f)
		require.LessOrEqual(t, int64(rep.Checked[ORC]), rep.GSEPaths, f)
	}
}

// TestReferenceLemmasKill: each blind-spot mutation is caught on a small
// hand-written program by its lemma, while every other lemma holds (the
// engines agree with each other).
func TestReferenceLemmasKill(t *testing.T) {
	s, err := smt.NewSolver()
	require.NoError(t, err)
	defer s.Close()
	for _, tc := range []struct {
		name string
		m    machine.Mutation
		src  string
		want Lemma
	}{
		{"E′ records r0 = r1", machine.Mutation{GSEEqualsNotRecordsEq: true},
			`(((class A () ((bool main [bool x] (this = null))))) (A main))`, GPC},
		{"Begin (first) twice", machine.Mutation{BeginFirstTwice: true},
			`(((class A ([A f]) ((A main [bool x] (var A y := (this $ f) in (begin (y $ f := this) ((this $ f) $ f))))))) (A main))`, ORC},
		{"Invoke pushes (pop η_callee k)", machine.Mutation{InvokePushesCalleeEnv: true},
			// The caller resumes with this = this.f (the receiver of m2).
			`(((class A ([A f] [A g]) ((A main [bool x] (var A y := (this $ g) in (begin (y $ f := (new A)) ((this $ f) @ m2 true) ((this $ g) $ f)))) (bool m2 [bool x] true)))) (A main))`, ORC},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := DefaultOptions()
			opt.Variant = variant(t, "fixed")
			rep, err := Run(context.Background(), parse(t, tc.src), opt, s)
			require.NoError(t, err)
			require.Equal(t, Holds, rep.Verdict.Status, "the unmutated rules hold: %s", rep.Text(false))
			opt.Variant.Common = tc.m
			rep, err = Run(context.Background(), parse(t, tc.src), opt, s)
			require.NoError(t, err)
			require.Equal(t, Violated, rep.Verdict.Status, rep.Text(false))
			require.Equal(t, tc.want, rep.Verdict.Lemma, rep.Text(false))
			t.Logf("%s: %s", tc.want, rep.Verdict.Reason)
		})
	}
}

// TestReferenceLemmasKillPartition: GPC is checked in the Partition driver
// too, on the GSE states each sibling represents against its View: a GSE
// that records a wrong comparison fact is caught with lazier# as the
// engine under test.
func TestReferenceLemmasKillPartition(t *testing.T) {
	s, err := smt.NewSolver()
	require.NoError(t, err)
	defer s.Close()
	src := `(((class A ([A f]) ((bool main [bool x] ((this $ f) = null))))) (A main))`
	opt := DefaultOptions()
	opt.Engine, opt.K = "lazier#", -1
	rep, err := Run(context.Background(), parse(t, src), opt, s)
	require.NoError(t, err)
	require.Equal(t, Holds, rep.Verdict.Status, "the unmutated rules hold: %s", rep.Text(false))
	require.Positive(t, rep.Checked[GPC])
	opt.Semantics.Mutation = machine.Mutation{GSEEqualsNotRecordsEq: true}
	rep, err = Run(context.Background(), parse(t, src), opt, s)
	require.NoError(t, err)
	require.Equal(t, Violated, rep.Verdict.Status, rep.Text(false))
	require.Equal(t, GPC, rep.Verdict.Lemma, rep.Text(false))
	t.Logf("%s: %s", rep.Verdict.Lemma, rep.Verdict.Reason)
}
