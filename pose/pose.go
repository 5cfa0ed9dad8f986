// Package pose is POSE-J: Braione and Denaro's path-optimal symbolic
// execution (seed 003, appendix A) adapted to Javalite on the shared
// machine (ENGINES.md §4.3), registered as engine "pose".
//
// # Design
//
// POSE gives every bound input symbol Y its own symbolic object, even when
// Y aliases another symbol, and keeps the alias cases inside the objects as
// ite-values over symbol equalities. POSE-J keeps that representation in a
// machine.State:
//
//   - a symbol Y is an input reference r_Y = init_r() and a symbolic
//     location l_Y (LocInfo.Symbolic, Input, Identity r_Y); `this` is the
//     symbol Y0 of l_0. Two symbolic locations of one class are the same
//     object exactly in the worlds where their identity references are
//     equal. Exists(l_Y) is m(Y): the worlds where GSE has materialized the
//     object of Y (the read that produced the symbol found it non-null and
//     aliasing no earlier object).
//   - an ite-value is a guarded value set whose guards talk about symbol
//     equalities r_Y = r_Y' and r_Y = r_null; the value "symbol Z" is
//     {(Z = null, l_null), (Z ≠ null, l_Z)}. A ⊥ field (not yet read nor
//     written in some worlds) holds l_un in those worlds.
//
// The rules (ENGINES.md §4.3), each named after its seed-003 counterpart:
//
//   - Field access: A/A′ split on null (POSE has no NPE traces; POSE-J
//     keeps the error end of lockstep's other engines). On a symbolic
//     receiver whose field is ⊥ in some worlds, Assume (Getfield (r2))
//     gives it the value assume(H,Y,f,Z): the field of the first alias
//     Y_i whose field is initialized, in the worlds Y = Y_i, else a fresh
//     symbol Z. It is world-exact: an alias counts only in the worlds where
//     its field is initialized, and only the worlds where this read
//     reaches Y are refined (Getfield (c2)'s mergeHGf without the fresh
//     symbol of its cases (3)–(4): those worlds keep l_un, see
//     docs/POSE.md).
//   - Field write: W/W′; on a symbolic receiver, update (Putfield (c1)'s
//     update) propagates the written value to every other symbolic
//     location of the class whose field is initialized, in the worlds
//     where the two symbols are equal (mergeHPf, world-exact: ⊥ stays l_un).
//   - Equals: Eq (c1)–(c7) as one symbolic equality (two symbolic
//     locations are equal iff their symbols are), and the If (c3)/(c4)
//     branching moved to `=` (eager comparison: Javalite's `=` is a value
//     that flows into η): E when φ ∧ eq is satisfiable, E′ when φ ∧ ¬eq is.
//   - Invoke (c2) on a possibly-null receiver (the Java reading V11): the
//     method Invoke, error end for the null worlds.
//
// So a POSE-J path branches only where the program's control flow does,
// and its state stands for all the GSE states with its control: the View
// (view.Symbolic, ENGINES.md §5.2) names one canonical location per object
// and the relations check exactness unchanged.
//
// Every satisfiability question goes to the smt.Solver; an unknown answer
// is returned as an error, never guessed. Entries whose guard is
// unsatisfiable with the path condition are dropped as they are built.
package pose

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/engine/guarded"
	"github.com/lockstep-dev/lockstep/engine/view"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// RuleInvokeNull is the Java reading's rule for a call on a null receiver
// (RULES.md §3, V11).
const RuleInvokeNull = machine.RuleInvokeNull

// Engine is POSE-J. It is not safe for concurrent use (its solver is not).
type Engine struct {
	v      Variant
	solver *smt.Solver
	opt    machine.Options
	stats  Stats
	// K is the k-bound of variant kbound (K < 0: none); the specified
	// POSE-J ignores it.
	K int
	// depths holds, under kbound, the depth formulas of every symbol the
	// engine has made (kbound.go).
	depths map[depthKey][]*smt.Formula
	// views keeps the Views of the states met again (View).
	views view.SymbolicCache
	// invp holds the INV-P questions answered unsat (invpmemo.go).
	invp invpMemo
}

// Stats are engine-level counts since the engine was created.
type Stats struct {
	Assume, Update, Merged int64 // Assume refinements, update propagations, P-MERGE symbols
	SatQueries             int64
	Pruned                 int64
}

