package concrete

import (
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// InterpretWith is Interpret under the common-rule choices opt of the
// engines it is compared with (RULES.md §9). It reads the choices that
// change results and nothing else; in particular it never reads
// opt.Mutation, which is exactly what it exists to catch (the checker's
// lemma ORC). Of today's choices none changes a result: InvokeExtendsEnv
// (V9) changes η inside a callee, but a well-typed callee binds every
// local before reading it, so Interpret's fresh {this, x} gives the same
// run. A reading that does change results (Java's null receiver, V11) is
// to be read here.
func InterpretWith(p *javalite.Program, h *Heap, bound int, opt machine.Options) (Result, error) {
	_ = opt.InvokeExtendsEnv // no effect on results, see above
	return Interpret(p, h, bound)
}
