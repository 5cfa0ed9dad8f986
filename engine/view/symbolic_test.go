package view

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
)

// symClasses is class A with two fields f and g; the entry method's body is
// filled in per test.
const symClasses = `(((class A ([A f] [A g]) ((A main [bool u] %s)))) (A main))`

func symProgram(t *testing.T, body string) *javalite.Program {
	t.Helper()
	src := []byte(fmt.Sprintf(symClasses, body))
	p, err := javalite.ParseAndCheck("view.jl", src)
	require.NoError(t, err)
	return p
}

func symSolver(t *testing.T) *smt.Solver {
	t.Helper()
	sol, err := smt.NewSolver()
	require.NoError(t, err)
	t.Cleanup(sol.Close)
	return sol
}

// gseValueEnds runs GSE (k = −1) to the end and returns its value ends.
func gseValueEnds(t *testing.T, p *javalite.Program) []*machine.State {
	t.Helper()
	var out []*machine.State
	st, err := machine.Explore(context.Background(), machine.Initial(p), gse.New(-1), 200,
		func(s *machine.State, k machine.EndKind) bool {
			if k == machine.EndValue {
				out = append(out, s)
			}
			return true
		})
	require.NoError(t, err)
	require.True(t, st.Complete)
	return out
}

// symbol adds a symbolic location l_Y of class c materialized where m
// holds, and returns it with the value set "symbol Y" under g.
func symbol(s *machine.State, c *javalite.Class, m func(y machine.Ref) *smt.Formula, g *smt.Formula) (machine.Loc, machine.Ref, machine.GVS) {
	y := s.InitR()
	l := s.NewLoc(machine.LocInfo{Class: c, Input: true, Symbolic: true, Identity: y, Exists: m(y)}, machine.RUn)
	return l, y, machine.GVS{
		{Guard: smt.And(g, smt.Eq(y, machine.RNull)), Loc: machine.LNull},
		{Guard: smt.And(g, smt.Neq(y, machine.RNull)), Loc: l},
	}
}

func setField(s *machine.State, l machine.Loc, f *javalite.Field, g machine.GVS) {
	r := s.FreshR()
	s.Set(r, g)
	s.SetField(l, f, r)
}

// finish makes v the value of s with k = end (the method returned).
func finish(s *machine.State, g machine.GVS) {
	r := s.StackR()
	s.Set(r, g)
	s.SetValue(machine.RefVal(r), nil)
}

func checkView(t *testing.T, q *machine.State, want []*machine.State, heaps int) *machine.State {
	t.Helper()
	sol := symSolver(t)
	before := q.Clone()
	v, err := Symbolic(q)
	require.NoError(t, err)
	require.Equal(t, before.L, q.L, "the View modified its argument")
	require.Equal(t, before.Locs, q.Locs, "the View modified its argument")
	again, err := Symbolic(q)
	require.NoError(t, err)
	require.Equal(t, v.L, again.L, "the View is not a function of its argument")
	viol, err := relation.WellFormed(v, sol)
	require.NoError(t, err)
	require.Nil(t, viol, "%v", viol)
	hs, complete, err := relation.Concretize(v, sol, relation.DefaultBudget)
	require.NoError(t, err)
	require.True(t, complete)
	require.Len(t, hs, heaps)
	res := relation.Exact(want, v, sol, relation.DefaultBudget)
	require.Equal(t, relation.Holds, res.Outcome, res.Reason)
	return v
}

// One read of a ⊥ field of this: the symbol Y1 is null, this (r_Y1 = r_in0)
// or a new object, the three GSE heaps of Initialize (null/alias/new).
func TestSymbolicOneRead(t *testing.T) {
	p := symProgram(t, `(this $ f)`)
	A := p.Classes[0]
	f := A.Fields[0]
	s := machine.Initial(p)
	_, _, val := symbol(s, A, func(y machine.Ref) *smt.Formula { return smt.Neq(y, machine.RNull) }, smt.True())
	setField(s, 0, f, val)
	finish(s, val)
	want := gseValueEnds(t, p)
	require.Len(t, want, 3)
	checkView(t, s, want, 3)
}

// A write through a symbol that may alias this: the field of the canonical
// object is the initialized one, whichever symbol holds it (this.f is ⊥ in
// l_0, written in l_1; in the worlds r_Y1 = r_in0 the View reads l_1's).
func TestSymbolicWriteThroughAlias(t *testing.T) {
	p := symProgram(t, `(var A p := (this $ g) in (begin (p $ f := this) p))`)
	A := p.Classes[0]
	f, g := A.Fields[0], A.Fields[1]
	s := machine.Initial(p)
	l1, y1, val := symbol(s, A, func(y machine.Ref) *smt.Formula { return smt.Neq(y, machine.RNull) }, smt.True())
	setField(s, 0, g, val)
	setField(s, l1, f, machine.Single(0))
	s.Phi = smt.And(s.Phi, smt.Neq(y1, machine.RNull)) // the W′ worlds left
	finish(s, val)
	want := gseValueEnds(t, p)
	require.Len(t, want, 2)
	v := checkView(t, s, want, 2)
	// In the worlds r_Y1 = r_in0, l_0 is the object and its f is this.
	fl0 := v.Get(v.Field(0, f))
	require.Len(t, fl0, 2)
}

