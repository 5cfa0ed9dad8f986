package view

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// sameView requires that got is want: the same fields, and the same
// formulas (pointers) in its value sets and locations.
func sameView(t *testing.T, want, got *machine.State, msg string) {
	t.Helper()
	require.Equal(t, want.NextFresh, got.NextFresh, msg)
	require.Equal(t, want.R, got.R, msg)
	require.Equal(t, len(want.L), len(got.L), msg)
	for i := range want.L {
		require.Equal(t, len(want.L[i]), len(got.L[i]), msg)
		for j, e := range want.L[i] {
			require.Same(t, e.Guard, got.L[i][j].Guard, msg)
			require.Equal(t, e.Loc, got.L[i][j].Loc, msg)
		}
	}
	require.Equal(t, len(want.Locs), len(got.Locs), msg)
	for i, info := range want.Locs {
		require.Same(t, info.Exists, got.Locs[i].Exists, msg)
		info.Exists = got.Locs[i].Exists
		require.Equal(t, info, got.Locs[i], msg)
	}
	require.Equal(t, want.Prim, got.Prim, msg)
	require.Equal(t, want.Env, got.Env, msg)
	require.Equal(t, want.Mode, got.Mode, msg)
	require.Equal(t, want.Val, got.Val, msg)
	require.Same(t, want.Phi, got.Phi, msg)
}

// A state met again gets its View from the cache, with the control of
// the state asked (not the cached one's), and a state that differs from a
// cached one in anything Symbolic reads gets its own View: a dead
// reference's guard, a location's existence or identity, a field, the
// next fresh reference.
func TestSymbolicCache(t *testing.T) {
	p := symProgram(t, `(var A a := (this $ f) in (var A b := (this $ g) in b))`)
	A := p.Classes[0]
	f, g := A.Fields[0], A.Fields[1]
	s := machine.Initial(p)
	m := func(y machine.Ref) *smt.Formula { return smt.Neq(y, machine.RNull) }
	l1, y1, v1 := symbol(s, A, m, smt.True())
	setField(s, 0, f, v1)
	_, y2, v2 := symbol(s, A, m, smt.True())
	setField(s, 0, g, v2)
	dead := s.FreshR() // a reference no one reads any more
	s.Set(dead, machine.GVS{{Guard: smt.Eq(y1, y2), Loc: l1}})
	finish(s, v2)

	var c SymbolicCache
	first, err := c.Symbolic(s)
	require.NoError(t, err)
	direct, err := Symbolic(s)
	require.NoError(t, err)
	sameView(t, direct, first, "first View")
	require.Equal(t, 0, c.Hits())

	// The same heap under another control: from the cache, with the
	// control of the state asked.
	moved := s.Clone()
	moved.SetValue(machine.RefVal(moved.StackR()), nil)
	moved.Set(moved.Val.Ref(), v1)
	hit, err := c.Symbolic(moved)
	require.NoError(t, err)
	// The new stack reference's value set is read by Symbolic: a miss.
	require.Equal(t, 0, c.Hits())
	again, err := c.Symbolic(moved)
	require.NoError(t, err)
	require.Equal(t, 1, c.Hits())
	want, err := Symbolic(moved)
	require.NoError(t, err)
	sameView(t, want, hit, "moved")
	sameView(t, want, again, "moved, from the cache")
	// The cached View's slices are its own.
	again.L[0] = nil
	again2, err := c.Symbolic(moved)
	require.NoError(t, err)
	sameView(t, want, again2, "after a change to a View the cache returned")

	onlyControl := s.Clone()
	onlyControl.Steps += 7
	onlyControl.SetValue(machine.BoolVal(true), nil)
	hits := c.Hits()
	got, err := c.Symbolic(onlyControl)
	require.NoError(t, err)
	require.Equal(t, hits+1, c.Hits(), "a state that moved only its control is a hit")
	want, err = Symbolic(onlyControl)
	require.NoError(t, err)
	sameView(t, want, got, "only the control")
	require.Equal(t, onlyControl.Steps, got.Steps)

	changes := map[string]func(q *machine.State){
		"a dead reference's guard": func(q *machine.State) {
			q.Set(dead, machine.GVS{{Guard: smt.Neq(y1, y2), Loc: l1}})
		},
		"one guard of a value set, equal but for it": func(q *machine.State) {
			g := append(machine.GVS(nil), q.Get(q.Field(0, f))...)
			g[len(g)-1].Guard = smt.And(g[len(g)-1].Guard, smt.Eq(y1, y2))
			q.Set(q.Field(0, f), g)
		},
		"a location's existence": func(q *machine.State) {
			q.Locs[l1].Exists = smt.True()
		},
		"a location's identity": func(q *machine.State) {
			q.Locs[l1].Identity = y2
		},
		"a location's flags": func(q *machine.State) {
			q.Locs[l1].Symbolic = false
			q.Locs[l1].Input = false
		},
		"a field": func(q *machine.State) {
			q.SetField(0, f, q.Field(0, g))
		},
		"the next fresh reference": func(q *machine.State) {
			q.FreshR()
		},
	}
	for name, change := range changes {
		q := s.Clone()
		change(q)
		hits := c.Hits()
		got, err := c.Symbolic(q)
		require.NoError(t, err)
		require.Equal(t, hits, c.Hits(), "%s: answered from the cache", name)
		want, err := Symbolic(q)
		require.NoError(t, err)
		sameView(t, want, got, name)
	}
}

// A primitive field's View is kept by the class's symbols and the field's
// term in each of them (viewMemo.prims): a state whose terms differ from
// a kept one's in one symbol gets its own term, and every View is the one
// Symbolic builds without the memo.
func TestSymbolicCachePrimFields(t *testing.T) {
	src := `(((class A ([A g] [int v]) ((int main (var A p := (this $ g) in (begin (p $ v := 5) (p $ v))))))) (A main))`
	p, err := javalite.ParseAndCheck("view.jl", []byte(src))
	require.NoError(t, err)
	A := p.Classes[0]
	g, v := A.Fields[0], A.Fields[1]
	build := func(this, pv *smt.Formula, steps int) *machine.State {
		s := machine.Initial(p)
		s.SetPrimField(0, v, this)
		l1, y1, val := symbol(s, A, func(y machine.Ref) *smt.Formula { return smt.Neq(y, machine.RNull) }, smt.True())
		setField(s, 0, g, val)
		s.SetPrimField(l1, v, pv)
		s.Phi = smt.And(s.Phi, smt.Neq(y1, machine.RNull))
		s.SetValue(machine.PrimVal(smt.Int(5)), nil)
		s.Steps = steps
		return s
	}
	var c SymbolicCache
	for i, s := range []*machine.State{
		build(nil, smt.Int(5), 0),
		build(nil, smt.Int(6), 1),        // the other symbol's term
		build(smt.Int(7), smt.Int(6), 2), // this one's
		build(nil, nil, 3),               // both ⊥
		build(nil, smt.Int(5), 4),        // the first again, from the memo
	} {
		got, err := c.Symbolic(s)
		require.NoError(t, err)
		want, err := Symbolic(s)
		require.NoError(t, err)
		sameView(t, want, got, fmt.Sprintf("state %d", i))
		for l := range got.Locs {
			require.Same(t, want.PrimField(machine.Loc(l), v), got.PrimField(machine.Loc(l), v), "state %d, l%d", i, l)
		}
	}
	require.NotEmpty(t, c.memo.prims)
}
