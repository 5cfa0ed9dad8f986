package kiasan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep-dev/lockstep/engine"
)

// variants lists the selectable variants of both engines ("default" is
// the engine as ENGINES.md §3.2 specifies it; the others compose with +).
func variants() []engine.Variant {
	return append([]engine.Variant{{Name: "default", Doc: "ENGINES.md §3.2 as written"}}, slices.Clone(VariantInfo)...)
}

// parseSpec splits a variant spec into the variant names (ParseVariants)
// and at most one mutation (Mutations): "default+resolve-no-alias" is the
// specified engine with RESOLVE's alias candidates dropped, so every
// mutant is an engine spec of the registry.
func parseSpec(spec string) (variant string, mut Mutation, err error) {
	var parts []string
	for _, p := range strings.Split(spec, "+") {
		m, ok := MutationByName(p)
		switch {
		case !ok:
			if p != "default" || spec == "default" {
				parts = append(parts, p)
			}
		case mut != MutNone:
			return "", MutNone, fmt.Errorf("kiasan: two mutations in %q (%s, %s): a mutant has one", spec, mut, m)
		default:
			mut = m
		}
	}
	return strings.Join(parts, "+"), mut, nil
}

// mutants is the mutation catalog of one mode (engine.Mutants): every
// mutation of Mutations the mode's rules read, on the default engine,
// hunted at k = −1. At a finite k the specified engines themselves diverge
// from GSE (KB-1..3 of docs/FINDINGS.md; ENGINES.md §8.4), so a hunt there
// would stop at the base's divergences; the mutation of the k-bound itself
// is hunted at its own k (Mutations' K).
func mutants(mode Mode) *engine.Mutants {
	return &engine.Mutants{Base: "default", K: -1, Steps: 60, List: func() []engine.Mutant {
		var out []engine.Mutant
		for _, i := range Mutations {
			if i.Modes != nil && !slices.Contains(i.Modes, mode) {
				continue
			}
			out = append(out, engine.Mutant{Name: i.Name, Doc: i.Doc, Equivalent: i.Equivalent, K: i.K, Data: i.Data})
		}
		return out
	}}
}

func register(mode Mode, doc string) {
	engine.Register(engine.Info{
		Name:     mode.String(),
		Doc:      doc,
		Default:  "default",
		Variants: variants,
		New: func(variant string, cfg engine.Config) (engine.UnderTest, error) {
			variant, mut, err := parseSpec(variant)
			if err != nil {
				return nil, err
			}
			e, err := New(mode, variant, cfg.K)
			if err != nil {
				return nil, err
			}
			e.Mut = mut
			e.Opt = cfg.Machine
			e.Solver = cfg.Solver
			return e, nil
		},
		Mutants: mutants(mode),
		Data:    true, // PRIMITIVES.md §4: data.go
		// Every variant resolves against the objects existing at resolution
		// time, GSE against those at read time (ENGINES.md §3.2):
		// stamp-kbound and alias-pending narrow the divergence but do not
		// close it (docs/FINDINGS.md KB-1, KB-2).
		Bound: func(string) engine.Bound { return engine.BoundOwn },
	})
}

// The View of both engines is view.Unresolved (view.UnresolvedStamped for
// stamp-kbound), reached through Engine.View; their Shape is
// engine.Partition.
func init() {
	register(Lazier, "Kiasan lazier (seed 002): null vs δ at read, δ resolved at first use; partition exactness")
	register(LazierSharp, "Kiasan lazier# (seed 002): δ̂ at read, null and aliasing decided at first use; partition exactness")
}
