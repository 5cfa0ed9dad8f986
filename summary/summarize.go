package summary

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// unEntry is one element (φ l) of UN(L,R,φ_g,r,f), with the guard φ_un of
// l_un in L(R(l,f)) that made it uninitialized (needed by variant V7's fix).
type unEntry struct {
	guard, unGuard *smt.Formula
	loc            machine.Loc
}

// un returns min_l(UN(L,R,φ_g,r,f)), or ok=false when UN is empty.
// UN = {(φ l) ∈ L(r) | l ≠ l_null ∧ ∃φ' ((φ' l_un) ∈ L(R(l,f)) ∧ S(φ ∧ φ' ∧ φ_g))}.
func (e *Engine) minUN(s *machine.State, r machine.Ref, f *javalite.Field, phiG *smt.Formula) (min unEntry, ok bool, err error) {
	for _, en := range s.Get(r) {
		if en.Loc == machine.LNull || en.Loc == machine.LUn {
			continue // l_un has no fields; nullGuards rejected it when satisfiable
		}
		if ok && (en.Loc > min.loc) != e.v.Mutation.SummarizeMax { // Mutant m-summarize-max: max_l
			continue // only the least location is used
		}
		for _, en2 := range s.Get(s.Field(en.Loc, f)) {
			if en2.Loc != machine.LUn {
				continue
			}
			sat, err := e.sat(smt.And(en.Guard, en2.Guard, phiG))
			if err != nil {
				return unEntry{}, false, err
			}
			if sat {
				min, ok = unEntry{guard: en.Guard, unGuard: en2.Guard, loc: en.Loc}, true
			}
		}
	}
	return min, ok, nil
}

// summarizeStar runs →S* on (L R r f C) under φ_g = under, C the declared
// class of f. Entries of the new value sets whose guard is unsatisfiable
// with prune (the path condition of the state being built) are dropped.
//
// It returns the assumption the k-bound adds (variant KBoundAssume): the
// conjunction of the negated θ_new guards left out, or true. The caller
// conjoins it to the successor's path condition.
func (e *Engine) summarizeStar(s *machine.State, r machine.Ref, f *javalite.Field, under, prune *smt.Formula) (*smt.Formula, error) {
	// Every →S step takes l_x out of UN for good (its field now holds l_un
	// only under ¬φ_x, and L(r) does not change), so the fixpoint is reached
	// within |L(r)| steps; the bound only guards against a broken variant.
	assumed := smt.True()
	for i := 0; ; i++ {
		x, ok, err := e.minUN(s, r, f, under)
		if err != nil || !ok {
			return assumed, err
		}
		if i > len(s.Get(r)) {
			return assumed, fmt.Errorf("summary: →S* on %s.%s did not reach a fixpoint", machine.RefString(r), f.Name)
		}
		a, err := e.summarize(s, x, f, prune)
		if err != nil {
			return assumed, err
		}
		assumed = smt.And(assumed, a)
		if e.v.Mutation.SingleSummarize { // Mutant m-single-summarize
			return assumed, nil
		}
	}
}

// step is one application of →S to field f of l_x (RULES.md §6): what
// every θ is built from.
type step struct {
	e    *Engine
	s    *machine.State
	f    *javalite.Field
	x    unEntry          // (φ_x l_x) = min_l(UN), with φ_un
	phiS *smt.Formula     // φ_s, the guard of the new entries: φ_x (V7)
	rf   machine.Ref      // r_f = init_r()
	rho  []machine.Entry2 // ρ = ρ(C), taken before l_f is added
	orig machine.GVS      // L(R(l_x,f)), the entries θ_orig keeps
}

// summarize is one →S step on field f of x.loc (RULES.md §6):
//
//	(L R r f C) →S (L[r_f ↦ θ_null ∪ θ_new ∪ θ_alias ∪ θ_orig]  R[(l_x f) ↦ r_f]  r f C)
//
// Entries whose guard is unsatisfiable with prune are dropped. It returns
// what the proposed fixes assume (see summarizeStar).
func (e *Engine) summarize(s *machine.State, x unEntry, f *javalite.Field, prune *smt.Formula) (*smt.Formula, error) {
	// Rule: Summarize
	e.stats.Summarize++
	st := &step{e: e, s: s, f: f, x: x, rho: e.candidates(s, f.Class), rf: s.InitR(), orig: s.Get(s.Field(x.loc, f))}
	st.phiS = st.guard()

	theta := st.thetaNull()
	tNew, gNew, bounded := st.thetaNew()
	theta = append(theta, tNew...)
	theta = append(theta, st.thetaAlias()...)
	theta = append(theta, st.thetaOrig()...)

	var out machine.GVS
	for _, t := range theta {
		var err error
		if out, err = e.addPruned(out, t.Guard, prune, t.Loc); err != nil {
			return nil, err
		}
	}
	s.Set(st.rf, out)
	s.SetField(x.loc, f, st.rf)
	return st.assumed(gNew, bounded), nil
}

