package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/internal/report"
)

// shardsAndMerge runs args with -shard i/3 for i = 0, 1, 2, each with
// -json into a file, then `merge -json` on the three files, and returns
// the merged output, which must exit with want, the status of the
// unsharded run. A shard exits with want or, without the violation, 0.
func shardsAndMerge(t *testing.T, want int, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for i := range 3 {
		code, out, stderr := runCode(append(args, "-json", "-shard", fmt.Sprintf("%d/3", i))...)
		// A shard has its own status: one without the violation holds or
		// is inconclusive.
		require.Containsf(t, []int{exitOK, exitViolation, exitInconclusive}, code, "shard %d/3: stderr:\n%s", i, stderr)
		f := filepath.Join(dir, fmt.Sprintf("shard%d.json", i))
		require.NoError(t, os.WriteFile(f, []byte(out), 0o644))
		files = append(files, f)
	}
	code, out, stderr := runCode(append([]string{"merge", "-json"}, files...)...)
	require.Equalf(t, want, code, "merge: stderr:\n%s", stderr)
	return out
}

// wholeAndMerged runs args unsharded with -json, which must exit with
// want, then as three shards and a merge, and decodes both results.
func wholeAndMerged[T any](t *testing.T, want int, args ...string) (whole, merged T) {
	t.Helper()
	code, out, stderr := runCode(append(args, "-json")...)
	require.Equalf(t, want, code, "unsharded: stderr:\n%s", stderr)
	require.NoError(t, json.Unmarshal([]byte(out), &whole))
	m := shardsAndMerge(t, want, args...)
	require.NoError(t, json.Unmarshal([]byte(m), &merged))
	return whole, merged
}

// TestMergeLemmas: three shards of a survey and their merge give the
// unsharded survey: the same counts per lemma, the same undecided
// programs, the same earliest counterexample of each lemma, and the same
// exit status. Only time differs.
func TestMergeLemmas(t *testing.T) {
	args := []string{"lemmas", "-variant", "seed000", "-n", "7", "-steps", "60", "-no-shrink", "-workers", "1"}
	a, b := wholeAndMerged[report.Survey](t, exitViolation, args...)
	untime := func(s *report.Survey) {
		s.Seconds = 0
		for i := range s.Lemmas {
			if cx := s.Lemmas[i].Counterexample; cx != nil {
				cx.Seconds = 0
			}
		}
	}
	untime(&a)
	untime(&b)
	require.Equal(t, a, b)
	require.Equal(t, 7, b.Programs)
}

// TestMergeCheckGenerated: check -gen over three shards and the merge
// give the unsharded run (one worker), field by field: on a stream that
// holds, one with inconclusive programs, and one that fails after an
// inconclusive program (the merged counts are those of the programs up to
// the earliest counterexample, where the unsharded run stops). Only time
// and the path of the saved case differ.
func TestMergeCheckGenerated(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"holds", []string{"-variant", "fixed", "-n", "6"}, exitOK},
		{"inconclusive", []string{"-variant", "fixed", "-n", "6", "-max-group", "2"}, exitInconclusive},
		{"violated", []string{"-variant", "published", "-n", "9", "-max-group", "3"}, exitViolation},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// -data none: the reference-only stream the expectations were read off.
			args := append([]string{"check", "-gen", "-data", "none", "-k", "1", "-steps", "60", "-workers", "1", "-shrink-time", "1s", "-save", t.TempDir()}, tc.args...)
			a, b := wholeAndMerged[report.Generated](t, tc.want, args...)
			require.Equal(t, tc.want, a.ExitCode)
			require.Equal(t, tc.want, b.ExitCode, "the merged JSON's exit_code is the unsharded run's")
			require.Len(t, a.Slowest, min(checker.SlowestKept, a.Programs))
			for _, g := range []*report.Generated{&a, &b} {
				g.Seconds, g.PerSecond, g.Saved = 0, 0, ""
				g.Slowest, g.CheckSeconds = nil, 0 // times (TestMergeChecksSlowest merges them)
				if g.Counterexample != nil {
					g.Counterexample.Seconds = 0
				}
			}
			require.Equal(t, a, b)
			switch tc.want {
			case exitViolation:
				require.NotNil(t, b.FailingIndex)
				require.Equal(t, 2, *b.FailingIndex, "the stream fails at program 2")
				require.Equal(t, 1, b.Inconclusive, "after an inconclusive program")
			case exitInconclusive:
				require.NotZero(t, b.Inconclusive)
				require.NotZero(t, b.Holds)
			}
		})
	}
}

// TestMergeMutants: a mutant hunted over three shards is killed by the
// same program of the stream as unsharded, at the same position.
func TestMergeMutants(t *testing.T) {
	args := []string{"mutants", "-only", "m-drop-null", "-n", "5", "-workers", "1", "-shrink-time", "1s"}
	a, b := wholeAndMerged[report.Mutants](t, exitOK, args...)
	require.Len(t, b.Results, 1)
	require.True(t, b.Results[0].Killed)
	// Field by field, but for time and the workers (the shards' sum).
	for _, m := range []*report.Mutants{&a, &b} {
		m.Workers, m.Date = 0, ""
		for i := range m.Results {
			m.Results[i].Seconds, m.Results[i].ShrinkSeconds = 0, 0
		}
		m.Summary.MedianSeconds = 0
	}
	require.Equal(t, a, b)
}

