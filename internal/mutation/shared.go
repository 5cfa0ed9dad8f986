package mutation

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/internal/knobs"
	"github.com/lockstep-dev/lockstep/machine"
)

// Shared is a mutation of a layer every engine shares: the common rules
// (package machine, through checker.Options.Common, so the engine under
// test and GSE alike), GSE's own data rules, or smt's term layer (a
// process-wide knob, internal/knobs, on for the hunt only). The lockstep
// lemmas relate two engines that share the error, so such a mutant is
// seen, if at all, by the reference side's lemmas (ORC, GPC) or by a
// disagreement it causes between an engine's own rules and the shared
// layer; hunted under every engine, it shows which engine's check sees it.
//
// The checker's own data half (directions (a) and (b), its worlds, its
// memo key) is not in this list: a mutation of it makes the checker weaker,
// never the engine wrong, so a hunt on a correct engine cannot kill it.
// checker's TestDataHalfCheckerMutations measures it instead: each broken
// part lets a catalog mutant that the intact checker kills survive.
type Shared struct {
	Name, Layer, Doc string
	Common           machine.Mutation
	Knob             *atomic.Bool
}

// SharedMutations are the mutations of the shared layers, all of them in
// data rules (PRIMITIVES.md).
var SharedMutations = []Shared{
	{Name: "common-binary-le-as-lt", Layer: "common rules", Doc: "Binary builds t0 <= t1 as t0 < t1", Common: machine.Mutation{BinaryLeAsLt: true}},
	{Name: "common-if-sym-then-only", Layer: "common rules", Doc: "If (sym) takes only the then branch when both are feasible", Common: machine.Mutation{IfSymThenOnly: true}},
	{Name: "common-new-prim-symbolic", Layer: "common rules", Doc: "New leaves a new object's int and bool fields symbolic instead of 0 and false", Common: machine.Mutation{NewPrimSymbolic: true}},
	{Name: "gse-assume-no-strengthen", Layer: "GSE", Doc: "GSE's Assume tests its condition but records no fact", Common: machine.Mutation{GSEAssumeNoStrengthen: true}},
	{Name: "gse-feasible-ignores-phi", Layer: "GSE", Doc: "GSE decides If (sym) and Assume by S(t) instead of S(φ ∧ t)", Common: machine.Mutation{GSEFeasibleIgnoresPhi: true}},
	{Name: "smt-le-as-lt", Layer: "smt terms", Doc: "a term a <= b is translated to Z3 as a < b", Knob: &knobs.SMTLeAsLt},
	{Name: "smt-lt-self-true", Layer: "smt terms", Doc: "a < a is folded as true", Knob: &knobs.SMTLtSelfTrue},
}

// SharedOf returns the shared-layer mutants hunted under one engine: each
// mutation of SharedMutations on the engine's catalog base, at the
// catalog's bounds. A mutant's Name is "MUTATION@ENGINE:BASE".
func SharedOf(name string) ([]Mutant, error) {
	info, c, err := catalogOf(name)
	if err != nil {
		return nil, err
	}
	base := engine.Join(info.Name, c.Base)
	var out []Mutant
	for i := range SharedMutations {
		s := &SharedMutations[i]
		out = append(out, Mutant{Name: s.Name + "@" + base, Engine: info.Name, Base: base, Mutation: s.Name,
			Doc: s.Layer + ": " + s.Doc, K: c.K, Steps: c.Steps, Data: true, Shared: s})
	}
	return out, nil
}

// LookupShared returns the shared-layer mutant of engine eng named by its
// mutation ("smt-le-as-lt") or its full name.
func LookupShared(eng, name string) (Mutant, error) {
	ms, err := SharedOf(eng)
	if err != nil {
		return Mutant{}, err
	}
	var names []string
	for _, m := range ms {
		if name == m.Name || name == m.Mutation {
			return m, nil
		}
		names = append(names, m.Mutation)
	}
	return Mutant{}, fmt.Errorf("mutation: unknown shared mutant %q (known: %s)", name, strings.Join(names, ", "))
}
