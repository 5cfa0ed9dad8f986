// Package mutation measures the checker by mutation testing: each mutant
// is an engine's base variant with exactly one deliberate error in one
// rule, and the checker is asked to find a program on which the mutant
// breaks a lemma.
//
// The catalog is not kept here: each engine registers its own
// (engine.Info.Mutants, filled from the engine's table of mutations), so a
// mutant is an engine spec of the registry, "NAME:BASE+MUTATION", built by
// engine.New like any other:
//
//   - summary: every row of summary.Table marked Mutant (a mutation, or a
//     reading such as V1 that is an error on top of `fixed`), on `fixed`:
//     "summary:fixed+m-drop-orig".
//   - lazier, lazier#: kiasan.Mutations on "default", the rules each
//     engine has (a null test of a δ̂ is lazier#'s alone, the null branch
//     at a read lazier's): "lazier:default+resolve-no-alias".
//   - pose: pose.Mutations on world-exact: "pose:world-exact+no-update".
//   - uber: uber.Mutations on defer: "uber:defer+m-drop-null".
//
// A catalog marks its mutants of data rules (engine.Mutant.Data), and
// the kill rates are summarized for data and reference mutants apart.
// Beside the engines' catalogs, the mutations of the layers every engine
// shares — the common rules, GSE's data rules, smt's term layer — are
// hunted under each engine (SharedOf, shared.go; `lockstep mutants
// -shared`).
//
// Mutants are built on a base that holds on generated programs (`fixed`,
// not `published`: published already fails, so a mutant of it would be
// "killed" by the original error and prove nothing about the mutation).
//
// The k-bound is the catalog's (engine.Mutants.K) unless the caller fixes
// one: 2 for the summary engine, whose k-bound is GSE's (RULES.md §4), but
// −1 (the step bound alone) for lazier, lazier#, POSE-J and U-DEFER
// (ENGINES.md §8.4). Those engines bound resolutions or not at all, not
// reads as GSE does, so at a finite k the specified engines themselves
// diverge from GSE (docs/FINDINGS.md KB-1..3) and a hunt would stop at the
// base's divergence, never at the mutation's. A mutation of the k-bound
// itself (kiasan's resolve-fresh-beyond-k) is invisible at −1 and carries
// its own k (engine.Mutant.K).
//
// A mutant is killed when checker.Hunt, stopping at the first violation,
// finds one within N programs, and the base engine holds on the shrunk
// counterexample (at the same k and step bound); the violated lemma, the
// number of programs and the time it took, and the size of the
// counterexample after rapid's shrinking are recorded. A mutant that
// survives is either equivalent (no program can tell it apart under the
// checked relations; the engine's table carries the argument) or a blind
// spot of the checker. Mutants argued equivalent are run all the same: if
// one is killed, the argument is wrong, and the result says so.
package mutation

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	_ "github.com/lockstep-dev/lockstep/engine/builtin"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

// DefaultEngine is the engine whose catalog is meant when none is named.
const DefaultEngine = "summary"

// BaseName is the variant the summary engine's mutants are built on.
var BaseName = summary.Table.Base

// Mutant is one single-point mutation of an engine's base variant.
type Mutant struct {
	// Name is the engine spec of the mutant, "summary:fixed+m-drop-orig",
	// "lazier:default+resolve-no-alias".
	Name string
	// Engine is the engine's name, Base the base's spec ("summary:fixed"),
	// Mutation the mutation as a variant part ("m-drop-orig").
	Engine, Base, Mutation string
	Doc                    string // what is wrong, in the terms of the engine's rules
	// Equivalent, if not empty, argues why no program can distinguish the
	// mutant from the base under the relations the checker verifies.
	Equivalent string
	// Data marks a mutant of a data rule (engine.Mutant.Data): kill
	// rates are reported for data and reference mutants apart.
	Data bool
	// Shared, when not nil, is a mutation of a shared layer (shared.go):
	// the engine is Base, with the mutation added for the hunt.
	Shared *Shared
	// K and Steps are the bounds of its hunt unless the caller fixes them
	// (Options.FixedK, FixedSteps): the catalog's, or the mutant's own k.
	K, Steps int
}

// Engines lists the registered engines that have a mutation catalog.
func Engines() []string {
	var out []string
	for _, i := range engine.Engines() {
		if i.Mutants != nil {
			out = append(out, i.Name)
		}
	}
	return out
}

