package uber

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// phantomSrc is program 1 of gen.Programs(1, …): the read of y.f happens
// only where this.f is a new object (read guard), and the comparison
// resolves ((this $ f) $ f) to an alias of it in worlds where it was never
// read.
const phantomSrc = `(((class A ([A f] [A g])
    ((bool main [bool x]
       (var A y := (this $ f) in
         (begin (y $ g := (new A)) x (((y $ f) $ g) = ((this $ f) $ f))))))))
 (A main))`

// TestMutantsKilled: every mutation of the table is killed by the
// lockstep comparison with GSE at k = −1 on a small program on which the
// engine as specified holds.
func TestMutantsKilled(t *testing.T) {
	solver := newSolver(t)
	killer := map[Mutation]string{
		MutDropNull:          "programs/uber_noalias.jl",
		MutNewIgnoresAliases: "programs/uber_noalias.jl",
		MutNoWidenNoIdle:     "",
		MutAliasAll:          "programs/sum.jl",
		MutReadGuardAccess:   "programs/hasnull.jl",
		MutDropOrig:          "programs/selfref.jl",
		MutWriteNoResolve:    "programs/alias_write_read.jl",
		MutEqualsLeftOnly:    "programs/alias_two_fields.jl",
	}
	// The mutations of the data rules change only primitive slots, which
	// this heap comparison does not see: TestDataMutantsKilled
	// (data_test.go) kills them with the checker's lemma verdicts.
	data := map[Mutation]bool{MutResolvePrimDefaults: true, MutPrimReadNoResolve: true, MutPrimWriteGuardPhi: true}
	require.Len(t, killer, len(Mutations)-len(data), "every mutation has a killer")
	for _, m := range Mutations {
		if data[m.Mut] {
			continue
		}
		p := parseProgram(t, phantomSrc)
		if f := killer[m.Mut]; f != "" {
			p = loadProgram(t, f)
		}
		_, err := lockstepCut(t, p, mustNew(t, "defer", -1, solver), 60, true)
		require.NoError(t, err, "%s: the engine as specified holds", m.Name)
		e := mustNew(t, "defer", -1, solver)
		e.Mut = m.Mut
		_, err = lockstepCut(t, p, e, 60, true)
		if assert.Error(t, err, "%s survives", m.Name) {
			assert.NotErrorIs(t, err, errInconclusive, m.Name)
			t.Logf("%s (%s): %.160v", m.Name, m.Doc, err)
		}
	}
}
