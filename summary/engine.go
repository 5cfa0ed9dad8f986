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

	"github.com/lockstep-dev/lockstep/engine/guarded"
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
	Invoke, InvokeNull int64 // Invoke, Invoke′ (V11, Java reading; invoke.go)
	Stuck              int64 // null dereferences with no successor (V3)
	// Successors U-ST withheld because C = 0 (a reachable reference lost
	// every entry when the guards were strengthened).
	Inconsistent int64
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

var (
	_ machine.Engine   = (*Engine)(nil)
	_ machine.PathCond = (*Engine)(nil)
)

// Feasible implements machine.PathCond for If (sym) and Assume: S(φ_g ∧ t).
// Under U-ST the data rules are rules that would conjoin t to φ like any
// other, so they fire iff C = 1 once every guard is strengthened with t
// (distribute, on a copy: s is not the successor yet).
func (e *Engine) Feasible(s *machine.State, t *smt.Formula) (bool, error) {
	if e.v.Distributed { // U-ST
		return e.distribute(s.Clone(), t)
	}
	return e.sat(smt.And(s.Phi, t))
}

// Strengthen implements machine.PathCond: φ_g := φ_g ∧ t. Under U-ST the
// fact strengthens every guard instead (distribute), so the next heap
// rule's φ_view, rebuilt from the guards, still holds it; conjoined to φ
// it would be lost there. Feasible has already decided that the rule
// fires (C = 1) by the same strengthening, whose questions the solver has
// cached.
func (e *Engine) Strengthen(s *machine.State, t *smt.Formula) {
	t = e.recorded(t)
	if t.IsTrue() {
		return // nothing recorded (m-strengthen-none)
	}
	if e.v.Distributed { // U-ST
		if _, err := e.distribute(s, t); err != nil {
			// The solver failed on a question Feasible answered for the
			// same formulas: keep the fact in φ, where the checker still
			// sees it, rather than lose it.
			setPhi(s, smt.And(s.Phi, t))
		}
		return
	}
	setPhi(s, smt.And(s.Phi, t))
}

// recorded is the fact If (sym) and Assume record for t: t itself, or a
// deliberate mutation of it (true records nothing). The mutations change
// only what is recorded, never what Feasible tests.
func (e *Engine) recorded(t *smt.Formula) *smt.Formula {
	m := e.v.Mutation
	switch {
	case m.StrengthenNone: // Mutant m-strengthen-none
		return smt.True()
	case m.StrengthenTighter && t.Op() == smt.OpLt: // Mutant m-strengthen-tighter
		t = smt.Lt(smt.Add(t.Kids()[0], smt.Int(1)), t.Kids()[1])
	case m.StrengthenFirstEntry: // Mutant m-strengthen-first-entry
		if g := firstIteCond(t); g != nil {
			t = smt.Or(smt.Not(g), t)
		}
	}
	return t
}

// firstIteCond is the condition of the outermost ite of t (pre-order), or
// nil.
func firstIteCond(t *smt.Formula) *smt.Formula {
	if t.Op() == smt.OpIte {
		return t.Kids()[0]
	}
	for _, k := range t.Kids() {
		if g := firstIteCond(k); g != nil {
			return g
		}
	}
	return nil
}

