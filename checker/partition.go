package checker

import (
	"errors"
	"fmt"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
)

// Partition exactness (ENGINES.md §8.2). A Partition engine (Kiasan's
// lazier, lazier#) has several states per control: where GSE initializes a
// field by branching into null / each alias / new, lazier may keep one
// unresolved location and branch later, on a dereference or a comparison.
// At each control c of a step, with G_c the GSE successors there and Q_c
// the engine's, the claim is that the engine states split G_c among them:
//
//   - every engine state q' ∈ Q_c is sound: each concretization of its View
//     is (isomorphic to) a member of G_c — the rule's lemma (L2, L3, L9,
//     L10, T11), as for exactness;
//   - and feasible: its View has a concretization at all (FEAS: Kiasan
//     drops impossible resolutions silently, so an empty state is a bug);
//   - together they cover G_c: every p ∈ G_c is represented by some q' (P2);
//   - siblings are disjoint: the path conditions of two states of Q_c are
//     jointly unsatisfiable (P1). This is a question about worlds (the
//     resolution facts in φ), not heaps: a GSE state represented by two
//     siblings is counted (Report.Overlaps), not a violation, because two
//     different worlds can build isomorphic heaps (automorphic unreachable
//     input locations).
//
// Each q' continues with the GSE states it represents, P_q' = {p ∈ G_c |
// p ⊏ View(q')}. At the engine's path ends the sizes of the P's add up to
// the number of GSE paths (P3, checked with the separate explorations).

// stepPartition matches a Partition engine's successors of pr.q with the
// GSE groups and checks partition exactness at every control.
func (r *run) stepPartition(pr pair, groups map[string]*group, order []string, qsucc []machine.Succ) ([]pair, error) {
	byKey := map[string][]machine.Succ{}
	var qorder []string
	for _, s := range qsucc {
		key := s.S.ControlKey()
		if byKey[key] == nil {
			qorder = append(qorder, key)
		}
		byKey[key] = append(byKey[key], s)
	}
	if err := r.forward(pr, groups, order, func(key string) bool { return len(byKey[key]) > 0 }); err != nil {
		return nil, err
	}
	var out []pair
	for _, key := range qorder {
		sibs := byKey[key]
		g, err := r.backward(pr, groups, sibs[0], key)
		if err != nil {
			return nil, err
		}
		next, err := r.partitionAt(pr.q, g, sibs)
		if err != nil {
			return nil, err
		}
		for i := range next {
			next[i].key = key // every sibling here has g's control
		}
		out = append(out, next...)
	}
	r.rep.Checked[T11]++
	return out, nil
}

