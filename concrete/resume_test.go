package concrete_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// resumerMatches runs p on every input of Inputs(p, maxObjects, depth)
// (at most limit of them) with one Resumer, in the enumeration's order and
// then in a random order (5000 of them at most), and requires every result and error to be
// RunWith's on the same input. It returns the Resumer's counts over both
// orders.
func resumerMatches(t *testing.T, name string, p *javalite.Program, k, maxObjects, depth, bound, limit int, opt machine.Options) (fresh, resumed, reused int) {
	t.Helper()
	var inputs []*concrete.Heap
	concrete.Inputs(p, maxObjects, depth, concrete.Domain(p), func(h *concrete.Heap) bool {
		inputs = append(inputs, h.Clone())
		return len(inputs) < limit
	})
	shuffled := append([]*concrete.Heap(nil), inputs...)
	rand.New(rand.NewPCG(uint64(len(inputs)), 7)).Shuffle(len(shuffled), func(i, j int) {
		shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
	})
	shuffled = shuffled[:min(len(shuffled), 5000)]
	for _, order := range [][]*concrete.Heap{inputs, shuffled} {
		r := concrete.NewResumer(p, k, bound, opt)
		for i, h := range order {
			want, wantErr := concrete.RunWith(p, h, k, bound, false, opt)
			got, gotErr := r.Run(h)
			if wantErr != nil || gotErr != nil {
				require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(gotErr), "%s: input %d %s", name, i, h)
				continue
			}
			require.Equal(t, want, got, "%s: input %d %s", name, i, h)
		}
		f, rs, ru := concrete.ResumerCounts(r)
		fresh, resumed, reused = fresh+f, resumed+rs, reused+ru
	}
	return fresh, resumed, reused
}

// TestResumerMatchesRunWith: a Resumer's runs are RunWith's, Result for
// Result (kind, value, digests, steps, beyond k, pruned, out of range), on
// every input of the bench's BST insert, of testdata/data, and of
// generated programs with and without data, under a step bound that cuts
// runs and one that does not, and under the paper's V10/V11 readings; and
// it resumes and reuses runs, so the comparison is not of fresh runs only.
func TestResumerMatchesRunWith(t *testing.T) {
	var fresh, resumed, reused int
	add := func(f, rs, ru int) { fresh, resumed, reused = fresh+f, resumed+rs, reused+ru }
	bst := testutil.Program(t, "../testdata/bench/bst_insert.jl")
	add(resumerMatches(t, "bst_insert", bst, 2, 4, 2, 200, 30000, machine.Options{}))
	add(resumerMatches(t, "bst_insert cut", bst, 1, 3, 2, 25, 3000, machine.Options{}))
	files, err := filepath.Glob("../testdata/data/*.jl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	paper := machine.Options{VarRestoresEnv: true, NullCallProceeds: true}
	for _, f := range files {
		p := testutil.Program(t, f)
		add(resumerMatches(t, f, p, 1, 3, 1, 200, 3000, machine.Options{}))
		add(resumerMatches(t, f+" paper, cut", p, 1, 3, 1, 20, 1000, paper))
	}
	for i, p := range gen.Programs(11, 30, gen.Default.WithData(gen.DataMixed)) {
		add(resumerMatches(t, fmt.Sprintf("gen.Programs(11) #%d", i), p, 1, 3, 2, 200, 1000, machine.Options{}))
	}
	for i, p := range gen.Programs(12, 20, gen.NoData) {
		add(resumerMatches(t, fmt.Sprintf("gen.Programs(12, NoData) #%d", i), p, 2, 3, 2, 300, 1000, machine.Options{}))
	}
	t.Logf("runs: %d fresh, %d resumed, %d reused", fresh, resumed, reused)
	require.Positive(t, resumed, "no run was resumed from a checkpoint")
	require.Positive(t, reused, "no run was the previous run's")
	require.Greater(t, resumed+reused, fresh, "most runs start afresh")
}
