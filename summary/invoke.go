package summary

import (
	"github.com/lockstep-dev/lockstep/engine/guarded"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// Invoke implements rules Invoke and Invoke′ of RULES.md §3 (V11, Java
// reading) on the state (L R φ_g η v (r @ m * → k)). They have the shape of
// A and A′: with θ_0 the satisfiable null guards of L(r) under φ_g,
//
//   - Invoke′ fires when θ_0 ≠ ∅ and leads to (L R φ_g ∧ ⋁θ_0 η error end)
//     (φ_g alone under V8's published reading, as for A′/W′);
//   - Invoke fires when some non-null entry of L(r) is satisfiable with φ_g
//     and enters the method (machine.EnterMethod) under φ'_g = φ_g ∧ ⋀¬θ_0.
//
// Both may fire. L(r) is left as it is: its null entries are unsatisfiable
// under φ'_g, which changes no represented heap. V3 (seed 000's stuck null
// dereference) is about A′ and W′ and does not apply here: a call is not a
// dereference in the papers' rules, and under V11's Java reading GSE throws.
func (e *Engine) Invoke(s *machine.State, r machine.Ref, args []machine.Value, c *javalite.Call, k *machine.Kont) ([]machine.Succ, error) {
	return guarded.Pair(s, r, e.nullGuards, func(si *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		// Rule: Invoke; si is a copy when Invoke′ below needs the state as it is
		if len(p.Theta0) > 0 {
			setPhi(si, p.PhiPrime()) // φ'_g
			if e.v.Distributed {     // U-ST: φ'_g's ⋀¬θ_0 goes into the guards, as in A
				if fires, err := e.distribute(si, notAll(p.Theta0)); err != nil || !fires {
					return nil, err
				}
			}
		}
		e.stats.Invoke++
		return []machine.Succ{machine.EnterMethod(si, r, args, c, k, e.Options())}, nil
	}, func(s *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		// Rule: Invoke′ (withheld under U-ST when no world is left, as A′)
		if fires, err := e.errorState(s, p.PhiG, p.Theta0); err != nil || !fires {
			return nil, err
		}
		e.stats.InvokeNull++
		return []machine.Succ{{S: s, Rule: machine.RuleInvokeNull}}, nil
	})
}

// WithSemantics returns v with the V10/V11 choices of the semantics set sem
// (machine.ParseSemantics). The name is kept: reports print the semantics
// next to the variant (Semantics).
func (v Variant) WithSemantics(sem machine.Options) Variant {
	v.VarRestoresEnv, v.NullCallProceeds = sem.VarRestoresEnv, sem.NullCallProceeds
	return v
}

// Semantics is the name of v's V10/V11 choices (machine semantics set).
func (v Variant) Semantics() string { return v.MachineOptions().SemanticsName() }
