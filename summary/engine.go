// Package summary is symbolic execution with heap summaries (RULES.md §6):
// the engine under test.
//
// A summary state stands for many GSE states at once. Where GSE branches
// on every way an uninitialized field can be initialized (null, new, one
// alias per candidate), the Summarize machine →S records all of them in a
// single guarded value set whose guards are constraints over input
// references, and Field access, Field write and Equals work on guarded value
// sets, pushing choices into the path condition instead of into the control
// flow. Only a reference comparison or a possible null dereference splits a
// path, which is why the number of summary paths grows slowly where GSE's
// explodes.
//
// The engine is one implementation of the rules plus a Variant: the points
// where the sources disagree (RULES.md §9), and deliberate mutations for
// testing the checker, are fields of the Variant, each named, documented
// and composable as one row of Table. A reading is read at the choice
// point of its rule, tagged with its row of RULES.md §9 (`// V7`); a
// mutation is applied at exactly one place, tagged `// Mutant m-NAME`.
// Summarize is written one function per θ (thetaNull, thetaNew,
// thetaAlias, thetaOrig), each headed by its line of RULES.md §6. Every satisfiability question S(φ) goes to the
// smt.Solver; an unknown answer is returned as an error and never guessed,
// so a state is never built on an undecided premise.
//
// Guarded value sets keep every location once (duplicates merge by
// disjunction). Entries whose guard is unsatisfiable with the path condition
// of the state they end up in are dropped as they are built: RULES.md §6
// allows it, and it keeps the guards, and so every later query, small.
package summary

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Engine implements the heap-summary rules on the shared machine. It is not
// safe for concurrent use (its solver is not).
type Engine struct {
	v      Variant
	k      int
	solver *smt.Solver
	stats  Stats
}

// Stats are engine-level counts since the engine was created. Solver work
// is counted by the solver itself (smt.Solver.Stats).
type Stats struct {
	Summarize  int64 // →S steps taken
	NewLocs    int64 // input locations created by θ_new
	KBounded   int64 // θ_new left out by the k-bound
	Pruned     int64 // entries dropped as unsatisfiable with the path condition
	SatQueries int64 // S(φ) questions asked (cached or not)

	// Successors produced, by rule.
	Access, AccessNull int64 // A, A′
	Write, WriteNull   int64 // W, W′
	EqTrue, EqFalse    int64 // E, E′
	Stuck              int64 // null dereferences with no successor (V3)
}

// New returns a summary engine for variant v with k-bound k (k < 0:
// unbounded) asking its satisfiability questions of solver.
func New(v Variant, k int, solver *smt.Solver) *Engine {
	return &Engine{v: v, k: k, solver: solver}
}

// Variant returns the engine's rule choices.
func (e *Engine) Variant() Variant { return e.v }

// Stats returns the counts so far.
func (e *Engine) Stats() Stats { return e.stats }

// Options implements machine.Engine.
func (e *Engine) Options() machine.Options { return e.v.MachineOptions() }

// Name implements machine.Engine.
func (e *Engine) Name() string { return "summary" }

var _ machine.Engine = (*Engine)(nil)

// sat is S(φ).
func (e *Engine) sat(f *smt.Formula) (bool, error) {
	e.stats.SatQueries++
	ok, err := e.solver.Sat(f)
	if err != nil {
		return false, fmt.Errorf("summary: S(%v): %w", f, err)
	}
	return ok, nil
}

// merge adds (g l) to the set, merging a duplicate location by disjunction
// (or by conjunction under the MergeByAnd mutation).
func (e *Engine) merge(s machine.GVS, g *smt.Formula, l machine.Loc) machine.GVS {
	if !e.v.Mutation.MergeByAnd { // Mutant m-merge-and
		return s.Merge(g, l)
	}
	for i, en := range s {
		if en.Loc == l {
			out := append(machine.GVS(nil), s...)
			out[i].Guard = smt.And(en.Guard, g)
			return out
		}
	}
	return append(append(machine.GVS(nil), s...), machine.Entry{Guard: g, Loc: l})
}

// addPruned merges (g l) into s unless g is unsatisfiable with phi.
func (e *Engine) addPruned(s machine.GVS, g, phi *smt.Formula, l machine.Loc) (machine.GVS, error) {
	ok, err := e.sat(smt.And(g, phi))
	if err != nil {
		return nil, err
	}
	if !ok {
		e.stats.Pruned++
		return s, nil
	}
	return e.merge(s, g, l), nil
}

