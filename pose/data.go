package pose

import (
	"github.com/lockstep-dev/lockstep/engine/guarded"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// The rules on primitive data (PRIMITIVES.md §3–§4, docs/POSE.md D10–D12).
//
// POSE treats a primitive field as it treats every field: it is ⊥ until
// the first Getfield or Putfield on it, where (r2) binds Y.f = Z, Z the
// field's initial value, and gives the field the assume ite over the alias
// set. POSE-J keeps that laziness: the primitive field of a symbolic
// location holds nil (⊥) until it is *bound*, and then a term in every
// world. The fresh symbol Z of (r2) is an initial-value symbol: seed 003's
// clause Y.f = Z over the uninterpreted field function (jPOSE's
// (= (f Y) Z)) says exactly that Z is the initial value of field f of the
// object of Y, the value GSE calls α(l, f) (relation.ExactData compares
// them input by input). POSE-J names it α(r_Y, f) where Y is the object's
// canonical symbol, and the canonical symbol's α where Y aliases an
// earlier materialized one: init(Y, f) (primInit, docs/POSE.md D11).
// Binding is world-exact like Assume (D1):
//
//	bind(Y, f) = ite(r_Y = r_Y1 ∧ m(Y1), Y1.f, … ite(r_Y = r_Yn ∧ m(Yn), Yn.f, init(Y, f)))
//
// over the other bound symbols Y_i of the class in creation order. An alias
// counts only where it is materialized (m(Y_i) = Exists(l_Yi)): in a world
// where Y_i stands for no object its identity is unconstrained, and its
// field is no object's field. Every bound field, materialized in a world,
// holds its object's value there (INV-P on primitive fields), so the first
// alias is as good as any, and binding a field in all worlds at once is
// harmless: a primitive field creates no object (unlike a reference
// field's Assume, which materializes l_Z) and its value if read now is
// its value in every world.
//
// A write through the receiver entry (g, l_Y) binds Y.f first, sets it to
// ite(g, t, Y.f) and updates every other bound symbol Y' of the class:
// Y'.f := ite(g ∧ r_Y = r_Y', t, Y'.f) (Putfield (c1)'s update; an unbound
// Y' needs none: its binding finds the written alias). The read through a
// receiver set is the ite of the reads, Getfield (c2), as the summary
// engine's (PRIMITIVES.md §4).

// Feasible implements machine.PathCond for If (sym) and Assume (If
// (c3)/(c4)): S(φ ∧ t).
func (e *Engine) Feasible(s *machine.State, t *smt.Formula) (bool, error) {
	return e.sat(smt.And(s.PathCondition(), t))
}

// Strengthen implements machine.PathCond: φ := φ ∧ t (Σ += σ).
func (e *Engine) Strengthen(s *machine.State, t *smt.Formula) {
	setPhi(s, smt.And(s.PathCondition(), t))
}

var _ machine.PathCond = (*Engine)(nil)

// unbindPrims makes the primitive fields of the new symbolic location l
// ⊥: machine.NewLoc gave them α(r_Z, f), but POSE binds a field at its
// first use, against the aliases bound by then.
func unbindPrims(s *machine.State, l machine.Loc) {
	for _, f := range s.Locs[l].Class.PrimFields {
		s.SetPrimField(l, f, nil)
	}
}

// exists is m(Y) of a symbolic location.
func exists(s *machine.State, l machine.Loc) *smt.Formula {
	if ex := s.Locs[l].Exists; ex != nil {
		return ex
	}
	return smt.True()
}

// primAssume is assume(H, Y, f, Z) on the primitive field f of the
// symbolic location l = l_Y with Z = α(r_Y, f) (see above). Aliases whose
// equality with Y is unsatisfiable with phi are left out.
func (e *Engine) primAssume(s *machine.State, l machine.Loc, f *javalite.Field, phi *smt.Formula) (*smt.Formula, error) {
	// Rule: Assume (r2) on a primitive field
	y := s.Locs[l].Identity
	if e.v.Mutation.PrimAssumeNoAliases { // Mutant prim-assume-no-aliases
		return e.primInit(s, l, f, phi, nil)
	}
	type alias struct{ g, t *smt.Formula }
	var as []alias
	for _, yi := range symbolsOf(s, s.Locs[l].Class) {
		t := s.PrimField(yi, f)
		if yi == l || t == nil {
			continue
		}
		g := smt.And(smt.Eq(y, s.Locs[yi].Identity), exists(s, yi))
		ok, err := e.sat(smt.And(phi, g))
		if err != nil {
			return nil, err
		}
		if ok {
			as = append(as, alias{g, t})
		}
	}
	// A bound alias shadows its own entry of init(Y, f): same guard.
	v, err := e.primInit(s, l, f, phi, func(yi machine.Loc) bool { return s.PrimField(yi, f) != nil })
	if err != nil {
		return nil, err
	}
	for i := len(as) - 1; i >= 0; i-- {
		v = smt.Ite(as[i].g, as[i].t, v)
	}
	return v, nil
}

// primInit is Z, the initial value of field f of the object of Y = l:
// α(r_Y', f) of the first materialized symbol Y' (in creation order) with
// r_Y' = r_Y, α(r_Y, f) where none before Y is:
//
//	init(Y, f) = ite(r_Y = r_Y1 ∧ m(Y1), α(r_Y1, f), … α(r_Y, f))
//
// over the symbols created before Y, bound or not. Seed 003's clause
// Y.f = Z over the uninterpreted field function makes the initial values of
// two equal symbols one value (jPOSE's (= (f Y) Z)); lockstep's symbols
// α(r, f) are one variable per (identity, field), so POSE-J names the
// initial value of an object by its canonical symbol, the location the
// View keeps and relation.ExactData renames (a symbol that aliases an
// earlier materialized one stands for no object of its own: its α would be
// a variable no GSE state has).
//
// The symbols skip reports (if not nil) are left out.
func (e *Engine) primInit(s *machine.State, l machine.Loc, f *javalite.Field, phi *smt.Formula, skip func(machine.Loc) bool) (*smt.Formula, error) {
	y := s.Locs[l].Identity
	type alias struct{ g, t *smt.Formula }
	var as []alias
	for _, yi := range symbolsOf(s, s.Locs[l].Class) {
		if yi == l {
			break
		}
		if skip != nil && skip(yi) {
			continue
		}
		g := smt.And(smt.Eq(y, s.Locs[yi].Identity), exists(s, yi))
		ok, err := e.sat(smt.And(phi, g))
		if err != nil {
			return nil, err
		}
		if ok {
			as = append(as, alias{g, machine.InitialValue(s.Locs[yi].Identity, f)})
		}
	}
	v := machine.InitialValue(y, f)
	for i := len(as) - 1; i >= 0; i-- {
		v = smt.Ite(as[i].g, as[i].t, v)
	}
	return v, nil
}

// bindPrim binds the ⊥ primitive field f of the symbolic location l,
// reached by the read or write in the worlds g. Under the published merge
// (Getfield (c2) with mergeHGf (3)–(4)), the worlds the access does not
// reach get Z itself, the clause's initial value, not the assume ite.
func (e *Engine) bindPrim(s *machine.State, l machine.Loc, f *javalite.Field, g, phi *smt.Formula) error {
	v, err := e.primAssume(s, l, f, phi)
	if err != nil {
		return err
	}
	if e.v.PublishedMerge {
		other, err := e.sat(smt.And(phi, smt.Not(g)))
		if err != nil {
			return err
		}
		if other {
			// Rule: mergeHeaps (published, cases (3)–(4)) on a primitive field
			e.stats.Merged++
			z, err := e.primInit(s, l, f, phi, nil)
			if err != nil {
				return err
			}
			v = smt.Ite(g, v, z)
		}
	}
	s.SetPrimField(l, f, v)
	return nil
}

// accessPrim is rule A on a primitive field f of L(r): Getfield (r2) on
// every ⊥ symbolic receiver, then Getfield (c1)/(c2)/(c5): the value is
// ite(g_1, R(l_1,f), … R(l_n,f)) over the receiver entries satisfiable
// with φ'_g (under φ'_g exactly one holds, so the last needs no test).
func (e *Engine) accessPrim(sa *machine.State, r machine.Ref, f *javalite.Field, p guarded.Premises, k *machine.Kont) ([]machine.Succ, error) {
	// Rule: Field access (A) on a primitive field
	phiP := p.PhiPrime()
	var guards, terms []*smt.Formula
	receivers, err := guarded.Receivers(e.sat, sa, r, phiP)
	if err != nil {
		return nil, err
	}
	for _, en := range receivers {
		if sa.PrimField(en.Loc, f) == nil {
			e.stats.Assume++
			if err := e.bindPrim(sa, en.Loc, f, en.Guard, phiP); err != nil {
				return nil, err
			}
		}
		guards = append(guards, en.Guard)
		terms = append(terms, sa.PrimField(en.Loc, f))
	}
	if len(terms) == 0 {
		return nil, nil // no non-null world: guarded.Pair did not call A
	}
	if e.v.Mutation.PrimReadLast { // Mutant prim-read-last
		guards, terms = guards[len(guards)-1:], terms[len(terms)-1:]
	}
	v := terms[len(terms)-1]
	for i := len(terms) - 2; i >= 0; i-- {
		v = smt.Ite(guards[i], terms[i], v)
	}
	setPhi(sa, phiP)
	sa.SetValue(machine.PrimVal(v), k)
	return []machine.Succ{{S: sa, Rule: machine.RuleFieldA}}, nil
}

// writePrim is rule W on a primitive field f of L(r_x), Putfield
// (c1)/(c2)/(c5) per receiver entry (g, l): R(l,f) := ite(g, t, R(l,f))
// (t when φ'_g ⇒ g), and for a symbolic l = l_Y, update: every other
// bound l_Y' of the class gets ite(g ∧ r_Y = r_Y', t, R(l_Y',f)).
func (e *Engine) writePrim(sw *machine.State, rx machine.Ref, f *javalite.Field, p guarded.Premises, k *machine.Kont) ([]machine.Succ, error) {
	// Rule: Field write (W) on a primitive field
	phiP := p.PhiPrime()
	t := sw.Val.Term()
	mut := e.v.Mutation
	// Under the published merge each branch of Putfield (c2) starts from
	// the heap before the write: its update sees the aliases bound then,
	// and a field ⊥ then is the fresh Z (the initial value) in the
	// branches that did not write it (mergeHPf (3)–(6)).
	var before map[machine.Loc]bool
	if e.v.PublishedMerge {
		before = map[machine.Loc]bool{}
		for l := range sw.Locs {
			if sw.PrimField(machine.Loc(l), f) != nil {
				before[machine.Loc(l)] = true
			}
		}
	}
	receivers, err := guarded.Receivers(e.sat, sw, rx, phiP)
	if err != nil {
		return nil, err
	}
	for _, en := range receivers {
		l, g := en.Loc, en.Guard
		if sw.PrimField(l, f) == nil {
			if e.v.PublishedMerge {
				// Rule: mergeHeaps (published, cases (3)–(6)) on a primitive field
				z, err := e.primInit(sw, l, f, phiP, nil)
				if err != nil {
					return nil, err
				}
				sw.SetPrimField(l, f, z)
			} else {
				e.stats.Assume++
				v, err := e.primAssume(sw, l, f, phiP)
				if err != nil {
					return nil, err
				}
				sw.SetPrimField(l, f, v)
			}
		}
		nv, err := e.ite(g, t, sw.PrimField(l, f), phiP)
		if err != nil {
			return nil, err
		}
		if mut.PrimWriteDropsOld { // Mutant prim-write-drops-old
			nv = t
		}
		sw.SetPrimField(l, f, nv)
		if !symbolic(sw, l) || mut.PrimNoUpdate { // Mutant prim-no-update
			continue
		}
		// Rule: update (Putfield (c1)) on a primitive field
		y := sw.Locs[l].Identity
		for _, y2 := range symbolsOf(sw, sw.Locs[l].Class) {
			old := sw.PrimField(y2, f)
			if y2 == l || old == nil || (before != nil && !before[y2]) {
				continue
			}
			h := smt.And(g, smt.Eq(y, sw.Locs[y2].Identity))
			ok, err := e.sat(smt.And(h, phiP))
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			e.stats.Update++
			nv := smt.Ite(h, t, old)
			if mut.PrimUpdateSwapped { // Mutant prim-update-swapped
				nv = smt.Ite(h, old, t)
			}
			sw.SetPrimField(y2, f, nv)
		}
	}
	setPhi(sw, phiP)
	sw.SetValue(sw.Val, k)
	return []machine.Succ{{S: sw, Rule: machine.RuleWriteW}}, nil
}

// ite is ite(g, t, old), or t where φ ⇒ g (the write reaches l in every
// world, Putfield (c1) on a plain receiver).
func (e *Engine) ite(g, t, old, phi *smt.Formula) (*smt.Formula, error) {
	if g.IsTrue() {
		return t, nil
	}
	other, err := e.sat(smt.And(phi, smt.Not(g)))
	if err != nil || !other {
		return t, err
	}
	return smt.Ite(g, t, old), nil
}
