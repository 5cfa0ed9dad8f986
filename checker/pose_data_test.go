package checker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/machine"
)

// TestPoseDataPrograms: POSE-J holds at k = −1 on every hand-written data
// program of testdata/data, with the data half of exactness (L12, L13 and
// INV-P on primitive fields checked), and so does its kbound variant at
// k = 1 (GSE's bound: what `pose` at a finite k runs). The two search-tree
// lookups at k = −1 (two seconds each, as much as the other 40 cases
// together) run under make soak; make test has them at k = 1 and the third
// search tree, bst_find.jl, at k = −1.
func TestPoseDataPrograms(t *testing.T) {
	files, err := filepath.Glob("../testdata/data/*.jl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	sol := testutil.Solver(t)
	soakOnly := map[string]bool{"bst_lookup.jl": true, "bst_contains.jl": true}
	for _, file := range files {
		for _, k := range []int{-1, 1} {
			if k < 0 && soakOnly[filepath.Base(file)] && os.Getenv("LOCKSTEP_SOAK") == "" {
				continue
			}
			t.Run(fmt.Sprintf("%s/k=%d", filepath.Base(file), k), func(t *testing.T) {
				opt := poseOptions("pose")
				if k >= 0 {
					opt = poseOptions("pose:world-exact+kbound")
					opt.K = k
				}
				rep, err := Run(context.Background(), testutil.Program(t, file), opt, sol)
				require.NoError(t, err)
				require.Equal(t, Holds, rep.Verdict.Status, rep.Text(false))
				assert.Positive(t, rep.Checked[INVP])
				assert.Positive(t, rep.Checked[L13]+rep.Checked[L12])
			})
		}
	}
}

// TestPoseDataMutantsKilled: each data mutant of POSE-J's catalog
// (pose.Mutations, prim-*) is refuted on a data program of testdata/data
// on which the unmutated engine holds (TestPoseDataPrograms), by a lemma
// verdict: INV-P where the mutant breaks the agreement of two aliased
// symbols, else the representation lemma of the rule; and beneath INV-P
// (NoInvariant) by the representation lemma of the rule it mutates.
func TestPoseDataMutantsKilled(t *testing.T) {
	sol := testutil.Solver(t)
	for _, c := range []struct {
		mutant, file   string
		lemma, beneath Lemma
		rule           string
	}{
		{"prim-update-swapped", "pose_prim_ite.jl", INVP, L3, machine.RuleWriteW},
		{"prim-no-update", "pose_prim_ite.jl", INVP, L3, machine.RuleWriteW},
		{"prim-assume-no-aliases", "pose_prim_update.jl", INVP, L2, machine.RuleFieldA},
		{"prim-write-drops-old", "pose_prim_ite.jl", L3, L3, machine.RuleWriteW},
		{"prim-read-last", "pose_prim_ite.jl", L2, L2, machine.RuleFieldA},
	} {
		t.Run(c.mutant, func(t *testing.T) {
			p := testutil.Program(t, "../testdata/data/"+c.file)
			rep, err := Run(context.Background(), p, poseOptions("pose:mut-"+c.mutant), sol)
			require.NoError(t, err)
			require.Equal(t, Violated, rep.Verdict.Status, rep.Text(false))
			assert.Equal(t, c.lemma, rep.Verdict.Lemma, rep.Verdict.Reason)
			opt := poseOptions("pose:mut-" + c.mutant)
			opt.NoInvariant = true
			beneath, err := Run(context.Background(), p, opt, sol)
			require.NoError(t, err)
			require.Equal(t, Violated, beneath.Verdict.Status, beneath.Text(false))
			assert.Equal(t, c.beneath, beneath.Verdict.Lemma, beneath.Verdict.Reason)
			assert.Equal(t, c.rule, beneath.Verdict.Rule)
		})
	}
}

// TestPosePrimMerge: PRIMITIVES.md §8's hypothesis "POSE's merges of
// primitive fields" on testdata/data/pose_prim_merge.jl: the published
// merge (pose-published-merge) loses the write made through the alias Q
// for P, which INV-P reports at the write and, beneath it, L3; the
// world-exact default holds (docs/FINDINGS.md).
func TestPosePrimMerge(t *testing.T) {
	p := testutil.Program(t, "../testdata/data/pose_prim_merge.jl")
	sol := testutil.Solver(t)
	rep, err := Run(context.Background(), p, poseOptions("pose:pose-published-merge"), sol)
	require.NoError(t, err)
	v := rep.Verdict
	require.Equal(t, Violated, v.Status, rep.Text(false))
	assert.Equal(t, INVP, v.Lemma)
	assert.Equal(t, machine.RuleWriteW, v.Rule)
	assert.Contains(t, v.Reason, "l1.v")

	opt := poseOptions("pose:pose-published-merge")
	opt.NoInvariant = true
	beneath, err := Run(context.Background(), p, opt, sol)
	require.NoError(t, err)
	require.Equal(t, Violated, beneath.Verdict.Status, beneath.Text(false))
	assert.Equal(t, L3, beneath.Verdict.Lemma)
	assert.Equal(t, v.Step, beneath.Verdict.Step, "the invariant and exactness break at the same write")
	assert.Contains(t, beneath.Verdict.Reason, "data")

	held, err := Run(context.Background(), p, poseOptions("pose"), sol)
	require.NoError(t, err)
	require.Equal(t, Holds, held.Verdict.Status, held.Text(false))
}