// nullGuards computes the premises shared by A/A′ and W/W′ on L(r) under
// φ_g: θ_0 (the satisfiable null guards) and whether some non-null entry is
// satisfiable. An l_un entry that is satisfiable means the state is not
// well formed (a stack reference to an uninitialized location); no rule
// covers it, so it is reported rather than dereferenced.
func (e *Engine) nullGuards(s *machine.State, r machine.Ref, phiG *smt.Formula) (theta0 []*smt.Formula, nonNull bool, err error) {
	for _, en := range s.Get(r) {
		ok, err := e.sat(smt.And(en.Guard, phiG))
		if err != nil {
			return nil, false, err
		}
		if !ok {
			continue
		}
		switch en.Loc {
		case machine.LNull:
			theta0 = append(theta0, en.Guard)
		case machine.LUn:
			return nil, false, fmt.Errorf("summary: L(%s) holds l_un under satisfiable guard %v: the state is not well formed",
				machine.RefString(r), en.Guard)
		default:
			nonNull = true
		}
	}
	if len(s.Get(r)) == 0 {
		return nil, false, fmt.Errorf("summary: L(%s) is empty", machine.RefString(r))
	}
	return theta0, nonNull, nil
}

// notAll is ⋀_{φ∈fs} ¬φ.
func notAll(fs []*smt.Formula) *smt.Formula {
	out := make([]*smt.Formula, len(fs))
	for i, f := range fs {
		out[i] = smt.Not(f)
	}
	return smt.And(out...)
}

// The path conditions of Field access (A). RULES.md §6 computes →S*, VS
// and the successor all under φ'_g; these three functions are the only
// places where a reading (V2) or a mutant deviates.

// initPhi is the condition →S* and VS are computed under.
func (e *Engine) initPhi(phiG, phiP *smt.Formula) *smt.Formula {
	if e.v.Mutation.ForgetPhiPrime { // Mutant m-forget-phi-prime
		return phiG
	}
	return phiP
}

// accessPhi is the successor's path condition (before what →S* assumes),
// against which →S* prunes.
func (e *Engine) accessPhi(phiG, phiP *smt.Formula) *smt.Formula {
	if e.v.AccessKeepsPhi { // V2, seed 000: keep φ_g
		return phiG
	}
	if e.v.Mutation.SuccessorKeepsPhi { // Mutant m-successor-keeps-phi
		return phiG
	}
	return phiP
}

// vsPhi is the condition of VS, after →S* assumed what it assumed.
func (e *Engine) vsPhi(phiG, phiP, assumed *smt.Formula) *smt.Formula {
	if e.v.AccessKeepsPhi { // V2, seed 000: VS under φ_g
		return phiG
	}
	return smt.And(e.initPhi(phiG, phiP), assumed)
}

// errorState turns s into the error state of A′ or W′: (L R φ η error end)
// with φ = φ_g ∧ ⋁θ_0 (or φ_g under V8's published reading).
func (e *Engine) errorState(s *machine.State, phiG *smt.Formula, theta0 []*smt.Formula) {
	phi := phiG
	if !e.v.ErrorKeepsPhi { // V8
		phi = smt.And(phiG, smt.Or(theta0...))
	}
	setPhi(s, phi)
	s.SetError()
}

// setPhi replaces the whole path condition of s.
func setPhi(s *machine.State, phi *smt.Formula) { s.Phi, s.Facts = phi, nil }

// FieldAccess implements rules A and A′ of RULES.md §6 on the state
// (L R φ_g η r (* $ f → k)). Both can fire: A for the worlds where r is not
// null, A′ for those where it is.
func (e *Engine) FieldAccess(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
	f := fa.Field
	phiG := s.PathCondition()
	theta0, nonNull, err := e.nullGuards(s, r, phiG)
	if err != nil {
		return nil, err
	}
	var out []machine.Succ
	if nonNull {
		// Rule: Field access (A)
		sa := s
		if len(theta0) > 0 {
			sa = s.Clone() // A′ below needs the state before →S*
		}
		phiP := smt.And(phiG, notAll(theta0)) // φ'_g = φ_g ∧ ⋀_{φ∈θ_0} ¬φ
		// (L R r f C) →S* (L' R' r f C) under φ'_g
		assumed, err := e.summarizeStar(sa, r, f, e.initPhi(phiG, phiP), e.accessPhi(phiG, phiP))
		if err != nil {
			return nil, err
		}
		// r' = stack_r(), L'[r' ↦ VS(L',R',φ'_g,r,f)], φ'_g
		vs, err := e.vs(sa, r, f, e.vsPhi(phiG, phiP, assumed))
		if err != nil {
			return nil, err
		}
		r2 := sa.StackR()
		sa.Set(r2, vs)
		setPhi(sa, smt.And(e.accessPhi(phiG, phiP), assumed))
		sa.SetValue(machine.RefVal(r2), k)
		e.stats.Access++
		out = append(out, machine.Succ{S: sa, Rule: machine.RuleFieldA})
	}
	if len(theta0) > 0 {
		if e.v.NullDeref == NullStuck { // V3
			// Seed 000: no rule for a null dereference.
			if !nonNull {
				e.stats.Stuck++
			}
			return out, nil
		}
		// Rule: Field access (A′)
		e.errorState(s, phiG, theta0)
		e.stats.AccessNull++
		out = append(out, machine.Succ{S: s, Rule: machine.RuleFieldANull})
	}
	return out, nil
}

