package view

import (
	"sort"
	"testing"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// describe concretizes a View and describes each heap as heaps does
// (where l_0's f and g point, and how many objects), sorted.
func describe(t *testing.T, v *machine.State, solver *smt.Solver) []string {
	t.Helper()
	viol, err := relation.WellFormed(v, solver)
	require.NoError(t, err)
	require.Nil(t, viol, "View not well formed")
	hs, complete, err := relation.Concretize(v, solver, relation.DefaultBudget)
	require.NoError(t, err)
	require.True(t, complete)
	var out []string
	for _, h := range hs {
		this := relation.Target(-3)
		for i, l := range h.Locs {
			if l.Orig == 0 {
				this = relation.Target(i)
			}
		}
		names := map[relation.Target]string{this: "this", relation.TNull: "null", relation.TUn: "un"}
		next := 1
		name := func(x relation.Target) string {
			if n, ok := names[x]; ok {
				return n
			}
			n := "new" + string(rune('0'+next))
			next++
			names[x] = n
			return n
		}
		fs := h.Locs[this].Fields
		out = append(out, "f="+name(fs[0])+" g="+name(fs[1])+" objects="+string(rune('0'+len(h.Locs))))
	}
	sort.Strings(out)
	return out
}

// deferredAt makes the unresolved location of a deferred read the way
// package uber does (read guard psi in Exists, fields r_un) and points
// field f of l_0 to {(ψ, l_u)} ∪ {(¬ψ, l_un)}. It also gives l_u an
// identity reference as Kiasan does (Deferred takes a new one when it
// resolves; Unresolved needs one).
func deferredAt(s *machine.State, f string, psi *smt.Formula) machine.Loc {
	lu := s.NewLoc(machine.LocInfo{Class: s.Prog.Entry.Owner, Unresolved: true, MayBeNull: true, Depth: 1, Exists: psi}, machine.RUn)
	s.Locs[lu].Identity = s.InitR()
	rf := s.InitR()
	g := machine.GVS{{Guard: psi, Loc: lu}}
	if !psi.IsTrue() {
		g = g.Merge(smt.Not(psi), machine.LUn)
	}
	s.Set(rf, g)
	s.SetField(0, field(s, f), rf)
	return lu
}

func TestDeferredNoUnresolvedIsIdentity(t *testing.T) {
	s, _ := setup(t)
	v, err := Deferred(s, -1)
	require.NoError(t, err)
	assert.Same(t, s, v)
}

// A deferred read of this.f under true: null, this or a new object (like
// lazier#'s δ̂), and the argument is not modified.
func TestDeferredRead(t *testing.T) {
	s, solver := setup(t)
	lu := deferredAt(s, "f", smt.True())
	v, err := Deferred(s, -1)
	require.NoError(t, err)
	assert.True(t, s.Locs[lu].Unresolved, "the View must not modify its argument")
	assert.Equal(t, []string{
		"f=new1 g=un objects=2",
		"f=null g=un objects=1",
		"f=this g=un objects=1",
	}, describe(t, v, solver))
}

// this.g was summarized (θ_null, θ_new l_1, θ_alias l_0) and this.f read
// deferred. Deferred: g ∈ {null, this, new1} and f anything compatible (f
// may alias g's new object): 3 + 3 + 4 heaps. Unresolved asserts that
// every materialized input location exists and is distinct (r_1 ≠ null,
// r_1 ≠ r_in0): right for Kiasan, wrong for l_1, which exists only under
// its θ_new guard; it loses every heap with g = null or g = this.
func TestDeferredGuardedMaterialized(t *testing.T) {
	s, solver := setup(t)
	rin0 := s.Locs[0].Identity
	rg := s.InitR()
	gNew := smt.And(smt.Neq(rg, machine.RNull), smt.Neq(rg, rin0))
	l1 := s.NewLoc(machine.LocInfo{Class: s.Prog.Entry.Owner, Input: true, Depth: 1, Identity: rg, Exists: gNew}, machine.RUn)
	s.Set(rg, machine.GVS{
		{Guard: smt.Eq(rg, machine.RNull), Loc: machine.LNull},
		{Guard: gNew, Loc: l1},
		{Guard: smt.And(smt.Neq(rg, machine.RNull), smt.Eq(rg, rin0)), Loc: 0},
	})
	s.SetField(0, field(s, "g"), rg)
	deferredAt(s, "f", smt.True())

	want := []string{
		"f=new1 g=new1 objects=2",
		"f=new1 g=new2 objects=3",
		"f=new1 g=null objects=2",
		"f=new1 g=this objects=2",
		"f=null g=new1 objects=2",
		"f=null g=null objects=1",
		"f=null g=this objects=1",
		"f=this g=new1 objects=2",
		"f=this g=null objects=1",
		"f=this g=this objects=1",
	}
	v, err := Deferred(s, -1)
	require.NoError(t, err)
	assert.Equal(t, want, describe(t, v, solver))

	u, err := Unresolved(s, -1)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"f=new1 g=new1 objects=2",
		"f=new1 g=new2 objects=3",
		"f=null g=new1 objects=2",
		"f=this g=new1 objects=2",
	}, describe(t, u, solver), "Unresolved on a guarded state: the heaps with g null or this are lost")
}

// The read of this.f happened only where this.g = this (r_x ≠ null; a
// guard over a reference of no location). Deferred: where g = null, f is
// still uninitialized and no object was read. Unresolved ignores the read
// guard: l_u exists in the worlds g = null too, as an unreachable object.
func TestDeferredReadGuard(t *testing.T) {
	s, solver := setup(t)
	rx := s.InitR()
	s.Set(rx, machine.GVS{{Guard: smt.Eq(rx, machine.RNull), Loc: machine.LNull}, {Guard: smt.Neq(rx, machine.RNull), Loc: 0}})
	s.SetField(0, field(s, "g"), rx)
	deferredAt(s, "f", smt.Neq(rx, machine.RNull))

	v, err := Deferred(s, -1)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"f=new1 g=this objects=2",
		"f=null g=this objects=1",
		"f=this g=this objects=1",
		"f=un g=null objects=1",
	}, describe(t, v, solver))

	u, err := Unresolved(s, -1)
	require.NoError(t, err)
	assert.Contains(t, describe(t, u, solver), "f=un g=null objects=2",
		"Unresolved on a guarded read: an object read in no world")
}

// Two deferred reads resolved in the View in creation order: the second
// may alias the first (this.f and this.g the same new object).
func TestDeferredTwo(t *testing.T) {
	s, solver := setup(t)
	deferredAt(s, "f", smt.True())
	deferredAt(s, "g", smt.True())
	v, err := Deferred(s, -1)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"f=new1 g=new1 objects=2",
		"f=new1 g=new2 objects=3",
		"f=new1 g=null objects=2",
		"f=new1 g=this objects=2",
		"f=null g=new1 objects=2",
		"f=null g=null objects=1",
		"f=null g=this objects=1",
		"f=this g=new1 objects=2",
		"f=this g=null objects=1",
		"f=this g=this objects=1",
	}, describe(t, v, solver))
	// Beyond the k-bound (depth 1 > k = 0) neither can be a new object.
	v, err = Deferred(s, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"f=null g=null objects=1",
		"f=null g=this objects=1",
		"f=this g=null objects=1",
		"f=this g=this objects=1",
	}, describe(t, v, solver))
}
