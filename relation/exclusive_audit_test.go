package relation_test

import (
	"context"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestExclusiveBySyntaxAgreesWithSolver: every value set of POSE-J's
// Views that the determinism check answered without the solver
// (relation/exclusive.go) is one the solver finds exclusive too: twoOf,
// "two guards hold together", is unsatisfiable. The sets are the ones
// real checks meet: the TreeMap programs and the trees of testdata at
// k = 1 (k = 2 under LOCKSTEP_SOAK), and generated programs.
func TestExclusiveBySyntaxAgreesWithSolver(t *testing.T) {
	var mu sync.Mutex
	var sets []machine.GVS
	defer relation.SetExclusiveAudit(func(g machine.GVS) {
		mu.Lock()
		sets = append(sets, slices.Clone(g))
		mu.Unlock()
	})()

	opt := checker.FileOptions()
	opt.Engine = "pose"
	check := func(name string, p *javalite.Program, k int) {
		o := opt
		o.K, o.Steps = k, 2000
		sol, err := smt.NewSolver()
		require.NoError(t, err)
		defer sol.Close()
		rep, err := checker.Run(context.Background(), p, o, sol)
		require.NoError(t, err, name)
		require.NotNil(t, rep, name)
	}
	k, n := 1, 20
	if os.Getenv("LOCKSTEP_SOAK") != "" {
		k, n = 2, 200
	}
	files := []string{"../testdata/bench/treemap_get.jl", "../testdata/bench/treemap_remove.jl",
		"../testdata/trees/successor.jl", "../testdata/trees/bst_insert_parent.jl"}
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		p, err := javalite.ParseAndCheck(f, src)
		require.NoError(t, err)
		check(f, p, k)
	}
	fromFiles := len(sets)
	o := checker.DefaultOptions()
	o.Engine, o.K, o.Steps = "pose", -1, 200
	for _, p := range gen.Programs(1, n, gen.Default) {
		sol, err := smt.NewSolver()
		require.NoError(t, err)
		_, err = checker.Run(context.Background(), p, o, sol)
		sol.Close()
		require.NoError(t, err)
	}
	t.Logf("%d value sets answered without the solver (%d from the files)", len(sets), fromFiles)
	require.NotZero(t, fromFiles, "no value set was answered by the syntactic test: the test tests nothing")

	sol, err := smt.NewSolver()
	require.NoError(t, err)
	defer sol.Close()
	for _, g := range sets {
		sat, err := sol.Sat(relation.TwoOf(g))
		require.NoError(t, err)
		require.False(t, sat, "the solver finds two guards that hold together in %v", g)
	}
}
