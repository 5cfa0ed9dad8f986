package uber

import (
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// newSymFields is u-newsym's New (seed 004: "a fresh l of type(r) with
// every field ↦ a fresh unresolved reference"), applied to a copy of s for
// the View: every field of a (new C) location that still holds the r_null
// New put there gets a new unresolved location with read guard true, as
// the engine's deferred read gives it at the first read (New itself is a
// common rule of the machine, which an engine does not replace). A field
// written since holds a reference of the write instead and is left alone.
// The copy is returned; s is not modified.
func newSymFields(s *machine.State) *machine.State {
	var v *machine.State
	n := len(s.Locs)
	for l := 0; l < n; l++ {
		info := s.Locs[l]
		if info.Input || info.Unresolved {
			continue
		}
		for _, f := range info.Class.Fields {
			if s.Field(machine.Loc(l), f) != machine.RNull {
				continue
			}
			if v == nil {
				v = s.Clone()
			}
			// Rule: New (seed 004, u-newsym): every field ↦ a fresh unresolved reference
			lu := v.NewLoc(machine.LocInfo{Class: f.Class, Unresolved: true, MayBeNull: true,
				Depth: info.Depth + 1, Exists: smt.True()}, machine.RUn)
			rf := v.InitR()
			v.Set(rf, machine.Single(lu))
			v.SetField(machine.Loc(l), f, rf)
		}
	}
	if v == nil {
		return s
	}
	return v
}
