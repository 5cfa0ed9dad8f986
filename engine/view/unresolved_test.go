package view

import (
	"sort"
	"strings"
	"testing"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Node with two fields; the entry's receiver is l_0, a Node.
const nodeSrc = `(((class Node ([Node f] [Node g])
    ((bool main [bool x] true))))
 (Node main))`

func setup(t *testing.T) (*machine.State, *smt.Solver) {
	t.Helper()
	p, err := javalite.ParseAndCheck("node.jl", []byte(nodeSrc))
	require.NoError(t, err)
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	t.Cleanup(solver.Close)
	return machine.Initial(p), solver
}

func field(s *machine.State, name string) *javalite.Field {
	for _, f := range s.Prog.Fields {
		if f.Name == name {
			return f
		}
	}
	panic(name)
}

// unresolvedAt makes an unresolved location the way package kiasan does
// (identity init_r(), fields r_un) and points field f of l_0 to it.
func unresolvedAt(s *machine.State, f string, mayBeNull bool, depth int) machine.Loc {
	ru := s.InitR()
	lu := s.NewLoc(machine.LocInfo{Class: s.Prog.Entry.Owner, Unresolved: true, MayBeNull: mayBeNull, Depth: depth}, machine.RUn)
	s.Locs[lu].Identity = ru
	s.Set(ru, machine.Single(lu))
	rf := s.FreshR()
	s.Set(rf, machine.Single(lu))
	s.SetField(0, field(s, f), rf)
	if !mayBeNull {
		s.AddFact(smt.Neq(ru, machine.RNull))
	}
	return lu
}

// heaps concretizes the View and describes each heap by where l_0's f and
// g point ("this", "null", "un", or "new1", "new2" for the other objects
// in order of first mention), sorted.
func heaps(t *testing.T, s *machine.State, k int, solver *smt.Solver) []string {
	t.Helper()
	v, err := Unresolved(s, k)
	require.NoError(t, err)
	viol, err := relation.WellFormed(v, solver)
	require.NoError(t, err)
	require.Nil(t, viol, "View not well formed")
	hs, complete, err := relation.Concretize(v, solver, relation.DefaultBudget)
	require.NoError(t, err)
	require.True(t, complete)
	var out []string
	for _, h := range hs {
		var this relation.Target = -3
		for i, l := range h.Locs {
			if l.Orig == 0 {
				this = relation.Target(i)
			}
		}
		names := map[relation.Target]string{this: "this", relation.TNull: "null", relation.TUn: "un"}
		name := func(x relation.Target) string {
			if n, ok := names[x]; ok {
				return n
			}
			n := "new" + string(rune('0'+len(names)-2))
			names[x] = n
			return n
		}
		fs := h.Locs[this].Fields
		desc := "f=" + name(fs[0]) + " g=" + name(fs[1])
		out = append(out, desc+" objects="+string(rune('0'+len(h.Locs))))
	}
	sort.Strings(out)
	return out
}

func TestViewNoUnresolvedIsIdentity(t *testing.T) {
	s, _ := setup(t)
	v, err := Unresolved(s, -1)
	require.NoError(t, err)
	assert.Same(t, s, v)
}

// lazier#'s δ̂ in this.f: null, this, or a new object.
func TestViewMayBeNull(t *testing.T) {
	s, solver := setup(t)
	unresolvedAt(s, "f", true, 1)
	assert.Equal(t, []string{
		"f=new1 g=un objects=2",
		"f=null g=un objects=1",
		"f=this g=un objects=1",
	}, heaps(t, s, -1, solver))
}

// lazier's δ in this.f: non-null, so this or a new object.
func TestViewNonNull(t *testing.T) {
	s, solver := setup(t)
	unresolvedAt(s, "f", false, 1)
	assert.Equal(t, []string{
		"f=new1 g=un objects=2",
		"f=this g=un objects=1",
	}, heaps(t, s, -1, solver))
}

// Two δ: every equality partition of {this, δ_f, δ_g}: 5 heaps.
func TestViewTwoUnresolved(t *testing.T) {
	s, solver := setup(t)
	unresolvedAt(s, "f", false, 1)
	unresolvedAt(s, "g", false, 1)
	assert.Equal(t, []string{
		"f=new1 g=new1 objects=2",
		"f=new1 g=new2 objects=3",
		"f=new1 g=this objects=2",
		"f=this g=new1 objects=2",
		"f=this g=this objects=1",
	}, heaps(t, s, -1, solver))
	// The second δ's set in the View: this, the first δ, itself; guards
	// pairwise exclusive without φ (checked by WellFormed above).
	v, err := Unresolved(s, -1)
	require.NoError(t, err)
	g := v.Get(v.Field(0, field(s, "g")))
	require.Len(t, g, 3)
	assert.Equal(t, []machine.Loc{0, 1, 2}, []machine.Loc{g[0].Loc, g[1].Loc, g[2].Loc})
	assert.True(t, v.Locs[1].Input && v.Locs[2].Input && !v.Locs[1].Unresolved)
}

// Beyond the k-bound a δ has no object of its own: at k = 0, a depth-1 δ̂
// is null or this, and φ_view excludes its existence.
func TestViewKBound(t *testing.T) {
	s, solver := setup(t)
	unresolvedAt(s, "f", true, 1)
	assert.Equal(t, []string{
		"f=null g=un objects=1",
		"f=this g=un objects=1",
	}, heaps(t, s, 0, solver))
	// Two depth-1 δ at k = 0: both this (non-null, no fresh).
	s, solver = setup(t)
	unresolvedAt(s, "f", false, 1)
	unresolvedAt(s, "g", false, 1)
	assert.Equal(t, []string{"f=this g=this objects=1"}, heaps(t, s, 0, solver))
}

// An unresolved location nothing points to any more is still an input
// object in the worlds where it is one (GSE's unreachable input location).
func TestViewUnreachable(t *testing.T) {
	s, solver := setup(t)
	unresolvedAt(s, "f", false, 1)
	rn := s.FreshR()
	s.Set(rn, machine.Single(machine.LNull))
	s.SetField(0, field(s, "f"), rn)
	assert.Equal(t, []string{
		"f=null g=un objects=1",
		"f=null g=un objects=2",
	}, heaps(t, s, -1, solver))
}

// A location a resolution replaced (Exists = false) is no object; a value
// set still naming it is an engine error the View reports.
func TestViewDeadLocation(t *testing.T) {
	s, solver := setup(t)
	lu := unresolvedAt(s, "f", false, 1)
	ru := s.Locs[lu].Identity
	// Resolve to this everywhere, as kiasan's substitute does.
	rf := s.Field(0, field(s, "f"))
	s.Set(rf, machine.Single(0))
	s.Set(ru, machine.Single(0))
	s.AddFact(smt.Eq(ru, s.Locs[0].Identity))
	s.Locs[lu].Exists = smt.False()
	assert.Equal(t, []string{"f=this g=un objects=1"}, heaps(t, s, -1, solver))
	v, err := Unresolved(s, -1)
	require.NoError(t, err)
	assert.True(t, v.Locs[lu].Input && v.Locs[lu].Exists.IsFalse())

	s.Set(rf, machine.Single(lu))
	_, err = Unresolved(s, -1)
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "replaced"), err.Error())
}

