package checker

import (
	"context"
	"fmt"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
)

// Engine against engine (ENGINES.md §8.4). Two OnePerControl engines that
// are both exact with respect to GSE stand for the same GSE states at every
// control, so they can be compared with each other directly, without GSE
// and its exploding groups, at bounds where GSE cannot go: from (s0, s0),
// step both; their successors must reach the same controls (C12, checked
// pair by pair and again on separate explorations), one per control each
// (C13 of each engine), and at every control the Views of the two states
// must have the same concretizations (VS): the same heap shapes and, on a
// program with data, input by input the same data on each shape
// (relation.SameData, the data half of exactness with the second engine's
// worlds in the place of GSE's states). Each View is checked for well
// formedness as in a check against GSE.

// setVersus builds the second engine and checks that the two can be
// compared.
func (r *run) setVersus() error {
	b, err := versusEngine(r.ctx, r.opt, r.eut, r.solver)
	if err != nil {
		return err
	}
	r.other = b
	_, ia := r.eut.(engine.IdentityView)
	_, ib := b.(engine.IdentityView)
	r.identity = ia && ib
	r.rep.Lemmas = []Lemma{L5, L6, L7, T11, C12, C13, WF}
	if !r.identity {
		r.rep.Lemmas = append(r.rep.Lemmas, VIEW)
	}
	r.rep.Lemmas = append(r.rep.Lemmas, VS)
	return nil
}

// versusEngine builds the second engine of an engine-against-engine check
// (opt.Versus) for the engine under test a, and checks that the two can be
// compared: neither is the reference, both are one-per-control, and both
// read the common rules alike.
func versusEngine(ctx context.Context, opt Options, a engine.UnderTest, solver *smt.Solver) (engine.UnderTest, error) {
	mopt := a.Options()
	b, err := engine.New(opt.Versus, engine.Config{K: opt.K, Solver: solver, Machine: mopt, Context: ctx})
	if err != nil {
		return nil, err
	}
	if _, ref := b.(*gse.Engine); ref {
		return nil, fmt.Errorf("checker: gse is the reference engine; check an engine against it without -vs")
	}
	for _, e := range []engine.UnderTest{a, b} {
		if e.Shape() != engine.OnePerControl {
			return nil, fmt.Errorf("checker: -vs compares one-per-control engines; %s is %s", e.Name(), e.Shape())
		}
	}
	if b.Options() != mopt {
		return nil, fmt.Errorf("checker: %s and %s read the common rules differently (%+v, %+v): they cannot run in lockstep", opt.EngineSpec(), opt.Versus, mopt, b.Options())
	}
	return b, nil
}

