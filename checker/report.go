package checker

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// Text prints the report for people. With full, every GSE state of the
// failing group is printed, whole; otherwise the first three, compact: a
// line of a state longer than compactLine runes (a value set of hundreds
// of guarded entries, a path condition of thousands of atoms) is cut,
// saying how much was left out. The whole states are in JSON and in the
// CLI's -dot pictures.
func (r *Report) Text(full bool) string {
	var b strings.Builder
	v := r.Verdict
	dump := func(s *machine.State) string {
		if full {
			return indent(s.Dump())
		}
		return indent(compact(s.Dump()))
	}
	switch v.Status {
	case Holds:
		name, _ := engine.Split(r.Engine)
		if name == "" {
			name = "summary"
		}
		if r.Versus != "" {
			fmt.Fprintf(&b, "holds: %s (%d pairs; %s %d paths, %s %d paths; %s)\n",
				r.checkedString(), r.Pairs, r.Engine, r.SummaryPaths, r.Versus, r.GSEPaths, r.Elapsed.Round(1e6))
			return b.String()
		}
		pruned := ""
		if r.GSEPruned > 0 || r.EnginePruned > 0 {
			pruned = fmt.Sprintf("; pruned ends: GSE %d, %s %d", r.GSEPruned, name, r.EnginePruned)
		}
		fmt.Fprintf(&b, "holds: %s (%d pairs, largest group %d; GSE %d paths / %d sequences, %s %d paths%s; %s)\n",
			r.checkedString(), r.Pairs, r.MaxGroup, r.GSEPaths, r.GSESequences, name, r.SummaryPaths, pruned, r.Elapsed.Round(1e6))
		if r.Oracle.Ran {
			fmt.Fprintf(&b, "%s\n", r.Oracle.String())
		}
		return b.String()
	case Inconclusive:
		fmt.Fprintf(&b, "inconclusive: %s (%s): %s\n", v.Lemma, Claim[v.Lemma], v.Reason)
		fmt.Fprintf(&b, "checked before giving up: %s\n", r.checkedString())
		if r.Oracle.Ran {
			fmt.Fprintf(&b, "%s\n", r.Oracle.String())
		}
		return b.String()
	}
	fmt.Fprintf(&b, "VIOLATED %s: %s\n", v.Lemma, Claim[v.Lemma])
	if v.Rule != "" {
		fmt.Fprintf(&b, "rule:    %s\n", v.Rule)
	}
	if v.Step > 0 {
		fmt.Fprintf(&b, "step:    %d\n", v.Step)
	}
	if v.Control != "" {
		fmt.Fprintf(&b, "control: %s\n", v.Control)
	}
	fmt.Fprintf(&b, "reason:  %s\n", v.Reason)
	if v.Witness != "" {
		fmt.Fprintf(&b, "witness: %s\n", v.Witness)
	}
	if r.Oracle.Ran {
		fmt.Fprintf(&b, "oracle:  %s (up to the verdict)\n", r.Oracle.String())
	}
	if r.Program != nil {
		fmt.Fprintf(&b, "\nprogram (%d lines):\n%s\n", Lines(r.Program), javalite.Print(r.Program))
	}
	// The engine side is named after the engine under test: "summary
	// state" only when it is one, "lazier# state" for Kiasan's, and so on.
	side, _ := engine.Split(r.Engine)
	if side == "" {
		side = "summary"
	}
	if v.Before != nil {
		fmt.Fprintf(&b, "%s state before the step:\n%s\n", side, dump(v.Before))
	}
	if v.Summary != nil {
		fmt.Fprintf(&b, "%s state:\n%s\n", side, dump(v.Summary))
	}
	if v.Sibling != nil {
		label := "state of the second engine (-vs)"
		if v.Lemma == P1 {
			label = "sibling state (same control)"
		}
		fmt.Fprintf(&b, "%s:\n%s\n", label, dump(v.Sibling))
	}
	n := len(v.GSE)
	if !full && n > 3 {
		n = 3
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "GSE state %d of %d:\n%s\n", i+1, len(v.GSE), dump(v.GSE[i]))
	}
	if n < len(v.GSE) {
		fmt.Fprintf(&b, "(%d more GSE states)\n", len(v.GSE)-n)
	}
	return b.String()
}

// compactLine is the longest line of a state Text prints without full.
const compactLine = 200

