package summary

import (
	"github.com/lockstep-dev/lockstep/engine/guarded"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// The heap rules on primitive fields (PRIMITIVES.md §4). A primitive field
// holds a term from the moment its location exists, so there is no →S*:
// reading through a reference with several targets is an ite over their
// guards, and a write through one updates each target under its own guard.
// Under φ'_g exactly one non-null entry holds (determinism and totality),
// so the ite is total and the last entry needs no test.

// accessPrim is rule A on a primitive field f of L(r).
func (e *Engine) accessPrim(sa *machine.State, r machine.Ref, f *javalite.Field, p guarded.Premises, k *machine.Kont) ([]machine.Succ, error) {
	// Rule: Field access (A) on a primitive field
	phiP := p.PhiPrime() // φ'_g
	var guards, terms []*smt.Formula
	receivers, err := guarded.Receivers(e.sat, sa, r, phiP)
	if err != nil {
		return nil, err
	}
	for _, en := range receivers {
		guards = append(guards, en.Guard)
		terms = append(terms, sa.PrimField(en.Loc, f))
	}
	if len(terms) == 0 {
		return nil, nil // no non-null world: guarded.Pair did not call A
	}
	if e.v.Mutation.PrimReadFirst { // Mutant m-prim-read-first
		terms = terms[:1]
	}
	v := terms[len(terms)-1]
	for i := len(terms) - 2; i >= 0; i-- {
		v = smt.Ite(guards[i], terms[i], v)
	}
	setPhi(sa, e.accessPhi(p.PhiG, phiP))
	sa.SetValue(machine.PrimVal(v), k)
	if e.v.Distributed { // U-ST: φ'_g's ⋀¬θ_0 goes into the guards, as for a reference field
		if fires, err := e.distribute(sa, notAll(p.Theta0)); err != nil || !fires {
			return nil, err
		}
	}
	e.stats.Access++
	return []machine.Succ{{S: sa, Rule: machine.RuleFieldA}}, nil
}

// writePrim is rule W on a primitive field f of L(r_x): for every non-null
// (φ l) ∈ L(r_x) with S(φ ∧ φ'_g), R[(l f) ↦ ite(φ, t, R(l,f))], or just t
// when φ'_g ⇒ φ. The ite is guarded by the entry's guard φ, never by the
// path condition: in a world where r_x is another location, l keeps its
// value.
func (e *Engine) writePrim(sw *machine.State, rx machine.Ref, f *javalite.Field, p guarded.Premises, k *machine.Kont) ([]machine.Succ, error) {
	// Rule: Field write (W) on a primitive field
	phiP := p.PhiPrime()
	t := sw.Val.Term()
	receivers, err := guarded.Receivers(e.sat, sw, rx, phiP)
	if err != nil {
		return nil, err
	}
	for _, en := range receivers {
		g := en.Guard
		if e.v.Mutation.PrimWriteGuardPhi { // Mutant m-prim-write-guard-phi
			g = phiP
		}
		nv := t
		definite := g.IsTrue()
		if !definite {
			other, err := e.sat(smt.And(phiP, smt.Not(g)))
			if err != nil {
				return nil, err
			}
			definite = !other
		}
		if !definite && !e.v.Mutation.WriteDropsOld { // Mutant m-write-drops-old
			nv = smt.Ite(g, t, sw.PrimField(en.Loc, f))
		}
		sw.SetPrimField(en.Loc, f, nv)
		if e.v.Mutation.WriteFirstOnly { // Mutant m-write-first-only
			break
		}
	}
	setPhi(sw, phiP)
	sw.SetValue(sw.Val, k)
	if e.v.Distributed { // U-ST
		if fires, err := e.distribute(sw, notAll(p.Theta0)); err != nil || !fires {
			return nil, err
		}
	}
	e.stats.Write++
	return []machine.Succ{{S: sw, Rule: machine.RuleWriteW}}, nil
}