// vs is VS(L,R,φ_g,r,f) = {(φ ∧ φ' l') | (φ l) ∈ L(r), l ≠ l_null,
// (φ' l') ∈ L(R(l,f)), S(φ ∧ φ' ∧ φ_g)}, duplicates merged.
func (e *Engine) vs(s *machine.State, r machine.Ref, f *javalite.Field, phiG *smt.Formula) (machine.GVS, error) {
	var out machine.GVS
	for _, en := range s.Get(r) {
		if en.Loc == machine.LNull || en.Loc == machine.LUn {
			continue // l_un was rejected by nullGuards unless unsatisfiable
		}
		for _, en2 := range s.Get(s.Field(en.Loc, f)) {
			g := smt.And(en.Guard, en2.Guard)
			ok, err := e.sat(smt.And(g, phiG))
			if err != nil {
				return nil, err
			}
			if ok {
				if e.v.Mutation.VSDropsFieldGuard { // Mutant m-vs-drops-field-guard
					g = en.Guard
				}
				out = e.merge(out, g, en2.Loc)
			}
		}
	}
	return out, nil
}

// st is ST(L,r,φ,φ_g) = {(φ ∧ φ' l') | (φ' l') ∈ L(r), S(φ ∧ φ' ∧ φ_g)},
// merged into acc.
func (e *Engine) st(acc machine.GVS, s *machine.State, r machine.Ref, phi, phiG *smt.Formula) (machine.GVS, error) {
	for _, en := range s.Get(r) {
		g := smt.And(phi, en.Guard)
		ok, err := e.sat(smt.And(g, phiG))
		if err != nil {
			return nil, err
		}
		if ok {
			acc = e.merge(acc, g, en.Loc)
		}
	}
	return acc, nil
}

// FieldWrite implements rules W and W′ of RULES.md §6 on the state
// (L R φ_g η r (x $ f := * → k)). Both can fire.
func (e *Engine) FieldWrite(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont) ([]machine.Succ, error) {
	f := fw.Field
	v := s.Env[fw.Slot]
	if !v.IsRef() {
		return nil, fmt.Errorf("summary: %s: %s is not bound to a reference", fw.Pos(), fw.VarName)
	}
	rx := v.Ref()
	phiG := s.PathCondition()
	theta0, nonNull, err := e.nullGuards(s, rx, phiG)
	if err != nil {
		return nil, err
	}
	var out []machine.Succ
	if nonNull {
		// Rule: Field write (W)
		sw := s
		if len(theta0) > 0 {
			sw = s.Clone()
		}
		phiP := smt.And(phiG, notAll(theta0)) // φ'_g
		if e.v.InitBeforeWrite {
			// V4, seed 001: initialize the written field first.
			assumed, err := e.summarizeStar(sw, rx, f, phiP, phiP)
			if err != nil {
				return nil, err
			}
			phiP = smt.And(phiP, assumed)
		}
		for _, en := range sw.Get(rx) {
			if en.Loc == machine.LNull || en.Loc == machine.LUn {
				continue
			}
			ok, err := e.sat(smt.And(en.Guard, phiP))
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			rcur := sw.Field(en.Loc, f)
			g, err := e.st(nil, sw, r, en.Guard, phiP)
			if err != nil {
				return nil, err
			}
			if !e.v.Mutation.WriteDropsOld { // Mutant m-write-drops-old
				if g, err = e.st(g, sw, rcur, smt.Not(en.Guard), phiP); err != nil {
					return nil, err
				}
			}
			rl := sw.FreshR()
			sw.Set(rl, g)
			sw.SetField(en.Loc, f, rl)
			if e.v.Mutation.WriteFirstOnly { // Mutant m-write-first-only
				break
			}
		}
		setPhi(sw, phiP)
		sw.SetValue(machine.RefVal(r), k)
		e.stats.Write++
		out = append(out, machine.Succ{S: sw, Rule: machine.RuleWriteW})
	}
	if len(theta0) > 0 {
		if e.v.NullDeref == NullStuck { // V3
			if !nonNull {
				e.stats.Stuck++
			}
			return out, nil
		}
		if e.v.Mutation.NoWriteNull { // Mutant m-no-write-null
			return out, nil
		}
		// Rule: Field write (W′)
		e.errorState(s, phiG, theta0)
		e.stats.WriteNull++
		out = append(out, machine.Succ{S: s, Rule: machine.RuleWriteWNull})
	}
	return out, nil
}