// partitionAt checks partition exactness at one control: the GSE group g
// against the engine's successors sibs there (all with g's control).
func (r *run) partitionAt(before *machine.State, g *group, sibs []machine.Succ) ([]pair, error) {
	have := make(map[string]bool, len(g.states))
	heapKey := make([]string, len(g.states))
	for i, p := range g.states {
		h, err := r.heaps.HeapOf(p)
		if err != nil {
			return nil, fmt.Errorf("gse: state %d of a group is not a heap: %w", i+1, err)
		}
		heapKey[i] = relation.Canonical(h)
		have[heapKey[i]] = true
	}
	pWF := make([]*relation.Result, len(g.states)) // p's well-formedness, once per p (representsGSE)
	views := make([]*machine.State, len(sibs))
	represented := make([]int, len(g.states)) // siblings representing each p
	undecidedP := -1                          // a p whose representation was undecided
	var undecidedWhy string
	var out []pair
	for i, s := range sibs {
		rule := s.Rule
		lemma := representationLemma(rule)
		base := Verdict{Rule: rule, Step: s.S.Steps, controlOf: s.S, GSE: g.states, Before: before}
		if err := r.checkInvariant(base, s.S); err != nil {
			return nil, err // invariant.go
		}
		v, err := r.view(g.states, s.S, before, rule)
		if err != nil {
			return nil, err
		}
		views[i] = v
		base.Summary = v
		if err := r.wellFormed(base, v, determinismLemma(rule)); err != nil {
			return nil, err
		}
		// Soundness and FEAS: the concretizations of the View, which was
		// just found well formed (so its references are trusted, and the
		// program's concretization cache serves it, memo.go).
		// With data the leaves are kept for the data half (its worlds),
		// which would otherwise replay the search.
		var leaves relation.Leaves
		var heaps []*relation.Heap
		var complete bool
		if r.data {
			leaves, complete, err = relation.ConcretizeLeavesWellFormed(v, r.solver, r.budget())
			heaps = leaves.Distinct()
		} else {
			heaps, complete, err = relation.ConcretizeWellFormed(v, r.solver, r.budget())
		}
		var w *relation.WitnessError
		switch {
		case errors.As(err, &w):
			base.Lemma, base.Reason = lemma, "a concretization of the engine state is not a heap: "+w.Error()
			return nil, r.fail(base)
		case err != nil:
			if err := r.timedOut(); err != nil {
				return nil, err // stopped by the time limit (Budget.Done)
			}
			if u := undecided(lemma, err); u != err {
				return nil, u
			}
			return nil, &inconclusive{lemma: lemma, reason: "concretization: " + err.Error()}
		}
		if len(heaps) == 0 {
			if !complete {
				return nil, &inconclusive{lemma: FEAS, reason: "the concretization search was cut before it found a heap"}
			}
			base.Lemma, base.Reason = FEAS, fmt.Sprintf("the View of this %s successor (by %s) has no concretization: it stands for no GSE state", r.eut.Name(), rule)
			return nil, r.fail(base)
		}
		r.rep.Checked[FEAS]++
		for _, h := range heaps {
			if !have[relation.Canonical(h)] {
				base.Lemma, base.Witness = lemma, "concretization of "+r.side()+" matching no GSE state: "+h.String()
				base.Reason = "a concretization of the engine state is isomorphic to no GSE state at its control: " + h.String()
				return nil, r.fail(base)
			}
		}
		if !complete {
			return nil, &inconclusive{lemma: lemma, reason: fmt.Sprintf("more than %d concretization leaves: enumeration incomplete", r.opt.Budget.Models)}
		}
		r.rep.Checked[lemma]++
		// P_q': the GSE states this sibling represents.
		var P []*machine.State
		var idx []int
		// p ⊏ v reads of p only its heap (up to isomorphism, roots
		// included) and its control, which the group shares: GSE states
		// with one heap shape (the branches of If (sym), which differ only
		// in data; paths that meet again) get one answer.
		byHeap := map[string]relation.Result{}
		phiV := v.PathCondition()
		// With data, a sibling stands only for GSE states among its
		// concretizations (partitionData keeps those whose data it
		// reaches, and its worlds are those heaps): the others need no
		// homomorphism search, and for these the isomorphism is one
		// (relation.RepresentedByHeap). Without data too, a GSE state
		// among the concretizations is represented by that isomorphism
		// (as relation.Exact discharges its members), and only the
		// others are searched.
		var conc map[string]bool
		if reuseRepresents {
			conc = make(map[string]bool, len(heaps))
			for _, h := range heaps {
				conc[relation.Canonical(h)] = true
			}
		}
		for j, p := range g.states {
			if r.data && conc != nil && !conc[heapKey[j]] {
				continue
			}
			res, seen := byHeap[heapKey[j]]
			if !seen || !reuseRepresents {
				switch {
				case conc != nil && conc[heapKey[j]]:
					res = r.representedByHeapGSE(pWF, j, p, v)
				case !reuseRepresents:
					res = relation.RepresentsWellFormed(p, v, r.solver, r.budget())
				default:
					res = r.representsGSE(pWF, j, p, v, phiV)
				}
				byHeap[heapKey[j]] = res
			}
			switch res.Outcome {
			case relation.Holds:
				P = append(P, p)
				idx = append(idx, j)
			case relation.Inconclusive:
				if undecidedP < 0 {
					undecidedP, undecidedWhy = j, res.Reason
				}
			}
		}
		if r.data && len(P) > 0 {
			// The data half (PRIMITIVES.md §5): the sibling stands for the
			// GSE states whose heaps it represents and whose data some
			// input shares with it, and reaches exactly their slot
			// values, input by input.
			if P, idx, err = r.partitionData(base, lemma, P, idx, v, leaves); err != nil {
				return nil, err
			}
		}
		ids := make([]uint64, len(idx))
		for i, j := range idx {
			represented[j]++
			ids[i] = g.ids[j]
		}
		// GPC on the states this sibling represents, against its View:
		// their own facts hold in their heaps (a), and the View's φ implies
		// each of them lifted (b), as for a OnePerControl engine.
		if len(P) > 0 {
			if err := r.checkGPC(P, v, before, rule); err != nil {
				return nil, err // gsepc.go
			}
		}
		out = append(out, pair{P: P, q: s.S, ids: ids})
	}
	// P2, cover: every GSE state is represented by some sibling.
	for j, n := range represented {
		if n > 1 {
			r.rep.Overlaps += int64(n - 1)
		}
		if n > 0 {
			continue
		}
		if undecidedP >= 0 {
			if err := r.timedOut(); err != nil {
				return nil, err
			}
			return nil, &inconclusive{lemma: P2, reason: fmt.Sprintf("GSE state %d of the group: representation undecided: %s", undecidedP+1, undecidedWhy)}
		}
		p := g.states[j]
		return nil, r.fail(Verdict{
			Lemma: P2, Rule: sibs[0].Rule, Step: p.Steps, Control: p.ControlString(),
			GSE: []*machine.State{p}, Summary: views[0], Before: before,
			Reason: fmt.Sprintf("GSE state %d of %d at this control is represented by none of the %d %s successors", j+1, len(g.states), len(sibs), r.eut.Name()),
		})
	}
	r.rep.Checked[P2]++
	// P1, sibling disjointness: pure satisfiability of the path
	// conditions, pairwise.
	if len(views) > 1 {
		for i := range views {
			for j := i + 1; j < len(views); j++ {
				both := smt.And(views[i].PathCondition(), views[j].PathCondition())
				sat, err := r.solver.Sat(both)
				if err != nil {
					if u := undecided(P1, err); u != err {
						return nil, u
					}
					return nil, err
				}
				if sat {
					return nil, r.fail(Verdict{
						Lemma: P1, Rule: sibs[j].Rule, Step: sibs[j].S.Steps, Control: sibs[j].S.ControlString(),
						GSE: g.states, Summary: views[i], Sibling: views[j], Before: before,
						Reason: fmt.Sprintf("the path conditions of %s successors %d and %d (of %d) at this control can hold together: %s",
							r.eut.Name(), i+1, j+1, len(views), smt.Short(both)),
					})
				}
			}
		}
		r.rep.Checked[P1]++
	}
	return out, nil
}

