package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
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
		// A shard without the violation holds.
		require.Containsf(t, []int{exitOK, want}, code, "shard %d/3: stderr:\n%s", i, stderr)
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
	a, b := wholeAndMerged[surveyJSON](t, exitViolation, args...)
	untime := func(s *surveyJSON) {
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
// agree with the unsharded run, on a variant that holds (every count) and
// on one that does not (the earliest counterexample of the stream, which
// is what a one-worker unsharded run stops at).
func TestMergeCheckGenerated(t *testing.T) {
	for _, tc := range []struct {
		variant string
		want    int
	}{{"fixed", exitOK}, {"seed000", exitViolation}} {
		t.Run(tc.variant, func(t *testing.T) {
			args := []string{"check", "-gen", "-variant", tc.variant, "-n", "6", "-k", "1", "-steps", "60", "-workers", "1", "-shrink-time", "1s"}
			a, b := wholeAndMerged[genSummary](t, tc.want, args...)
			if tc.want == exitOK {
				a.Seconds, a.PerSecond, b.Seconds, b.PerSecond = 0, 0, 0, 0
				require.Equal(t, a, b)
				require.Equal(t, 6, b.Programs)
				return
			}
			require.NotNil(t, b.Counterexample)
			require.Equal(t, a.Seed, b.Seed, "failing seed")
			require.Equal(t, a.Index, b.Index, "failing index")
			require.Equal(t, a.FoundLines, b.FoundLines)
			require.Equal(t, a.Counterexample.Lemma, b.Counterexample.Lemma)
		})
	}
}

// TestMergeMutants: a mutant hunted over three shards is killed by the
// same program of the stream as unsharded, at the same position.
func TestMergeMutants(t *testing.T) {
	args := []string{"mutants", "-only", "m-drop-null", "-n", "5", "-workers", "1", "-shrink-time", "1s"}
	a, b := wholeAndMerged[mutantsJSON](t, exitOK, args...)
	require.Len(t, b.Results, 1)
	ra, rb := a.Results[0], b.Results[0]
	require.True(t, rb.Killed)
	require.Equal(t, ra.Seed, rb.Seed)
	require.Equal(t, ra.Programs, rb.Programs)
	require.Equal(t, ra.Killer, rb.Killer)
	require.Equal(t, a.Summary.Killed, b.Summary.Killed)
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
