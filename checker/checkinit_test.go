package checker

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
)

// TestUninitializedAsInitialize: checkInit reads a GSE state as its own
// initialization when uninitialized says its field is set, without
// gse.Initialize. On every GSE state at a field access of a reference
// field along LinkedList×4 at k = 2 (200 steps), that is exactly when
// Initialize returns the state itself, unchanged; otherwise it returns
// other states and checkInit passes it a clone. Either way the control
// is the state's (checkInit's memo key trusts the group's).
func TestUninitializedAsInitialize(t *testing.T) {
	prog := testutil.Program(t, "../testdata/bench/linkedlist_calls4.jl")
	eng := &gse.Engine{K: 2}
	work := []*machine.State{machine.Initial(prog)}
	set, unset := 0, 0
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if s.Terminal() || s.Steps >= 200 {
			continue
		}
		if s.Mode == machine.ModeValue && s.K != nil && s.K.Kind == machine.KField && s.Val.IsRef() {
			f := s.K.Expr.(*javalite.FieldAccess).Field
			if l := s.Get(s.Val.Ref())[0].Loc; !f.IsPrim() && l != machine.LNull {
				before := relation.FingerprintSum(s, false)
				c := s.Clone()
				out := eng.Initialize(c, l, f)
				if gse.Uninitialized(s, l, f) {
					unset++
					require.NotEqual(t, []*machine.State{c}, out, "an unset field branches")
					for _, o := range out {
						require.Equal(t, s.ControlKey(), o.ControlKey(), "→I* changes only the heap")
					}
				} else {
					set++
					require.Len(t, out, 1)
					require.Same(t, c, out[0], "Initialize returns the state itself")
					require.Equal(t, before, relation.FingerprintSum(c, false), "and leaves it as it was")
					require.Equal(t, s.ControlKey(), c.ControlKey())
				}
			}
		}
		succ, err := machine.Step(s.Clone(), eng, eng.Opt)
		require.NoError(t, err)
		for _, n := range slices.Backward(succ) {
			work = append(work, n.S)
		}
	}
	require.Positive(t, set)
	require.Positive(t, unset)
	t.Logf("%d field accesses of a set field, %d of an unset one", set, unset)
}