// EqualsRef implements rules E and E′ of RULES.md §6 on the state
// (L R φ η r1 (r0 = * → k)). Each fires when its path condition is
// satisfiable; both can.
func (e *Engine) EqualsRef(s *machine.State, r0, r1 machine.Ref, eq *javalite.Equals, k *machine.Kont) ([]machine.Succ, error) {
	L0, L1 := s.Get(r0), s.Get(r1)
	phi := s.PathCondition()
	if e.v.Mutation.EqualsByLocations { // Mutant m-equals-by-locations
		return e.equalsByLocations(s, L0, L1, k), nil
	}
	find := func(g machine.GVS, l machine.Loc) *smt.Formula {
		for _, en := range g {
			if en.Loc == l {
				return en.Guard
			}
		}
		return nil
	}
	var alpha, impl, phi0s, phi1s []*smt.Formula
	for _, en := range L0 {
		if g1 := find(L1, en.Loc); g1 != nil {
			a := smt.And(en.Guard, g1) // Φ_α
			if e.v.Mutation.EqualsAlphaOr {
				a = smt.Or(en.Guard, g1) // Mutant m-equals-alpha-or
			}
			alpha = append(alpha, a)
			impl = append(impl, smt.Implies(en.Guard, smt.Not(g1)))
		} else {
			phi0s = append(phi0s, en.Guard) // Φ_0
		}
	}
	for _, en := range L1 {
		if find(L0, en.Loc) == nil {
			phi1s = append(phi1s, en.Guard) // Φ_1
		}
	}
	// Rule: Equals (E)
	phiT := smt.And(phi, smt.Or(alpha...), notAll(phi0s), notAll(phi1s))
	if e.v.Mutation.EqualsTrueNoExclusion { // Mutant m-equals-true-no-exclusion
		phiT = smt.And(phi, smt.Or(alpha...))
	}
	// Rule: Equals (E′)
	var phiF *smt.Formula
	switch e.v.EqualsFalse { // V5
	case EqFalseNotAlpha:
		phiF = smt.And(phi, smt.Not(smt.Or(alpha...)))
		if e.v.Mutation.EqualsFalseNoNot { // Mutant m-equals-false-no-not
			phiF = smt.And(phi, smt.Or(alpha...))
		}
	case EqFalseLiteralOuter: // V5: (φ ∧ ⋀(φ0⇒¬φ1)) ∨ ((⋁Φ_0) ∨ (⋁Φ_1))
		phiF = smt.Or(smt.And(phi, smt.And(impl...)), smt.Or(phi0s...), smt.Or(phi1s...))
	case EqFalseLiteralInner: // V5: φ ∧ ((⋀(φ0⇒¬φ1)) ∨ (⋁Φ_0) ∨ (⋁Φ_1))
		phiF = smt.And(phi, smt.Or(smt.And(impl...), smt.Or(phi0s...), smt.Or(phi1s...)))
	default:
		return nil, fmt.Errorf("summary: unknown E′ reading %d", e.v.EqualsFalse)
	}
	okT, err := e.sat(phiT)
	if err != nil {
		return nil, err
	}
	okF, err := e.sat(phiF)
	if err != nil {
		return nil, err
	}
	if e.v.Mutation.NoEqualsFalse { // Mutant m-no-equals-false
		okF = false
	}
	var out []machine.Succ
	if okT {
		st := s
		if okF {
			st = s.Clone()
		}
		setPhi(st, phiT)
		st.SetValue(machine.VTrue, k)
		e.stats.EqTrue++
		out = append(out, machine.Succ{S: st, Rule: machine.RuleEqualsE})
	}
	if okF {
		setPhi(s, phiF)
		s.SetValue(machine.VFalse, k)
		e.stats.EqFalse++
		out = append(out, machine.Succ{S: s, Rule: machine.RuleEqualsENot})
	}
	return out, nil
}

// equalsByLocations is the EqualsByLocations mutation: GSE's E/E′ applied
// to the location sets, guards ignored, φ unchanged.
func (e *Engine) equalsByLocations(s *machine.State, L0, L1 machine.GVS, k *machine.Kont) []machine.Succ {
	set := func(g machine.GVS) map[machine.Loc]bool {
		m := map[machine.Loc]bool{}
		for _, en := range g {
			m[en.Loc] = true
		}
		return m
	}
	a, b := set(L0), set(L1)
	same := len(a) == len(b)
	for l := range a {
		same = same && b[l]
	}
	if same {
		s.SetValue(machine.VTrue, k)
		e.stats.EqTrue++
		return []machine.Succ{{S: s, Rule: machine.RuleEqualsE}}
	}
	s.SetValue(machine.VFalse, k)
	e.stats.EqFalse++
	return []machine.Succ{{S: s, Rule: machine.RuleEqualsENot}}
}