// catalogOf looks up the engine name gives and its mutant catalog, refusing
// an engine without one.
func catalogOf(name string) (engine.Info, *engine.Mutants, error) {
	info, _, err := engine.Lookup(name)
	if err != nil {
		return info, nil, err
	}
	if info.Mutants == nil {
		return info, nil, fmt.Errorf("mutation: engine %s has no mutants (engines with mutants: %s)", info.Name, strings.Join(Engines(), ", "))
	}
	return info, info.Mutants, nil
}

// Of returns the catalog of one engine ("lazier", or a spec naming it:
// "lazier:default") in the engine's table order.
func Of(name string) ([]Mutant, error) {
	info, c, err := catalogOf(name)
	if err != nil {
		return nil, err
	}
	var out []Mutant
	for _, m := range c.List() {
		k := c.K
		if m.K != nil {
			k = *m.K
		}
		out = append(out, Mutant{
			Name: c.Spec(info.Name, m), Engine: info.Name, Base: engine.Join(info.Name, c.Base), Mutation: m.Name,
			Doc: m.Doc, Equivalent: m.Equivalent, K: k, Steps: c.Steps, Data: m.Data,
		})
	}
	return out, nil
}

// Mutants returns the summary engine's catalog (DefaultEngine): every row
// of summary.Table marked Mutant, added to `fixed`, in table order
// (readings used as mutants first, then the rules they break: Summarize,
// Field access, Field write, Equals).
func Mutants() []Mutant {
	ms, err := Of(DefaultEngine)
	if err != nil {
		panic(fmt.Sprintf("mutation: %v", err)) // a broken build, not input
	}
	return ms
}

// All returns the catalogs of every engine, engines by name.
func All() []Mutant {
	var out []Mutant
	for _, e := range Engines() {
		ms, _ := Of(e)
		out = append(out, ms...)
	}
	return out
}

// Lookup returns the mutant with the given name: its full spec,
// "lazier:default+resolve-no-alias" (any engine), or, in the summary
// engine's catalog, "fixed+m-drop-orig" or the row alone, "m-drop-orig".
func Lookup(name string) (Mutant, error) {
	eng := DefaultEngine
	if n, _ := engine.Split(name); strings.Contains(name, ":") {
		eng = n
	}
	return LookupIn(eng, name)
}

// LookupIn returns the mutant of engine eng's catalog named by its full
// spec ("lazier:default+resolve-no-alias"), its variant
// ("default+resolve-no-alias") or its mutation ("resolve-no-alias").
func LookupIn(eng, name string) (Mutant, error) {
	ms, err := Of(eng)
	if err != nil {
		return Mutant{}, err
	}
	var names []string
	for _, m := range ms {
		_, variant := engine.Split(m.Name)
		if name == m.Name || name == variant || name == m.Mutation {
			return m, nil
		}
		names = append(names, m.Name)
	}
	return Mutant{}, fmt.Errorf("mutation: unknown mutant %q (known: %s)", name, strings.Join(names, ", "))
}

// Options configure Run.
type Options struct {
	// Check are the checker's options; the engine is replaced by each
	// mutant's, and K and Steps by the mutant's unless fixed.
	Check checker.Options
	// FixedK hunts every mutant at Check.K instead of its own (Mutant.K),
	// FixedSteps at Check.Steps instead of Mutant.Steps.
	FixedK, FixedSteps bool
	// Semantics are the common-rule choices (V10/V11, machine.ParseSemantics)
	// given to every mutant and to the base; the zero value is Java.
	Semantics machine.Options
	N         int           // programs per mutant at most
	Seed      int64         // seed of the program stream (the same for every mutant)
	Shard     checker.Shard // the part of the stream to check (zero: all of it)
	Workers   int
	// ShrinkSteps and ShrinkTime bound shrinking (checker.ShrinkBound).
	ShrinkSteps int
	ShrinkTime  time.Duration
	// ConfirmTimeout is the time limit of the base's run on the shrunk
	// counterexample (0: Check.Timeout). It is one program that decides
	// whether the kill counts, and the base can take much longer on it
	// than the mutant took to fail (the mutant stops at its first
	// violation; the base explores every path), so callers give it more.
	ConfirmTimeout time.Duration
	// Progress, if not nil, is called after every program of the hunt.
	Progress func(done, holds, inconclusive int64)
}