// Two symbols of one class: Y2 may be null, this, Y1's object (where Y1 is
// materialized) or new: 3 + 3 + 4 GSE heaps.
func TestSymbolicTwoSymbols(t *testing.T) {
	p := symProgram(t, `(var A a := (this $ f) in (var A b := (this $ g) in b))`)
	A := p.Classes[0]
	f, g := A.Fields[0], A.Fields[1]
	s := machine.Initial(p)
	_, _, v1 := symbol(s, A, func(y machine.Ref) *smt.Formula { return smt.Neq(y, machine.RNull) }, smt.True())
	setField(s, 0, f, v1)
	s.StackR() // a
	_, _, v2 := symbol(s, A, func(y machine.Ref) *smt.Formula { return smt.Neq(y, machine.RNull) }, smt.True())
	setField(s, 0, g, v2)
	finish(s, v2)
	want := gseValueEnds(t, p)
	require.Len(t, want, 10)
	checkView(t, s, want, 10)
}

// An entry (g, l_Y) whose guard does not imply m(Y) breaks totality: the
// View reports it through relation.WellFormed instead of inventing an object.
func TestSymbolicNotTotalWhenNotMaterialized(t *testing.T) {
	p := symProgram(t, `(this $ f)`)
	A := p.Classes[0]
	s := machine.Initial(p)
	y := s.InitR()
	l1 := s.NewLoc(machine.LocInfo{Class: A, Input: true, Symbolic: true, Identity: y, Exists: smt.False()}, machine.RUn)
	setField(s, 0, A.Fields[0], machine.Single(l1))
	finish(s, machine.Single(l1))
	s.Phi = smt.And(s.Phi, smt.Neq(y, machine.RNull))
	v, err := Symbolic(s)
	require.NoError(t, err)
	viol, err := relation.WellFormed(v, symSolver(t))
	require.NoError(t, err)
	require.NotNil(t, viol)
	require.Equal(t, relation.CheckTotal, viol.Check)
}

// Primitive fields (PRIMITIVES.md §4): the View gives the canonical object
// the term of the first materialized symbol whose field is bound, and the
// canonical initial value where none is. this.v is ⊥ (never used) and P.v
// was written 5: where P = this the object is this and its v is 5; where P
// is another object, this.v is α(this, v). The data half of exactness
// holds against GSE's two value ends; a wrong term in P.v breaks it.
func TestSymbolicPrimFields(t *testing.T) {
	src := `(((class A ([A g] [int v]) ((int main (var A p := (this $ g) in (begin (p $ v := 5) (p $ v))))))) (A main))`
	p, err := javalite.ParseAndCheck("view.jl", []byte(src))
	require.NoError(t, err)
	A := p.Classes[0]
	g, v := A.Fields[0], A.Fields[1]
	build := func(pv *smt.Formula) *machine.State {
		s := machine.Initial(p)
		s.SetPrimField(0, v, nil) // ⊥: POSE-J binds a field at its first use
		l1, y1, val := symbol(s, A, func(y machine.Ref) *smt.Formula { return smt.Neq(y, machine.RNull) }, smt.True())
		setField(s, 0, g, val)
		s.SetPrimField(l1, v, pv)
		s.Phi = smt.And(s.Phi, smt.Neq(y1, machine.RNull))
		s.SetValue(machine.PrimVal(smt.Int(5)), nil)
		return s
	}
	want := gseValueEnds(t, p)
	require.Len(t, want, 2)
	sol := symSolver(t)

	q := build(smt.Int(5))
	vw := checkView(t, q, want, 2)
	y1 := q.Locs[1].Identity
	require.Equal(t, smt.Ite(smt.And(smt.Eq(y1, q.Locs[0].Identity), smt.Neq(y1, machine.RNull)), smt.Int(5), machine.InitialValue(q.Locs[0].Identity, v)).String(),
		vw.PrimField(0, v).String())
	require.Nil(t, relation.SortConsistent(vw))
	res := relation.ExactData(want, vw, sol, relation.DefaultBudget)
	require.Equal(t, relation.Holds, res.Outcome, res.Reason)

	// P.v holding its initial value instead: where P = this, this.v
	// would be α(this, v), not 5.
	bad, err := Symbolic(build(machine.InitialValue(y1, v)))
	require.NoError(t, err)
	res = relation.ExactData(want, bad, sol, relation.DefaultBudget)
	require.Equal(t, relation.Fails, res.Outcome, res.Reason)
}