// New returns a POSE-J engine for variant v asking its satisfiability
// questions of solver. POSE has no k-bound: the engine is exact at k = −1
// only (ENGINES.md §8.4), and the checker runs it so.
func New(v Variant, solver *smt.Solver, opt machine.Options) *Engine {
	return &Engine{v: v, solver: solver, opt: opt}
}

// Variant returns the engine's rule choices.
func (e *Engine) Variant() Variant { return e.v }

// Stats returns the counts so far.
func (e *Engine) Stats() Stats { return e.stats }

// Options implements machine.Engine.
func (e *Engine) Options() machine.Options { return e.opt }

// Name implements machine.Engine.
func (e *Engine) Name() string { return "pose" }

// View implements engine.UnderTest: the canonicalizing View of §5.2, kept
// for the states met again (view.SymbolicCache: the checker asks the View
// of every state at every step, and most steps move only the control).
func (e *Engine) View(s *machine.State) (*machine.State, error) {
	if !cacheViews {
		return view.Symbolic(s)
	}
	return e.views.Symbolic(s)
}

// cacheViews turns the View cache on (TestViewCacheSameViews compares).
var cacheViews = true

// Shape implements engine.UnderTest: one state per control.
func (e *Engine) Shape() engine.Shape { return engine.OnePerControl }

var _ engine.UnderTest = (*Engine)(nil)

func (e *Engine) sat(f *smt.Formula) (bool, error) {
	if f.IsFalse() {
		return false, nil
	}
	e.stats.SatQueries++
	ok, err := e.solver.Sat(f)
	if err != nil {
		return false, fmt.Errorf("pose: S(%s): %w", smt.Short(f), err)
	}
	return ok, nil
}

// add merges (g l) into acc unless g is unsatisfiable with phi.
func (e *Engine) add(acc machine.GVS, g, phi *smt.Formula, l machine.Loc) (machine.GVS, error) {
	ok, err := e.sat(smt.And(g, phi))
	if err != nil || !ok {
		if err == nil {
			e.stats.Pruned++
		}
		return acc, err
	}
	return acc.Merge(g, l), nil
}

