package relation

import (
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// SetExclusiveAudit makes f see every value set the determinism check
// answers by exclusiveBySyntax (for the external tests); the returned
// function undoes it.
func SetExclusiveAudit(f func(machine.GVS)) (restore func()) {
	old := exclusiveAudit
	exclusiveAudit = f
	return func() { exclusiveAudit = old }
}

// TwoOf is twoOf, for the external tests.
func TwoOf(g machine.GVS) *smt.Formula { return twoOf(g) }