// Result is the outcome for one mutant.
type Result struct {
	Mutant     string `json:"mutant"`
	Engine     string `json:"engine"`
	K          int    `json:"k"`     // the k-bound of the hunt and of the confirmation
	Steps      int    `json:"steps"` // the step bound of both
	Doc        string `json:"doc"`
	Killed     bool   `json:"killed"`
	Equivalent string `json:"equivalent,omitempty"` // the catalog's argument, if any
	Data       bool   `json:"data,omitempty"`       // a mutant of a data rule
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
	// Undecided are the stream indices of the inconclusive programs, so
	// that a merge of shards counts those before a kill as an unsharded
	// run does.
	Undecided []int `json:"inconclusive_programs,omitempty"`
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
	// Base is the verdict of the base engine on the shrunk
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
	copt := opt.checkOptions(m)
	res := Result{Mutant: m.Name, Engine: m.Engine, K: copt.K, Steps: copt.Steps, Doc: m.Doc, Equivalent: m.Equivalent, Data: m.Data}
	// An engine without data rules hunts on the reference-only stream.
	data := gen.DataMixed
	if checker.RefuseData(copt) != nil {
		data = gen.DataNone
	}
	if m.Shared != nil && m.Shared.Knob != nil {
		m.Shared.Knob.Store(true)
	}
	h, err := checker.Hunt(ctx, copt, checker.HuntOptions{
		N: opt.N, Seed: opt.Seed, Data: data, Shard: opt.Shard, Workers: opt.Workers, ShrinkSteps: opt.ShrinkSteps, ShrinkTime: opt.ShrinkTime, Progress: opt.Progress,
	})
	if m.Shared != nil && m.Shared.Knob != nil {
		m.Shared.Knob.Store(false)
	}
	if err != nil {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		res.Error = err.Error()
		return res, nil
	}
	res.Programs, res.Holds, res.Inconclusive, res.Seconds = h.Programs, h.Holds, h.Inconclusive, h.Elapsed.Seconds()
	for _, u := range h.Undecided {
		res.Undecided = append(res.Undecided, u.Index)
	}
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
	copt.Engine, copt.Common = m.Base, machine.Mutation{}
	if opt.ConfirmTimeout > 0 {
		copt.Timeout = opt.ConfirmTimeout
	}
	base, err := confirm(ctx, copt, rep.Program)
	if err != nil {
		res.Error = err.Error()
	}
	res.Base = base
	return res, nil
}

// checkOptions are the checker's options for hunting m: its engine, the
// common-rule semantics, and the mutant's bounds unless fixed.
func (opt Options) checkOptions(m Mutant) checker.Options {
	copt := opt.Check
	copt.Engine, copt.Build, copt.Variant = m.Name, nil, summary.Variant{}
	if m.Shared != nil {
		copt.Engine, copt.Common = m.Base, m.Shared.Common
	}
	copt.Semantics = opt.Semantics
	if !opt.FixedK {
		copt.K = m.K
	}
	if !opt.FixedSteps && m.Steps > 0 {
		copt.Steps = m.Steps
	}
	return copt
}

// confirm runs the base engine (opt.Engine, at the bounds of the hunt) on
// the counterexample p.
func confirm(ctx context.Context, opt checker.Options, p *javalite.Program) (string, error) {
	s, err := smt.NewSolver()
	if err != nil {
		return "", err
	}
	defer s.Close()
	rep, err := checker.Run(ctx, p, opt, s)
	if err != nil {
		return "", fmt.Errorf("base %s on the counterexample: %w", opt.Engine, err)
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
	// The same, for the mutants of data rules (Result.Data) and for the
	// others (reference rules) apart: killed of decided non-equivalent.
	DataMutants  int     `json:"data_mutants"`
	DataKilled   int     `json:"data_killed"`
	DataKillRate float64 `json:"data_kill_rate"`
	RefMutants   int     `json:"reference_mutants"`
	RefKilled    int     `json:"reference_killed"`
	RefKillRate  float64 `json:"reference_kill_rate"`
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
		if st != "equivalent" && st != "error" && st != "unconfirmed" {
			killed := 0
			if st == "killed" || st == "killed-equivalent" {
				killed = 1
			}
			if r.Data {
				s.DataMutants++
				s.DataKilled += killed
			} else {
				s.RefMutants++
				s.RefKilled += killed
			}
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
	if s.DataMutants > 0 {
		s.DataKillRate = float64(s.DataKilled) / float64(s.DataMutants)
	}
	if s.RefMutants > 0 {
		s.RefKillRate = float64(s.RefKilled) / float64(s.RefMutants)
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