// The View does not modify its argument.
func TestViewPure(t *testing.T) {
	s, _ := setup(t)
	lu := unresolvedAt(s, "f", true, 1)
	before := s.Clone()
	_, err := Unresolved(s, -1)
	require.NoError(t, err)
	assert.Equal(t, before.Locs, s.Locs)
	assert.Equal(t, before.L, s.L)
	assert.Same(t, before.Phi, s.Phi)
	assert.True(t, s.Locs[lu].Unresolved)
}

// stamp-kbound: a δ beyond the bound may not be a younger symbol's object.
func TestViewStamped(t *testing.T) {
	s, solver := setup(t)
	// this.f: a depth-2 δ (older); this.g: a materialized location from a
	// younger symbol.
	unresolvedAt(s, "f", false, 2)
	ry := s.InitR()
	ly := s.NewLoc(machine.LocInfo{Class: s.Prog.Entry.Owner, Input: true, Depth: 1, Identity: ry}, machine.RUn)
	s.Set(ry, machine.Single(ly))
	rg := s.FreshR()
	s.Set(rg, machine.Single(ly))
	s.SetField(0, field(s, "g"), rg)
	s.AddFact(smt.Neq(ry, machine.RNull))
	assert.Equal(t, []string{"f=new1 g=new1 objects=2", "f=this g=new1 objects=2"}, heaps(t, s, 1, solver))
	v, err := UnresolvedStamped(s, 1)
	require.NoError(t, err)
	viol, err := relation.WellFormed(v, solver)
	require.NoError(t, err)
	require.Nil(t, viol)
	hs, _, err := relation.Concretize(v, solver, relation.DefaultBudget)
	require.NoError(t, err)
	assert.Len(t, hs, 1, "only f = this")
}

// TestUnresolvedPrimFields: an unresolved location holds Java's defaults in
// its primitive fields (it was no input object when NewLoc made it, and no
// rule reads them before RESOLVE); in the View it is the input object a
// fresh resolution would make, with its initial-value symbols α(l_u, f).
// The engine state is not modified, and a replaced (dead) location keeps
// what it had.
func TestUnresolvedPrimFields(t *testing.T) {
	p, err := javalite.ParseAndCheck("prim.jl", []byte(`(((class Node ([Node f] [Node g] [int key] [bool red])
    ((bool main [bool x] true))))
 (Node main))`))
	require.NoError(t, err)
	s := machine.Initial(p)
	key, red := field(s, "key"), field(s, "red")
	lu := unresolvedAt(s, "f", true, 1)
	require.Equal(t, smt.Int(0), s.PrimField(lu, key), "NewLoc gives a non-input location the defaults")
	require.Equal(t, smt.False(), s.PrimField(lu, red))
	v, err := Unresolved(s, -1)
	require.NoError(t, err)
	ru := s.Locs[lu].Identity
	assert.Equal(t, machine.InitialValue(ru, key), v.PrimField(lu, key))
	assert.Equal(t, machine.InitialValue(ru, red), v.PrimField(lu, red))
	assert.Equal(t, machine.InitialValue(s.Locs[0].Identity, key), v.PrimField(0, key), "l_0 keeps its own symbols")
	assert.Equal(t, smt.Int(0), s.PrimField(lu, key), "the View does not modify the engine state")
	assert.Nil(t, relation.SortConsistent(v))
}