// sat is S(φ).
func (e *Engine) sat(f *smt.Formula) (bool, error) {
	e.stats.SatQueries++
	ok, err := e.solver.Sat(f)
	if err != nil {
		return false, fmt.Errorf("summary: S(%s): %w", smt.Short(f), err)
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

// nullGuards is θ_0 of L(r) under φ_g and whether a non-null entry is
// satisfiable (guarded.NullGuards), asked through the engine's counted S.
func (e *Engine) nullGuards(s *machine.State, r machine.Ref, phiG *smt.Formula) (theta0 []*smt.Formula, nonNull bool, err error) {
	return guarded.NullGuards(guarded.Asker{Name: "summary", Sat: e.sat, Show: smt.Short}, s, r, phiG)
}

// The pieces of RULES.md §6 shared with pose and uber (package guarded).
var (
	notAll = guarded.NotAll // ⋀_{φ∈fs} ¬φ
	setPhi = guarded.SetPhi // replaces the whole path condition of s
)

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
// with φ = φ_g ∧ ⋁θ_0 (or φ_g under V8's published reading). It reports
// whether the rule fires (always, except under U-ST).
func (e *Engine) errorState(s *machine.State, phiG *smt.Formula, theta0 []*smt.Formula) (bool, error) {
	guarded.ErrorEnd(s, phiG, theta0, e.v.ErrorKeepsPhi) // V8
	if e.v.Distributed {                                 // U-ST
		c := smt.True()
		if !e.v.ErrorKeepsPhi {
			c = smt.Or(theta0...)
		}
		return e.distribute(s, c)
	}
	return true, nil
}

// FieldAccess implements rules A and A′ of RULES.md §6 on the state
// (L R φ_g η r (* $ f → k)). Both can fire: A for the worlds where r is not
// null, A′ for those where it is.
func (e *Engine) FieldAccess(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
	f := fa.Field
	return guarded.Pair(s, r, e.nullGuards, func(sa *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		if f.IsPrim() {
			return e.accessPrim(sa, r, f, p, k)
		}
		// Rule: Field access (A); sa is a copy when A′ below needs the state before →S*
		phiP := p.PhiPrime() // φ'_g = φ_g ∧ ⋀_{φ∈θ_0} ¬φ
		// (L R r f C) →S* (L' R' r f C) under φ'_g
		assumed, err := e.summarizeStar(sa, r, f, e.initPhi(p.PhiG, phiP), e.accessPhi(p.PhiG, phiP))
		if err != nil {
			return nil, err
		}
		// r' = stack_r(), L'[r' ↦ VS(L',R',φ'_g,r,f)], φ'_g
		vs, err := e.vs(sa, r, f, e.vsPhi(p.PhiG, phiP, assumed))
		if err != nil {
			return nil, err
		}
		r2 := sa.StackR()
		sa.Set(r2, vs)
		setPhi(sa, smt.And(e.accessPhi(p.PhiG, phiP), assumed))
		sa.SetValue(machine.RefVal(r2), k)
		if e.v.Distributed { // U-ST: φ'_g's ⋀¬θ_0 and →S*'s assumptions go into the guards
			if fires, err := e.distribute(sa, smt.And(notAll(p.Theta0), assumed)); err != nil || !fires {
				return nil, err
			}
		}
		e.stats.Access++
		return []machine.Succ{{S: sa, Rule: machine.RuleFieldA}}, nil
	}, func(s *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		if e.v.NullDeref == NullStuck { // V3
			// Seed 000: no rule for a null dereference.
			if !p.NonNull {
				e.stats.Stuck++
			}
			return nil, nil
		}
		// Rule: Field access (A′)
		if fires, err := e.errorState(s, p.PhiG, p.Theta0); err != nil || !fires {
			return nil, err
		}
		e.stats.AccessNull++
		return []machine.Succ{{S: s, Rule: machine.RuleFieldANull}}, nil
	})
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
	rx, err := guarded.WriteReceiver("summary", s, fw)
	if err != nil {
		return nil, err
	}
	return guarded.Pair(s, rx, e.nullGuards, func(sw *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		if f.IsPrim() {
			return e.writePrim(sw, rx, f, p, k)
		}
		// Rule: Field write (W)
		phiP := p.PhiPrime() // φ'_g
		wAssumed := smt.True()
		if e.v.InitBeforeWrite {
			// V4, seed 001: initialize the written field first.
			assumed, err := e.summarizeStar(sw, rx, f, phiP, phiP)
			if err != nil {
				return nil, err
			}
			phiP, wAssumed = smt.And(phiP, assumed), assumed
		}
		receivers, err := guarded.Receivers(e.sat, sw, rx, phiP)
		if err != nil {
			return nil, err
		}
		for _, en := range receivers {
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
		if e.v.Distributed { // U-ST: φ'_g's ⋀¬θ_0 (and V4's assumptions) go into the guards
			if fires, err := e.distribute(sw, smt.And(notAll(p.Theta0), wAssumed)); err != nil || !fires {
				return nil, err
			}
		}
		e.stats.Write++
		return []machine.Succ{{S: sw, Rule: machine.RuleWriteW}}, nil
	}, func(s *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		if e.v.NullDeref == NullStuck { // V3
			if !p.NonNull {
				e.stats.Stuck++
			}
			return nil, nil
		}
		if e.v.Mutation.NoWriteNull { // Mutant m-no-write-null
			return nil, nil
		}
		// Rule: Field write (W′)
		if fires, err := e.errorState(s, p.PhiG, p.Theta0); err != nil || !fires {
			return nil, err
		}
		e.stats.WriteNull++
		return []machine.Succ{{S: s, Rule: machine.RuleWriteWNull}}, nil
	})
}

// EqualsRef implements rules E and E′ of RULES.md §6 on the state
// (L R φ η r1 (r0 = * → k)). Each fires when its path condition is
// satisfiable; both can.
func (e *Engine) EqualsRef(s *machine.State, r0, r1 machine.Ref, eq *javalite.Equals, k *machine.Kont) ([]machine.Succ, error) {
	L0, L1 := s.Get(r0), s.Get(r1)
	phi := s.PathCondition()
	if e.v.Distributed {
		// U-ST: the formulas below are then E's and E′'s conditions φ_g
		// alone, which strengthen the guards instead of φ.
		phi = smt.True()
	}
	if e.v.Mutation.EqualsByLocations { // Mutant m-equals-by-locations
		return e.equalsByLocations(s, L0, L1, k), nil
	}
	var alpha, impl, phi0s, phi1s []*smt.Formula
	for _, en := range L0 {
		if g1 := L1.GuardOf(en.Loc); g1 != nil {
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
		if L0.GuardOf(en.Loc) == nil {
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
	case EqFalseSeed004: // U-EQAND, seed 004: φ ∧ ⋀(φ0⇒¬φ1) ∧ ((⋁Φ_0) ∨ (⋁Φ_1))
		phiF = smt.And(phi, smt.And(impl...), smt.Or(smt.Or(phi0s...), smt.Or(phi1s...)))
	default:
		return nil, fmt.Errorf("summary: unknown E′ reading %d", e.v.EqualsFalse)
	}
	okT, okF := true, true
	if !e.v.Distributed { // U-ST decides by C = 1 instead (distribute)
		var err error
		if okT, err = e.sat(phiT); err != nil {
			return nil, err
		}
		if okF, err = e.sat(phiF); err != nil {
			return nil, err
		}
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
		if fires, err := e.distributed(st, phiT); err != nil {
			return nil, err
		} else if fires {
			e.stats.EqTrue++
			out = append(out, machine.Succ{S: st, Rule: machine.RuleEqualsE})
		}
	}
	if okF {
		setPhi(s, phiF)
		s.SetValue(machine.VFalse, k)
		if fires, err := e.distributed(s, phiF); err != nil {
			return nil, err
		} else if fires {
			e.stats.EqFalse++
			out = append(out, machine.Succ{S: s, Rule: machine.RuleEqualsENot})
		}
	}
	return out, nil
}

// distributed applies U-ST to a successor whose rule conjoins c to φ:
// distribute under U-ST, nothing otherwise. It reports whether the rule
// fires.
func (e *Engine) distributed(s *machine.State, c *smt.Formula) (bool, error) {
	if !e.v.Distributed {
		return true, nil
	}
	return e.distribute(s, c)
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

// Rule: U-ST (seed 004, ENGINES.md §6.2)
//
//	L' = L[∀r. r ↦ ST(L,r,φ_g)],  X = ER(L,φ_g),  premise C(L',R,X,η,k) = 1
//
// distribute strengthens every guard of s with c instead of conjoining c
// to the path condition, and reports whether the rule fires: no reference
// reachable from the roots (through L' and R) has lost all its entries.
// ST is seed 004's: an entry is kept iff S(φ ∧ c), no global φ. r_null and
// r_un are constants of the machine, not heap references, and are left
// alone. Then φ becomes ENGINES.md §5.3's φ_view (viewPhi), so the checker,
// whose relations read φ, judges U-ST through its own View: the summary
// engine's View stays the identity.
func (e *Engine) distribute(s *machine.State, c *smt.Formula) (bool, error) {
	empty := map[machine.Ref]bool{}
	if !c.IsTrue() {
		for i, g := range s.L {
			r := machine.Ref(i - 2)
			if len(g) == 0 || r == machine.RNull || r == machine.RUn {
				continue
			}
			var out machine.GVS
			for _, en := range g {
				ok, err := e.sat(smt.And(en.Guard, c))
				if err != nil {
					return false, err
				}
				if ok {
					out = append(out, machine.Entry{Guard: smt.And(en.Guard, c), Loc: en.Loc})
				}
			}
			if len(out) == 0 {
				empty[r] = true // ER
			}
			s.L[i] = out
		}
	}
	if len(empty) > 0 && reaches(s, empty) { // C(L',R,X,η,k) = 0
		e.stats.Inconsistent++
		return false, nil
	}
	setPhi(s, viewPhi(s))
	return true, nil
}

// reaches reports whether some reference of x is reachable from the roots
// of s through L and R (seed 004's reach over ref(η,k)).
func reaches(s *machine.State, x map[machine.Ref]bool) bool {
	seen := map[machine.Ref]bool{}
	work := s.Roots()
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[r] {
			continue
		}
		seen[r] = true
		if x[r] {
			return true
		}
		for _, en := range s.Get(r) {
			if en.Loc == machine.LNull || en.Loc == machine.LUn {
				continue
			}
			for _, f := range s.Locs[en.Loc].Class.Fields {
				work = append(work, s.Field(en.Loc, f))
			}
		}
	}
	return false
}

// viewPhi is ENGINES.md §5.3's φ_view of a U-ST state: the initial path
// condition r_in0 ≠ r_null (RULES.md §2; U-ST never conjoins anything
// else to φ) and, for every reference in use, ⋁guards(L(r)): an
// assignment is a world of the state iff every such reference has a
// target. "In use" is what the checker's well-formedness checks look at
// (relation.RefsInUse: the roots and R(l,f) of every location, reachable
// or not, since exactness includes unreachable input locations), a
// superset of §5.3's references reachable from the roots, so the View is
// total by construction. φ_view is recomputed at every heap rule; common
// rules between two heap rules only drop roots, which could only weaken it.
func viewPhi(s *machine.State) *smt.Formula {
	parts := []*smt.Formula{smt.Neq(s.Locs[0].Identity, machine.RNull)}
	seen := map[machine.Ref]bool{}
	use := func(r machine.Ref) {
		if seen[r] || r == machine.RNull || r == machine.RUn {
			return
		}
		seen[r] = true
		g := s.Get(r)
		guards := make([]*smt.Formula, len(g))
		for i, en := range g {
			guards[i] = en.Guard
		}
		parts = append(parts, smt.Or(guards...))
	}
	for _, r := range s.Roots() {
		use(r)
	}
	for l, info := range s.Locs {
		for _, f := range info.Class.Fields {
			use(s.Field(machine.Loc(l), f))
		}
	}
	return smt.And(parts...)
}
