package mutation

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/summary"
)

// TestCatalog: the summary engine's catalog has at least 20 mutants, unique
// names, each the base plus exactly one change, and an argument for every
// one called equivalent.
func TestCatalog(t *testing.T) {
	ms := Mutants()
	if len(ms) < 20 {
		t.Fatalf("%d mutants, want at least 20", len(ms))
	}
	base, err := summary.Lookup(BaseName)
	require.NoError(t, err)
	baseDiff := base.Differences()
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[m.Name] {
			t.Errorf("duplicate mutant %q", m.Name)
		}
		seen[m.Name] = true
		if m.Doc == "" {
			t.Errorf("%s has no doc", m.Name)
		}
		if m.Base != "summary:"+BaseName || m.Engine != "summary" || m.K != 2 || m.Steps != 200 {
			t.Errorf("%s: base %s, engine %s, k %d, steps %d", m.Name, m.Base, m.Engine, m.K, m.Steps)
		}
		// One name per engine: "summary:fixed+ROW", where ROW alone names
		// the same change on published (lockstep variants -mutants).
		row, ok := strings.CutPrefix(m.Name, "summary:"+BaseName+"+")
		if !ok || strings.Contains(row, "+") || row != m.Mutation {
			t.Errorf("mutant name %q is not summary:%s+ROW", m.Name, BaseName)
		}
		v, err := summary.Lookup(BaseName + "+" + row)
		require.NoError(t, err)
		// The mutant keeps every choice of the base and adds one.
		var extra []string
		for _, d := range v.Differences() {
			if !slices.Contains(baseDiff, d) {
				extra = append(extra, d)
			}
		}
		if len(extra) != 1 || len(v.Differences()) != len(baseDiff)+1 {
			t.Errorf("%s: differs from %s in %v (all: %v), want exactly one addition", m.Name, BaseName, extra, v.Differences())
		}
		if m.Equivalent != "" && len(m.Equivalent) < 100 {
			t.Errorf("%s: the equivalence argument is too short to be an argument: %q", m.Name, m.Equivalent)
		}
		for _, alias := range []string{m.Name, BaseName + "+" + row, row} {
			got, err := Lookup(alias)
			if err != nil || got.Name != m.Name {
				t.Errorf("Lookup(%q) = %v, %v", alias, got.Name, err)
			}
		}
	}
	if _, err := Lookup("no-such"); err == nil {
		t.Error("Lookup of an unknown name succeeded")
	}
}

func TestSummarize(t *testing.T) {
	rs := []Result{
		{Mutant: "a", Killed: true, Base: "holds", Seconds: 1, Programs: 1, ShrunkLines: 4},
		{Mutant: "b", Killed: true, Base: "holds", Seconds: 3, Programs: 5, ShrunkLines: 8},
		{Mutant: "c", Killed: true, Base: "holds", Seconds: 2, Programs: 2, ShrunkLines: 6, Equivalent: "x"},
		{Mutant: "d", Equivalent: "argued"},
		{Mutant: "e"},
		{Mutant: "f", Killed: true, Base: "violated", Seconds: 100, ShrunkLines: 100},
		{Mutant: "g", Error: "boom"},
	}
	want := map[string]string{"a": "killed", "b": "killed", "c": "killed-equivalent", "d": "equivalent",
		"e": "survived", "f": "unconfirmed", "g": "error"}
	for _, r := range rs {
		if got := r.Status(); got != want[r.Mutant] {
			t.Errorf("%s: status %q, want %q", r.Mutant, got, want[r.Mutant])
		}
	}
	s := Summarize(rs)
	if s.Mutants != 7 || s.Killed != 3 || s.KilledEquivalent != 1 || s.Equivalent != 1 || s.Survived != 1 || s.Errors != 2 {
		t.Fatalf("counts %+v", s)
	}
	// 3 killed of 7 − 1 equivalent − 2 errors.
	if s.KillRate != 0.75 || s.MedianSeconds != 2 || s.MedianPrograms != 2 || s.MedianShrunkLines != 6 {
		t.Fatalf("rates %+v", s)
	}
	if s.RefMutants != 4 || s.RefKilled != 3 || s.DataMutants != 0 {
		t.Fatalf("by kind %+v", s)
	}
	// Data and reference mutants apart: equivalents and errors in neither.
	rs[0].Data, rs[3].Data, rs[4].Data, rs[6].Data = true, true, true, true
	s = Summarize(rs)
	if s.DataMutants != 2 || s.DataKilled != 1 || s.DataKillRate != 0.5 ||
		s.RefMutants != 2 || s.RefKilled != 2 || s.RefKillRate != 1 {
		t.Fatalf("by kind %+v", s)
	}
}

// TestDataMarked: every engine's catalog marks its mutants of data rules,
// and only those (the kill rates are reported apart).
func TestDataMarked(t *testing.T) {
	data := map[string]bool{}
	for _, m := range All() {
		if m.Data {
			data[m.Name] = true
		}
	}
	for _, name := range []string{"summary:fixed+m-strengthen-tighter", "summary:fixed+m-prim-read-first",
		"summary:fixed+m-if-sym-then-only", "lazier:default+fresh-prim-defaults", "lazier#:default+prim-read-no-resolve",
		"pose:world-exact+prim-read-last", "uber:defer+m-prim-write-guard-phi"} {
		if !data[name] {
			t.Errorf("%s is not marked as a data mutant", name)
		}
	}
	for _, name := range []string{"summary:fixed+m-drop-orig", "lazier:default+resolve-no-alias", "uber:defer+m-drop-null"} {
		if data[name] {
			t.Errorf("%s is marked as a data mutant", name)
		}
	}
}

// smoke are mutants the checker kills within the first programs of seed
// 1; each must be killed by a counterexample that the base passes.
var smoke = []string{"summary:fixed+m-drop-null", "summary:fixed+m-new-ignores-aliases", "summary:fixed+m-guard-true",
	"summary:fixed+m-kbound-minus1"}

// TestSmoke runs a few mutants through the whole pipeline: hunt, shrink,
// confirmation on the base. LOCKSTEP_MUTANTS_N=N also runs every mutant of
// every engine's catalog (at the catalog's bounds) on N programs and fails
// on a survivor that is not argued equivalent (a deep run: minutes).
func TestSmoke(t *testing.T) {
	opt := Options{Check: checker.DefaultOptions(), N: 10, Seed: 1, Workers: 2, ShrinkTime: 2 * time.Second}
	opt.Check.Timeout = 10 * time.Second
	names := smoke
	if n, _ := strconv.Atoi(os.Getenv("LOCKSTEP_MUTANTS_N")); n > 0 {
		opt.N, names = n, nil
		for _, m := range All() {
			names = append(names, m.Name)
		}
	}
	for _, name := range names {
		m, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Run(context.Background(), m, opt)
		if err != nil {
			t.Fatal(err)
		}
		switch r.Status() {
		case "killed":
			if r.Killer == "" || r.ShrunkLines < 1 || r.Programs < 1 || r.Programs > opt.N || r.Program == "" {
				t.Errorf("%s: incomplete result %+v", name, r)
			}
			t.Logf("%s: killed by %s (%s) after %d programs, %d lines", name, r.Killer, r.Rule, r.Programs, r.ShrunkLines)
		case "equivalent":
			t.Logf("%s: survived %d programs (argued equivalent)", name, r.Programs)
		default:
			t.Errorf("%s: %s after %d programs (%d inconclusive) %s", name, r.Status(), r.Programs, r.Inconclusive, r.Error)
		}
	}
}
