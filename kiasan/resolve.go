package kiasan

import (
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// resolution is one successor of RESOLVE: the state and what l_u became.
type resolution struct {
	s    *machine.State
	to   machine.Loc // l_null, a materialized input location, or l_u itself (fresh)
	null bool
}

// resolve is RESOLVE(l_u) of ENGINES.md §3.2, for the reference at that is
// being dereferenced or compared. Successors in order: null (when withNull:
// lazier#'s init-sym-ref* on a δ̂), one alias per materialized input
// location of the class by identity, then fresh if Depth(l_u) ≤ k (Kiasan's
// init-sym-loc*: collect(h) ∪ {j ∉ dom h | m ≥ 0}). No alternative means no
// successor: Kiasan drops such a state silently (lemma FEAS).
//
// s is consumed (reused for the last successor).
func (e *Engine) resolve(s *machine.State, lu machine.Loc, at machine.Ref, withNull bool) []resolution {
	info := s.Locs[lu]
	ru := info.Identity
	var out []resolution
	cands := e.candidates(s, lu)
	fresh := e.K < 0 || info.Depth <= e.K || e.Mut == MutFreshBeyondK
	pending := e.pending(s, lu, fresh)
	nalt := len(cands) + len(pending)
	if withNull {
		nalt++
	}
	if fresh {
		nalt++
	}
	take := func() *machine.State {
		nalt--
		if nalt == 0 {
			return s
		}
		return s.Clone()
	}
	nonNull := func(b *machine.State) {
		if info.MayBeNull {
			b.AddFact(smt.Neq(ru, machine.RNull))
		}
	}

	if withNull {
		// init-sym-ref*(σ, δ̂) = … ∪ {init-sym-ref(σ, δ̂, NULL)}
		b := take()
		e.substitute(b, lu, machine.LNull, at)
		b.AddFact(smt.Eq(ru, machine.RNull))
		out = append(out, resolution{s: b, to: machine.LNull, null: true})
	}
	for _, a := range cands {
		// init-sym-loc*(σ, δ) ∋ init-sym-loc(σ, δ, i), i ∈ collect(h)
		b := take()
		e.substitute(b, lu, a.Loc, at)
		if a.Ref != machine.RNull { // RNull: a (new C) location under MutAllLocations
			b.AddFact(smt.Eq(ru, a.Ref))
		}
		nonNull(b)
		if e.Var.StampKbound && a.Ref > ru && b.Locs[a.Loc].Input {
			// The object was materialized from a younger symbol; in GSE it
			// is created by the read of this older one, with its depth,
			// and its initial values are that symbol's.
			b.Locs[a.Loc].Identity = ru
			b.Locs[a.Loc].Depth = info.Depth
			if e.Mut != MutStampKeepSymbols { // Mutant stamp-keep-symbols
				renameInput(b, a.Ref, ru)
			}
		}
		if e.Mut == MutAliasOwnSymbols {
			// Mutant resolve-alias-own-symbols: the object's primitive
			// fields are taken to be the δ's own initial values.
			for _, f := range b.Locs[a.Loc].Class.PrimFields {
				b.SetPrimField(a.Loc, f, machine.InitialValue(ru, f))
			}
		}
		out = append(out, resolution{s: b, to: a.Loc})
	}
	for _, w := range pending {
		// Variant alias-pending: l_w becomes a fresh object (as its own
		// RESOLVE would make it) and l_u is that object.
		b := take()
		rw := b.Locs[w].Identity
		if b.Locs[w].MayBeNull {
			b.AddFact(smt.Neq(rw, machine.RNull))
		}
		for _, a := range b.InputLocs(info.Class) {
			b.AddFact(smt.Neq(rw, a.Ref))
		}
		e.materialize(b, w)
		e.substitute(b, lu, w, at)
		b.AddFact(smt.Eq(ru, rw))
		nonNull(b)
		out = append(out, resolution{s: b, to: w})
	}
	if fresh {
		// init-sym-loc*(σ, δ) ∋ init-sym-loc(σ, δ, j), j ∉ dom h, if m ≥ 0:
		// l_u itself becomes the materialized input location (reference
		// fields r_un, primitive fields α(l_u, f)).
		b := take()
		nonNull(b)
		for _, a := range b.InputLocs(info.Class) {
			b.AddFact(smt.Neq(ru, a.Ref))
		}
		e.materialize(b, lu)
		out = append(out, resolution{s: b, to: lu})
	}
	return out
}

// pending are the alias-pending candidates of l_u when it cannot be fresh:
// the live unresolved locations of its class older than it (by identity)
// that can be fresh themselves, in creation order.
func (e *Engine) pending(s *machine.State, lu machine.Loc, fresh bool) []machine.Loc {
	if !e.Var.AliasPending || fresh {
		return nil
	}
	info := s.Locs[lu]
	var out []machine.Loc
	for l, w := range s.Locs {
		if w.Unresolved && (w.Exists == nil || !w.Exists.IsFalse()) && w.Class == info.Class && w.Identity < info.Identity &&
			(e.K < 0 || w.Depth <= e.K) {
			out = append(out, machine.Loc(l))
		}
	}
	return out
}

// candidates are collect(h) restricted to the class of l_u: the
// materialized input locations, ordered by identity. stamp-kbound keeps
// only those older than l_u when l_u is beyond the bound.
func (e *Engine) candidates(s *machine.State, lu machine.Loc) []machine.Entry2 {
	info := s.Locs[lu]
	if e.Mut == MutDropAliases {
		return nil
	}
	cands := s.InputLocs(info.Class) // unresolved locations are not Input
	if e.Mut == MutAllLocations {
		for l, li := range s.Locs {
			if !li.Input && !li.Unresolved && li.Class == info.Class {
				// A new location has no identity reference: RNull marks
				// it, and no alias fact is recorded.
				cands = append(cands, machine.Entry2{Ref: machine.RNull, Loc: machine.Loc(l)})
			}
		}
	}
	if e.Var.StampKbound && e.K >= 0 && info.Depth > e.K {
		var older []machine.Entry2
		for _, a := range cands {
			if a.Ref < info.Identity {
				older = append(older, a)
			}
		}
		cands = older
	}
	return cands
}

// substitute replaces l_u by to in every value set (Kiasan's subst over
// globals, locals, operand stack and heap: one symbol, one choice) and
// leaves l_u as a location of no world. Under MutLocalSubst only L(at)
// changes and l_u stays unresolved.
func (e *Engine) substitute(s *machine.State, lu, to machine.Loc, at machine.Ref) {
	if e.Mut == MutLocalSubst {
		s.Set(at, machine.Single(to))
		return
	}
	for i, g := range s.L {
		for j, x := range g {
			if x.Loc != lu {
				continue
			}
			ng := append(machine.GVS(nil), g[:j]...)
			for _, y := range g[j+1:] {
				ng = append(ng, y)
			}
			ng = ng.Merge(x.Guard, to)
			s.L[i] = ng
			break
		}
	}
	s.Locs[lu].Exists = smt.False()
}
