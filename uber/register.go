package uber

import (
	"fmt"
	"slices"

	"github.com/lockstep-dev/lockstep/engine"
)

// init registers "uber" (default variant "defer"). The View is
// view.Deferred, the Shape engine.OnePerControl.
func init() {
	engine.Register(engine.Info{
		Name:     "uber",
		Doc:      "uber-lazy U-DEFER (seed 004, ENGINES.md §6.2): unresolved reads, Summarize's θ at first use; one state per control",
		Default:  "defer",
		Variants: func() []engine.Variant { return slices.Clone(VariantInfo) },
		New: func(variant string, cfg engine.Config) (engine.UnderTest, error) {
			if cfg.Solver == nil {
				return nil, fmt.Errorf("uber: no solver")
			}
			return New(variant, cfg.K, cfg.Machine, cfg.Solver)
		},
	})
}