// st is ST: the entries of L(r) (or of a set) strengthened by g, pruned
// under phi, merged into acc.
func (e *Engine) st(acc, set machine.GVS, g, phi *smt.Formula) (machine.GVS, error) {
	var err error
	for _, en := range set {
		if acc, err = e.add(acc, smt.And(g, en.Guard), phi, en.Loc); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

// setPhi replaces the whole path condition of s (shared with summary and
// uber: package guarded).
var setPhi = guarded.SetPhi

// symbolic reports whether l is a symbolic location l_Y (every input
// location of a POSE-J state is: l_0 is the symbol of `this`).
func symbolic(s *machine.State, l machine.Loc) bool {
	return l >= 0 && (s.Locs[l].Symbolic || s.Locs[l].Input)
}

// symbolsOf returns the symbolic locations of class c in creation order.
func symbolsOf(s *machine.State, c *javalite.Class) []machine.Loc {
	var out []machine.Loc
	for i, info := range s.Locs {
		if info.Class == c && (info.Symbolic || info.Input) {
			out = append(out, machine.Loc(i))
		}
	}
	return out
}

// initialized is I: the disjunction of the guards of the non-l_un entries
// of a field's value set (false when the field is ⊥ everywhere), and those
// entries.
func initialized(set machine.GVS) (*smt.Formula, machine.GVS) {
	var gs []*smt.Formula
	var vals machine.GVS
	for _, en := range set {
		if en.Loc != machine.LUn {
			gs = append(gs, en.Guard)
			vals = append(vals, en)
		}
	}
	return smt.Or(gs...), vals
}

// unGuard is the guard of l_un in a field's value set, or nil.
func unGuard(set machine.GVS) *smt.Formula {
	for _, en := range set {
		if en.Loc == machine.LUn {
			return en.Guard
		}
	}
	return nil
}

// nullGuards is θ_0 of L(r) under φ_g and whether a non-null entry is
// satisfiable (guarded.NullGuards), shared by A/A′, W/W′ and
// Invoke/Invoke′; under the mutation null-ignored θ_0 is dropped.
func (e *Engine) nullGuards(s *machine.State, r machine.Ref, phiG *smt.Formula) (theta0 []*smt.Formula, nonNull bool, err error) {
	theta0, nonNull, err = guarded.NullGuards(guarded.Asker{Name: "pose", Sat: e.sat}, s, r, phiG)
	if err != nil {
		return nil, false, err
	}
	if e.v.Mutation.NullIgnored {
		theta0 = nil
	}
	return theta0, nonNull, nil
}

// errorState makes s the error end of A′, W′ or Invoke′ under φ_g ∧ ⋁θ_0.
func errorState(s *machine.State, phiG *smt.Formula, theta0 []*smt.Formula) {
	guarded.ErrorEnd(s, phiG, theta0, false)
}

// FieldAccess implements A and A′ (ENGINES.md §4.3) on the state
// (L R φ_g η r (* $ f → k)).
func (e *Engine) FieldAccess(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
	f := fa.Field
	return guarded.Pair(s, r, e.nullGuards, func(sa *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		if f.IsPrim() {
			return e.accessPrim(sa, r, f, p, k) // data.go
		}
		// Rule: Field access (A), with Getfield (c1)/(c5) reading and
		// Getfield (r1)/(r2) refining; (r1)'s ¬(Y = null) is φ'_g.
		phiP := p.PhiPrime() // φ'_g
		for _, en := range sa.Get(r) {
			if en.Loc < 0 || !symbolic(sa, en.Loc) {
				continue // Getfield (c5): a new location's fields are never ⊥
			}
			gu := unGuard(sa.Get(sa.Field(en.Loc, f)))
			if gu == nil {
				continue // Getfield (c1): initialized in every world
			}
			ok, err := e.sat(smt.And(phiP, en.Guard, gu))
			if err != nil {
				return nil, err
			}
			if ok {
				bound, err := e.assume(sa, en.Loc, f, en.Guard, gu, phiP)
				if err != nil {
					return nil, err
				}
				phiP = smt.And(phiP, bound) // kbound's conjunct (true otherwise)
			}
		}
		vs, err := e.vs(sa, r, f, phiP)
		if err != nil {
			return nil, err
		}
		r2 := sa.StackR()
		sa.Set(r2, vs)
		setPhi(sa, phiP)
		sa.SetValue(machine.RefVal(r2), k)
		return []machine.Succ{{S: sa, Rule: machine.RuleFieldA}}, nil
	}, func(s *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		// Rule: Field access (A′) — the null worlds POSE's (r1) assumes away.
		errorState(s, p.PhiG, p.Theta0)
		return []machine.Succ{{S: s, Rule: machine.RuleFieldANull}}, nil
	})
}

// vs is VS(L,R,φ'_g,r,f): the field's entries through every non-null
// entry of L(r), pruned under φ'_g.
func (e *Engine) vs(s *machine.State, r machine.Ref, f *javalite.Field, phi *smt.Formula) (machine.GVS, error) {
	// Rule: Getfield (c1)/(c2)/(c5): the read through an ite is the ite of
	// the reads (mergeHGf, world-exact).
	var out machine.GVS
	var err error
	for _, en := range s.Get(r) {
		if en.Loc < 0 {
			continue
		}
		if out, err = e.st(out, s.Get(s.Field(en.Loc, f)), en.Guard, phi); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// assume is Getfield (r2) on field f of the symbolic location l = l_Y,
// reached by the read in the worlds g, ⊥ in the worlds gu.
func (e *Engine) assume(s *machine.State, l machine.Loc, f *javalite.Field, g, gu, phi *smt.Formula) (bound *smt.Formula, err error) {
	bound = smt.True()
	err = e.assumeBounded(s, l, f, g, gu, phi, &bound)
	return bound, err
}

// assumeBounded is assume; under kbound it sets *bound to the k-bound's
// conjunct of the path condition.
func (e *Engine) assumeBounded(s *machine.State, l machine.Loc, f *javalite.Field, g, gu, phi *smt.Formula, bound **smt.Formula) error {
	// Rule: Assume (r2)
	e.stats.Assume++
	mut := e.v.Mutation
	y := s.Locs[l].Identity
	h := smt.And(g, gu) // the worlds this read refines
	if mut.AssumeIgnoresReceiver {
		h = gu
	}
	var theta machine.GVS
	var err error
	add := func(g *smt.Formula, l machine.Loc) {
		if err == nil {
			theta, err = e.add(theta, g, phi, l)
		}
	}
	// The alias set: the other symbols of the class whose f is initialized,
	// in creation order; the first one equal to Y and initialized wins.
	var excl []*smt.Formula // ¬(Y = Y_j ∧ I_j) for the Y_j before
	for _, yi := range symbolsOf(s, s.Locs[l].Class) {
		if yi == l {
			continue
		}
		ii, vals := initialized(s.Get(s.Field(yi, f)))
		if len(vals) == 0 {
			continue
		}
		same := smt.Eq(y, s.Locs[yi].Identity)
		if !mut.AssumeNoAliases {
			base := smt.And(append([]*smt.Formula{h, same}, excl...)...)
			for _, en := range vals {
				add(smt.And(base, en.Guard), en.Loc)
			}
		}
		if mut.AliasGuardIgnoresInit {
			ii = smt.True()
		}
		excl = append(excl, smt.Not(smt.And(same, ii)))
	}
	fresh := smt.And(append([]*smt.Formula{h}, excl...)...)
	z := s.InitR()
	add(smt.And(fresh, smt.Eq(z, machine.RNull)), machine.LNull)
	gz := smt.And(fresh, smt.Neq(z, machine.RNull))
	lz, err2 := e.freshSymbol(s, f.Class, z, s.Locs[l].Depth+1, gz, phi)
	if err2 != nil {
		return err2
	}
	if e.v.KBound && lz >= 0 {
		// Rule: k-bound (RULES.md §4), variant kbound (kbound.go)
		b, err := e.kbound(s, l, lz)
		if err != nil {
			return err
		}
		*bound = b
		phi = smt.And(phi, b)
	}
	if lz >= 0 {
		add(gz, lz)
	}
	// The worlds the read does not refine keep the old value, ⊥ included.
	old := s.Get(s.Field(l, f))
	for _, en := range old {
		switch {
		case en.Loc == machine.LUn && e.v.PublishedMerge:
			// P-MERGE (mergeHGf (3)–(4)): the ⊥ part of the other branch
			// becomes the initial value Z, whatever the aliases hold.
			e.mergeSymbol(s, &theta, &err, z, lz, smt.And(smt.Not(g), en.Guard), f.Class, s.Locs[l].Exists, phi)
		case mut.AssumeDropsOld:
		default:
			add(smt.And(smt.Not(h), en.Guard), en.Loc)
		}
	}
	if err != nil {
		return err
	}
	rf := s.FreshR()
	s.Set(rf, theta)
	s.SetField(l, f, rf)
	return nil
}

// freshSymbol creates the symbolic location l_Z of a new symbol Z, present
// (m(Z)) in the worlds gz, unless gz is unsatisfiable with phi; it returns
// -1 then.
func (e *Engine) freshSymbol(s *machine.State, c *javalite.Class, z machine.Ref, depth int, gz, phi *smt.Formula) (machine.Loc, error) {
	ok, err := e.sat(smt.And(gz, phi))
	if err != nil || !ok {
		return -1, err
	}
	l := s.NewLoc(machine.LocInfo{Class: c, Input: true, Symbolic: true, Depth: depth, Identity: z, Exists: gz}, machine.RUn)
	unbindPrims(s, l) // primitive fields are ⊥ until bound (data.go)
	return l, nil
}

// mergeSymbol is the published merge of a ⊥ part (variant
// pose-published-merge): the worlds w keep the initial value of the field,
// the symbol z (location lz, or none yet), as a value the object holds
// from now on: l_Z is materialized there.
func (e *Engine) mergeSymbol(s *machine.State, theta *machine.GVS, errp *error, z machine.Ref, lz machine.Loc, w *smt.Formula, c *javalite.Class, owner, phi *smt.Formula) {
	if *errp != nil {
		return
	}
	// Rule: mergeHeaps (published, cases (3)–(6))
	ok, err := e.sat(smt.And(w, phi))
	if err != nil || !ok {
		*errp = err
		return
	}
	e.stats.Merged++
	if *theta, err = e.add(*theta, smt.And(w, smt.Eq(z, machine.RNull)), phi, machine.LNull); err != nil {
		*errp = err
		return
	}
	gz := smt.And(w, owner, smt.Neq(z, machine.RNull))
	if lz < 0 {
		if lz, err = e.freshSymbol(s, c, z, 0, gz, phi); err != nil || lz < 0 {
			*errp = err
			return
		}
	} else {
		s.Locs[lz].Exists = smt.Or(s.Locs[lz].Exists, gz)
	}
	*theta, *errp = e.add(*theta, smt.And(w, smt.Neq(z, machine.RNull)), phi, lz)
}

// FieldWrite implements W and W′ (ENGINES.md §4.3) on the state
// (L R φ_g η r (x $ f := * → k)).
func (e *Engine) FieldWrite(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont) ([]machine.Succ, error) {
	f := fw.Field
	rx, err := guarded.WriteReceiver("pose", s, fw)
	if err != nil {
		return nil, err
	}
	return guarded.Pair(s, rx, e.nullGuards, func(sw *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		if f.IsPrim() {
			return e.writePrim(sw, rx, f, p, k) // data.go
		}
		// Rule: Field write (W), Putfield (c1)/(c5) per receiver entry,
		// merged as (c2) does.
		phiP := p.PhiPrime() // φ'_g
		value := sw.Get(r)
		// Under the published merge, each branch of (c2) updates the
		// aliases initialized before the write (H), not those a sibling
		// branch initialized.
		var before map[machine.Loc]bool
		if e.v.PublishedMerge {
			before = map[machine.Loc]bool{}
			for l := range sw.Locs {
				if _, vals := initialized(sw.Get(sw.Field(machine.Loc(l), f))); len(vals) > 0 {
					before[machine.Loc(l)] = true
				}
			}
		}
		receivers, err := guarded.Receivers(e.sat, sw, rx, phiP)
		if err != nil {
			return nil, err
		}
		for _, en := range receivers {
			if err := e.write(sw, en.Loc, f, en.Guard, value, phiP); err != nil {
				return nil, err
			}
			if !symbolic(sw, en.Loc) || e.v.Mutation.NoUpdate {
				continue
			}
			// Rule: update (Putfield (c1))
			y := sw.Locs[en.Loc].Identity
			for _, y2 := range symbolsOf(sw, sw.Locs[en.Loc].Class) {
				if y2 == en.Loc {
					continue
				}
				if before != nil && !before[y2] {
					continue
				}
				if _, vals := initialized(sw.Get(sw.Field(y2, f))); len(vals) == 0 {
					continue
				}
				h := smt.And(en.Guard, smt.Eq(y, sw.Locs[y2].Identity))
				if e.v.Mutation.UpdateIgnoresReceiver {
					h = smt.Eq(y, sw.Locs[y2].Identity)
				}
				ok, err := e.sat(smt.And(h, phiP))
				if err != nil {
					return nil, err
				}
				if !ok {
					continue
				}
				e.stats.Update++
				if err := e.write(sw, y2, f, h, value, phiP); err != nil {
					return nil, err
				}
			}
		}
		setPhi(sw, phiP)
		sw.SetValue(machine.RefVal(r), k)
		return []machine.Succ{{S: sw, Rule: machine.RuleWriteW}}, nil
	}, func(s *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		// Rule: Field write (W′)
		errorState(s, p.PhiG, p.Theta0)
		return []machine.Succ{{S: s, Rule: machine.RuleWriteWNull}}, nil
	})
}

// write sets field f of l to value in the worlds g and keeps the old value
// elsewhere: R(l,f) := ST(value, g) ∪ ST(old, ¬g).
func (e *Engine) write(s *machine.State, l machine.Loc, f *javalite.Field, g *smt.Formula, value machine.GVS, phi *smt.Formula) error {
	set, err := e.st(nil, value, g, phi)
	if err != nil {
		return err
	}
	if !e.v.Mutation.WriteDropsOld {
		for _, en := range s.Get(s.Field(l, f)) {
			if en.Loc == machine.LUn && e.v.PublishedMerge && symbolic(s, l) {
				// P-MERGE (mergeHPf (3)–(6)): the ⊥ part of a branch that
				// did not write becomes a fresh initial-value symbol.
				ok, err := e.sat(smt.And(smt.Not(g), en.Guard, phi))
				if err != nil {
					return err
				}
				if ok {
					z := s.InitR()
					var err error
					e.mergeSymbol(s, &set, &err, z, -1, smt.And(smt.Not(g), en.Guard), f.Class, s.Locs[l].Exists, phi)
					if err != nil {
						return err
					}
					continue
				}
			}
			if set, err = e.add(set, smt.And(smt.Not(g), en.Guard), phi, en.Loc); err != nil {
				return err
			}
		}
	}
	rl := s.FreshR()
	s.Set(rl, set)
	s.SetField(l, f, rl)
	return nil
}

// EqualsRef implements E and E′ (ENGINES.md §4.3) on the state
// (L R φ η r1 (r0 = * → k)): Eq (c1)–(c7) as one symbolic equality, and the
// If (c3)/(c4) branching on it.
func (e *Engine) EqualsRef(s *machine.State, r0, r1 machine.Ref, eq *javalite.Equals, k *machine.Kont) ([]machine.Succ, error) {
	L0, L1 := s.Get(r0), s.Get(r1)
	phi := s.PathCondition()
	if e.v.JPoseEq && (newVsIte(s, L0, L1) || newVsIte(s, L1, L0)) {
		// Rule: Eq (jPOSE stepComputationHandleEq): a concrete location
		// against an ite is false, whatever the ite's leaves.
		s.SetValue(machine.VFalse, k)
		return []machine.Succ{{S: s, Rule: machine.RuleEqualsENot}}, nil
	}
	eqF := equality(s, L0, L1, e.v.Mutation.EqSymbolsFalse)
	phiT := smt.And(phi, eqF)
	phiF := smt.And(phi, smt.Not(eqF))
	okT, err := e.sat(phiT)
	if err != nil {
		return nil, err
	}
	okF, err := e.sat(phiF)
	if err != nil {
		return nil, err
	}
	var out []machine.Succ
	if okT {
		// Rule: Equals (E) — Eq (c1) or a symbolic equality taken true
		st := s
		if okF {
			st = s.Clone()
		}
		setPhi(st, phiT)
		st.SetValue(machine.VTrue, k)
		out = append(out, machine.Succ{S: st, Rule: machine.RuleEqualsE})
	}
	if okF {
		// Rule: Equals (E′) — Eq (c2)–(c7) or a symbolic equality taken false
		setPhi(s, phiF)
		s.SetValue(machine.VFalse, k)
		out = append(out, machine.Succ{S: s, Rule: machine.RuleEqualsENot})
	}
	return out, nil
}

// equality is eq = ⋁ g0 ∧ g1 ∧ same(x0,x1) over the entry pairs of two
// value sets: same(x,x) = true (Eq (c1)); two symbolic locations of one
// class are the same object iff their symbols are equal; everything else is
// different (Eq (c2)–(c7): distinct new locations, a new location and a
// symbol, null and a location).
func equality(s *machine.State, L0, L1 machine.GVS, symbolsFalse bool) *smt.Formula {
	// Rule: Eq (c1)–(c7)
	var ds []*smt.Formula
	for _, a := range L0 {
		if a.Loc == machine.LUn {
			continue
		}
		for _, b := range L1 {
			if b.Loc == machine.LUn {
				continue
			}
			switch {
			case a.Loc == b.Loc:
				ds = append(ds, smt.And(a.Guard, b.Guard))
			case a.Loc >= 0 && b.Loc >= 0 && !symbolsFalse && symbolic(s, a.Loc) && symbolic(s, b.Loc) &&
				s.Locs[a.Loc].Class == s.Locs[b.Loc].Class:
				ds = append(ds, smt.And(a.Guard, b.Guard, smt.Eq(s.Locs[a.Loc].Identity, s.Locs[b.Loc].Identity)))
			}
		}
	}
	return smt.Or(ds...)
}

// newVsIte reports whether a is a concrete (new) location and b an ite:
// a value set with more than one non-null target (a plain symbol, null or
// l_Y, is not an ite).
func newVsIte(s *machine.State, a, b machine.GVS) bool {
	if len(a) != 1 || a[0].Loc < 0 || symbolic(s, a[0].Loc) {
		return false
	}
	n := 0
	for _, en := range b {
		if en.Loc >= 0 {
			n++
		}
	}
	return n > 1
}

// Invoke is the Java reading of Invoke (V11) on the state
// (L R φ η v (r @ m * → k)): Invoke (c2)'s ¬(Y = null) in the non-null
// worlds, and an error end (Invoke′) in the null worlds, as A′ does. Method
// lookup is static (Javalite has no subclassing), so POSE's dispatch
// branching (Invoke (c2)–(c4)) never splits a path.
func (e *Engine) Invoke(s *machine.State, r machine.Ref, args []machine.Value, c *javalite.Call, k *machine.Kont) ([]machine.Succ, error) {
	return guarded.Pair(s, r, e.nullGuards, func(si *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		// Rule: Invoke (c2)
		setPhi(si, p.PhiPrime())
		machine.EnterMethod(si, r, args, c, k, e.opt)
		return []machine.Succ{{S: si, Rule: machine.RuleInvoke}}, nil
	}, func(s *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		// Rule: Invoke′
		errorState(s, p.PhiG, p.Theta0)
		return []machine.Succ{{S: s, Rule: RuleInvokeNull}}, nil
	})
}
