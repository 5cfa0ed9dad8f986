package kiasan

import (
	"strings"
	"testing"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMutantsKilled: every mutation of Mutations is caught by the partition
// comparison with GSE (the check package checker's Partition driver will
// make) on a small program, on which the unmutated engine passes. This is
// what shows the comparison can fail, rule by rule.
func TestMutantsKilled(t *testing.T) {
	sameSrc := `(((class Main ([Main f])
    ((bool main [bool u] (var Main x := (this $ f) in (x = x))))))
 (Main main))`
	newSrc := `(((class Main ([Main f])
    ((bool main [bool u] (var Main n := (new Main) in ((this $ f) = n))))))
 (Main main))`
	cases := []struct {
		mut  Mutation
		mode Mode
		prog string // a testdata file, or a program text
		k    int
	}{
		{MutDropAliases, LazierSharp, "programs/swap.jl", -1},
		{MutAllLocations, Lazier, newSrc, -1},
		{MutFreshBeyondK, LazierSharp, "programs/nullderef.jl", 0},
		{MutLocalSubst, LazierSharp, "programs/selfref.jl", -1},
		{MutForgetNonNull, LazierSharp, "programs/swap.jl", -1},
		{MutMayBeNullAsNonNull, LazierSharp, "programs/swap.jl", -1},
		{MutSameUnequal, LazierSharp, sameSrc, -1},
		{MutNoNullAtRead, Lazier, "programs/nullderef.jl", -1},
	}
	// The mutations of the data rules are invisible to this heap-only
	// comparison: TestDataMutantsKilled (data_test.go) kills them with the
	// checker's lemma verdicts.
	data := []Mutation{MutFreshPrimDefaults, MutPrimNoResolve, MutAliasOwnSymbols, MutStampKeepSymbols}
	require.Len(t, cases, len(Mutations)-len(data), "one case per mutation")
	for _, c := range cases {
		t.Run(c.mut.String(), func(t *testing.T) {
			var p *javalite.Program
			if strings.HasSuffix(c.prog, ".jl") {
				p = loadProgram(t, c.prog)
			} else {
				p = parse(t, c.prog)
			}
			e := mustNew(t, c.mode, "", c.k)
			_, err := partition(t, p, e, c.k, 200)
			require.NoError(t, err, "unmutated %s", e.Name())
			e.Mut = c.mut
			_, err = partition(t, p, e, c.k, 200)
			assert.Error(t, err, "%s survives", e.Name())
			if err != nil {
				t.Logf("%s killed: %v", e.Name(), err)
			}
		})
	}
}