// guard is φ_s, the guard of θ_null, θ_new and θ_alias (θ_orig has ¬φ_s).
func (st *step) guard() *smt.Formula {
	if st.e.v.Mutation.GuardTrue { // Mutant m-guard-true
		return smt.True()
	}
	// V7: RULES.md §6 guards by φ_x, the accessing reference's guard; the
	// proposed fix by φ_x ∧ φ_un, where the field is actually uninitialized.
	if st.e.v.SummarizeGuard == GuardUninit {
		return smt.And(st.x.guard, st.x.unGuard)
	}
	return st.x.guard
}

// thetaNull is
//
//	θ_null = { (φ_x ∧ r_f = r_null, l_null) }
func (st *step) thetaNull() []machine.Entry {
	m := st.e.v.Mutation
	if m.DropNull { // Mutant m-drop-null
		return nil
	}
	g := smt.And(st.phiS, smt.Eq(st.rf, machine.RNull))
	if m.NullIgnoresRef { // Mutant m-null-ignores-ref
		g = st.phiS
	}
	return []machine.Entry{{Guard: g, Loc: machine.LNull}}
}

// thetaNew is
//
//	θ_new = { (φ_x ∧ r_f ≠ r_null ∧ ⋀_{(r_a l_a)∈ρ} r_f ≠ r_a, l_f) }   (within the k-bound)
//
// Within the k-bound it creates l_f, an input location of class C at
// depth(l_x)+1 with identity r_f, which exists in a represented heap
// exactly when its guard holds. Outside it (bounded) no location is
// created and θ_new is empty. It returns the guard either way.
func (st *step) thetaNew() (theta []machine.Entry, g *smt.Formula, bounded bool) {
	m := st.e.v.Mutation
	parts := []*smt.Formula{st.phiS, smt.Neq(st.rf, machine.RNull)}
	if m.NewIgnoresNull { // Mutant m-new-ignores-null
		parts = parts[:1]
	}
	if !m.NewIgnoresAliases { // Mutant m-new-ignores-aliases
		for _, a := range st.rho {
			parts = append(parts, smt.Neq(st.rf, a.Ref))
		}
	}
	g = smt.And(parts...)
	depth := st.s.Locs[st.x.loc].Depth
	// Rule: k-bound (RULES.md §4)
	if k := st.e.k; k >= 0 && depth+1 > k+m.KBoundSlack { // Mutant m-kbound-*: KBoundSlack
		st.e.stats.KBounded++
		return nil, g, true
	}
	lf := st.s.NewLoc(machine.LocInfo{Class: st.f.Class, Input: true, Depth: depth + 1, Identity: st.rf, Exists: g}, machine.RUn)
	st.e.stats.NewLocs++
	return []machine.Entry{{Guard: g, Loc: lf}}, g, false
}

