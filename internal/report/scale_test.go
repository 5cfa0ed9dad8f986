package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
)

// writeShards writes the -json results of the shards of a check -gen
// stream of n programs split in shards parts into dir, as a cluster run
// leaves them: every part with its settings, its ten slowest programs and
// one program in a hundred inconclusive; with violated, shards 7 and 3
// each stop at a counterexample (3's is the earlier of the stream). It
// returns the files and how many programs of the stream are inconclusive.
func writeShards(t testing.TB, dir string, n, shards int, violated bool) ([]string, int) {
	var files []string
	undecided := 0
	for i := range shards {
		sh := checker.Shard{I: i, N: shards}
		g := Generated{Variant: "fixed", Semantics: "java", K: 2, Steps: 200, N: n, StreamSeed: 1, Shard: sh.String(),
			Programs: sh.Len(n), Seconds: 3600, Settings: settings()}
		stop := -1
		if violated && (i == 7 || i == 3) {
			stop = sh.Len(n) / 2 // the j-th program of the shard
			if i == 7 {
				stop = sh.Len(n) / 3
			}
			g.Programs = stop + 1
		}
		for j := range g.Programs {
			ix := sh.Index(j)
			if j == stop {
				seed := checker.ProgramSeed(1, ix)
				g.Counterexample = &checker.JSONReport{Status: "violated", Lemma: "WF", Rule: "Summarize", Lines: 6}
				g.FailingIndex, g.FailingSeed, g.FoundLines, g.Shrunk = &ix, &seed, 20, true
				g.Violated = 1
				continue
			}
			if ix%100 == 42 {
				g.Undecided = append(g.Undecided, Undecided{Index: ix, Seed: checker.ProgramSeed(1, ix), Lemma: "T11", Reason: "max-pairs: more than 20000 pairs"})
				undecided++
			}
			if j < checker.SlowestKept {
				g.Slowest = append(g.Slowest, Timed{Index: ix, Seed: checker.ProgramSeed(1, ix), Seconds: float64(ix%97) / 10, Status: "holds"})
			}
		}
		g.Inconclusive = len(g.Undecided)
		g.Holds = g.Programs - g.Inconclusive - g.Violated
		g.PerSecond = float64(g.Programs) / g.Seconds
		g.ExitCode = Exit("", false, g.Violated > 0, g.Inconclusive > 0)
		b, err := json.MarshalIndent(g, "", "  ")
		require.NoError(t, err)
		f := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		require.NoError(t, os.WriteFile(f, b, 0o644))
		files = append(files, f)
	}
	return files, undecided
}

// mergeFiles reads and merges files as `lockstep merge -shards N` does.
func mergeFiles(t testing.TB, files []string) *Merged {
	var parts []Part
	for _, f := range files {
		r, err := os.Open(f)
		require.NoError(t, err)
		ps, err := ReadParts(f, r)
		r.Close()
		require.NoError(t, err)
		parts = append(parts, ps...)
	}
	lost, err := Expect(parts, nil, len(files))
	require.NoError(t, err)
	require.Nil(t, lost)
	m, err := Merge(parts)
	require.NoError(t, err)
	return m
}

// TestMergeAtScale merges the shards of a long stream: 100 shards of
// 100,000 programs here, and under LOCKSTEP_SOAK=1 1,000 shards of a
// 1,000,000-program stream (the time and the heap are logged; the
// figures and the command that measures the CLI are in
// deploy/slurm/README.md). The merged counts are the stream's, and with
// two shards stopped at counterexamples, the earlier one's with the
// programs before it.
func TestMergeAtScale(t *testing.T) {
	n, shards := 100_000, 100
	if os.Getenv("LOCKSTEP_SOAK") != "" {
		n, shards = 1_000_000, 1000
	}
	dir := t.TempDir()
	if keep := os.Getenv("LOCKSTEP_SCALE_DIR"); keep != "" {
		dir = keep // to measure the CLI on the same files
	}
	files, undecided := writeShards(t, dir, n, shards, false)
	runtime.GC()
	start := time.Now()
	m := mergeFiles(t, files)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("%d shards of a %d-program stream merged in %v; heap in use %d MB, total allocated %d MB",
		shards, n, time.Since(start), ms.HeapInuse>>20, ms.TotalAlloc>>20)
	g := m.Check
	require.Equal(t, shards, m.Shards)
	require.Equal(t, []int{n, n - undecided, undecided, 0}, []int{g.Programs, g.Holds, g.Inconclusive, g.Violated})
	require.Len(t, g.Undecided, undecided)
	require.Len(t, g.Slowest, checker.SlowestKept)
	require.Equal(t, ExitInconclusive, m.ExitCode)

	vdir := filepath.Join(t.TempDir(), "violated")
	require.NoError(t, os.Mkdir(vdir, 0o755))
	files, _ = writeShards(t, vdir, n, shards, true)
	m = mergeFiles(t, files)
	g = m.Check
	// Shard 3 stops at its program Len/2, shard 7 at Len/3: the stream's
	// earliest is the smaller index.
	at := min(checker.Shard{I: 3, N: shards}.Index(checker.Shard{I: 3, N: shards}.Len(n)/2),
		checker.Shard{I: 7, N: shards}.Index(checker.Shard{I: 7, N: shards}.Len(n)/3))
	require.Equal(t, at, *g.FailingIndex)
	require.Equal(t, at+1, g.Programs)
	before := 0
	for ix := range at {
		if ix%100 == 42 {
			before++
		}
	}
	require.Equal(t, []int{at - before, before, 1}, []int{g.Holds, g.Inconclusive, g.Violated})
	require.Equal(t, ExitViolated, m.ExitCode)
}
