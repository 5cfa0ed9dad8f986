// Package mutation measures the checker by mutation testing: each mutant
// is the corrected summary variant `fixed` with exactly one deliberate
// error in one rule (a summary.Mutation field, or one rule choice), and the
// checker is asked to find a program on which the mutant breaks a lemma.
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
const BaseName = "fixed"

// Mutant is one single-point mutation of the base variant.
type Mutant struct {
	Name    string
	Doc     string          // what is wrong, in the terms of RULES.md
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

// Mutants returns the catalog, in the order of the rules they break:
// Summarize, Field access, Field write, Equals.
func Mutants() []Mutant {
	base := Base()
	mk := func(name, doc string, change func(*summary.Variant)) Mutant {
		v := base
		change(&v)
		v.Name = name
		v.Doc = "MUTANT of " + BaseName + " (deliberately wrong): " + doc
		return Mutant{Name: name, Doc: doc, Variant: v}
	}
	mut := func(name, doc string, m summary.Mutation) Mutant {
		return mk(name, doc, func(v *summary.Variant) { v.Mutation = m })
	}
	equiv := func(m Mutant, why string) Mutant { m.Equivalent = why; return m }
	return append([]Mutant{
		// Summarize (→S, →S*).
		mut("m-drop-orig", "Summarize without θ_orig", summary.Mutation{DropOrig: true}),
		mut("m-drop-null", "Summarize without θ_null", summary.Mutation{DropNull: true}),
		mut("m-drop-alias-first", "Summarize without the alias entry of the first candidate (l_0 when C is the entry class)",
			summary.Mutation{DropAlias: 1}),
		mut("m-drop-alias-last", "Summarize without the alias entry of the last candidate", summary.Mutation{DropAlias: -1}),
		mk("m-alias-after", "alias guard excludes the candidates after r_a (`<` turned into `>`)",
			func(v *summary.Variant) { v.AliasGuard = summary.AliasAfter }),
		mk("m-alias-all", "alias guard excludes every other candidate (`<` turned into `≠`, variant V1)",
			func(v *summary.Variant) { v.AliasGuard = summary.AliasAll }),
		mut("m-alias-ignores-null", "θ_alias guard without r_f ≠ r_null", summary.Mutation{AliasIgnoresNull: true}),
		mut("m-new-ignores-aliases", "θ_new guard without ⋀ r_f ≠ r_a", summary.Mutation{NewIgnoresAliases: true}),
		mut("m-new-ignores-null", "θ_new guard without r_f ≠ r_null", summary.Mutation{NewIgnoresNull: true}),
		mut("m-null-ignores-ref", "θ_null guard without r_f = r_null", summary.Mutation{NullIgnoresRef: true}),
		mut("m-orig-guard-access", "θ_orig guarded by ¬φ_x while the new entries keep φ_s = φ_x ∧ φ_un (V7 fix half applied)",
			summary.Mutation{OrigGuardAccess: true}),
		mut("m-guard-true", "Summarize guard φ_s = true", summary.Mutation{GuardTrue: true}),
		mut("m-kbound-plus1", "k-bound one too generous", summary.Mutation{KBoundSlack: 1}),
		mut("m-kbound-minus1", "k-bound one too strict", summary.Mutation{KBoundSlack: -1}),
		mut("m-kbound-none", "no k-bound on the summary side (θ_new always kept)", summary.Mutation{KBoundSlack: 1000}),
		mut("m-single-summarize", "one →S step instead of →S* (the other locations of UN stay uninitialized)",
			summary.Mutation{SingleSummarize: true}),
		equiv(mut("m-summarize-max", "→S initializes max_l(UN) first instead of min_l(UN)", summary.Mutation{SummarizeMax: true}),
			equivSummarizeMax),
		mut("m-merge-and", "duplicate locations of a value set merged by ∧", summary.Mutation{MergeByAnd: true}),

		// Field access (A, A′).
		equiv(mut("m-forget-phi-prime", "→S* and VS under φ_g instead of φ'_g (the successor still gets φ'_g)",
			summary.Mutation{ForgetPhiPrime: true}), equivForgetPhiPrime),
		mut("m-successor-keeps-phi", "the A successor gets φ_g instead of φ'_g", summary.Mutation{SuccessorKeepsPhi: true}),
		mut("m-vs-drops-field-guard", "VS entries carry φ instead of φ ∧ φ'", summary.Mutation{VSDropsFieldGuard: true}),
		mk("m-error-keeps-phi", "the error state of A′/W′ keeps φ_g instead of φ_g ∧ ⋁θ_0 (variant V8, published)",
			func(v *summary.Variant) { v.ErrorKeepsPhi = true }),

		// Field write (W, W′).
		mut("m-write-drops-old", "W without ST(L,r_cur,¬φ,φ'_g): worlds where r_x is elsewhere lose the old value",
			summary.Mutation{WriteDropsOld: true}),
		mut("m-write-first-only", "W writes only the first location of L(r_x)", summary.Mutation{WriteFirstOnly: true}),
		mut("m-no-write-null", "no rule W′", summary.Mutation{NoWriteNull: true}),

		// Equals (E, E′).
		mut("m-equals-by-locations", "Equals compares location sets like GSE, ignoring guards",
			summary.Mutation{EqualsByLocations: true}),
		mut("m-equals-false-no-not", "E′ path condition φ ∧ ⋁Φ_α (negation forgotten)", summary.Mutation{EqualsFalseNoNot: true}),
		mut("m-no-equals-false", "no rule E′", summary.Mutation{NoEqualsFalse: true}),
		mut("m-equals-alpha-or", "Φ_α built from φ0 ∨ φ1 instead of φ0 ∧ φ1", summary.Mutation{EqualsAlphaOr: true}),
		equiv(mut("m-equals-true-no-exclusion", "E path condition φ ∧ ⋁Φ_α, without ⋀¬Φ_0 ∧ ⋀¬Φ_1",
			summary.Mutation{EqualsTrueNoExclusion: true}), equivEqualsTrue),
	}, blindSpotMutants(Mutant{Variant: base})...) // blindspots.go
}

const equivSummarizeMax = "The locations of UN are the non-null entries of one deterministic L(r), so their guards " +
	"are pairwise exclusive under φ'_g: in every world at most one of them is r's location, and only its →S step " +
	"changes that world (the others' new entries are guarded by their φ_x, false there; θ_orig keeps the old value; " +
	"idle-null pins their r_f to r_null, which no later alias guard can match because alias guards require r_f ≠ r_null). " +
	"The order therefore changes only reference and location numbers, which representation and isomorphism do not " +
	"observe (locations are matched by a homomorphism, input references never leave the path condition)."

const equivForgetPhiPrime = "φ'_g is φ_g ∧ ⋀¬θ for the satisfiable null guards θ of L(r). Every satisfiability " +
	"question that →S* (UN) and VS ask under it conjoins the guard φ of a non-null entry of L(r), and L(r) is " +
	"deterministic under φ_g (the checker verifies it on the state before the step), so φ ∧ θ ∧ φ_g is unsatisfiable " +
	"and φ ∧ φ_g ≡ φ ∧ φ'_g: every answer, hence every entry built, is the same. Entries are still pruned against φ'_g " +
	"and the successor still gets φ'_g, so the states are identical. (φ'_g matters only in the successor: " +
	"m-successor-keeps-phi is killed.)"

const equivEqualsTrue = "Under φ every checked summary state is deterministic and total, so in each world r0 and r1 " +
	"each take exactly one location. ⋁Φ_α holds exactly when they take the same location l; then the entries of " +
	"L(r0) and L(r1) on other locations are false in that world (determinism), and Φ_0 and Φ_1 only hold guards of " +
	"entries on other locations, so ⋀¬Φ_0 ∧ ⋀¬Φ_1 already follows from φ ∧ ⋁Φ_α. The two path conditions are " +
	"equivalent, so the successors are the same states up to the form of φ."

// Lookup returns the mutant of the catalog with the given name.
func Lookup(name string) (Mutant, error) {
	var names []string
	for _, m := range Mutants() {
		if m.Name == name {
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
