package kiasan

import (
	"slices"

	"github.com/lockstep-dev/lockstep/engine"
)

// variants lists the selectable variants of both engines ("default" is
// the engine as ENGINES.md §3.2 specifies it; the others compose with +).
func variants() []engine.Variant {
	return append([]engine.Variant{{Name: "default", Doc: "ENGINES.md §3.2 as written"}}, slices.Clone(VariantInfo)...)
}

func register(mode Mode, doc string) {
	engine.Register(engine.Info{
		Name:     mode.String(),
		Doc:      doc,
		Default:  "default",
		Variants: variants,
		New: func(variant string, cfg engine.Config) (engine.UnderTest, error) {
			e, err := New(mode, variant, cfg.K)
			if err != nil {
				return nil, err
			}
			e.Opt = cfg.Machine
			return e, nil
		},
	})
}

// The View of both engines is view.Unresolved (view.UnresolvedStamped for
// stamp-kbound), reached through Engine.View; their Shape is
// engine.Partition.
func init() {
	register(Lazier, "Kiasan lazier (seed 002): null vs δ at read, δ resolved at first use; partition exactness")
	register(LazierSharp, "Kiasan lazier# (seed 002): δ̂ at read, null and aliasing decided at first use; partition exactness")
}
