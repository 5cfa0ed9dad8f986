// Package gse is generalized symbolic execution with lazy initialization
// (RULES.md §5), the reference engine the checker trusts.
//
// Every guarded value set in a GSE state is a singleton {(true l)}: a GSE
// state is one concrete heap shape, and aliasing is decided by branching in
// the initialization machine →I (null, new, one alias per candidate). The
// reference part of the path condition only records comparisons, and it is
// always satisfiable by construction, so GSE asks the solver nothing about
// references.
//
// Data (PRIMITIVES.md §4): a primitive field holds a term from the start
// (the initial-value symbol of an input location, a default of a new one),
// so reading it initializes nothing and a write replaces the term. The one
// question GSE asks is the data part of its path condition at If (sym) and
// Assume: only that part is ever in question, because the heap shape fixes
// every reference fact. It asks it of Engine.Solver.
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
	// Facts is the path condition for If (sym) and Assume: the fact
	// list, its data part decided by Facts.Solver (programs without data
	// never use it; when it is nil and a program with data needs it, the
	// engine makes one for itself).
	machine.Facts
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

// Feasible implements machine.PathCond: S(φ ∧ t) by the fact list
// (machine.Facts), or S(t) under the mutation GSEFeasibleIgnoresPhi.
func (e *Engine) Feasible(s *machine.State, t *smt.Formula) (bool, error) {
	if e.Opt.Mutation.GSEFeasibleIgnoresPhi {
		// mutant: the path condition is left out of the question (a
		// state without facts has no data facts)
		return e.Facts.Feasible(&machine.State{}, t)
	}
	return e.Facts.Feasible(s, t)
}

var (
	_ machine.Engine   = (*Engine)(nil)
	_ machine.PathCond = (*Engine)(nil)
)

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
	if !Uninitialized(s, l, f) {
		return []*machine.State{s}
	}
	b := e.branches(s, l, f)
	out := make([]*machine.State, b.n)
	for i := range out {
		si := s
		if i < b.n-1 {
			si = s.Clone() // every branch starts from s as it is now
		}
		e.initialize(si, b, i)
		out[i] = si
	}
	return out
}

// Uninitialized reports whether R(l, f) still points to l_un: then →I*
// branches (Initialize); otherwise Initialize returns s itself.
func Uninitialized(s *machine.State, l machine.Loc, f *javalite.Field) bool {
	g := s.Get(s.Field(l, f))
	return len(g) == 1 && g[0].Loc == machine.LUn
}

// initBranches are the choices of the initialization machine for field f
// of l, in the order the rules list them: null, new (only within the
// k-bound), then one alias per (r_a l_a) ∈ ρ(C).
type initBranches struct {
	l     machine.Loc
	f     *javalite.Field
	newOK bool
	cands []machine.Entry2 // ρ(C), taken before a new location is added
	n     int
}

// branches returns the initialization choices for f of l and counts them
// in e.Stats.
func (e *Engine) branches(s *machine.State, l machine.Loc, f *javalite.Field) initBranches {
	b := initBranches{l: l, f: f, newOK: e.K < 0 || s.Locs[l].Depth+1 <= e.K, cands: s.InputLocs(f.Class)}
	b.n = 1 + len(b.cands)
	if b.newOK {
		b.n++
	}
	if e.Stats != nil {
		e.Stats.Null++
		if b.newOK {
			e.Stats.New++
		}
		e.Stats.Alias += int64(len(b.cands))
	}
	return b
}

// initialize applies choice i of b to s.
func (e *Engine) initialize(s *machine.State, b initBranches, i int) {
	l, f := b.l, b.f
	if i == 0 {
		// Rule: Initialize (null)
		rn := s.FreshR()
		s.Set(rn, machine.Single(machine.LNull))
		s.SetField(l, f, rn)
		return
	}
	if b.newOK {
		if i == 1 {
			// Rule: Initialize (new), only within the k-bound.
			rw := s.InitR()
			lw := s.NewLoc(machine.LocInfo{Class: f.Class, Input: true, Depth: s.Locs[l].Depth + 1, Identity: rw}, machine.RUn)
			s.Set(rw, machine.Single(lw))
			s.SetField(l, f, rw)
			return
		}
		i--
	}
	// Rule: Initialize (alias), one branch per (r_a l_a) ∈ ρ(C).
	ra := s.FreshR()
	s.Set(ra, machine.Single(b.cands[i-1].Loc))
	s.SetField(l, f, ra)
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
	if fa.Field.IsPrim() {
		// Rule: Field access (A) on a primitive field: its term, no
		// initialization (PRIMITIVES.md §4).
		s.SetValue(machine.PrimVal(s.PrimField(l, fa.Field)), k)
		return []machine.Succ{{S: s, Rule: machine.RuleFieldA}}, nil
	}
	// Rule: Field access (A)
	var out []machine.Succ
	for _, b := range e.Initialize(s, l, fa.Field) {
		access(b, l, fa.Field, k)
		out = append(out, machine.Succ{S: b, Rule: machine.RuleFieldA})
	}
	return out, nil
}