// TestMergeRejects: parts that do not make up one run are input errors.
func TestMergeRejects(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		f := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(f, []byte(content), 0o644))
		return f
	}
	g := func(shard string) string {
		return fmt.Sprintf(`{"variant":"fixed","k":2,"steps":200,"n":6,"seed":1,"shard":%q,"programs":2,"holds":2,"inconclusive":0,"violated":0,"seconds":1,"programs_per_second":2,"shrunk":false}`, shard)
	}
	a, b := write("a.json", g("0/3")), write("b.json", g("1/3"))
	for name, files := range map[string][]string{
		"missing shard": {a, b},
		"twice":         {a, a, b},
		"mixed kinds":   {a, write("m.json", `{"base":"fixed","results":[],"summary":{}}`)},
		"not JSON":      {write("x.json", "variant fixed: 6 programs")},
		"no file":       {filepath.Join(dir, "none.json")},
	} {
		code, _, stderr := runCode(append([]string{"merge"}, files...)...)
		require.Equalf(t, exitUsage, code, "%s: stderr %s", name, stderr)
		require.NotEmpty(t, stderr, name)
	}
	code, out, _ := runCode("merge", a, b, write("c.json", g("2/3")))
	require.Equal(t, exitOK, code)
	require.Contains(t, out, "6 programs, 6 hold")
}

// TestShardUsage: a malformed -shard, or -shard without a program stream,
// is a usage error.
func TestShardUsage(t *testing.T) {
	for _, args := range [][]string{
		{"check", "-gen", "-shard", "3/3"},
		{"check", "-shard", "0/2", "../testdata/programs/swap.jl"},
		{"lemmas", "-shard", "1"},
		{"mutants", "-shard", "-1/2"},
		{"merge"},
	} {
		code, _, stderr := runCode(args...)
		require.Equalf(t, exitUsage, code, "%v: stderr %s", args, stderr)
		require.NotEmpty(t, stderr, args)
	}
}

// TestMergeLemmasAll: the shards of lemmas -all (a surveys document each)
// merge into the unsharded document, column by column.
func TestMergeLemmasAll(t *testing.T) {
	args := []string{"lemmas", "-all", "-n", "4", "-steps", "30", "-no-shrink", "-workers", "1"}
	a, b := wholeAndMerged[report.Surveys](t, exitViolation, args...)
	for _, d := range []*report.Surveys{&a, &b} {
		for i := range d.Surveys {
			d.Surveys[i].Seconds = 0
			for j := range d.Surveys[i].Lemmas {
				if cx := d.Surveys[i].Lemmas[j].Counterexample; cx != nil {
					cx.Seconds = 0
				}
			}
		}
	}
	require.Equal(t, a, b)
	require.Equal(t, exitViolation, b.ExitCode)
}

// TestMergeLostShards: with -shards N the merge names every shard
// without a result (a file missing or truncated, a shard interrupted),
// prints each -resubmit line with the shards in --array form, and exits 2
// while a shard has no result at all; interrupted shards alone merge to
// the interrupted run's status.
func TestMergeLostShards(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		f := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(f, []byte(content), 0o644))
		return f
	}
	g := func(shard, status string) string {
		return fmt.Sprintf(`{"variant":"fixed","k":2,"steps":200,"n":8,"seed":1,"shard":%q,"programs":2,"holds":2,"inconclusive":0,"violated":0,"seconds":1,"programs_per_second":2,"shrunk":false,%s}`, shard, status)
	}
	done := `"interrupted":false,"exit_code":0`
	a, b := write("0.json", g("0/4", done)), write("1.json", g("1/4", done))
	whole := g("2/4", done)
	trunc := write("2.json", whole[:len(whole)/2])
	none := filepath.Join(dir, "3.json")
	code, _, stderr := runCode("merge", "-shards", "4", "-resubmit", "sbatch --array={array} shard.sbatch run", a, b, trunc, none)
	require.Equal(t, exitUsage, code, stderr)
	require.Contains(t, stderr, "no result of shard(s) 2/4, 3/4 of 4")
	require.Contains(t, stderr, "2.json")
	require.Contains(t, stderr, "\n  sbatch --array=2-3 shard.sbatch run\n")

	// The lost shards run again; one of them interrupted.
	c := write("2.json", whole)
	d := write("3.json", strings.Replace(g("3/4", `"interrupted":true,"signal":"SIGTERM","exit_code":143`), `"programs":2,"holds":2`, `"programs":1,"holds":1`, 1))
	code, out, stderr := runCode("merge", "-shards", "4", "-resubmit", "sbatch --array={array} shard.sbatch run", a, b, c, d)
	require.Equal(t, exitSIGTERM, code, stderr)
	require.Contains(t, stderr, "sbatch --array=3 shard.sbatch run")
	require.Contains(t, out, "7 programs")
	d = write("3.json", g("3/4", done))
	code, out, stderr = runCode("merge", "-shards", "4", a, b, c, d)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "8 programs, 8 hold")

	code, _, stderr = runCode("merge", "-shards", "3", a, b, c, d)
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "not of a run of 3 shards")
}

// TestMergeRefusesDataMix: a shard of a data stream made with -data none
// checks other programs; merged with the others it would make a run
// that never happened. The merge refuses it, naming the flag.
func TestMergeRefusesDataMix(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, data := range []string{"mixed", "none"} {
		code, out, stderr := runCode("check", "-gen", "-engine", "summary:fixed", "-n", "4", "-steps", "40", "-workers", "1", "-data", data, "-shard", fmt.Sprintf("%d/2", i), "-json")
		require.Containsf(t, []int{exitOK, exitInconclusive}, code, "stderr: %s", stderr)
		f := filepath.Join(dir, fmt.Sprintf("%d.json", i))
		require.NoError(t, os.WriteFile(f, []byte(out), 0o644))
		files = append(files, f)
	}
	code, _, stderr := runCode(append([]string{"merge"}, files...)...)
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "shard 1/2 was made with -data none, shard 0/2 with -data mixed")
}
