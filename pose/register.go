package pose

import "github.com/lockstep-dev/lockstep/engine"

func init() {
	engine.Register(engine.Info{
		Name:    "pose",
		Data:    true,
		Doc:     "POSE-J: path-optimal symbolic execution (seed 003) with symbolic locations, Assume, update and a canonicalizing View",
		Default: Default,
		Variants: func() []engine.Variant {
			var out []engine.Variant
			for _, x := range variants {
				out = append(out, engine.Variant{Name: x.Name, Doc: x.Doc})
			}
			for _, x := range Mutations {
				out = append(out, engine.Variant{Name: "mut-" + x.Name, Doc: "mutation: " + x.Doc})
			}
			return out
		},
		New: func(variant string, cfg engine.Config) (engine.UnderTest, error) {
			v, err := Lookup(variant)
			if err != nil {
				return nil, err
			}
			e := New(v, cfg.Solver, cfg.Machine)
			e.K = cfg.K
			return e, nil
		},
		// The mutants: every row of Mutations on world-exact ("world-exact+
		// no-update"), hunted at k = −1: POSE-J has no k-bound of its own
		// (its symbolic locations stand for every depth), so against GSE at a
		// finite k it represents heaps GSE's bound cuts off (ENGINES.md §8.4).
		// POSE-J has no k-bound (docs/POSE.md D6): Config.K is ignored,
		// except by variant kbound, which implements GSE's.
		Bound: func(variant string) engine.Bound {
			if v, err := Lookup(variant); err == nil && v.KBound {
				return engine.BoundGSE
			}
			return engine.BoundNone
		},
		KBound: "kbound",
		Mutants: &engine.Mutants{Base: Default, K: -1, Steps: 60, List: func() []engine.Mutant {
			var out []engine.Mutant
			for _, x := range Mutations {
				out = append(out, engine.Mutant{Name: x.Name, Doc: x.Doc, Equivalent: x.Equivalent, Data: x.Data})
			}
			return out
		}},
	})
}
