package view

import (
	"fmt"
	"slices"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Unresolved is the View of ENGINES.md §5.1 for states with unresolved
// locations (machine.LocInfo.Unresolved) and k-bound k (k < 0: unbounded).
//
// Per class C, the candidates are ordered: the materialized input locations
// a_1 < a_2 < … (Input, by identity reference), then the live unresolved
// locations u_1 < u_2 < … (by identity, which is creation order). An entry
// (g, l_u) becomes
//
//   - (g ∧ r_u = null, l_null) if l_u is MayBeNull;
//   - (g ∧ r_u ≠ null ∧ r_u = r_a ∧ ⋀_{b<a} r_u ≠ r_b, l_a) per materialized a;
//   - (g ∧ base ∧ r_u = r_w ∧ ⋀_{x<w} r_u ≠ r_x, l_w) per earlier unresolved w;
//   - (g ∧ base ∧ ⋀_{u'<u} r_u ≠ r_u', l_u) if Depth(l_u) ≤ k,
//
// with base = r_u ≠ null ∧ ⋀_a r_u ≠ r_a. The guards of one expansion are
// pairwise exclusive without the path condition (Def. 11). In the View l_u
// is an input location (reference fields r_un, as in the engine state;
// primitive fields its initial-value symbols α(l_u, f), PRIMITIVES.md §4,
// where the engine state has the defaults no rule reads) with
// Exists = base ∧ ⋀_{u'<u} r_u ≠ r_u' — the worlds in which it is an
// object of its own — and
//
//	φ_view = φ ∧ ⋀_{a≠b, one class} r_a ≠ r_b ∧ ⋀_a r_a ≠ null
//	         ∧ ⋀_{u not MayBeNull} r_u ≠ null ∧ ⋀_{Depth(u) > k} ¬Exists(l_u),
//
// under which every expansion is total. An entry to l_u' is guarded by a
// formula implying Exists(l_u'), so no reference points to an absent
// location.
//
// An unresolved location with Exists = false is one a resolution has
// replaced (by null or an alias) everywhere: it is no object in any world
// and becomes an input location that never exists. An entry naming it is
// an engine error.
//
// Unresolved locations stay in Locs after every pointer to them is
// overwritten, so the unreachable input locations of GSE keep a
// counterpart (exactness of the whole heap, not only its reachable part).
//
// A state without unresolved locations is returned as it is (not copied):
// callers must not modify a View.
func Unresolved(s *machine.State, k int) (*machine.State, error) {
	return unresolvedView(s, k, false)
}

// UnresolvedStamped is Unresolved for kiasan's stamp-kbound variant: an
// unresolved location deeper than k may only be one of the materialized
// locations whose stamp (identity reference) is older than its own; the
// younger ones are excluded by φ_view (r_u ≠ r_a), matching the engine's
// candidates.
func UnresolvedStamped(s *machine.State, k int) (*machine.State, error) {
	return unresolvedView(s, k, true)
}

type cand struct {
	ref machine.Ref
	loc machine.Loc
}

type expansion struct {
	entries []machine.Entry
	exists  *smt.Formula
}

func unresolvedView(s *machine.State, k int, stamp bool) (*machine.State, error) {
	if s == nil || s.Prog == nil {
		return nil, fmt.Errorf("view: no state")
	}
	mat := map[int][]cand{}  // by class index: materialized input locations
	live := map[int][]cand{} // by class index: live unresolved locations
	dead := map[machine.Loc]bool{}
	any := false
	for l, info := range s.Locs {
		ci := info.Class.Index
		switch {
		case info.Unresolved && info.Exists != nil && info.Exists.IsFalse():
			dead[machine.Loc(l)] = true
			any = true
		case info.Unresolved:
			live[ci] = append(live[ci], cand{info.Identity, machine.Loc(l)})
			any = true
		case info.Input:
			mat[ci] = append(mat[ci], cand{info.Identity, machine.Loc(l)})
		}
	}
	if !any {
		return s, nil
	}
	byRef := func(a, b cand) int { return int(a.ref) - int(b.ref) }
	for _, m := range mat {
		slices.SortFunc(m, byRef)
	}
	for _, u := range live {
		slices.SortFunc(u, byRef)
	}

	v := s.Clone()
	phi := []*smt.Formula{s.Phi}
	for _, m := range mat {
		for i, a := range m {
			phi = append(phi, smt.Neq(a.ref, machine.RNull))
			for _, b := range m[:i] {
				phi = append(phi, smt.Neq(a.ref, b.ref))
			}
		}
	}
	exp := map[machine.Loc]expansion{}
	for ci, us := range live {
		for i, u := range us {
			info := s.Locs[u.loc]
			ru := u.ref
			beyond := k >= 0 && info.Depth > k
			var cands, excluded []cand
			for _, a := range mat[ci] {
				if stamp && beyond && a.ref > ru {
					excluded = append(excluded, a)
					continue
				}
				cands = append(cands, a)
			}
			var es []machine.Entry
			if info.MayBeNull {
				es = append(es, machine.Entry{Guard: smt.Eq(ru, machine.RNull), Loc: machine.LNull})
			} else {
				phi = append(phi, smt.Neq(ru, machine.RNull))
			}
			base := []*smt.Formula{smt.Neq(ru, machine.RNull)}
			for j, a := range cands {
				g := []*smt.Formula{smt.Neq(ru, machine.RNull), smt.Eq(ru, a.ref)}
				for _, b := range cands[:j] {
					g = append(g, smt.Neq(ru, b.ref))
				}
				es = append(es, machine.Entry{Guard: smt.And(g...), Loc: a.loc})
				base = append(base, smt.Neq(ru, a.ref))
			}
			for j, w := range us[:i] {
				g := append(slices.Clone(base), smt.Eq(ru, w.ref))
				for _, x := range us[:j] {
					g = append(g, smt.Neq(ru, x.ref))
				}
				es = append(es, machine.Entry{Guard: smt.And(g...), Loc: w.loc})
			}
			own := slices.Clone(base)
			for _, w := range us[:i] {
				own = append(own, smt.Neq(ru, w.ref))
			}
			exists := smt.And(own...)
			if !beyond {
				es = append(es, machine.Entry{Guard: exists, Loc: u.loc})
			} else {
				phi = append(phi, smt.Not(exists))
			}
			for _, a := range excluded {
				phi = append(phi, smt.Neq(ru, a.ref))
			}
			exp[u.loc] = expansion{entries: es, exists: exists}
		}
	}

	for l := range v.Locs {
		info := &v.Locs[l]
		if !info.Unresolved {
			continue
		}
		if dead[machine.Loc(l)] {
			info.Exists = smt.False()
		} else {
			info.Exists = exp[machine.Loc(l)].exists
		}
		info.Unresolved, info.MayBeNull, info.Input = false, false, true
		// In the worlds where l_u is an object of its own it is the input
		// object a fresh resolution would make: its primitive fields are
		// its initial-value symbols α(l_u, f) (the engine state holds
		// Java's defaults there, which no rule reads before RESOLVE, and
		// no term of the state mentions α(l_u, f) yet).
		v.InitPrimFields(machine.Loc(l))
	}
	for i, g := range v.L {
		touched := false
		for _, e := range g {
			if e.Loc >= 0 && s.Locs[e.Loc].Unresolved {
				touched = true
				break
			}
		}
		if !touched {
			continue
		}
		r := machine.Ref(i - 2)
		var ng machine.GVS
		for _, e := range g {
			if e.Loc < 0 || !s.Locs[e.Loc].Unresolved {
				ng = ng.Merge(e.Guard, e.Loc)
				continue
			}
			if dead[e.Loc] {
				if isIdentity(s, r, e.Loc) {
					ng = ng.Merge(e.Guard, e.Loc)
					continue
				}
				return nil, fmt.Errorf("view: L(%s) names %v, which a resolution has replaced", machine.RefString(r), e.Loc)
			}
			for _, x := range exp[e.Loc].entries {
				ng = ng.Merge(smt.And(e.Guard, x.Guard), x.Loc)
			}
		}
		v.L[i] = ng
	}
	v.Phi = smt.And(phi...)
	return v, nil
}

// isIdentity reports whether r is the identity reference of l: L(r_u) is
// kept as the engine left it, since nothing reads it.
func isIdentity(s *machine.State, r machine.Ref, l machine.Loc) bool {
	return s.Locs[l].Identity == r
}
