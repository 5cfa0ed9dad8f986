package pose

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
)

// The world-exact POSE-J holds on both defect programs.
func TestDefectProgramsHoldWorldExact(t *testing.T) {
	for _, file := range []string{"testdata/programs/pose_merge.jl", "testdata/programs/pose_eq.jl"} {
		f, n := lockstep(t, load(t, file), Variant{}, -1)
		require.Nil(t, f, "%s: %v", file, f)
		require.Greater(t, n, 0)
	}
}

// P-MERGE confirmed. The published merge loses the write q.f := this for
// the alias P = Q: INV-P breaks at that write, the View is not exact for
// GSE's group there, and the loss reaches the control flow: after q = p
// is true, p.f = this can be false (a control-flow sequence GSE never has).
func TestPublishedMergeLosesAliasWrite(t *testing.T) {
	p := load(t, "testdata/programs/pose_merge.jl")
	v := variant(t, "pose-published-merge")

	f, _ := lockstep(t, p, v, -1)
	require.NotNil(t, f)
	assert.Equal(t, machine.RuleWriteW, f.Rule)
	assert.Contains(t, f.Reason, "INV-P")
	t.Logf("INV-P: %v", f)

	fx, _ := lockstepWith(t, p, v, -1, false)
	require.NotNil(t, fx)
	assert.Equal(t, machine.RuleWriteW, fx.Rule)
	assert.Equal(t, relation.Fails, fx.Exact.Outcome, fx.Reason)
	t.Logf("exactness: %v", fx)

	_, gseqs := sequences(t, p, gse.New(-1), -1)
	_, vseqs := sequences(t, p, New(v, newSolver(t), machine.Options{}), -1)
	extra := 0
	for d := range vseqs {
		if _, ok := gseqs[d]; !ok {
			extra++
		}
	}
	assert.Equal(t, 1, extra, "the variant's infeasible E′ sequence")
	var falseEnds int64
	st, err := machine.Explore(t.Context(), machine.Initial(p), New(v, newSolver(t), machine.Options{}), -1,
		func(s *machine.State, k machine.EndKind) bool {
			if k == machine.EndValue && s.Val == machine.VFalse {
				falseEnds++
			}
			return true
		})
	require.NoError(t, err)
	require.True(t, st.Complete)
	assert.Equal(t, int64(1), falseEnds, "a false result GSE never produces")

	// The world-exact engine has no such end.
	falseEnds = 0
	_, err = machine.Explore(t.Context(), machine.Initial(p), New(Variant{}, newSolver(t), machine.Options{}), -1,
		func(s *machine.State, k machine.EndKind) bool {
			if k == machine.EndValue && s.Val == machine.VFalse {
				falseEnds++
			}
			return true
		})
	require.NoError(t, err)
	assert.Zero(t, falseEnds)
}

// P-EQ confirmed: jPOSE's Eq misses the E successor GSE reaches when
// this.g = this.
func TestJPoseEqMissesTrue(t *testing.T) {
	p := load(t, "testdata/programs/pose_eq.jl")
	f, _ := lockstep(t, p, variant(t, "jpose-eq"), -1)
	require.NotNil(t, f)
	assert.Equal(t, machine.RuleEqualsE, f.Rule)
	assert.Contains(t, f.Reason, "forward")
	require.NotEmpty(t, f.GSE)
	t.Logf("%v", f)
}
