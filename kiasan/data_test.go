package kiasan_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
)

// dataOptions are the checker's options for lazier / lazier# on a program
// with data at k = −1 (ENGINES.md §8.4: Kiasan is exact with GSE under the
// step bound only).
func dataOptions(engine string) checker.Options {
	opt := checker.DefaultOptions()
	opt.Engine = engine
	opt.K = -1
	opt.Steps = 120
	return opt
}

// TestDataPrograms: every program of testdata/data holds under lazier and
// lazier# at k = −1, with partition exactness's data half (PRIMITIVES.md
// §5), the data lemmas L12/L13 and the path accounting P3 checked.
func TestDataPrograms(t *testing.T) {
	files, err := filepath.Glob("../testdata/data/*.jl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	solver := testutil.Solver(t)
	for _, f := range files {
		p := testutil.Program(t, f)
		for _, eng := range []string{"lazier", "lazier#"} {
			t.Run(filepath.Base(f)+"/"+eng, func(t *testing.T) {
				rep, err := checker.Run(context.Background(), p, dataOptions(eng), solver)
				require.NoError(t, err)
				require.Equal(t, checker.Holds, rep.Verdict.Status, "%s: %s", rep.Verdict.Lemma, rep.Verdict.Reason)
				// Every data program computes a term (L13); not every one
				// branches on one (new_int.jl's condition folds).
				assert.Positive(t, rep.Checked[checker.L12]+rep.Checked[checker.L13])
				assert.Positive(t, rep.Checked[checker.P3])
			})
		}
	}
}

// TestDataKBound: at a finite k the KB policy is unchanged by data: the
// verdict is a hold or a finite-k divergence (lemma KB, ENGINES.md §3.2),
// never a violation of another lemma.
func TestDataKBound(t *testing.T) {
	files, err := filepath.Glob("../testdata/data/*.jl")
	require.NoError(t, err)
	solver := testutil.Solver(t)
	for _, f := range files {
		p := testutil.Program(t, f)
		for _, eng := range []string{"lazier", "lazier#", "lazier#:stamp-kbound"} {
			t.Run(filepath.Base(f)+"/"+eng, func(t *testing.T) {
				opt := dataOptions(eng)
				opt.K = 1
				rep, err := checker.Run(context.Background(), p, opt, solver)
				require.NoError(t, err)
				if rep.Verdict.Status == checker.Violated {
					require.Equal(t, checker.KB, rep.Verdict.Lemma, rep.Verdict.Reason)
				} else {
					require.Equal(t, checker.Holds, rep.Verdict.Status, "%s: %s", rep.Verdict.Lemma, rep.Verdict.Reason)
				}
				t.Logf("%s at k = 1: %s %s", eng, rep.Verdict.Status, rep.Verdict.Lemma)
			})
		}
	}
}

// TestDataMutantsKilled: each mutation of the data rules (PRIMITIVES.md §4
// for Kiasan) is refuted by a lemma verdict on a program on which the
// unmutated engine (the same variant) holds.
func TestDataMutantsKilled(t *testing.T) {
	cases := []struct {
		mutant, engine, file string
		lemma                checker.Lemma
	}{
		// a fresh object's key read as 0 instead of α(l, key)
		{"fresh-prim-defaults", "lazier", "data/bst_lookup.jl", checker.L2},
		{"fresh-prim-defaults", "lazier#", "data/alias_constrained.jl", checker.L2},
		// a δ̂'s key read without RESOLVE: no null branch, no alias
		{"prim-read-no-resolve", "lazier#", "data/if_join.jl", checker.L2},
		{"prim-read-no-resolve", "lazier", "data/alias_constrained.jl", checker.L2},
		// y resolved to x, whose key was assumed and written: read afresh
		{"resolve-alias-own-symbols", "lazier", "data/alias_constrained.jl", checker.L2},
		{"resolve-alias-own-symbols", "lazier#", "data/write_alias.jl", checker.L2},
		// stamp-kbound re-identifies y's object with x's older symbol: its
		// key must follow (docs/FINDINGS.md K-STAMP)
		{"stamp-keep-symbols", "lazier#:stamp-kbound", "fixedbugs/kiasan-stamp-symbols_L2.jl", checker.L2},
		{"stamp-keep-symbols", "lazier:stamp-kbound", "fixedbugs/kiasan-stamp-symbols_L2.jl", checker.L2},
	}
	solver := testutil.Solver(t)
	for _, c := range cases {
		base := c.engine
		if !strings.Contains(base, ":") {
			base += ":default"
		}
		t.Run(c.mutant+"/"+base, func(t *testing.T) {
			p := testutil.Program(t, "../testdata/"+c.file)
			rep, err := checker.Run(context.Background(), p, dataOptions(base), solver)
			require.NoError(t, err)
			require.Equal(t, checker.Holds, rep.Verdict.Status, "base %s: %s %s", base, rep.Verdict.Lemma, rep.Verdict.Reason)
			rep, err = checker.Run(context.Background(), p, dataOptions(base+"+"+c.mutant), solver)
			require.NoError(t, err)
			require.Equal(t, checker.Violated, rep.Verdict.Status, "%s survives", c.mutant)
			require.Equal(t, c.lemma, rep.Verdict.Lemma, rep.Verdict.Reason)
			t.Logf("%s killed: %s: %s", c.mutant, rep.Verdict.Lemma, rep.Verdict.Reason)
		})
	}
}

// TestDataStream: a fixed stream of generated programs with data
// (gen.DataMixed) holds under lazier and lazier# at k = −1 and the
// catalog's 60 steps: 0 violated, at most a tenth inconclusive (a GSE
// group or a concretization over the budget). $KIASAN_DATA_STREAM sets
// the number of programs (default 50, 100 under make soak, 20 with -short).
func TestDataStream(t *testing.T) {
	n := 50
	switch {
	case os.Getenv("LOCKSTEP_SOAK") != "":
		n = 100
	case testing.Short():
		n = 20
	}
	if s := os.Getenv("KIASAN_DATA_STREAM"); s != "" {
		v, err := strconv.Atoi(s)
		require.NoError(t, err)
		n = v
	}
	progs := gen.Programs(7, n, gen.Default.WithData(gen.DataMixed))
	for _, eng := range []string{"lazier", "lazier#"} {
		t.Run(eng, func(t *testing.T) {
			opt := dataOptions(eng)
			opt.Steps = 60
			opt.MaxGroup = 500
			opt.Budget.Models = 2000
			opt.Timeout = 30 * time.Second
			var mu sync.Mutex
			counts := map[checker.Status]int{}
			var l12, l13, p3 int
			err := checker.Each(context.Background(), opt, n, 2,
				func(i int) (*javalite.Program, string) { return progs[i], "data program " + strconv.Itoa(i) },
				func(i int, rep *checker.Report) {
					mu.Lock()
					defer mu.Unlock()
					counts[rep.Verdict.Status]++
					l12 += rep.Checked[checker.L12]
					l13 += rep.Checked[checker.L13]
					p3 += rep.Checked[checker.P3]
					if rep.Verdict.Status == checker.Inconclusive {
						t.Logf("data program %d: inconclusive %s: %s", i, rep.Verdict.Lemma, rep.Verdict.Reason)
					}
					if rep.Verdict.Status == checker.Violated {
						t.Errorf("data program %d: %s violated: %s\n%s", i, rep.Verdict.Lemma, rep.Verdict.Reason, javalite.Print(progs[i]))
					}
				})
			require.NoError(t, err)
			t.Logf("%d data programs under %s: %d hold, %d violated, %d inconclusive; L12×%d L13×%d P3×%d", n, eng,
				counts[checker.Holds], counts[checker.Violated], counts[checker.Inconclusive], l12, l13, p3)
			// The stream exercises the data rules: If (sym) / Assume and
			// Binary / Equals (prim) steps were checked, and paths counted.
			assert.Positive(t, l12)
			assert.Positive(t, l13)
			assert.Positive(t, p3)
			assert.LessOrEqual(t, counts[checker.Inconclusive]*10, n, "more than a tenth inconclusive")
		})
	}
}

// TestSiblingInputs: two siblings can concretize to one heap shape whose
// isomorphism maps an input object to another; the data half of partition
// exactness gives each GSE state to the sibling that reaches all of its
// inputs, and the cover is over the union (program 120 of the data stream
// of seed 1, where the per-sibling shape match broke L2 before).
func TestSiblingInputs(t *testing.T) {
	p := testutil.Program(t, "testdata/sibling_inputs.jl")
	solver := testutil.Solver(t)
	for _, eng := range []string{"lazier", "lazier#"} {
		rep, err := checker.Run(context.Background(), p, dataOptions(eng), solver)
		require.NoError(t, err)
		require.Equal(t, checker.Holds, rep.Verdict.Status, "%s: %s: %s", eng, rep.Verdict.Lemma, rep.Verdict.Reason)
		require.Positive(t, rep.Checked[checker.P2])
	}
}
