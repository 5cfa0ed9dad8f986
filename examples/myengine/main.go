// Command myengine is the whole lockstep command line with one engine of
// its own, "mine", beside the built-in ones: a researcher's engine in a
// module outside lockstep's repository (docs/ENGINES.md, "An engine from
// outside"). It is lockstep's main after one engine.Register.
//
// "mine" decorates the heap-summary engine (summary:fixed) with
// engine.Wrap, which keeps the summary engine's optional interfaces, so
// L1 and L4 are checked on it as on summary:fixed, and its data rules'
// path condition (machine.PathCond), so it runs programs with int and bool
// data; Info.Data says so to the checker, which refuses a program with
// data for an engine that does not declare it. Its variant "wrong"
// plants a realistic mistake: Field access forgets the null-dereference
// branch (rule A′) whenever the receiver may also be non-null.
//
//	go build -o myengine . && ./myengine check -engine mine ../../testdata/programs/nullderef.jl
//	./myengine check -engine mine:wrong ../../testdata/programs/nullderef.jl   # refuted
//	./myengine check -engine mine ../../testdata/data/bst_lookup.jl            # data
package main

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/cli"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

func main() {
	engine.Register(engine.Info{
		Name:    "mine",
		Doc:     "an engine from outside: summary:fixed through engine.Wrap (variant wrong: forgets A′)",
		Default: "right",
		Variants: func() []engine.Variant {
			return []engine.Variant{
				{Name: "right", Doc: "summary:fixed, decorated"},
				{Name: "wrong", Doc: "Field access drops the A′ successor when there is another one"},
			}
		},
		New: newMine,
		// Both variants keep summary:fixed's data rules (engine.Wrap).
		Data: true,
	})
	cli.Main()
}

func newMine(variant string, cfg engine.Config) (engine.UnderTest, error) {
	inner, err := engine.New("summary:fixed", cfg)
	if err != nil {
		return nil, err
	}
	o := engine.Overrides{Name: func() string { return "mine:" + variant }}
	switch variant {
	case "right":
	case "wrong":
		o.FieldAccess = func(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
			succ, err := inner.FieldAccess(s, r, fa, k)
			if err != nil || len(succ) < 2 {
				return succ, err
			}
			var out []machine.Succ
			for _, sc := range succ {
				if sc.Rule != machine.RuleFieldANull { // the mistake
					out = append(out, sc)
				}
			}
			return out, nil
		}
	default:
		return nil, fmt.Errorf("mine: no variant %q (right, wrong)", variant)
	}
	return engine.Wrap(inner, o), nil
}
