package view

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Deferred is the View of uber-lazy's deferred engine (ENGINES.md §6.2,
// U-DEFER; package uber) with k-bound k (k < 0: unbounded): ENGINES.md
// §5.1's View of unresolved locations, adapted to guarded states.
//
// Why not Unresolved. Unresolved is written for Kiasan's states, in which
// every value set is a singleton {(true l)}, every materialized input
// location exists in every world and an unresolved location is an object
// of every world where it is not null or another candidate. In a guarded
// (summary) state none of this holds:
//
//   - a materialized input location l_a made by θ_new exists only under
//     its Exists guard; in the other worlds r_a is null, equal to an
//     earlier candidate, or free. Unresolved's φ_view conjuncts
//     r_a ≠ null ∧ r_a ≠ r_b would remove those worlds;
//   - an unresolved location l_u made by a read of l_x.f under the read
//     guard ψ_u (φ_x ∧ φ_un, which the engine keeps in its Exists) is an
//     object only in the worlds where that read happened. Unresolved's
//     Exists(l_u) = r_u ≠ null ∧ … holds in worlds where ψ_u is false too
//     and adds an unreachable object to their heaps;
//   - an alias entry to l_a taken where l_a had not been materialized
//     names that object, so Exists(l_a) must be widened (as Summarize
//     does); Unresolved never widens.
//
// Deferred instead resolves every unresolved location of a copy of s, in
// creation order, with the very resolution the engine applies at a use
// (ResolveDeferred with the zero Resolution): the View of a state is the
// state the engine would reach by resolving everything now. The View is
// then a summary state, deterministic and total when the engine state is
// well formed, over canonical locations; exactness at k = −1 follows from
// Summarize's (lemma L1) once resolving late and resolving now give the
// same heaps, which is what the lockstep tests of package uber check at
// every step.
//
// A state without unresolved locations is returned as it is (not copied):
// callers must not modify a View.
func Deferred(s *machine.State, k int) (*machine.State, error) {
	if s == nil || s.Prog == nil {
		return nil, fmt.Errorf("view: no state")
	}
	any := false
	for _, info := range s.Locs {
		if info.Unresolved {
			any = true
			break
		}
	}
	if !any {
		return s, nil
	}
	v := s.Clone()
	phi := []*smt.Formula{s.PathCondition()}
	for l := range v.Locs {
		if !v.Locs[l].Unresolved {
			continue
		}
		phi = append(phi, ResolveDeferred(v, machine.Loc(l), k, Resolution{}))
	}
	v.Phi, v.Facts = smt.And(phi...), nil
	return v, nil
}

// Resolution are the choices of ResolveDeferred. The zero value is the
// rule as specified (and the View); the other values are the sub-variants
// and mutants of package uber, which only the engine uses.
type Resolution struct {
	// NoAlias drops θ_alias and, with it, θ_new's exclusion of the
	// candidates: the object is null or fresh, as seed 004's Field access
	// (null)/(non-null) makes it (sub-variant u-noalias). Dropping θ_alias
	// alone would leave the worlds r = r_a without a target (a WF
	// verdict, not the finding).
	NoAlias bool
	// DropNull drops θ_null (mutant).
	DropNull bool
	// NewIgnoresAliases leaves ⋀ r ≠ r_a out of θ_new's guard (mutant).
	NewIgnoresAliases bool
	// NoWiden does not widen Exists(l_a) by the alias guards (mutant).
	NoWiden bool
	// NoIdleNull leaves out the idle-null conjunct ψ ∨ r = null (mutant:
	// summary's F3 phantom aliases).
	NoIdleNull bool
	// AliasAll makes an alias guard exclude every other candidate, not
	// only the earlier ones (mutant; summary's V1 seed-000 reading).
	AliasAll bool
	// NoPrimSymbols leaves the resolved location's primitive fields at New's
	// defaults (0, false) instead of its initial-value symbols (mutant).
	NoPrimSymbols bool
}