// versus is the engine-against-engine driver, depth-first over pairs of
// states, then C12 on separate explorations.
func (r *run) versus() error {
	a0, b0 := machine.Initial(r.rep.Program), machine.Initial(r.rep.Program)
	if err := r.checkVersus(a0, b0, nil, "initial state"); err != nil {
		return err
	}
	type vpair struct{ a, b *machine.State }
	work := []vpair{{a0, b0}}
	for len(work) > 0 {
		if err := r.ctx.Err(); err != nil {
			return &inconclusive{lemma: VS, reason: "timeout: " + err.Error()}
		}
		pr := work[len(work)-1]
		work = work[:len(work)-1]
		r.rep.Pairs++
		if r.opt.MaxPairs > 0 && r.rep.Pairs > r.opt.MaxPairs {
			return &inconclusive{lemma: VS, reason: fmt.Sprintf("more than %d pairs", r.opt.MaxPairs)}
		}
		if pr.a.Terminal() || (r.opt.Steps >= 0 && pr.a.Steps >= r.opt.Steps) {
			continue
		}
		byKey := [2]map[string]machine.Succ{}
		var order []string
		for i, side := range []struct {
			eng engine.UnderTest
			s   *machine.State
		}{{r.eut, pr.a}, {r.other, pr.b}} {
			succ, err := machine.Step(side.s.Clone(), side.eng, r.mopt)
			if err != nil {
				return r.engineFailedOf(side.eng, representationLemmaOfRedex(side.s), side.s, err)
			}
			byKey[i] = map[string]machine.Succ{}
			for _, s := range succ {
				key := s.S.ControlKey()
				if _, dup := byKey[i][key]; dup {
					return r.fail(Verdict{Lemma: C13, Rule: s.Rule, Step: s.S.Steps, Control: s.S.ControlString(), Summary: s.S, Before: side.s,
						Reason: fmt.Sprintf("two %s successors have the same control: %s is not one-per-control", side.eng.Name(), side.eng.Name())})
				}
				byKey[i][key] = s
				if i == 0 {
					order = append(order, key)
				}
			}
		}
		for i, name := range []string{r.eut.Name(), r.other.Name()} {
			for key, s := range byKey[i] {
				if _, ok := byKey[1-i][key]; !ok {
					other := []string{r.other.Name(), r.eut.Name()}[i]
					return r.fail(Verdict{Lemma: C12, Rule: s.Rule, Step: s.S.Steps, Control: s.S.ControlString(), Summary: s.S, Before: pr.a,
						Reason: fmt.Sprintf("%s reaches this control by %s; %s does not", name, s.Rule, other)})
				}
			}
		}
		for i := len(order) - 1; i >= 0; i-- {
			sa, sb := byKey[0][order[i]], byKey[1][order[i]]
			if err := r.checkVersus(sa.S, sb.S, pr.a, sa.Rule); err != nil {
				return err
			}
			work = append(work, vpair{sa.S, sb.S})
		}
		r.rep.Checked[T11]++
	}
	aseq, apaths, err := r.controlSequences(r.eut)
	if err != nil {
		return err
	}
	bseq, bpaths, err := r.controlSequences(r.other)
	if err != nil {
		return err
	}
	r.rep.SummaryPaths, r.rep.GSEPaths, r.rep.Versus = apaths, bpaths, r.opt.Versus
	for h := range aseq {
		if _, ok := bseq[h]; !ok {
			return r.fail(Verdict{Lemma: C12, Reason: fmt.Sprintf("a control-flow sequence of %s (%d paths) is not one of %s (%d paths)", r.eut.Name(), apaths, r.other.Name(), bpaths)})
		}
	}
	for h := range bseq {
		if _, ok := aseq[h]; !ok {
			return r.fail(Verdict{Lemma: C12, Reason: fmt.Sprintf("a control-flow sequence of %s (%d paths) is not one of %s (%d paths)", r.other.Name(), bpaths, r.eut.Name(), apaths)})
		}
	}
	r.rep.Checked[C12]++
	if apaths != int64(len(aseq)) || bpaths != int64(len(bseq)) {
		return r.fail(Verdict{Lemma: C13, Reason: fmt.Sprintf("%s has %d paths for %d sequences, %s %d for %d", r.eut.Name(), apaths, len(aseq), r.other.Name(), bpaths, len(bseq))})
	}
	r.rep.Checked[C13]++
	return nil
}

// checkVersus checks one pair of states at the same control: both Views
// well formed, with the same concretizations.
func (r *run) checkVersus(a, b, before *machine.State, rule string) error {
	va, err := r.viewOf(r.eut, a, before, rule)
	if err != nil {
		return err
	}
	vb, err := r.viewOf(r.other, b, before, rule)
	if err != nil {
		return err
	}
	for _, v := range []*machine.State{va, vb} {
		if err := r.wellFormed(Verdict{Rule: rule, Step: a.Steps, controlOf: a, Summary: va, Sibling: vb, Before: before}, v, determinismLemma(rule)); err != nil {
			return err
		}
	}
	res := relation.SameConcretizations(va, vb, r.solver, r.opt.Budget)
	if res.Outcome == relation.Holds && r.data {
		// The same heap shapes; with data, input by input the same
		// primitive fields and slot values on each (relation.SameData).
		res = relation.SameData(va, vb, r.solver, r.opt.Budget)
	}
	switch res.Outcome {
	case relation.Holds:
		r.rep.Checked[VS]++
		return nil
	case relation.Inconclusive:
		return &inconclusive{lemma: VS, reason: res.Reason}
	}
	v := Verdict{Lemma: VS, Rule: rule, Step: a.Steps, Control: a.ControlString(), Summary: va, Sibling: vb, Before: before,
		Reason: fmt.Sprintf("%s vs %s: %s", r.eut.Name(), r.other.Name(), res.Reason)}
	if res.Only != nil {
		owner := r.eut.Name()
		if !res.InA {
			owner = r.other.Name()
		}
		v.Witness = "concretization of the " + owner + " state only: " + res.Only.String()
	}
	return r.fail(v)
}

// viewOf is view for either engine of an engine-against-engine check.
func (r *run) viewOf(e engine.UnderTest, q, before *machine.State, rule string) (*machine.State, error) {
	saved := r.eut
	r.eut = e
	defer func() { r.eut = saved }()
	return r.view(nil, q, before, rule)
}

// engineFailedOf is engineFailed for either engine.
func (r *run) engineFailedOf(e engine.UnderTest, l Lemma, q *machine.State, err error) error {
	saved := r.eut
	r.eut = e
	defer func() { r.eut = saved }()
	return r.engineFailed(l, q, err)
}
