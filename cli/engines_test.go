package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
)

// TestEnginesList: every registered engine has a line, and -json the same
// list with shapes and the lemmas a check of it decides.
func TestEnginesList(t *testing.T) {
	out := runOK(t, "engines")
	require.Contains(t, out, "summary    one-per-control  published (")
	require.Contains(t, out, "gse ")
	var doc struct {
		Engines []engineJSON `json:"engines"`
	}
	require.NoError(t, json.Unmarshal([]byte(runOK(t, "engines", "-json")), &doc))
	byName := map[string]engineJSON{}
	for _, e := range doc.Engines {
		byName[e.Name] = e
	}
	require.Equal(t, "published", byName["summary"].Default)
	require.Contains(t, byName["summary"].Lemmas, checker.L1)
	require.NotContains(t, byName["summary"].Lemmas, checker.P1)
	require.True(t, byName["gse"].Reference)
	require.Empty(t, byName["gse"].Lemmas)
}

// TestEngineFlag: -engine NAME:VARIANT and the -variant shorthand select
// the same engine, and the registry's errors are usage errors.
func TestEngineFlag(t *testing.T) {
	a := runOK(t, "run", "-engine", "summary:fixed", "-k", "2", llFile)
	b := runOK(t, "run", "-engine", "summary", "-variant", "fixed", "-k", "2", llFile)
	require.Contains(t, a, "engine      summary (variant fixed)")
	strip := func(s string) string { // drop the timing lines
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "wall") && !strings.HasPrefix(l, "solver") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	require.Equal(t, strip(a), strip(b))

	code, out, stderr := runCode("check", "-engine", "summary:fixed", "-steps", "60", "../testdata/programs/alias_two_fields.jl")
	require.Equal(t, exitOK, code, "%s\n%s", stderr, out)
	require.Contains(t, out, "holds")
	code, _, stderr = runCode("check", "-variant", "fixed", "-steps", "60", "../testdata/programs/alias_two_fields.jl")
	require.Equal(t, exitOK, code, stderr)

	// Engine against engine.
	code, out, stderr = runCode("check", "-engine", "summary:fixed", "-vs", "summary:fixed", "-steps", "60", "../testdata/programs/alias_two_fields.jl")
	require.Equal(t, exitOK, code, "%s\n%s", stderr, out)
	code, out, _ = runCode("check", "-engine", "summary:published", "-vs", "summary:fixed", "-k", "3", "-steps", "150", "../testdata/fixedbugs/published_V7_C12.jl")
	require.Equal(t, exitViolation, code, out)

	for _, args := range [][]string{
		{"check", "-vs", "nosuch", llFile},
		{"check", "-vs", "gse", llFile},
		{"check", "-engine", "nosuch", llFile},
		{"check", "-engine", "summary:nosuch", llFile},
		{"check", "-engine", "gse:x", "-variant", "fixed", llFile},
		{"lemmas", "-engine", "summary:fixed", "-all", "-n", "1"},
		{"mutants", "-engine", "summary:published", "-list"},
		{"run", "-engine", "nosuch", llFile},
		{"dot", "-engine", "nosuch", "-final", llFile},
		{"bench", "-engine", "nosuch", "-quick"},
	} {
		code, out, stderr := runCode(args...)
		require.Equal(t, exitUsage, code, "%v: %s\n%s", args, out, stderr)
	}
	// The reference is not an engine under test.
	code, _, stderr = runCode("check", "-engine", "gse", "-steps", "20", llFile)
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "reference")
}

// TestEngineBounds: `lockstep engines` shows each engine's k-bound and
// default k; check uses the engine's default k, serves a finite k with the
// engine's kbound variant when it is named without a variant, and refuses
// a finite k to a variant with no bound (exit 2, one line saying what to
// use).
func TestEngineBounds(t *testing.T) {
	out := runOK(t, "engines")
	require.Regexp(t, `pose +one-per-control +world-exact \(\d+ variants\) +bound none \(\+kbound: gse\) k=-1 `, out)
	require.Regexp(t, `summary +one-per-control +published \(\d+ variants\) +bound gse +k=2 `, out)
	require.Regexp(t, `lazier# +partition +default \(\d+ variants\) +bound own +k=-1 `, out)
	// The list, whether -json prints it as an array or under "engines".
	var raw any
	require.NoError(t, json.Unmarshal([]byte(runOK(t, "engines", "-json")), &raw))
	items, _ := raw.([]any)
	if doc, ok := raw.(map[string]any); ok {
		items, _ = doc["engines"].([]any)
	}
	found := false
	for _, it := range items {
		e, _ := it.(map[string]any)
		if e["name"] != "uber" {
			continue
		}
		found = true
		require.Equal(t, "own", e["bound"])
		require.Equal(t, float64(-1), e["default_k"])
		require.Equal(t, "kbound", e["kbound_variant"])
		require.Contains(t, e["lemmas"], string(checker.KB), "an own bound's divergence is KB")
	}
	require.True(t, found, "no uber in engines -json")

	hasnull := "../testdata/programs/hasnull.jl"
	code, out, stderr := runCode("check", "-engine", "pose", hasnull)
	require.Equal(t, exitOK, code, "%s\n%s", out, stderr)
	code, out, stderr = runCode("check", "-engine", "pose", "-k", "2", "-json", hasnull)
	require.Equal(t, exitOK, code, "%s\n%s", out, stderr)
	require.Contains(t, out, `pose:world-exact+kbound`)
	code, out, stderr = runCode("check", "-engine", "pose:world-exact", "-k", "2", hasnull)
	require.Equal(t, exitUsage, code, out)
	require.Contains(t, stderr, "pose:world-exact has no k-bound")
	require.Contains(t, stderr, "pose:world-exact+kbound")
}
