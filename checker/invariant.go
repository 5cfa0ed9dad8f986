package checker

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/machine"
)

// An engine's own invariant (engine.Invariant; POSE-J's INV-P, ENGINES.md
// §4.3) is a claim about the engine's states themselves, not about their
// View: POSE-J's View canonicalizes its symbolic locations away and reads
// one of two aliased symbols where INV-P says they agree, so a state can
// break the invariant in a way exactness does not see yet. It is checked
// on every engine state a step makes, first: before the View, because the
// View may rely on it (POSE-J's View picks one of two aliased symbols'
// fields where INV-P says they agree), so a View that fails on a state
// breaking the invariant is the engine's failure, not the View's (the
// lemma matrix found such a state of pose-published-merge reported as
// VIEW, docs/FINDINGS.md P-MERGE); and before exactness, so that where a
// step breaks both, the verdict names the cause (P-MERGE: the write lost
// for an alias) rather than its effect (a GSE state not represented).
// Options.NoInvariant skips it, to see the verdict beneath.

// checkInvariant checks eut's invariant, if it states one, on q, the
// engine's state after a step; v carries the evidence of the caller
// (rule, step, control, sides), and the failure shows q itself, whose
// symbols the reason names.
func (r *run) checkInvariant(v Verdict, q *machine.State) error {
	inv, ok := r.eut.(engine.Invariant)
	if !ok || r.opt.NoInvariant {
		return nil
	}
	l := Lemma(inv.InvariantName())
	why, err := inv.CheckInvariant(q)
	if err != nil {
		if u := undecided(l, err); u != err {
			return u
		}
		return r.fail(Verdict{Lemma: l, Rule: v.Rule, Step: v.Step, Control: v.Control, controlOf: v.controlOf, GSE: v.GSE, Summary: q, Before: v.Before,
			Reason: "the " + r.eut.Name() + " engine cannot check its invariant " + string(l) + ": " + err.Error()})
	}
	if why != "" {
		v.Lemma, v.Reason, v.Summary = l, why, q
		return r.fail(v)
	}
	r.rep.Checked[l]++
	return nil
}

// knownInvariant refuses an engine whose invariant is not a lemma of the
// catalog: every verdict names a claim of the catalog.
func knownInvariant(eut engine.UnderTest) error {
	l := invariantLemma(eut)
	if _, known := Claim[l]; l != "" && !known {
		return fmt.Errorf("checker: the %s engine's invariant %q is not a lemma of the catalog (%v)", eut.Name(), l, Lemmas)
	}
	return nil
}
