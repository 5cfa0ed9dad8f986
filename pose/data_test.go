package pose

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// The small data programs of testdata/data: POSE-J's View is exact for
// GSE's group at every step, with the data half (relation.ExactData) and
// INV-P on primitive fields, to the end of every path at k = −1. (This
// harness has none of the checker's memoization: the larger programs,
// bst_lookup and colour_count, take a minute each here and a few seconds
// in the checker, which checks every file of testdata/data with pose:
// checker TestPoseDataPrograms.)
func TestDataExact(t *testing.T) {
	for _, file := range []string{"pose_prim_update.jl", "pose_prim_ite.jl", "pose_prim_merge.jl", "pose_prim_alias_init.jl", "write_alias.jl", "bst_find.jl"} {
		t.Run(file, func(t *testing.T) {
			p := load(t, filepath.Join("testdata/data", file))
			f, n := lockstep(t, p, Variant{}, 200)
			require.Nil(t, f, "%v", f)
			require.Greater(t, n, 0)
		})
	}
}

// P-MERGE on a primitive field (PRIMITIVES.md §8): the published merge
// breaks INV-P at the write of testdata/data/pose_prim_merge.jl, and
// beneath INV-P the data half of exactness at the same step.
func TestPrimMergePublished(t *testing.T) {
	p := load(t, "testdata/data/pose_prim_merge.jl")
	pm := variant(t, "pose-published-merge")
	f, _ := lockstep(t, p, pm, -1)
	require.NotNil(t, f)
	require.Equal(t, machine.RuleWriteW, f.Rule)
	require.Contains(t, f.Reason, "INV-P")
	g, _ := lockstepWith(t, p, pm, -1, false)
	require.NotNil(t, g)
	require.Equal(t, f.Step, g.Step)
	require.Contains(t, g.Reason, "data")
}

// Getfield (r2) on a primitive field: a symbol's primitive fields are ⊥
// (nil) until the first read, which binds them to the ite over the bound,
// materialized aliases ending in the initial value α(r_Y, f); the View
// gives every canonical location a term of the field's sort.
func TestPrimBinding(t *testing.T) {
	p := parse(t, `(((class A ([A g] [int v]) ((int main (var A p := (this $ g) in (p $ v)))))) (A main))`)
	sol := newSolver(t)
	eng := New(Variant{}, sol, machine.Options{})
	s := machine.Initial(p)
	var bound *machine.State
	for s != nil && !s.Terminal() {
		succ, err := machine.Step(s, eng, eng.Options())
		require.NoError(t, err)
		s = nil
		for _, sc := range succ {
			if !sc.S.Terminal() {
				s = sc.S
			}
		}
		if s == nil || len(s.Locs) < 2 {
			continue
		}
		v := p.Classes[0].PrimFields[0]
		y0, y1 := s.Locs[0].Identity, s.Locs[1].Identity
		// this.v where P = this, else P's initial value.
		want := smt.Ite(smt.Eq(y1, y0), machine.InitialValue(y0, v), machine.InitialValue(y1, v))
		if bound == nil && s.PrimField(1, v) == nil {
			vw, err := eng.View(s)
			require.NoError(t, err)
			require.Equal(t, want.String(), vw.PrimField(1, v).String(), "⊥ in the engine: the value a read would bind in the View")
			continue
		}
		if bound == nil && s.PrimField(1, v) != nil {
			bound = s
			require.Equal(t, want.String(), s.PrimField(1, v).String())
		}
	}
	require.NotNil(t, bound, "the read p.v binds P.v")
}
