package kiasan

import (
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Data (PRIMITIVES.md §4, lazier and lazier#). Primitive fields exist only
// on materialized locations: a dereference of an unresolved receiver is
// RESOLVEd first, exactly as for a reference field, and then GSE's rules
// apply to the location it became: a read is the field's term, a write
// replaces it. The terms come from the materialization: a location that
// RESOLVE makes fresh is an input object, so its primitive fields become
// its initial-value symbols α(l_u, f) under its identity r_u (NewLoc gave
// the unresolved location Java's defaults, since it was no input object
// yet, and no rule reads them before the resolution); an alias resolution
// reads the existing location's fields, with whatever was written to them
// or assumed about them before.
//
// The path condition φ the common rules If (sym) and Assume extend is the
// engine's fact list: GSE's comparisons, the resolution facts, and the data
// facts. The reference facts are satisfiable by construction (every
// resolution records a consistent choice; an impossible one is never made)
// and share no atom with the data facts (a symbol α(r, f) names an input,
// it is no reference atom), so only the data facts are in question, as in
// gse.Engine.Feasible.

var _ machine.PathCond = (*Engine)(nil)

// readPrim is GSE's A on a primitive field f of a location l that is not
// unresolved: the field's term, no initialization (GETFIELD1-S: the field
// of a materialized object is defined).
func readPrim(s *machine.State, l machine.Loc, f *javalite.Field, k *machine.Kont, pre []string) machine.Succ {
	// Rule: Field access (A) on a primitive field / GETFIELD1-S
	s.SetValue(machine.PrimVal(s.PrimField(l, f)), k)
	return machine.Succ{S: s, Rule: ruleName(machine.RuleFieldA, with(pre, "GETFIELD1-S"))}
}

// writePrim is GSE's W on a primitive field f of a resolved receiver l:
// R[(l f) ↦ t]; the value of the write is t.
func writePrim(s *machine.State, l machine.Loc, f *javalite.Field, k *machine.Kont, pre []string) machine.Succ {
	// Rule: Field write (W) on a primitive field / PUTFIELD1-S
	s.SetPrimField(l, f, s.Val.Term())
	s.SetValue(s.Val, k)
	return machine.Succ{S: s, Rule: ruleName(machine.RuleWriteW, with(pre, "PUTFIELD1-S"))}
}

// materialize makes the unresolved location l an input object of its own
// (RESOLVE's "fresh", or alias-pending's older location): its primitive
// fields become α(l, f) under its identity, which is final by now.
func (e *Engine) materialize(s *machine.State, l machine.Loc) {
	li := &s.Locs[l]
	li.Unresolved, li.MayBeNull, li.Input, li.Exists = false, false, true, smt.True()
	if e.Mut == MutFreshPrimDefaults { // Mutant fresh-prim-defaults: the defaults stay
		return
	}
	s.InitPrimFields(l)
}

// renameInput makes α(from, f) read α(to, f) everywhere in s: the primitive
// fields, the term values of η, e and k, and φ. stamp-kbound gives a
// location an older identity when an older symbol is resolved to it (in
// GSE the object is created by that symbol's read), and its initial-value
// symbols must follow the identity: the relations name an input object's
// data by its identity (relation.ExactData). α(to, f) occurs nowhere
// before, since no rule reads the fields of an unresolved location.
func renameInput(s *machine.State, from, to machine.Ref) {
	m := func(r smt.Ref) (smt.Ref, bool) {
		if r == from {
			return to, true
		}
		return r, false
	}
	rn := func(t *smt.Formula) *smt.Formula {
		if t == nil || !t.HasData() {
			return t
		}
		return smt.RenameSyms(t, m)
	}
	for i, t := range s.Prim {
		s.Prim[i] = rn(t)
	}
	val := func(v machine.Value) machine.Value {
		if v.IsTerm() {
			return machine.PrimVal(rn(v.Term()))
		}
		return v
	}
	env := func(vs []machine.Value) []machine.Value {
		if vs == nil {
			return nil
		}
		out := make([]machine.Value, len(vs))
		for i, v := range vs {
			out[i] = val(v)
		}
		return out
	}
	s.Env = env(s.Env)
	if s.Mode == machine.ModeValue {
		s.Val = val(s.Val)
	}
	// Frames are immutable and shared with other states: copy the chain.
	var frames []machine.Kont
	for k := s.K; k != nil; k = k.Next {
		c := *k
		c.Val = val(c.Val)
		c.Env = env(c.Env)
		frames = append(frames, c)
	}
	var next *machine.Kont
	for i := len(frames) - 1; i >= 0; i-- {
		frames[i].Next = next
		next = &frames[i]
	}
	s.K = next
	var facts []*smt.Formula
	for f := s.Facts; f != nil; f = f.Next {
		facts = append(facts, rn(f.F))
	}
	s.Facts = nil
	for i := len(facts) - 1; i >= 0; i-- {
		s.AddFact(facts[i])
	}
	s.Phi = rn(s.Phi)
}
