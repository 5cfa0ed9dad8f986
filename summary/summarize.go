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
		if ok && (en.Loc > min.loc) != e.v.Mutation.SummarizeMax {
			continue // only the least location is used (the greatest under SummarizeMax)
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
		if e.v.Mutation.SingleSummarize {
			return assumed, nil
		}
	}
}

// summarize is one →S step on field f of x.loc (RULES.md §6). It returns
// what the k-bound assumes (see summarizeStar).
func (e *Engine) summarize(s *machine.State, x unEntry, f *javalite.Field, prune *smt.Formula) (*smt.Formula, error) {
	// Rule: Summarize
	e.stats.Summarize++
	mut := e.v.Mutation
	lx, c := x.loc, f.Class
	depth := s.Locs[lx].Depth
	rho := e.candidates(s, c) // ρ(C), taken before l_f is added
	rf := s.InitR()
	orig := s.Get(s.Field(lx, f))

	// φ_s guards the new entries, ¬φ_s the original ones (variant V7).
	phiS := x.guard
	if e.v.SummarizeGuard == GuardUninit {
		phiS = smt.And(x.guard, x.unGuard)
	}
	if mut.GuardTrue {
		phiS = smt.True()
	}
	notNull := smt.Neq(rf, machine.RNull)

	var theta machine.GVS
	var err error
	add := func(g *smt.Formula, l machine.Loc) {
		if err == nil {
			theta, err = e.addPruned(theta, g, prune, l)
		}
	}

	// θ_null = {(φ_x ∧ r_f = r_null, l_null)}
	if !mut.DropNull {
		g := smt.And(phiS, smt.Eq(rf, machine.RNull))
		if mut.NullIgnoresRef {
			g = phiS
		}
		add(g, machine.LNull)
	}

	// θ_new = {(φ_x ∧ r_f ≠ r_null ∧ ⋀_{(r_a l_a)∈ρ} r_f ≠ r_a, l_f)}, within
	// the k-bound only; outside it no location is created. The location
	// exists in a represented heap exactly when its θ_new guard holds.
	assumed := smt.True()
	if e.v.IdleRef == IdleNull {
		assumed = smt.Or(phiS, smt.Eq(rf, machine.RNull))
	}
	parts := []*smt.Formula{phiS, notNull}
	if mut.NewIgnoresNull {
		parts = parts[:1]
	}
	if !mut.NewIgnoresAliases {
		for _, a := range rho {
			parts = append(parts, smt.Neq(rf, a.Ref))
		}
	}
	gNew := smt.And(parts...)
	if e.k < 0 || depth+1 <= e.k+mut.KBoundSlack {
		lf := s.NewLoc(machine.LocInfo{Class: c, Input: true, Depth: depth + 1, Identity: rf, Exists: gNew}, machine.RUn)
		e.stats.NewLocs++
		add(gNew, lf)
	} else {
		e.stats.KBounded++
		if e.v.KBound == KBoundAssume {
			assumed = smt.And(assumed, smt.Not(gNew))
		}
	}

	// θ_alias = {(φ_x ∧ r_f ≠ r_null ∧ r_f = r_a ∧ ⋀_{r'_a < r_a} r_f ≠ r'_a, l_a)}
	drop := mut.DropAlias - 1
	if mut.DropAlias < 0 {
		drop = len(rho) - 1
	}
	for i, a := range rho {
		if mut.DropAlias != 0 && i == drop {
			continue
		}
		parts := []*smt.Formula{phiS, notNull, smt.Eq(rf, a.Ref)}
		if mut.AliasIgnoresNull {
			parts = []*smt.Formula{phiS, smt.Eq(rf, a.Ref)}
		}
		for j, b := range rho {
			var other bool
			switch e.v.AliasGuard {
			case AliasBefore:
				other = b.Ref < a.Ref
			case AliasAll: // V1, seed 000
				other = j != i
			case AliasAfter:
				other = b.Ref > a.Ref
			}
			if other {
				parts = append(parts, smt.Neq(rf, b.Ref))
			}
		}
		g := smt.And(parts...)
		add(g, a.Loc)
		// Bookkeeping for concretization, not a rule: in a world where
		// l_a had not been materialized (its θ_new guard false, r_a free),
		// taking this entry names the fresh object l_a, so from now on
		// l_a is part of that world's heap even if no field keeps
		// pointing to it.
		s.Locs[a.Loc].Exists = smt.Or(s.Locs[a.Loc].Exists, g)
	}

	// θ_orig = {(¬φ_x ∧ φ_o, l_o) | (φ_o l_o) ∈ L(R(l_x,f))}
	if !mut.DropOrig {
		for _, o := range orig {
			g := smt.And(smt.Not(phiS), o.Guard)
			if mut.OrigGuardAccess {
				g = smt.And(smt.Not(x.guard), o.Guard)
			}
			if mut.OrigUnguarded {
				g = o.Guard
			}
			add(g, o.Loc)
		}
	}
	if err != nil {
		return nil, err
	}
	s.Set(rf, theta)
	s.SetField(lx, f, rf)
	return assumed, nil
}

// candidates returns ρ(C) ordered by reference (variant V6 decides which
// reference stands for a location).
func (e *Engine) candidates(s *machine.State, c *javalite.Class) []machine.Entry2 {
	rho := s.InputLocs(c)
	if e.v.Candidates != CandMinRef {
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