// ResolveDeferred replaces the unresolved location lu of s, everywhere, by
// the Summarize θ of RULES.md §6 over ρ(C) as it is now (ENGINES.md §6.2,
// U-DEFER), and returns the conjunct the caller must add to the path
// condition. s is modified in place.
//
// With ψ the read guard of lu (kept in its Exists while it is unresolved)
// and r = init_r() a new identity reference, every entry (g, l_u) becomes
//
//   - (g ∧ ψ ∧ r = r_null, l_null)                                  θ_null
//   - (g ∧ ψ ∧ r ≠ r_null ∧ ⋀_{a∈ρ(C)} r ≠ r_a, l_u)                 θ_new, if Depth(l_u) ≤ k
//   - (g ∧ ψ ∧ r ≠ r_null ∧ r = r_a ∧ ⋀_{b<a} r ≠ r_b, l_a)          θ_alias, per (r_a l_a) ∈ ρ(C)
//
// l_u itself becomes the θ_new location (input, identity r, Exists the
// θ_new guard; its fields are r_un), or, beyond the k-bound, an input
// location that exists in no world. Each alias guard widens Exists(l_a),
// as Summarize does. The conjunct returned is summary:fixed's: ψ ∨ r =
// r_null (idle-null: r is not free where the read did not happen) and,
// beyond the k-bound, ¬θ_new (kbound-assume).
//
// The identity reference is taken at resolution, not at the read, so that
// ρ(C) ordered by identity is the order of materialization, the order the
// θ_new guards exclude earlier candidates in (a reference taken at the
// read would put a location materialized later before one materialized
// earlier, and an alias guard could then name a location that is not an
// object of its world). No guard mentions lu's identity before it is
// resolved, so nothing else changes.
func ResolveDeferred(s *machine.State, lu machine.Loc, k int, res Resolution) *smt.Formula {
	info := s.Locs[lu]
	psi := info.Exists
	if psi == nil {
		psi = smt.True()
	}
	var rho []machine.Entry2
	for _, a := range s.InputLocs(info.Class) {
		if a.Loc != lu && !s.Locs[a.Loc].Exists.IsFalse() {
			rho = append(rho, a)
		}
	}
	r := s.InitR()
	notNull := smt.Neq(r, machine.RNull)
	var theta []machine.Entry
	// Rule: resolve (U-DEFER) — θ_null (seed 004: Field access (null))
	if !res.DropNull {
		theta = append(theta, machine.Entry{Guard: smt.And(psi, smt.Eq(r, machine.RNull)), Loc: machine.LNull})
	}
	// Rule: resolve (U-DEFER) — θ_new (seed 004: Field access (non-null))
	parts := []*smt.Formula{psi, notNull}
	if !res.NewIgnoresAliases && !res.NoAlias {
		for _, a := range rho {
			parts = append(parts, smt.Neq(r, a.Ref))
		}
	}
	gNew := smt.And(parts...)
	assumed := []*smt.Formula{}
	if !res.NoIdleNull {
		assumed = append(assumed, smt.Or(psi, smt.Eq(r, machine.RNull)))
	}
	li := &s.Locs[lu]
	li.Unresolved, li.MayBeNull, li.Input, li.Identity = false, false, true, r
	// Its primitive fields are the initial-value symbols of the input
	// object it now is (PRIMITIVES.md §2): no rule read them before.
	if !res.NoPrimSymbols {
		s.InitPrimFields(lu)
	}
	if k < 0 || info.Depth <= k {
		li.Exists = gNew
		theta = append(theta, machine.Entry{Guard: gNew, Loc: lu})
	} else {
		li.Exists = smt.False()
		assumed = append(assumed, smt.Not(gNew))
	}
	// Rule: resolve (U-DEFER) — θ_alias over ρ(C) at this time (no seed-004
	// rule: the authors' later θ_a, dropped by u-noalias)
	if !res.NoAlias {
		for i, a := range rho {
			g := []*smt.Formula{psi, notNull, smt.Eq(r, a.Ref)}
			for j, b := range rho {
				if j < i || (res.AliasAll && j != i) {
					g = append(g, smt.Neq(r, b.Ref))
				}
			}
			ga := smt.And(g...)
			theta = append(theta, machine.Entry{Guard: ga, Loc: a.Loc})
			if !res.NoWiden {
				s.Locs[a.Loc].Exists = smt.Or(s.Locs[a.Loc].Exists, ga)
			}
		}
	}
	for i, g := range s.L {
		if !names(g, lu) {
			continue
		}
		var ng machine.GVS
		for _, e := range g {
			if e.Loc != lu {
				ng = ng.Merge(e.Guard, e.Loc)
				continue
			}
			for _, t := range theta {
				ng = ng.Merge(smt.And(e.Guard, t.Guard), t.Loc)
			}
		}
		s.L[i] = ng
	}
	return smt.And(assumed...)
}

func names(g machine.GVS, l machine.Loc) bool {
	for _, e := range g {
		if e.Loc == l {
			return true
		}
	}
	return false
}