// access is rule A after initialization: a fresh stack reference for the
// value of R(l, f).
func access(b *machine.State, l machine.Loc, f *javalite.Field, k *machine.Kont) {
	g := b.Get(b.Field(l, f))
	r2 := b.StackR()
	b.Set(r2, g)
	b.SetValue(machine.RefVal(r2), k)
}

// FieldWrite implements rules W and W′ of RULES.md §5.
func (e *Engine) FieldWrite(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont) ([]machine.Succ, error) {
	rule, err := e.fieldWrite(s, r, fw, k, nil)
	if err != nil {
		return nil, err
	}
	return []machine.Succ{{S: s, Rule: rule}}, nil
}

// fieldWrite applies W or W′ to s in place and returns the rule; before
// it overwrites R(l, f) it calls written (if not nil) with the index of
// that entry in s.R, so that the copy-free explorer can undo the write.
func (e *Engine) fieldWrite(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont, written func(i int)) (string, error) {
	rx := s.Env[fw.Slot].Ref()
	l, err := only(s, rx)
	if err != nil {
		return "", err
	}
	if l == machine.LNull {
		// Rule: Field write (W′)
		s.SetError()
		return machine.RuleWriteWNull, nil
	}
	if fw.Field.IsPrim() {
		// Rule: Field write (W) on a primitive field: R[(l f) ↦ t]
		// (PRIMITIVES.md §4); the value of the write is t. (The
		// copy-free explorer, the only caller with written, never runs a
		// program with data.)
		s.SetPrimField(l, fw.Field, s.Val.Term())
		s.SetValue(s.Val, k)
		return machine.RuleWriteW, nil
	}
	// Rule: Field write (W)
	r2 := s.FreshR()
	s.Set(r2, s.Get(r))
	if written != nil {
		written(int(l)*s.NumFields() + fw.Field.ID)
	}
	s.SetField(l, fw.Field, r2)
	s.SetValue(machine.RefVal(r), k)
	return machine.RuleWriteW, nil
}

// EqualsRef implements rules E and E′ of RULES.md §5.
func (e *Engine) EqualsRef(s *machine.State, r0, r1 machine.Ref, eq *javalite.Equals, k *machine.Kont) ([]machine.Succ, error) {
	rule, err := e.equalsRef(s, r0, r1, k, atom)
	if err != nil {
		return nil, err
	}
	return []machine.Succ{{S: s, Rule: rule}}, nil
}

// atom is the comparison r0 = r1 (eq) or r0 ≠ r1 as a formula.
func atom(r0, r1 machine.Ref, eq bool) *smt.Formula {
	if eq {
		return smt.Eq(r0, r1)
	}
	return smt.Neq(r0, r1)
}

// equalsRef applies E or E′ to s in place and returns the rule; mk builds
// the recorded comparison (atom, or a cache of it).
func (e *Engine) equalsRef(s *machine.State, r0, r1 machine.Ref, k *machine.Kont, mk func(r0, r1 machine.Ref, eq bool) *smt.Formula) (string, error) {
	l0, err := only(s, r0)
	if err != nil {
		return "", err
	}
	l1, err := only(s, r1)
	if err != nil {
		return "", err
	}
	if l0 == l1 {
		// Rule: Equals (E)
		s.AddFact(mk(r0, r1, true))
		s.SetValue(machine.VTrue, k)
		return machine.RuleEqualsE, nil
	}
	// Rule: Equals (E′)
	// (mutant GSEEqualsNotRecordsEq: the wrong fact, r0 = r1)
	s.AddFact(mk(r0, r1, e.Opt.Mutation.GSEEqualsNotRecordsEq))
	s.SetValue(machine.VFalse, k)
	return machine.RuleEqualsENot, nil
}

// Invoke implements rules Invoke and Invoke′ (V11, Java reading, RULES.md
// §3) on (L R φ η v (r @ m * → k)): a call on a null receiver throws, as
// A′ and W′ do; otherwise the method is entered.
func (e *Engine) Invoke(s *machine.State, r machine.Ref, args []machine.Value, c *javalite.Call, k *machine.Kont) ([]machine.Succ, error) {
	rule, err := e.invoke(s, r, args, c, k)
	if err != nil {
		return nil, err
	}
	return []machine.Succ{{S: s, Rule: rule}}, nil
}

// invoke applies Invoke or Invoke′ to s in place and returns the rule.
func (e *Engine) invoke(s *machine.State, r machine.Ref, args []machine.Value, c *javalite.Call, k *machine.Kont) (string, error) {
	l, err := only(s, r)
	if err != nil {
		return "", err
	}
	if l == machine.LNull {
		// Rule: Invoke′
		s.SetError()
		return machine.RuleInvokeNull, nil
	}
	// Rule: Invoke
	return machine.EnterMethod(s, r, args, c, k, e.Opt).Rule, nil
}
