// Package gse is generalized symbolic execution with lazy initialization
// (RULES.md §5), the reference engine the checker trusts.
//
// Every guarded value set in a GSE state is a singleton {(true l)}: a GSE
// state is one concrete heap shape, and aliasing is decided by branching in
// the initialization machine →I (null, new, one alias per candidate). The
// path condition only records reference comparisons, and it is always
// satisfiable by construction, so GSE never asks the solver anything.
package gse

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Engine implements the GSE heap rules on the shared machine.
type Engine struct {
	// K is the k-bound: Initialize (new) may create a location from l_x
	// only if depth(l_x)+1 ≤ K. K < 0 means unbounded.
	K int
	// Options are the common-rule choices (variant V9).
	Opt machine.Options
	// Stats counts initializations by choice; may be nil.
	Stats *InitStats
}

// InitStats counts the branches the initialization machine took.
type InitStats struct {
	Null, New, Alias int64
}

// New returns a GSE engine with k-bound k.
func New(k int) *Engine { return &Engine{K: k, Stats: &InitStats{}} }

// Options implements machine.Engine.
func (e *Engine) Options() machine.Options { return e.Opt }

// Name implements machine.Engine.
func (e *Engine) Name() string { return "gse" }

var _ machine.Engine = (*Engine)(nil)

// only returns the single location of a GSE guarded value set.
func only(s *machine.State, r machine.Ref) (machine.Loc, error) {
	g := s.Get(r)
	if len(g) != 1 {
		return 0, fmt.Errorf("gse: L(%s) has %d entries, want exactly one", machine.RefString(r), len(g))
	}
	return g[0].Loc, nil
}

// Initialize is the initialization machine →I* for field f of l: it
// returns one state per branch (the state itself when the field is already
// initialized). UN(L,R,φ_g,r,f) has at most one element in GSE (L(r) is a
// singleton and every guard is true), so the fixpoint is at most one step.
func (e *Engine) Initialize(s *machine.State, l machine.Loc, f *javalite.Field) []*machine.State {
	cur := s.Field(l, f)
	if g := s.Get(cur); len(g) != 1 || g[0].Loc != machine.LUn {
		return []*machine.State{s}
	}
	c := f.Class
	depth := s.Locs[l].Depth
	cands := s.InputLocs(c) // ρ(C), taken before a new location is added
	var out []*machine.State

	// Rule: Initialize (null)
	sn := s.Clone()
	rn := sn.FreshR()
	sn.Set(rn, machine.Single(machine.LNull))
	sn.SetField(l, f, rn)
	out = append(out, sn)

	// Rule: Initialize (new), only within the k-bound.
	if e.K < 0 || depth+1 <= e.K {
		sw := s.Clone()
		rw := sw.InitR()
		lw := sw.NewLoc(machine.LocInfo{Class: c, Input: true, Depth: depth + 1, Identity: rw}, machine.RUn)
		sw.Set(rw, machine.Single(lw))
		sw.SetField(l, f, rw)
		out = append(out, sw)
	}

	// Rule: Initialize (alias), one branch per (r_a l_a) ∈ ρ(C).
	for i, a := range cands {
		sa := s
		if i < len(cands)-1 {
			sa = s.Clone()
		}
		ra := sa.FreshR()
		sa.Set(ra, machine.Single(a.Loc))
		sa.SetField(l, f, ra)
		out = append(out, sa)
	}
	if e.Stats != nil {
		e.Stats.Null++
		if len(out) > 1+len(cands) {
			e.Stats.New++
		}
		e.Stats.Alias += int64(len(cands))
	}
	return out
}

// FieldAccess implements rules A and A′ of RULES.md §5.
func (e *Engine) FieldAccess(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
	l, err := only(s, r)
	if err != nil {
		return nil, err
	}
	if l == machine.LNull {
		// Rule: Field access (A′)
		s.SetError()
		return []machine.Succ{{S: s, Rule: machine.RuleFieldANull}}, nil
	}
	// Rule: Field access (A)
	var out []machine.Succ
	for _, b := range e.Initialize(s, l, fa.Field) {
		g := b.Get(b.Field(l, fa.Field))
		r2 := b.StackR()
		b.Set(r2, g)
		b.SetValue(machine.RefVal(r2), k)
		out = append(out, machine.Succ{S: b, Rule: machine.RuleFieldA})
	}
	return out, nil
}

// FieldWrite implements rules W and W′ of RULES.md §5.
func (e *Engine) FieldWrite(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont) ([]machine.Succ, error) {
	rx := s.Env[fw.Slot].Ref()
	l, err := only(s, rx)
	if err != nil {
		return nil, err
	}
	if l == machine.LNull {
		// Rule: Field write (W′)
		s.SetError()
		return []machine.Succ{{S: s, Rule: machine.RuleWriteWNull}}, nil
	}
	// Rule: Field write (W)
	r2 := s.FreshR()
	s.Set(r2, s.Get(r))
	s.SetField(l, fw.Field, r2)
	s.SetValue(machine.RefVal(r), k)
	return []machine.Succ{{S: s, Rule: machine.RuleWriteW}}, nil
}

// EqualsRef implements rules E and E′ of RULES.md §5.
func (e *Engine) EqualsRef(s *machine.State, r0, r1 machine.Ref, eq *javalite.Equals, k *machine.Kont) ([]machine.Succ, error) {
	l0, err := only(s, r0)
	if err != nil {
		return nil, err
	}
	l1, err := only(s, r1)
	if err != nil {
		return nil, err
	}
	if l0 == l1 {
		// Rule: Equals (E)
		s.AddFact(smt.Eq(r0, r1))
		s.SetValue(machine.VTrue, k)
		return []machine.Succ{{S: s, Rule: machine.RuleEqualsE}}, nil
	}
	// Rule: Equals (E′)
	if e.Opt.Mutation.GSEEqualsNotRecordsEq {
		s.AddFact(smt.Eq(r0, r1)) // mutant: the wrong fact
	} else {
		s.AddFact(smt.Neq(r0, r1))
	}
	s.SetValue(machine.VFalse, k)
	return []machine.Succ{{S: s, Rule: machine.RuleEqualsENot}}, nil
}

// Invoke implements rules Invoke and Invoke′ (V11, Java reading, RULES.md
// §3) on (L R φ η v (r @ m * → k)): a call on a null receiver throws, as
// A′ and W′ do; otherwise the method is entered.
func (e *Engine) Invoke(s *machine.State, r machine.Ref, v machine.Value, c *javalite.Call, k *machine.Kont) ([]machine.Succ, error) {
	l, err := only(s, r)
	if err != nil {
		return nil, err
	}
	if l == machine.LNull {
		// Rule: Invoke′
		s.SetError()
		return []machine.Succ{{S: s, Rule: machine.RuleInvokeNull}}, nil
	}
	// Rule: Invoke
	return []machine.Succ{machine.EnterMethod(s, r, v, c, k, e.Opt)}, nil
}