// thetaAlias is
//
//	θ_alias = { (φ_x ∧ r_f ≠ r_null ∧ r_f = r_a ∧ ⋀_{(r'_a l'_a)∈ρ, r'_a < r_a} r_f ≠ r'_a, l_a) | (r_a l_a) ∈ ρ }
func (st *step) thetaAlias() []machine.Entry {
	m := st.e.v.Mutation
	drop := -1 // Mutant m-drop-alias-*: the index of the candidate left out
	switch {
	case m.DropAlias > 0:
		drop = m.DropAlias - 1
	case m.DropAlias < 0:
		drop = len(st.rho) - 1
	}
	var theta []machine.Entry
	for i, a := range st.rho {
		if i == drop {
			continue
		}
		parts := []*smt.Formula{st.phiS, smt.Neq(st.rf, machine.RNull), smt.Eq(st.rf, a.Ref)}
		if m.AliasIgnoresNull { // Mutant m-alias-ignores-null
			parts = []*smt.Formula{st.phiS, smt.Eq(st.rf, a.Ref)}
		}
		for j, b := range st.rho {
			if st.excludes(i, j, a, b) {
				parts = append(parts, smt.Neq(st.rf, b.Ref))
			}
		}
		g := smt.And(parts...)
		theta = append(theta, machine.Entry{Guard: g, Loc: a.Loc})
		// Bookkeeping for concretization, not a rule: in a world where
		// l_a had not been materialized (its θ_new guard false, r_a free),
		// taking this entry names the fresh object l_a, so from now on
		// l_a is part of that world's heap even if no field keeps
		// pointing to it.
		st.s.Locs[a.Loc].Exists = smt.Or(st.s.Locs[a.Loc].Exists, g)
	}
	return theta
}

// excludes reports whether the alias guard of candidate a (the i-th of ρ)
// requires r_f ≠ r_b for candidate b (the j-th).
func (st *step) excludes(i, j int, a, b machine.Entry2) bool {
	// V1: the candidates before r_a (published) or every other one (seed 000).
	switch st.e.v.AliasGuard {
	case AliasAll:
		return j != i
	case AliasAfter: // Mutant m-alias-after
		return b.Ref > a.Ref
	}
	return b.Ref < a.Ref
}

// thetaOrig is
//
//	θ_orig = { (¬φ_x ∧ φ_o, l_o) | (φ_o l_o) ∈ L(R(l_x,f)) }
func (st *step) thetaOrig() []machine.Entry {
	m := st.e.v.Mutation
	if m.DropOrig { // Mutant m-drop-orig
		return nil
	}
	not := smt.Not(st.phiS)
	switch {
	case m.OrigUnguarded: // Mutant m-orig-unguarded
		not = nil
	case m.OrigGuardAccess: // Mutant m-orig-guard-access
		not = smt.Not(st.x.guard)
	}
	var theta []machine.Entry
	for _, o := range st.orig {
		g := o.Guard
		if not != nil {
			g = smt.And(not, o.Guard)
		}
		theta = append(theta, machine.Entry{Guard: g, Loc: o.Loc})
	}
	return theta
}

// assumed is what the proposed fixes conjoin to the successor's path
// condition; true as RULES.md §6 is written. r_f is fresh, so neither
// assumption makes a satisfiable path condition unsatisfiable (take
// r_f = r_null).
func (st *step) assumed(gNew *smt.Formula, bounded bool) *smt.Formula {
	a := smt.True()
	// Fix idle-null (docs/FINDINGS.md F3): φ_s ∨ r_f = r_null, so r_f is
	// not free where Summarize does not apply.
	if st.e.v.IdleRef == IdleNull {
		a = smt.Or(st.phiS, smt.Eq(st.rf, machine.RNull))
	}
	// Fix kbound-assume (docs/FINDINGS.md F1): ¬θ_new's guard when the
	// k-bound left it out, as GSE leaves out the branch.
	if bounded && st.e.v.KBound == KBoundAssume {
		a = smt.And(a, smt.Not(gNew))
	}
	return a
}

// candidates returns ρ(C) ordered by reference (variant V6 decides which
// reference stands for a location).
func (e *Engine) candidates(s *machine.State, c *javalite.Class) []machine.Entry2 {
	rho := s.InputLocs(c)
	if e.v.Candidates != CandMinRef { // V6
		return rho
	}
	// Read literally: r_a = min_r(L←[l_a]) ∧ isInit(r_a). References are
	// numbered in one sequence across partitions, so the least reference
	// pointing at l_a can be a stack or fresh reference, and then the
	// candidate is dropped.
	minRef := map[machine.Loc]machine.Ref{}
	for i, g := range s.L {
		r := machine.Ref(i - 2)
		for _, en := range g {
			if _, seen := minRef[en.Loc]; !seen {
				minRef[en.Loc] = r
			}
		}
	}
	var out []machine.Entry2
	for _, a := range rho {
		if r, ok := minRef[a.Loc]; ok && machine.PartitionOf(r) == machine.PartInput {
			out = append(out, machine.Entry2{Ref: r, Loc: a.Loc})
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Ref < out[j-1].Ref; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
