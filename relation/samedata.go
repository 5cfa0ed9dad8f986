package relation

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// SameData is the data half of SameConcretizations (engine against engine,
// ENGINES.md §8.4), input by input as the data half of exactness
// (data.go): for two states whose concretizations have the same heap
// shapes, every world w of a and every world v of b,
//
//	UNSAT(φ_a[w] ∧ ⋀_{v ≅ w} ¬(φ_b[v] ∧ data_a[w] = data_b[v]))
//	UNSAT(φ_b[v] ∧ ⋀_{w ≅ v} ¬(φ_a[w] ∧ data_b[v] = data_a[w]))
//
// that is, for every input one state reaches at a heap shape, the other
// reaches the same shape with the same primitive fields and slot values.
// It is the data half's (b) with the worlds of b in the place of the GSE
// states. The worlds of each state are those of the data half (its
// concretization leaves, refined until they decide every reference atom
// of its data), both renamed into the one namespace of canonical names; a
// symbol of a location that a world does not have is renamed apart, on
// each side into its own range, so that the two states' unrelated
// symbols never meet. A failure under a renaming that is not the only
// isomorphism (unreachable locations of one class) is inconclusive.
func SameData(a, b *machine.State, solver *smt.Solver, budget Budget) SameResult {
	var sides [2]*dataWorlds
	for i, q := range []*machine.State{a, b} {
		d, stop := prepareData(nil, q, solver, budget, nil)
		if stop != nil {
			return SameResult{Outcome: stop.Outcome, Reason: fmt.Sprintf("state %c: %s", 'A'+i, stop.Reason)}
		}
		sides[i] = d
	}
	// b's symbols outside its worlds' heaps move to a range of their own
	// (qOnlyBase + r becomes 2·qOnlyBase + r).
	apart := func(f *smt.Formula) *smt.Formula {
		return smt.RenameSyms(f, func(r smt.Ref) (smt.Ref, bool) {
			if r >= qOnlyBase {
				return r + qOnlyBase, true
			}
			return r, false
		})
	}
	db := sides[1]
	for k := range db.ws {
		data := make([]*smt.Formula, len(db.ws[k].data))
		for i, t := range db.ws[k].data {
			data[i] = apart(t)
		}
		db.ws[k].data = data
		db.worlds[k] = apart(db.worlds[k])
	}
	for i := range sides {
		this, other := sides[i], sides[1-i]
		for j, h := range this.heaps {
			var alts []*smt.Formula
			amb := this.ws[j].ambiguous
			for _, k := range other.byWorld[this.ws[j].key] {
				eq, ok := equal(this.ws[j].data, other.ws[k].data)
				if !ok {
					continue
				}
				amb = amb || other.ws[k].ambiguous
				alts = append(alts, smt.And(other.worlds[k], eq))
			}
			sat, err := solver.Sat(smt.And(this.worlds[j], smt.Not(smt.Or(alts...))))
			if err != nil {
				return SameResult{Outcome: Inconclusive, Reason: fmt.Sprintf("data: world %d of state %c: %v", j, 'A'+i, err)}
			}
			if !sat {
				continue
			}
			res := SameResult{Outcome: Fails, Only: h, InA: i == 0,
				Reason: fmt.Sprintf("data: in a concretization of state %c some input gives primitive fields or slot values that state %c does not have on that heap: %s", 'A'+i, 'B'-i, h.String())}
			if amb {
				res.Outcome = Inconclusive
				res.Reason += " (unreachable locations of one class: another isomorphism may match the data)"
			}
			return res
		}
	}
	return SameResult{Outcome: Holds}
}
