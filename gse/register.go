package gse

import (
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/machine"
)

// GSE as an engine of the registry, so that `lockstep run -engine gse`
// and every other place that selects an engine by name reach it. Its
// states are guarded states already (every value set a singleton {(true
// l)}), so its View is the identity. It is the reference the checker
// compares every engine with, never the engine under test (the checker
// refuses it): GSE has many states per control, and its path conditions do
// not record its initialization choices, so neither relation of package
// engine describes it against itself. Its Shape says OnePerControl only so
// that `lockstep engines` has something to print.
func init() {
	engine.Register(engine.Info{
		Data: true, // PRIMITIVES.md §4
		Name: "gse",
		Doc:  "generalized symbolic execution with lazy initialization (RULES.md §5), the reference",
		New: func(variant string, cfg engine.Config) (engine.UnderTest, error) {
			if variant != "" {
				return nil, errNoVariants(variant)
			}
			return &Engine{K: cfg.K, Opt: cfg.Machine, Stats: &InitStats{}, Facts: machine.Facts{Solver: cfg.Solver}}, nil
		},
	})
}

// View implements engine.UnderTest: the identity.
func (e *Engine) View(s *machine.State) (*machine.State, error) { return s, nil }

// Shape implements engine.UnderTest.
func (e *Engine) Shape() engine.Shape { return engine.OnePerControl }

var _ engine.UnderTest = (*Engine)(nil)

type errNoVariants string

func (v errNoVariants) Error() string { return "gse: no variants (asked for " + string(v) + ")" }

// IdentityView implements engine.IdentityView.
func (e *Engine) IdentityView() {}
