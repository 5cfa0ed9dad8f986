package summary

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/machine"
)

// The heap-summary engine behind engine.UnderTest (ENGINES.md §8.1): its
// states are guarded states of RULES.md §2 already, so its View is the
// identity; it makes one state per control (OnePerControl, checked by
// exactness, RULES.md §7); and its initialization machine →S* can be
// compared with GSE's →I* on its own (engine.Initializer, lemmas L1, L4).
//
// Variants are selected by name (Lookup: every variant and mutant, and
// compositions with "+"), so "summary:fixed" and
// "summary:kbound-assume+v7-uninit-guard" name engines.
func init() {
	engine.Register(engine.Info{
		Data:    true, // PRIMITIVES.md §4
		Name:    "summary",
		Doc:     "symbolic execution with heap summaries (RULES.md §6), the engine the project began with",
		Default: "published",
		Variants: func() []engine.Variant {
			var out []engine.Variant
			for _, v := range Variants() {
				out = append(out, engine.Variant{Name: v.Name, Doc: v.Doc})
			}
			return out
		},
		New: func(variant string, cfg engine.Config) (engine.UnderTest, error) {
			v, err := Lookup(variant)
			if err != nil {
				return nil, err
			}
			return Build(v)(cfg)
		},
		// The mutants: every row of Table marked Mutant, on Table.Base
		// (fixed), at the k and step bound of the checker's defaults.
		Mutants: &engine.Mutants{Base: Table.Base, K: 2, Steps: 200, List: func() []engine.Mutant {
			var out []engine.Mutant
			for _, r := range Table.Mutants() {
				out = append(out, engine.Mutant{Name: r.Name, Doc: r.Doc, Equivalent: r.Equivalent, Data: r.Data})
			}
			return out
		}},
	})
}

// Build returns a constructor of the engine for a variant value, for
// variants made in code rather than named (the mutants of
// internal/mutation): checker.Options.Build takes it.
//
// The common-rule semantics (V10/V11) come from the Config, the same for
// every engine of a check; V9 stays the variant's own choice, so a Config
// asking for V9's published reading on a variant without it is refused
// rather than silently ignored (name the reading as a variant:
// v9-extend-env).
func Build(v Variant) func(engine.Config) (engine.UnderTest, error) {
	return func(cfg engine.Config) (engine.UnderTest, error) {
		if cfg.Machine.InvokeExtendsEnv && !v.InvokeExtendsEnv {
			return nil, fmt.Errorf("summary: variant %s does not extend the caller's η (V9): name the reading as a variant (v9-extend-env)", v.Name)
		}
		v := v.WithSemantics(cfg.Machine)
		return New(v, cfg.K, cfg.Solver), nil
	}
}

// View implements engine.UnderTest: a summary state is its own view.
func (e *Engine) View(s *machine.State) (*machine.State, error) { return s, nil }

// Shape implements engine.UnderTest.
func (e *Engine) Shape() engine.Shape { return engine.OnePerControl }

var (
	_ engine.UnderTest   = (*Engine)(nil)
	_ engine.Initializer = (*Engine)(nil)
)

// IdentityView implements engine.IdentityView.
func (e *Engine) IdentityView() {}
