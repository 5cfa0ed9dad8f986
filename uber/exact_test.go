package uber

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestExactness: at k = −1 and at every step of the paper programs, the
// View of the one engine state at each control has exactly the GSE heaps
// of that control as its concretizations.
func TestExactness(t *testing.T) {
	files := []string{"programs/swap.jl", "programs/hasnull.jl", "programs/alias_two_fields.jl",
		"programs/alias_write_read.jl", "programs/selfref.jl", "programs/nullderef.jl", "programs/newobj.jl"}
	if !testing.Short() {
		files = append(files, "programs/sum.jl")
	}
	solver := newSolver(t)
	for _, f := range files {
		p := loadProgram(t, f)
		e := mustNew(t, "defer", -1, solver)
		n, err := lockstep(t, p, e, 400)
		require.NoError(t, err, f)
		t.Logf("%s: %d engine states compared", f, n)
	}
}
