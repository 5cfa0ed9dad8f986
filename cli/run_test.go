package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func runOK(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != exitOK {
		t.Fatalf("%v: exit %d, stderr:\n%s", args, code, errb.String())
	}
	return out.String()
}

const llFile = "../testdata/programs/linkedlist.jl"

// TestRunGSECounts: the summary shows the counts that package gse and the
// concrete oracle establish (testdata's LinkedList dereferences a null head,
// so 2 of its paths end in error). Under Java semantics (the default) the
// error is the call on the null head (Invoke′); under the papers' the call
// proceeds and the error is the read of this.data in contains (A′). The
// counts are the same.
func TestRunGSECounts(t *testing.T) {
	for sem, rule := range map[string]string{"java": "Invoke′                      2", "paper": "Field access (A′)            2"} {
		out := runOK(t, "run", "-k", "2", "-steps", "1000", "-semantics", sem, llFile)
		for _, want := range []string{
			"semantics " + sem,
			"paths       25  (value 12, error 2, cut 11, stuck 0)",
			"inits       null 15, new 8, alias 16",
			rule,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: missing %q in:\n%s", sem, want, out)
			}
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"run", "-semantics", "kotlin", llFile}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "unknown semantics") {
		t.Errorf("-semantics kotlin: exit %d, stderr %q; want exit 2 naming the unknown semantics", code, errb.String())
	}
}

// TestRunJSONPaths: -json -paths gives one entry per path with the same
// totals as the summary, every path condition non-empty.
func TestRunJSONPaths(t *testing.T) {
	out := runOK(t, "run", "-k", "1", "-json", "-paths", "../testdata/programs/nullderef.jl")
	var rep runReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Paths != 3 || len(rep.PathEnds) != 3 || rep.Ends["error"] != 1 || rep.Ends["value"] != 2 || !rep.Complete || rep.Semantic != "java" {
		t.Fatalf("got %+v", rep)
	}
	for _, p := range rep.PathEnds {
		if p.PathCondition.Formula == "" || (p.Outcome == "value") != (p.Value != "") {
			t.Errorf("bad path entry %+v", p)
		}
	}
}

// TestRunPathsText: one line per path with outcome and φ.
func TestRunPathsText(t *testing.T) {
	out := runOK(t, "run", "-k", "1", "-paths", "../testdata/programs/alias_two_fields.jl")
	re := regexp.MustCompile(`(?m)^path \d+: value (true|false) \(step \d+\)  φ = .+$`)
	if n := len(re.FindAllString(out, -1)); n != 5 {
		t.Errorf("%d path lines, want 5:\n%s", n, out)
	}
}

// TestRunTraceSameCounts: -trace explores the same tree as the plain run:
// same summary, and one "step" line per state created after the initial one
// plus the initial line, one "ends" line per path (5 at k=1).
func TestRunTraceSameCounts(t *testing.T) {
	f := "../testdata/programs/selfref.jl"
	plain := runOK(t, "run", "-k", "1", f)
	traced := runOK(t, "run", "-k", "1", "-trace", f)
	strip := regexp.MustCompile(`(?m)^wall .*$`)
	tail := traced[strings.Index(traced, "program "):]
	if strip.ReplaceAllString(plain, "") != strip.ReplaceAllString(tail, "") {
		t.Errorf("summaries differ:\n%s\n---\n%s", plain, tail)
	}
	steps := len(regexp.MustCompile(`(?m)^path \d+ step \d+: `).FindAllString(traced, -1))
	ends := len(regexp.MustCompile(`(?m)^path \d+ ends: `).FindAllString(traced, -1))
	states := regexp.MustCompile(`states +(\d+)`).FindStringSubmatch(plain)[1]
	if states != strconv.Itoa(steps) || ends != 5 {
		t.Errorf("trace has %d step lines (states %s) and %d ends (want 5)", steps, states, ends)
	}
}

