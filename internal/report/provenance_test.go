package report

import (
	"strings"
	"testing"
	"time"
)

// TestProvenanceMarkdown: the header names the command, the commit, the
// date and the machine.
func TestProvenanceMarkdown(t *testing.T) {
	p := Provenance{Command: "lockstep bench -md", Commit: "0f3da3b", Date: time.Date(2026, 11, 27, 19, 30, 0, 0, time.UTC), Machine: "test machine"}
	got := p.Markdown()
	for _, want := range []string{"`lockstep bench -md`", "commit 0f3da3b", "2026-11-27 19:30 UTC", "test machine"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if !strings.Contains(Machine(), "GOMAXPROCS") {
		t.Errorf("Machine() = %q", Machine())
	}
	if !strings.Contains(Provenance{}.Markdown(), "commit unknown") {
		t.Error("an unknown commit is not said")
	}
}

// TestCheckMatrixMarkdown: the cells say holds, KB, a violation and an
// undecided check with the bound that stopped it; the counts add up.
func TestCheckMatrixMarkdown(t *testing.T) {
	m := CheckMatrix{Files: []string{"testdata/a.jl", "b.jl", "c.jl", "d.jl"}, Columns: []CheckColumn{{
		Engine: "lazier", Served: "lazier:default", K: 2,
		Cells: []CheckCell{
			{Status: "holds", Seconds: 1},
			{Status: "violated", Lemma: "KB", FiniteK: true, Reason: "at k = 2 FEAS fails, at k = −1 every lemma holds on its control flow"},
			{Status: "violated", Lemma: "L2"},
			{Status: "inconclusive", Lemma: "T11", Reason: "more than 20000 pairs"},
		},
	}}}
	var b strings.Builder
	if err := m.Markdown(&b, "t", Provenance{Command: "lockstep check -engines lazier"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# t", "`lockstep check -engines lazier`", "| lazier (lazier:default) | 2 | 1 | 1 | 1 | 1 | 1.0 |",
		"| program | lazier, k = 2 |", "| a | ✓ |", "| b | KB (FEAS) |", "| c | ✗ L2 |", "| d | ? pairs |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("lacks %q:\n%s", want, b.String())
		}
	}
}
