package kiasan

import (
	"testing"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toCall steps the last successor of each step until the state is
// (v (r @ m * → k)): the redex of Invoke.
func toCall(t *testing.T, p *javalite.Program, e *Engine) *machine.State {
	t.Helper()
	s := machine.Initial(p)
	for i := 0; i < 100; i++ {
		if s.Mode == machine.ModeValue && s.K != nil && s.K.Kind == machine.KCallArg {
			return s
		}
		succ, err := machine.Step(s, e, e.Opt)
		require.NoError(t, err)
		require.NotEmpty(t, succ)
		s = succ[len(succ)-1].S
	}
	t.Fatal("no call reached")
	return nil
}

// Invoke (Java reading V11) on LinkedList's ((this $ head) @ contains …):
// under lazier# the receiver is a δ̂, split into Invoke′ (error end,
// r_u = null) and a call on a δ (MayBeNull cleared, r_u ≠ null, nothing
// else resolved); under lazier the δ is non-null and the call proceeds.
func TestInvoke(t *testing.T) {
	p := loadProgram(t, "programs/linkedlist.jl")
	head := p.ByName["LinkedList"].Fields[0]

	e := mustNew(t, LazierSharp, "", -1)
	s := toCall(t, p, e)
	f := s.K
	r := f.Val.Ref()
	lu := loc(t, s, r)
	require.True(t, s.Locs[lu].Unresolved && s.Locs[lu].MayBeNull)
	ru := s.Locs[lu].Identity
	succ, err := e.Invoke(s, r, []machine.Value{s.Val}, f.Expr.(*javalite.Call), f.Next)
	require.NoError(t, err)
	require.Len(t, succ, 2)

	null, call := succ[0], succ[1]
	assert.Equal(t, "Invoke′ / init-sym-ref*", null.Rule)
	assert.Equal(t, machine.ModeError, null.S.Mode)
	assert.Equal(t, machine.LNull, loc(t, null.S, null.S.Field(0, head)))
	assert.Contains(t, facts(null.S), eqNull(ru))

	assert.Equal(t, "Invoke / init-sym-ref*", call.Rule)
	assert.Equal(t, lu, loc(t, call.S, call.S.Field(0, head)))
	assert.True(t, call.S.Locs[lu].Unresolved && !call.S.Locs[lu].MayBeNull)
	assert.Contains(t, facts(call.S), neqNull(ru))
	assert.Equal(t, machine.RefVal(r), call.S.Env[javalite.SlotThis])
	assert.Equal(t, machine.KPop, call.S.K.Kind)
	assert.Equal(t, machine.ModeExpr, call.S.Mode)

	e = mustNew(t, Lazier, "", -1)
	s = toCall(t, p, e)
	f = s.K
	succ, err = e.Invoke(s, f.Val.Ref(), []machine.Value{s.Val}, f.Expr.(*javalite.Call), f.Next)
	require.NoError(t, err)
	require.Len(t, succ, 1)
	assert.Equal(t, machine.RuleInvoke, succ[0].Rule)
}
