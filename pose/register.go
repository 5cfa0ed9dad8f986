package pose

import "github.com/lockstep-dev/lockstep/engine"

func init() {
	engine.Register(engine.Info{
		Name:    "pose",
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
			return New(v, cfg.Solver, cfg.Machine), nil
		},
	})
}