// TestRunSummaryEngine: the summary engine runs and reports solver work.
// Its path count on testdata's LinkedList at k=2 is the number of distinct
// GSE control-flow sequences (RULES.md §7 C13), 6 by the concrete oracle.
func TestRunSummaryEngine(t *testing.T) {
	out := runOK(t, "run", "-engine", "summary", "-k", "2", llFile)
	for _, want := range []string{"engine      summary (variant published)", "paths       6 ", "solver      "} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestRunUsageErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "missing.jl")
	for _, args := range [][]string{
		{"run"},
		{"run", "-engine", "both", llFile},
		{"run", "-variant", "no-such-variant", llFile},
		{"run", "-timeout", "-1s", llFile},
		{"run", "-timeout", "0", llFile},
		{"run", "-k", "-7", llFile},
		{"run", "-steps", "0", llFile},
		{"run", "-trace", "-json", llFile},
		{"run", "-k", "x", llFile},
		{"run", bad},
		{"run", "../testdata/errors/check.jl"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", args, code, exitUsage, errb.String())
		}
		if out.Len() != 0 {
			t.Errorf("%v: printed on stdout: %q", args, out.String())
		}
	}
}

// TestRunTimeout: a run stopped by -timeout prints the counts it reached,
// marked as cut, with exit 3, whatever the engine (the deadline lands
// between states for gse, inside a solver query for the others).
func TestRunTimeout(t *testing.T) {
	for _, eng := range []string{"gse", "summary", "pose", "uber", "lazier"} {
		var out, errb bytes.Buffer
		code := run([]string{"run", "-engine", eng, "-k", "8", "-steps", "5000", "-timeout", "1ms", "-json", llFile}, &out, &errb)
		require.Equal(t, exitInconclusive, code, "%s: %s", eng, errb.String())
		var rep runReport
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep), eng)
		// k=8 takes seconds, so 1ms always cuts it.
		require.False(t, rep.Complete, eng)
		require.Equal(t, "timeout", rep.CutBy, eng)
		require.Equal(t, exitInconclusive, rep.ExitCode, eng)
		require.Contains(t, errb.String(), "lower bounds", eng)
	}
}

// TestRunFormulasBounded: path conditions print with their shared
// subformulas named and no line runs past a few thousand characters
// (linkedlist.jl at k = 3 printed 956,482 characters on one line at 300
// steps, and never finished at 1000); -json has each whole.
func TestRunFormulasBounded(t *testing.T) {
	out := runOK(t, "run", "-engine", "summary", "-variant", "published", "-k", "3", "-paths", llFile)
	require.Contains(t, out, "$1")
	for _, line := range strings.Split(out, "\n") {
		require.LessOrEqualf(t, len(line), 2*maxFormulaText, "%.200s", line)
	}
	var rep runReport
	require.NoError(t, json.Unmarshal([]byte(runOK(t, "run", "-engine", "summary", "-k", "3", "-paths", "-json", llFile)), &rep))
	require.NotEmpty(t, rep.PathEnds)
	require.Equal(t, "published", rep.Variant)
	var gse runReport
	require.NoError(t, json.Unmarshal([]byte(runOK(t, "run", "-engine", "gse", "-json", llFile)), &gse))
	require.Empty(t, gse.Variant, "gse has no summary variant")
}

// TestRunKAsCheck: run resolves the engine at its k as check does. pose
// has no k-bound: at k = 2, "pose" runs pose:world-exact+kbound (4 paths
// on hasnull, the bounded engine's, where the unbounded one has 6) and
// says so; "pose:world-exact" at k = 2 is refused, naming what to use;
// at k = −1 it runs unbounded.
func TestRunKAsCheck(t *testing.T) {
	const hasnull = "../testdata/programs/hasnull.jl"
	paths := func(args ...string) (int64, string) {
		out := runOK(t, append([]string{"run", "-json"}, args...)...)
		var rep runReport
		require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
		return rep.Paths, rep.Engine + ":" + rep.Variant
	}
	n, spec := paths("-engine", "pose", "-k", "2", hasnull)
	require.Equal(t, "pose:world-exact+kbound", spec)
	bounded, _ := paths("-engine", "pose:world-exact+kbound", "-k", "2", hasnull)
	require.Equal(t, bounded, n)
	require.EqualValues(t, 4, n)
	unbounded, spec := paths("-engine", "pose", "-k", "-1", hasnull)
	require.Equal(t, "pose:world-exact", spec)
	require.EqualValues(t, 6, unbounded)
	code, _, stderr := runCode("run", "-engine", "pose:world-exact", "-k", "2", hasnull)
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "pose:world-exact+kbound")
}