// partitionData is the data half of partition exactness for one sibling
// with View v (PRIMITIVES.md §5): sort consistency of v, the GSE states P
// (indices idx in the group) it represents by heap narrowed to those its
// data is compatible with, and ExactData, (a) and (b), over them
// (relation.ExactDataCompatible: siblings may share a heap shape and
// differ only in data), charged to the rule's lemma.
func (r *run) partitionData(base Verdict, lemma Lemma, P []*machine.State, idx []int, v *machine.State, leaves relation.Leaves) ([]*machine.State, []int, error) {
	if viol := relation.SortConsistent(v); viol != nil {
		base.Lemma, base.Reason = WF, "sort consistency: "+viol.Error()
		return nil, nil, r.fail(base)
	}
	// With no compatible state left, (b) still asks whether some input
	// reaches a world of v: then v stands for data no GSE state has.
	keep, res := relation.ExactDataCompatibleLeaves(P, v, leaves, r.solver, r.budget())
	var kp []*machine.State
	var ki []int
	for i, ok := range keep {
		if ok {
			kp, ki = append(kp, P[i]), append(ki, idx[i])
		}
	}
	switch res.Outcome {
	case relation.Holds:
		return kp, ki, nil
	case relation.Inconclusive:
		return nil, nil, r.undecidedExact(lemma, res)
	}
	if res.PIndex >= 0 {
		kp = []*machine.State{P[res.PIndex]}
		res.PIndex = 0
	}
	base.Lemma, base.Reason = lemma, res.Reason
	if len(kp) > 0 {
		base.GSE = kp
	}
	base.Witness = r.witness(res)
	return nil, nil, r.fail(base)
}

