package report

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
)

// CheckMatrix is the verdicts of checks of named programs under several
// engines and k-bounds: one column per (engine, k), one row per file. It is
// what `lockstep check -engines … -ks … FILES` prints as a Markdown document
// (docs/results/trees.md).
type CheckMatrix struct {
	Files   []string
	Columns []CheckColumn
}

// CheckColumn is one engine at one k: the engine as served (its variant at
// that k) and one cell per file, in the order of CheckMatrix.Files.
type CheckColumn struct {
	Engine string // as named on the command line
	Served string // the engine the check ran (engine.AtK)
	K      int
	Cells  []CheckCell
}

// CheckCell is one check's verdict, in the terms of its -json report.
type CheckCell struct {
	Status  string // "holds", "violated", "inconclusive", "not checked"
	Lemma   string
	FiniteK bool // lemma KB: a divergence of the engine's own k-bound
	Reason  string
	Pairs   int
	Seconds float64
}

// Symbol is the cell as the table shows it: ✓ holds; KB the documented
// divergence of an engine's own k-bound (every lemma holds at k = −1 along
// the violation's control flow); ✗ LEMMA a violation; ? WHY undecided,
// WHY the bound that stopped it (time, pairs, group) or the lemma.
func (c CheckCell) Symbol() string {
	switch c.Status {
	case "holds":
		return "✓"
	case "violated":
		if c.FiniteK {
			if m := kbLemma.FindStringSubmatch(c.Reason); m != nil {
				return "KB (" + m[1] + ")"
			}
			return "KB"
		}
		return "✗ " + c.Lemma
	case "inconclusive":
		return "? " + undecidedWhy(c)
	}
	return "–"
}

// kbLemma finds the lemma a KB verdict's reason says failed at the finite
// k ("at k = 2 FEAS fails, at k = −1 every lemma holds …").
var kbLemma = regexp.MustCompile(`at k = \d+ (\S+) fails`)

// undecidedWhy names the bound an inconclusive check met, from its reason.
func undecidedWhy(c CheckCell) string {
	r := strings.ToLower(c.Reason)
	switch {
	case strings.Contains(r, "pairs"):
		return "pairs"
	case strings.Contains(r, "exceeds the bound"):
		return "group"
	case strings.Contains(r, "time limit") || strings.Contains(r, "timeout") || strings.Contains(r, "deadline"):
		return "time"
	}
	if c.FiniteK {
		return "KB"
	}
	return c.Lemma
}

// Markdown writes the matrix: a title, the provenance, the counts per
// column, then a table with a row per file and a column per (engine, k).
func (m CheckMatrix) Markdown(w io.Writer, title string, prov Provenance) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	b.WriteString(prov.Markdown())
	b.WriteString("Cells: ✓ holds; KB (LEMMA) the divergence of the engine's own k-bound from GSE's (LEMMA fails at\n")
	b.WriteString("this k, every lemma holds at k = −1 along its control flow; docs/FINDINGS.md KB-1..3); ✗ LEMMA a violation;\n")
	b.WriteString("? undecided, with the bound that stopped it (time, pairs, group) or its lemma. Never a pass.\n\n")

	b.WriteString("| engine (served as) | k | holds | KB | violated | inconclusive | seconds (sum) |\n|---|---|---|---|---|---|---|\n")
	for _, c := range m.Columns {
		var h, kb, v, u int
		var secs float64
		for _, x := range c.Cells {
			secs += x.Seconds
			switch {
			case x.Status == "holds":
				h++
			case x.Status == "violated" && x.FiniteK:
				kb++
			case x.Status == "violated":
				v++
			case x.Status == "inconclusive":
				u++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %.1f |\n", served(c), c.K, h, kb, v, u, secs)
	}

	b.WriteString("\n| program |")
	for _, c := range m.Columns {
		fmt.Fprintf(&b, " %s, k = %d |", c.Engine, c.K)
	}
	b.WriteString("\n|---|")
	for range m.Columns {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for i, f := range m.Files {
		fmt.Fprintf(&b, "| %s |", strings.TrimSuffix(filepath.Base(f), ".jl"))
		for _, c := range m.Columns {
			cell := "–"
			if i < len(c.Cells) {
				cell = c.Cells[i].Symbol()
			}
			fmt.Fprintf(&b, " %s |", cell)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func served(c CheckColumn) string {
	if c.Served == "" || c.Served == c.Engine {
		return c.Engine
	}
	return c.Engine + " (" + c.Served + ")"
}
