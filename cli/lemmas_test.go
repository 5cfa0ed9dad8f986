package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/internal/report"
	"github.com/lockstep-dev/lockstep/summary"
)

func runCode(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestLemmasUsage(t *testing.T) {
	for _, args := range [][]string{
		{"lemmas", "-all", "-variant", "fixed"},
		{"lemmas", "-n", "0"},
		{"lemmas", "-variant", "no-such-variant"},
		{"lemmas", "file.jl"},
		{"lemmas", "-workers", "0"},
	} {
		if code, _, stderr := runCode(args...); code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with a message", args, code, stderr)
		}
	}
}

// TestLemmasViolated: seed000 breaks lemmas on the first programs; every
// lemma gets a line, and the exit status is 1.
func TestLemmasViolated(t *testing.T) {
	code, out, stderr := runCode("lemmas", "-variant", "seed000", "-n", "4", "-steps", "60", "-no-shrink")
	if code != exitViolation {
		t.Fatalf("exit %d, want 1; stderr:\n%s\n%s", code, stderr, out)
	}
	for _, l := range summaryLemmas(t) {
		if !strings.Contains(out, "\n  "+string(l)+" ") {
			t.Errorf("no line for %s in:\n%s", l, out)
		}
	}
	if !strings.Contains(out, "violated on") || !strings.Contains(out, "smallest counterexample") {
		t.Errorf("no violation reported:\n%s", out)
	}
}