// accounting is P3: the GSE paths at the engine's path ends are the GSE
// paths of the separate exploration. They are counted by identity (the
// path each GSE state was reached by, pair.ids), not by representation:
// a GSE state represented by two siblings (an overlap: one GSE state, two
// engine states) is carried down by both, and Σ |P_end| counts its path
// twice, but it is one path. Without overlaps the two counts agree.
func (r *run) accounting(gpaths int64) error {
	ends := int64(len(r.endPaths))
	if ends == gpaths {
		r.rep.Checked[P3]++
		return nil
	}
	why := fmt.Sprintf("the %s path ends carry %d distinct GSE paths (Σ |P_end| = %d), GSE has %d paths", r.eut.Name(), ends, r.rep.EndGSE, gpaths)
	return r.fail(Verdict{Lemma: P3, Reason: why})
}

// wellFormed runs relation's one well-formedness pipeline
// (relation.WellFormedChecks) on a state the relations read, and charges a
// failure to one lemma whatever the caller: determinism to det (the
// rule's determinism lemma, or L4 for →S*), the other checks to WF; when
// the View is not the identity, determinism and totality are promises of
// the View (ENGINES.md §5: deterministic and total by construction), so
// their failure is a View bug: VIEW. v carries the evidence of the
// caller (rule, step, control, sides).
func (r *run) wellFormed(v Verdict, q *machine.State, det Lemma) error {
	viol, check, err := r.wellFormedMemoized(q) // memo.go
	lemma := r.wellFormedLemma(check, det)
	if err != nil {
		return undecided(lemma, err)
	}
	if viol != nil {
		v.Lemma, v.Reason = lemma, viol.Error()
		return r.fail(v)
	}
	r.countWellFormed(det)
	return nil
}

// countWellFormed counts a state found (or derived: derive.go) well formed,
// with determinism charged to det.
func (r *run) countWellFormed(det Lemma) {
	r.rep.Checked[det]++
	r.rep.Checked[WF]++
	if !r.identity {
		r.rep.Checked[VIEW]++
	}
}

// wellFormedLemma is the one mapping from a failed well-formedness check
// to its lemma (see wellFormed).
func (r *run) wellFormedLemma(check string, det Lemma) Lemma {
	switch check {
	case relation.CheckDeterministic:
		if !r.identity {
			return VIEW
		}
		return det
	case relation.CheckTotal:
		if !r.identity {
			return VIEW
		}
	}
	return WF
}

// representsGSE is p ⊏ v for the j-th GSE state p of a group and a well-
// formed sibling v with path condition phiV: p's well-formedness (part of
// Def. 16) is checked once for all siblings and kept in wf[j] (nil: not
// yet; a Holds result: well formed; otherwise the answer for every v).
func (r *run) representsGSE(wf []*relation.Result, j int, p, v *machine.State, phiV *smt.Formula) relation.Result {
	if res := r.wellFormedGSE(wf, j, p); res.Outcome != relation.Holds {
		return res
	}
	return relation.RepresentsBothWellFormed(p, v, phiV, r.solver, r.budget())
}

// representedByHeapGSE is relation.RepresentedByHeap for the j-th GSE
// state p of a group, whose heap is a concretization of the well-formed
// sibling v, with p's well-formedness from wf (see representsGSE).
func (r *run) representedByHeapGSE(wf []*relation.Result, j int, p, v *machine.State) relation.Result {
	if res := r.wellFormedGSE(wf, j, p); res.Outcome != relation.Holds {
		return res
	}
	return relation.RepresentedByHeapBothWellFormed(p, v)
}

// wellFormedGSE is the well-formedness of the j-th GSE state p of a
// group as a Result, checked once and kept in wf[j].
func (r *run) wellFormedGSE(wf []*relation.Result, j int, p *machine.State) relation.Result {
	if wf[j] == nil {
		res := relation.WellFormedResult("p", p, r.solver)
		wf[j] = &res
	}
	return *wf[j]
}
