package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lockstep-dev/lockstep/internal/mutation"
	"github.com/lockstep-dev/lockstep/internal/report"
)

func TestMutantsList(t *testing.T) {
	out := runOK(t, "mutants", "-list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(mutation.Mutants()) {
		t.Fatalf("%d lines for %d mutants:\n%s", len(lines), len(mutation.Mutants()), out)
	}
	if !strings.Contains(out, "m-summarize-max") || !strings.Contains(out, "[argued equivalent]") {
		t.Errorf("list misses a mutant or the equivalence mark:\n%s", out)
	}
}

// TestMutantsJSON: two mutants killed on the first programs, reported with
// lemma, counterexample and a kill rate of 1.
func TestMutantsJSON(t *testing.T) {
	out := runOK(t, "mutants", "-only", "m-drop-null,m-vs-drops-field-guard", "-n", "5", "-shrink-time", "2s", "-json")
	var got report.Mutants
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Results) != 2 || got.Base != mutation.BaseName || got.Summary.Killed != 2 || got.Summary.KillRate != 1 {
		t.Fatalf("got %+v", got)
	}
	for _, r := range got.Results {
		if r.Status() != "killed" || r.Killer == "" || r.Program == "" || r.Base != "holds" {
			t.Errorf("%s: %+v", r.Mutant, r)
		}
	}
}

func TestMutantsBadName(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"mutants", "-only", "m-no-such"}, &out, &errb); code != exitUsage {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitUsage, errb.String())
	}
	if !strings.Contains(errb.String(), "m-drop-null") {
		t.Errorf("the error does not list the known mutants: %s", errb.String())
	}
}

// TestMutantsEngines: -engine selects another engine's catalog, listed with
// its own k where a mutant has one, and runs its mutants at the catalog's
// bounds (k = −1 for lazier#), confirmed on the base; a variant other than
// the base, or an engine without mutants, is a usage error.
func TestMutantsEngines(t *testing.T) {
	out := runOK(t, "mutants", "-engine", "lazier", "-list")
	ms, err := mutation.Of("lazier")
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != len(ms) {
		t.Fatalf("%d lines for %d mutants:\n%s", len(lines), len(ms), out)
	}
	if !strings.Contains(out, "lazier:default+resolve-fresh-beyond-k") || !strings.Contains(out, "(hunted at k = 0)") || strings.Contains(out, "ifnull-") {
		t.Errorf("lazier's list:\n%s", out)
	}
	out = runOK(t, "mutants", "-engine", "lazier#:default", "-only", "resolve-no-alias", "-n", "5", "-shrink-time", "2s", "-json")
	var got report.Mutants
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Engine != "lazier#" || got.Base != "default" || got.K != -1 || got.Steps != 60 || len(got.Results) != 1 {
		t.Fatalf("got %+v", got)
	}
	if r := got.Results[0]; r.Mutant != "lazier#:default+resolve-no-alias" || r.Status() != "killed" || r.K != -1 || r.Base != "holds" || r.Killer == "" {
		t.Errorf("%+v", r)
	}
	for _, args := range [][]string{
		{"mutants", "-engine", "pose:jpose-eq", "-list"},
		{"mutants", "-engine", "gse", "-list"},
		{"mutants", "-engine", "uber", "-only", "resolve-no-alias"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d; stderr %s", args, code, exitUsage, errb.String())
		}
	}
}
