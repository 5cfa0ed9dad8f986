package pose

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Invoke on a receiver that may be null (the Java reading V11): Invoke′
// ends in error in the null worlds, Invoke enters the method with
// this = r in the others, each under its path condition.
func TestInvokeNullReceiver(t *testing.T) {
	p := parse(t, `(((class A ([A g])
	   ((bool m [bool x] x)
	    (bool main [bool u] ((this $ g) @ m true)))))
	 (A main))`)
	sol := newSolver(t)
	eng := New(Variant{}, sol, machine.Options{})
	s := machine.Initial(p)
	for s.Mode != machine.ModeValue || s.K == nil || s.K.Kind != machine.KCallArg {
		succ, err := machine.Step(s, eng, eng.Options())
		require.NoError(t, err)
		require.Len(t, succ, 1)
		s = succ[0].S
	}
	r := s.K.Val.Ref()
	call := s.K.Expr.(*javalite.Call)
	out, err := eng.Invoke(s, r, []machine.Value{s.Val}, call, s.K.Next)
	require.NoError(t, err)
	require.Len(t, out, 2)
	require.Equal(t, machine.RuleInvoke, out[0].Rule)
	require.Equal(t, RuleInvokeNull, out[1].Rule)

	in, bad := out[0].S, out[1].S
	require.Equal(t, machine.ModeExpr, in.Mode)
	require.Equal(t, machine.RefVal(r), in.Env[javalite.SlotThis])
	require.Equal(t, machine.VTrue, in.Env[1])
	require.Equal(t, machine.KPop, in.K.Kind)
	require.Equal(t, machine.ModeError, bad.Mode)

	// The symbol of this.g is i4: non-null in the call, null in the error.
	g := smt.Ref(4)
	ok, err := sol.Sat(smt.And(in.PathCondition(), smt.Eq(g, machine.RNull)))
	require.NoError(t, err)
	require.False(t, ok)
	ok, err = sol.Sat(smt.And(bad.PathCondition(), smt.Neq(g, machine.RNull)))
	require.NoError(t, err)
	require.False(t, ok)
}
