package uber

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep-dev/lockstep/engine"
)

// init registers "uber" (default variant "defer"). The View is
// view.Deferred, the Shape engine.OnePerControl.
func init() {
	engine.Register(engine.Info{
		Data:     true, // PRIMITIVES.md §4
		Name:     "uber",
		Doc:      "uber-lazy U-DEFER (seed 004, ENGINES.md §6.2): unresolved reads, Summarize's θ at first use; one state per control",
		Default:  "defer",
		Variants: func() []engine.Variant { return slices.Clone(VariantInfo) },
		New: func(variant string, cfg engine.Config) (engine.UnderTest, error) {
			if cfg.Solver == nil {
				return nil, fmt.Errorf("uber: no solver")
			}
			variant, mut, err := parseSpec(variant)
			if err != nil {
				return nil, err
			}
			e, err := New(variant, cfg.K, cfg.Machine, cfg.Solver)
			if err != nil {
				return nil, err
			}
			e.Mut = mut
			return e, nil
		},
		// U-DEFER resolves at use against the objects existing then, GSE at
		// read time (UBER.md §7): its own bound, which diverges at finite k.
		// Variant kbound resolves in read order: GSE's bound.
		Bound: func(variant string) engine.Bound {
			variant, _, err := parseSpec(variant)
			if v, verr := ParseVariants(variant); err == nil && verr == nil && v.KBound {
				return engine.BoundGSE
			}
			return engine.BoundOwn
		},
		KBound: "kbound",
		// The mutants: every row of Mutations on defer, hunted at k = −1
		// (ENGINES.md §8.4: U-DEFER resolves at use, like Kiasan, and at a
		// finite k diverges from GSE's read-time bound, FINDINGS.md KB-1).
		Mutants: &engine.Mutants{Base: "defer", K: -1, Steps: 60, List: func() []engine.Mutant {
			var out []engine.Mutant
			for _, i := range Mutations {
				out = append(out, engine.Mutant{Name: i.Name, Doc: i.Doc, Equivalent: i.Equivalent, Data: i.Data})
			}
			return out
		}},
	})
}

// parseSpec takes at most one mutation (Mutations) out of a variant spec:
// "defer+m-drop-null" is U-DEFER without θ_null, so every mutant is an
// engine spec of the registry. The rest goes to ParseVariants.
func parseSpec(spec string) (variant string, mut Mutation, err error) {
	var parts []string
	for _, p := range strings.Split(spec, "+") {
		m := mutationByName(p)
		switch {
		case m == MutNone:
			parts = append(parts, p)
		case mut != MutNone:
			return "", MutNone, fmt.Errorf("uber: two mutations in %q (%s, %s): a mutant has one", spec, mut, m)
		default:
			mut = m
		}
	}
	return strings.Join(parts, "+"), mut, nil
}

func mutationByName(name string) Mutation {
	for _, i := range Mutations {
		if i.Name == name {
			return i.Mut
		}
	}
	return MutNone
}
