// Package gsefacts is examples/engines/gse.py in Go: GSE's heap rules with
// the resolution facts that make it a Partition engine (docs/ENGINES.md,
// "A worked example"; the checker's own factGSE), built with engine.Wrap
// over the built-in GSE. It is not in lockstep's registry (a second GSE
// there would be noise): goserve registers it, and the protocol's
// benchmarks compare the Python engine with it.
package gsefacts

import (
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Info registers the engine as "gse-facts".
var Info = engine.Info{
	Name: "gse-facts",
	Doc:  "GSE with resolution facts (examples/engines/gsefacts; the Go twin of examples/engines/gse.py)",
	// GSE's data rules (its facts as the path condition), kept by Wrap.
	Data: true,
	New: func(_ string, cfg engine.Config) (engine.UnderTest, error) {
		g := &gse.Engine{K: cfg.K, Opt: cfg.Machine}
		return engine.Wrap(g, engine.Overrides{
			Name:        func() string { return "gse-facts" },
			Shape:       func() engine.Shape { return engine.Partition },
			FieldAccess: fieldAccess(g),
		}), nil
	},
}

// fieldAccess is GSE's rule A, then one resolution fact per branch: a
// fresh input reference r_u for the object the field holds, r_u = null,
// r_u = r_a (alias of l_a), or r_u ≠ null ∧ r_u ≠ r_a for every a (new,
// r_u the new location's identity), the candidates distinct and not null.
func fieldAccess(g *gse.Engine) func(*machine.State, machine.Ref, *javalite.FieldAccess, *machine.Kont) ([]machine.Succ, error) {
	return func(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
		l := s.Get(r)[0].Loc
		f := fa.Field
		// A primitive field is never initialized (its R column is r_un
		// forever, PRIMITIVES.md §2): no choice, no resolution fact.
		uninit := l != machine.LNull && f.Class != nil && s.Get(s.Field(l, f))[0].Loc == machine.LUn
		before := len(s.Locs)
		succ, err := g.FieldAccess(s, r, fa, k)
		if err != nil || !uninit {
			return succ, err
		}
		for _, sc := range succ {
			t := sc.S
			got := t.Get(t.Field(l, f))[0].Loc
			var cands []machine.Entry2
			for _, a := range t.InputLocs(f.Class) {
				if int(a.Loc) < before {
					cands = append(cands, a)
				}
			}
			var facts []*smt.Formula
			for i, a := range cands {
				facts = append(facts, smt.Neq(a.Ref, machine.RNull))
				for _, b := range cands[:i] {
					facts = append(facts, smt.Neq(a.Ref, b.Ref))
				}
			}
			switch {
			case got == machine.LNull: // Rule: Initialize (null)
				facts = append(facts, smt.Eq(t.InitR(), machine.RNull))
			case int(got) >= before: // Rule: Initialize (new)
				ru := t.Locs[got].Identity
				facts = append(facts, smt.Neq(ru, machine.RNull))
				for _, a := range cands {
					facts = append(facts, smt.Neq(ru, a.Ref))
				}
			default: // Rule: Initialize (alias)
				ru := t.InitR()
				facts = append(facts, smt.Neq(ru, machine.RNull), smt.Eq(ru, t.Locs[got].Identity))
			}
			t.AddFact(smt.And(facts...))
		}
		return succ, nil
	}
}
