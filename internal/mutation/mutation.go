// Package mutation measures the checker by mutation testing: each mutant
// is the corrected summary variant `fixed` with exactly one deliberate
// error in one rule, and the checker is asked to find a program on which
// the mutant breaks a lemma. The catalog is not kept here: it is every row
// of summary.Table marked Mutant (a mutation, or a reading such as V1 that
// is an error on top of `fixed`), named "summary:fixed+ROW". The generic
// table type (package choice) lets other engines' mutants join the scheme.
//
// Mutants are built on `fixed`, not on `published`: published already
// fails on generated programs, so a mutant of it would be "killed" by the
// original error and prove nothing about the mutation.
//
// A mutant is killed when checker.Hunt, stopping at the first violation,
// finds one within N programs; the violated lemma, the number of programs
// and the time it took, and the size of the counterexample after rapid's
// shrinking are recorded. A mutant that survives is either equivalent (no
// program can tell it apart under the checked relations; the catalog
// carries the argument) or a blind spot of the checker. Mutants argued
// equivalent are run all the same: if one is killed, the argument is
// wrong, and the result says so.
package mutation

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

// BaseName is the variant every mutant is built on.
var BaseName = summary.Table.Base

// Mutant is one single-point mutation of the base variant: the base plus
// one row of summary.Table marked Mutant.
type Mutant struct {
	// Name is engine-qualified, "summary:fixed+m-drop-orig", so that
	// mutants of other engines can join the same lists.
	Name    string
	Doc     string          // what is wrong, in the terms of RULES.md (the row's doc)
	Variant summary.Variant // the base with the mutation applied
	// Equivalent, if not empty, argues why no program can distinguish the
	// mutant from the base under the relations the checker verifies.
	Equivalent string
}

// Base returns the variant the mutants are built on.
func Base() summary.Variant {
	v, err := summary.Lookup(BaseName)
	if err != nil {
		panic(fmt.Sprintf("mutation: the base variant is missing: %v", err)) // a broken build, not input
	}
	return v
}

// Mutants returns the catalog: every row of summary.Table marked Mutant,
// added to the base, in table order (readings used as mutants first, then
// the rules they break: Summarize, Field access, Field write, Equals).
func Mutants() []Mutant {
	var out []Mutant
	for _, r := range summary.Table.Mutants() {
		name := BaseName + "+" + r.Name
		v, err := summary.Lookup(name)
		if err != nil {
			panic(fmt.Sprintf("mutation: %v", err)) // a broken table, not input
		}
		out = append(out, Mutant{Name: summary.Table.Qualify(name), Doc: r.Doc, Variant: v, Equivalent: r.Equivalent})
	}
	return out
}

// Lookup returns the mutant of the catalog with the given name:
// "summary:fixed+m-drop-orig", "fixed+m-drop-orig", or the row alone,
// "m-drop-orig" (a mutant is always built on the base).
func Lookup(name string) (Mutant, error) {
	full := summary.Table.Unqualify(name)
	if !strings.HasPrefix(full, BaseName+"+") {
		full = BaseName + "+" + full
	}
	full = summary.Table.Qualify(full)
	var names []string
	for _, m := range Mutants() {
		if m.Name == full {
			return m, nil
		}
		names = append(names, m.Name)
	}
	return Mutant{}, fmt.Errorf("mutation: unknown mutant %q (known: %s)", name, strings.Join(names, ", "))
}

// Options configure Run.
type Options struct {
	Check checker.Options // the engine is replaced by each mutant's
	// Semantics are the common-rule choices (V10/V11, machine.ParseSemantics)
	// given to every mutant and to the base; the zero value is Java.
	Semantics  machine.Options
	N          int           // programs per mutant at most
	Seed       int64         // seed of the program stream (the same for every mutant)
	Shard      checker.Shard // the part of the stream to check (zero: all of it)
	Workers    int
	ShrinkTime time.Duration
	// Progress, if not nil, is called after every program of the hunt.
	Progress func(done, holds, inconclusive int64)
}

// Result is the outcome for one mutant.
type Result struct {
	Mutant     string `json:"mutant"`
	Doc        string `json:"doc"`
	Killed     bool   `json:"killed"`
	Equivalent string `json:"equivalent,omitempty"` // the catalog's argument, if any
	// Killer is the violated lemma, Rule the rule of the failing step (of
	// the shrunk counterexample).
	Killer checker.Lemma `json:"lemma,omitempty"`
	Rule   string        `json:"rule,omitempty"`
	// Programs is how many programs had been checked when the mutant was
	// killed (all checked programs if it survived); Seconds the time until
	// then, before shrinking.
	Programs     int     `json:"programs"`
	Seconds      float64 `json:"seconds"`
	Holds        int     `json:"holds"`
	Inconclusive int     `json:"inconclusive"`
	// FoundLines and ShrunkLines are the sizes of the counterexample as
	// found and after shrinking (Shrunk false: rapid could not reproduce
	// it, ShrunkLines = FoundLines).
	FoundLines    int     `json:"found_lines,omitempty"`
	ShrunkLines   int     `json:"shrunk_lines,omitempty"`
	Shrunk        bool    `json:"shrunk,omitempty"`
	ShrinkSeconds float64 `json:"shrink_seconds,omitempty"`
	Seed          int64   `json:"failing_seed,omitempty"`
	Index         int     `json:"failing_index,omitempty"` // position of the failing program in the stream
	Program       string  `json:"program,omitempty"`       // the shrunk counterexample
	Reason        string  `json:"reason,omitempty"`
	// Base is the verdict of the base variant on the shrunk
	// counterexample. Only "holds" confirms the kill: a counterexample
	// the base fails as well says nothing about the mutation.
	Base string `json:"base_on_counterexample,omitempty"`
	// Error is set when the hunt stopped on an error of the tool (an
	// engine that cannot apply a rule, for instance) instead of a verdict.
	// Such a mutant is neither killed nor survived.
	Error string `json:"error,omitempty"`
}