// TestLemmasJSON: the JSON agrees with itself: every lemma once, statuses
// follow the evidence, each violated lemma carries its counterexample.
func TestLemmasJSON(t *testing.T) {
	code, out, stderr := runCode("lemmas", "-variant", "seed000", "-n", "4", "-steps", "60", "-no-shrink", "-json")
	if code != exitViolation {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	var sv report.Survey
	if err := json.Unmarshal([]byte(out), &sv); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if sv.Variant != "seed000" || sv.Programs != 4 || sv.Holds+sv.Violated+sv.Inconclusive != 4 || len(sv.Lemmas) != len(summaryLemmas(t)) {
		t.Fatalf("bad survey %+v", sv)
	}
	violations := 0
	for i, l := range sv.Lemmas {
		if l.Lemma != string(summaryLemmas(t)[i]) {
			t.Errorf("lemma %d is %s, want %s", i, l.Lemma, summaryLemmas(t)[i])
		}
		violations += l.Violations
		switch l.Status {
		case "violated":
			if l.Counterexample == nil || l.Counterexample.Lemma != l.Lemma || l.Counterexample.Program == "" {
				t.Errorf("%s: violated without its counterexample: %+v", l.Lemma, l)
			}
		case "holds":
			if l.Checks == 0 || l.Violations > 0 || len(l.Undecided) > 0 {
				t.Errorf("%s holds without evidence: %+v", l.Lemma, l)
			}
		case "inconclusive":
			if l.Checks > 0 && len(l.Undecided) == 0 {
				t.Errorf("%s inconclusive without reason: %+v", l.Lemma, l)
			}
		default:
			t.Errorf("%s: status %q", l.Lemma, l.Status)
		}
	}
	if violations != sv.Violated || sv.Verdict != "violated" {
		t.Errorf("%d violations over lemmas, %d violated programs, status %s", violations, sv.Violated, sv.Verdict)
	}
}

// TestLemmasAll: the matrix has a column per variant and a row per lemma,
// and every regression case written parses and names the variant it came
// from.
func TestLemmasAll(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "LEMMAS.md")
	cases := filepath.Join(dir, "fixedbugs")
	code, _, stderr := runCode("lemmas", "-all", "-n", "1", "-seed", "1", "-steps", "40", "-no-shrink", "-o", md, "-fixedbugs", cases)
	if code != exitViolation {
		t.Fatalf("exit %d, want 1 (published fails on program 0 of seed 1); stderr:\n%s", code, stderr)
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	header := "| lemma |"
	for _, v := range summary.Variants() {
		header += " " + v.Name + " |"
	}
	if !strings.Contains(doc, header+"\n") {
		t.Errorf("no matrix header %q in:\n%s", header, doc)
	}
	for _, l := range summaryLemmas(t) {
		if !strings.Contains(doc, "\n| "+string(l)+" |") {
			t.Errorf("no row for %s", l)
		}
	}
	// Lemmas that apply to no column (the Partition lemmas, for summary
	// variants) have no row.
	for _, l := range []checker.Lemma{checker.P1, checker.FEAS, checker.VIEW} {
		if strings.Contains(doc, "\n| "+string(l)+" |") {
			t.Errorf("a row for %s, which no summary variant decides", l)
		}
	}
	for _, want := range []string{"* command: `lockstep lemmas -all -n 1", "* date: ", "## Counterexamples", "```\n((("} {
		if !strings.Contains(doc, want) {
			t.Errorf("missing %q in:\n%s", want, doc)
		}
	}
	files, err := filepath.Glob(filepath.Join(cases, "*.jl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no regression cases written (%v)", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := checker.ParseCase(f, src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		from := strings.SplitN(filepath.Base(f), "_", 2)[0]
		if !slices.Contains(c.Refutes, from) || c.K != 2 || c.Steps != 40 {
			t.Errorf("%s: header %+v", f, c)
		}
	}
}

// TestLemmasHolds: with the proposed fixes every lemma is checked and holds
// on these programs, and the exit status is 0. (The stream and bound are
// chosen so that each lemma is reached: a lemma never checked would make
// the run inconclusive, not a pass.)
func TestLemmasHolds(t *testing.T) {
	code, out, stderr := runCode("lemmas", "-variant", "fixed", "-n", "12", "-seed", "2", "-steps", "40")
	if code != exitOK {
		t.Fatalf("exit %d, want 0; stderr:\n%s\n%s", code, stderr, out)
	}
	if strings.Contains(out, "violated on") || strings.Contains(out, "inconclusive:") {
		t.Errorf("exit 0 with a failure:\n%s", out)
	}
	if !strings.Contains(out, "  T11  holds on 12 programs (") {
		t.Errorf("T11 not reported as holding on all 12 programs:\n%s", out)
	}
}

// summaryLemmas are the rows of a survey of the summary engine.
func summaryLemmas(t *testing.T) []checker.Lemma {
	t.Helper()
	eut, err := engine.New("summary", engine.Config{K: 2})
	if err != nil {
		t.Fatal(err)
	}
	// The default stream has data (as check -gen's), so the survey lists
	// the data lemmas L12 and L13 too.
	return checker.Applicable(eut)
}

// TestLemmasData: lemmas draws the stream check -gen draws, programs with
// data for an engine with data rules (L12 and L13 decided), and -data none
// is the reference-only stream (no program applies L12 or L13); a bad
// -data is a usage error.
func TestLemmasData(t *testing.T) {
	checks := func(args ...string) (string, map[string]int) {
		code, out, stderr := runCode(append([]string{"lemmas", "-variant", "fixed", "-n", "6", "-k", "1", "-steps", "40", "-workers", "1", "-json"}, args...)...)
		require.Contains(t, []int{exitOK, exitInconclusive}, code, stderr) // a program may exceed a bound
		var sv struct {
			Data   string `json:"data"`
			Lemmas []struct {
				Lemma  string `json:"lemma"`
				Checks int    `json:"checks"`
			} `json:"lemmas"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &sv), out)
		m := map[string]int{}
		for _, l := range sv.Lemmas {
			m[l.Lemma] = l.Checks
		}
		return sv.Data, m
	}
	data, m := checks()
	require.Equal(t, "mixed", data)
	require.Positive(t, m["L12"]+m["L13"], "%v", m)
	data, m = checks("-data", "none")
	require.Equal(t, "none", data)
	require.Zero(t, m["L12"]+m["L13"], "%v", m)
	require.Positive(t, m["L1"])
	code, _, stderr := runCode("lemmas", "-variant", "fixed", "-n", "2", "-data", "some")
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "-data")
}