// compact cuts every line of a state dump longer than compactLine runes.
func compact(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if n := utf8.RuneCountInString(l); n > compactLine {
			cut := 0
			for j := range l {
				if cut == compactLine {
					lines[i] = fmt.Sprintf("%s … (%d more characters; whole in -json)", l[:j], n-compactLine)
					break
				}
				cut++
			}
		}
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

func (r *Report) checkedString() string {
	var parts []string
	for _, l := range Lemmas {
		if n := r.Checked[l]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s×%d", l, n))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " ")
}

// Lines is the number of lines of p's canonical form: the size measure of
// counterexamples.
func Lines(p *javalite.Program) int {
	return strings.Count(strings.TrimRight(javalite.Print(p), "\n"), "\n") + 1
}

// JSONReport is the machine-readable form of a report.
type JSONReport struct {
	File   string `json:"file,omitempty"`
	Engine string `json:"engine,omitempty"`
	Status string `json:"status"`
	Lemma  string `json:"lemma,omitempty"`
	// FiniteK tells, for a verdict with a lemma, a finite-k divergence of
	// an engine's own k-bound from GSE's (lemma KB: every lemma holds at
	// k = −1; not an error of the engine's rules) from any other (false:
	// the engine breaks the lemma).
	FiniteK      *bool          `json:"finite_k,omitempty"`
	Claim        string         `json:"claim,omitempty"`
	Rule         string         `json:"rule,omitempty"`
	Step         int            `json:"step,omitempty"`
	Control      string         `json:"control,omitempty"`
	Reason       string         `json:"reason,omitempty"`
	Witness      string         `json:"witness,omitempty"`
	Program      string         `json:"program,omitempty"`
	Lines        int            `json:"lines,omitempty"`
	Summary      string         `json:"summary_state,omitempty"`
	Sibling      string         `json:"sibling_state,omitempty"`
	GSE          []string       `json:"gse_states,omitempty"`
	Checked      map[string]int `json:"checked"`
	Pairs        int            `json:"pairs"`
	MaxGroup     int            `json:"max_group"`
	GSEPaths     int64          `json:"gse_paths"`
	GSESequences int64          `json:"gse_sequences"`
	// EnginePaths are the paths of the engine under test's own
	// exploration; SummaryPaths is the same number under its older name.
	EnginePaths  int64 `json:"engine_paths"`
	SummaryPaths int64 `json:"summary_paths"`
	// GSEPruned and EnginePruned are the ends rule Assume pruned (not
	// paths).
	GSEPruned    int64   `json:"gse_pruned"`
	EnginePruned int64   `json:"engine_pruned"`
	Overlaps     int64   `json:"overlaps,omitempty"`
	Seconds      float64 `json:"seconds"`
	// Oracle is what lemma ORC ran (absent when it did not run).
	Oracle *OracleStats `json:"oracle,omitempty"`
}

// JSON returns the machine-readable form of the report.
func (r *Report) JSON() JSONReport {
	v := r.Verdict
	j := JSONReport{
		Status: v.Status.String(), Checked: map[string]int{},
		Pairs: r.Pairs, MaxGroup: r.MaxGroup, GSEPaths: r.GSEPaths, GSESequences: r.GSESequences,
		EnginePaths: r.SummaryPaths, SummaryPaths: r.SummaryPaths, Seconds: r.Elapsed.Seconds(),
		GSEPruned: r.GSEPruned, EnginePruned: r.EnginePruned,
		Engine: r.Engine, Overlaps: r.Overlaps,
	}
	if r.Oracle.Ran {
		o := r.Oracle
		j.Oracle = &o
	}
	if r.Program != nil {
		j.File = r.Program.File
	}
	for l, n := range r.Checked {
		j.Checked[string(l)] = n
	}
	if v.Status != Holds {
		j.Lemma, j.Claim, j.Reason = string(v.Lemma), Claim[v.Lemma], v.Reason
		finiteK := v.Lemma == KB
		j.FiniteK = &finiteK
	}
	if v.Status == Violated {
		j.Rule, j.Step, j.Control, j.Witness = v.Rule, v.Step, v.Control, v.Witness
		if r.Program != nil {
			j.Program, j.Lines = javalite.Print(r.Program), Lines(r.Program)
		}
		if v.Summary != nil {
			j.Summary = v.Summary.Dump()
		}
		if v.Sibling != nil {
			j.Sibling = v.Sibling.Dump()
		}
		for _, s := range v.GSE {
			j.GSE = append(j.GSE, s.Dump())
		}
	}
	return j
}

// Sides returns the states a picture of the verdict should show: the
// summary state (or the one before the step) and the first GSE state.
func (v *Verdict) Sides() (sum, g *machine.State) {
	sum = v.Summary
	if sum == nil {
		sum = v.Before
	}
	if len(v.GSE) > 0 {
		g = v.GSE[0]
	}
	return
}