// Status is "killed", "equivalent" (survived, argued equivalent),
// "survived" (a blind spot, or too few programs), "killed-equivalent"
// (killed although argued equivalent: the argument is wrong), or "error"
// (the hunt failed).
func (r Result) Status() string {
	switch {
	case r.Error != "":
		return "error"
	case r.Killed && r.Base != checker.Holds.String():
		return "unconfirmed"
	case r.Killed && r.Equivalent != "":
		return "killed-equivalent"
	case r.Killed:
		return "killed"
	case r.Equivalent != "":
		return "equivalent"
	}
	return "survived"
}

// Run hunts for a program that kills m. An error of the tool during the
// hunt is recorded in the result (the other mutants can still be run); the
// error returned is for a cancelled ctx only.
func Run(ctx context.Context, m Mutant, opt Options) (Result, error) {
	copt := opt.Check
	copt.Engine, copt.Build, copt.Variant = "summary:"+m.Name, summary.Build(m.Variant), summary.Variant{}
	copt.Semantics = opt.Semantics
	res := Result{Mutant: m.Name, Doc: m.Doc, Equivalent: m.Equivalent}
	h, err := checker.Hunt(ctx, copt, checker.HuntOptions{
		N: opt.N, Seed: opt.Seed, Shard: opt.Shard, Workers: opt.Workers, ShrinkTime: opt.ShrinkTime, Progress: opt.Progress,
	})
	if err != nil {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		res.Error = err.Error()
		return res, nil
	}
	res.Programs, res.Holds, res.Inconclusive, res.Seconds = h.Programs, h.Holds, h.Inconclusive, h.Elapsed.Seconds()
	cx := h.Counterexamples[h.First]
	if cx == nil {
		return res, nil
	}
	res.Killed = true
	res.Programs, res.Seconds = cx.After, cx.Time.Seconds()
	res.ShrinkSeconds = h.Elapsed.Seconds() - cx.Time.Seconds()
	res.Seed, res.Shrunk, res.Index = cx.Seed, cx.IsShrunk, cx.Index
	res.FoundLines = checker.Lines(cx.Found.Program)
	rep := cx.Shrunk
	res.ShrunkLines = checker.Lines(rep.Program)
	res.Killer, res.Rule, res.Reason = rep.Verdict.Lemma, rep.Verdict.Rule, rep.Verdict.Reason
	res.Program = javalite.Print(rep.Program)
	base, err := confirm(ctx, opt.Check, opt.Semantics, rep.Program)
	if err != nil {
		res.Error = err.Error()
	}
	res.Base = base
	return res, nil
}

// confirm runs the base variant on the counterexample p.
func confirm(ctx context.Context, opt checker.Options, sem machine.Options, p *javalite.Program) (string, error) {
	opt.Engine, opt.Build, opt.Variant, opt.Semantics = "summary:"+BaseName, nil, summary.Variant{}, sem
	s, err := smt.NewSolver()
	if err != nil {
		return "", err
	}
	defer s.Close()
	rep, err := checker.Run(ctx, p, opt, s)
	if err != nil {
		return "", fmt.Errorf("base %s on the counterexample: %w", BaseName, err)
	}
	return rep.Verdict.Status.String(), nil
}

// Summary aggregates results.
type Summary struct {
	Mutants    int `json:"mutants"`
	Killed     int `json:"killed"`
	Equivalent int `json:"equivalent"` // survived and argued equivalent
	Survived   int `json:"survived"`   // survived, not argued equivalent
	Errors     int `json:"errors"`     // the hunt failed, or the base fails the counterexample too
	// KilledEquivalent counts mutants argued equivalent that were killed
	// (their argument is wrong; they count as killed).
	KilledEquivalent int `json:"killed_equivalent"`
	// KillRate is killed / (mutants − equivalent − errors): the share of
	// the non-equivalent mutants the checker detected.
	KillRate float64 `json:"kill_rate"`
	// Medians over the killed mutants.
	MedianSeconds     float64 `json:"median_seconds_to_kill"`
	MedianPrograms    float64 `json:"median_programs_to_kill"`
	MedianShrunkLines float64 `json:"median_shrunk_lines"`
}

// Summarize aggregates results.
func Summarize(rs []Result) Summary {
	var s Summary
	var secs, progs, lines []float64
	for _, r := range rs {
		s.Mutants++
		st := r.Status()
		switch st {
		case "killed":
			s.Killed++
		case "killed-equivalent":
			s.Killed++
			s.KilledEquivalent++
		case "equivalent":
			s.Equivalent++
		case "error", "unconfirmed":
			s.Errors++
		default:
			s.Survived++
		}
		if st == "killed" || st == "killed-equivalent" {
			secs = append(secs, r.Seconds)
			progs = append(progs, float64(r.Programs))
			lines = append(lines, float64(r.ShrunkLines))
		}
	}
	if n := s.Mutants - s.Equivalent - s.Errors; n > 0 {
		s.KillRate = float64(s.Killed) / float64(n)
	}
	s.MedianSeconds, s.MedianPrograms, s.MedianShrunkLines = median(secs), median(progs), median(lines)
	return s
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	ys := append([]float64(nil), xs...)
	sort.Float64s(ys)
	if n := len(ys); n%2 == 1 {
		return ys[n/2]
	} else {
		return (ys[n/2-1] + ys[n/2]) / 2
	}
}
