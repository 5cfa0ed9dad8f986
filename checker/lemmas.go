package checker

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// A survey answers, per lemma of the catalog, "what do N generated
// programs say about this claim for this variant?". It is Hunt with All,
// but it keeps what Hunt sums away: on how many programs each lemma was
// actually checked, and where it could not be decided. That matters
// because a check stops at the first failure of a program: when a program
// violates WF at step 4, L1 was never checked past step 4 on it, so "L1
// was not violated" is only evidence on the programs (and the parts of
// them) where L1 was checked. A lemma is reported as holding only with
// that evidence, never by absence of a counterexample.

// SurveyOptions configure Survey.
type SurveyOptions struct {
	N       int   // programs to check
	Seed    int64 // seed of the program stream (ProgramSeed)
	Shard   Shard // the part of the stream to check (zero: all of it)
	Workers int   // parallel workers, one solver each
	// ShrinkSteps and ShrinkTime bound the shrinking of each
	// counterexample (ShrinkBound).
	ShrinkSteps int
	ShrinkTime  time.Duration
	// Data is the generator's data switch (see HuntOptions.Data).
	Data gen.DataMode
	// NoShrink keeps every counterexample as found.
	NoShrink bool
	// Progress, if not nil, is called after every program, and with
	// shrinking=true before each counterexample is shrunk.
	Progress func(done, violated, inconclusive int, shrinking bool)
}

// LemmaStat is the evidence about one lemma.
type LemmaStat struct {
	Lemma Lemma
	// Checks is the number of checks of the lemma that held, over all
	// programs (the sum of Report.Checked).
	Checks int
	// Programs is the number of programs on which the lemma was checked at
	// least once.
	Programs int
	// Violations is the number of programs that violated the lemma.
	Violations int
	// Undecided are the programs on which the lemma was the undecided
	// one, in stream order.
	Undecided []Undecided
	// Counterexample is the violation of the earliest program of the
	// stream, shrunk unless NoShrink; nil when not violated.
	Counterexample *Counterexample
}

// Undecided is a program on which a lemma could not be decided.
type Undecided struct {
	Index  int   // position in the stream
	Seed   int64 // ProgramSeed
	Lemma  Lemma // the lemma of the inconclusive verdict (Hunt only)
	Reason string
}

// Status is the lemma's status over the survey (see Evidence.Status).
func (s *LemmaStat) Status() Status { return s.Evidence().Status() }

// Summary is one line for people: the status and its evidence.
func (s *LemmaStat) Summary(sv *Survey) string {
	return s.Evidence().Summary(sv.Programs, sv.Violated+sv.Inconclusive)
}

func ruleOrNone(r string) string {
	if r == "" {
		return "(none: separate explorations)"
	}
	return r
}

// Survey is the outcome of checking N programs for every lemma.
type Survey struct {
	// Variant labels the engine under test in tables (Options.Label: the
	// variant of the summary engine, else the engine spec); Engine is the
	// spec.
	Variant string
	Engine  string
	Options Options
	N       int
	Seed    int64
	Shard   Shard // Programs are the shard's part of the N
	// Data is the stream drawn (StreamData of SurveyOptions.Data).
	Data gen.DataMode
	// Programs checked, and how their checks ended.
	Programs, Holds, Violated, Inconclusive int
	// Lemmas in catalog order.
	Lemmas  []*LemmaStat
	Elapsed time.Duration
	// Interrupted: the context ended before every program was checked;
	// the counts are of the programs that finished.
	Interrupted bool
}

// Stat returns the evidence about l.
func (sv *Survey) Stat(l Lemma) *LemmaStat {
	for _, s := range sv.Lemmas {
		if s.Lemma == l {
			return s
		}
	}
	return nil
}

// Status is Violated if any lemma is, else Inconclusive if any lemma is,
// else Holds.
func (sv *Survey) Status() Status {
	st := Holds
	for _, s := range sv.Lemmas {
		switch s.Status() {
		case Violated:
			return Violated
		case Inconclusive:
			st = Inconclusive
		}
	}
	return st
}

// RunSurvey checks h.N programs of the stream with opt, every one to its
// end (or its first failure), and gathers the evidence per lemma. An error
// is a failure of the tool itself on some program (see Run), or the
// context's end: then the survey of the programs that finished is returned
// with it (Interrupted, Programs counting only those), unshrunk, for a
// caller that prints what it finished.
func RunSurvey(ctx context.Context, opt Options, h SurveyOptions) (*Survey, error) {
	start := time.Now()
	if h.N < 0 {
		return nil, fmt.Errorf("survey: negative number of programs %d", h.N)
	}
	h.Data = StreamData(opt, h.Data)
	type outcome struct {
		rep  *Report
		seed int64
		at   time.Duration
	}
	out := make([]outcome, h.N)
	var done, violated, inconcl atomic.Int64
	err := stream(ctx, opt, h.N, h.Seed, h.Shard, h.Workers, h.Data, func(i int, ps int64, rep *Report) {
		out[i] = outcome{rep: rep, seed: ps, at: time.Since(start)}
		switch rep.Verdict.Status {
		case Violated:
			violated.Add(1)
		case Inconclusive:
			inconcl.Add(1)
		}
		n := done.Add(1)
		if h.Progress != nil {
			h.Progress(int(n), int(violated.Load()), int(inconcl.Load()), false)
		}
	})
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	sv := &Survey{Variant: opt.Label(), Engine: opt.EngineSpec(), Options: opt, N: h.N, Seed: h.Seed, Shard: h.Shard, Data: h.Data, Programs: h.Shard.Len(h.N)}
	if ctx.Err() != nil {
		sv.Interrupted, sv.Programs = true, int(done.Load())
	}
	stats := map[Lemma]*LemmaStat{}
	// The rows are the lemmas a check of this engine decides (every report
	// names them); lemmas that cannot apply to it are no row at all, so
	// they are neither "never checked" nor counted as inconclusive.
	// (The first program that ran names them: in a shard, the programs of
	// other shards have no report.)
	applicable := Lemmas
	for _, o := range out {
		if o.rep != nil && o.rep.Lemmas != nil {
			applicable = o.rep.Lemmas
			break
		}
	}
	for _, l := range applicable {
		stats[l] = &LemmaStat{Lemma: l}
		sv.Lemmas = append(sv.Lemmas, stats[l])
	}
	stat := func(l Lemma) *LemmaStat {
		if stats[l] == nil { // a lemma outside the catalog: keep it visible
			stats[l] = &LemmaStat{Lemma: l}
			sv.Lemmas = append(sv.Lemmas, stats[l])
		}
		return stats[l]
	}
	// In stream order, so that the counterexample kept for a lemma does not
	// depend on the scheduling of the workers.
	for i, o := range out {
		if o.rep == nil { // another shard's
			continue
		}
		for l, c := range o.rep.Checked {
			if c > 0 {
				s := stat(l)
				s.Checks += c
				s.Programs++
			}
		}
		v := o.rep.Verdict
		switch v.Status {
		case Holds:
			sv.Holds++
		case Violated:
			sv.Violated++
			s := stat(v.Lemma)
			s.Violations++
			if s.Counterexample == nil {
				s.Counterexample = &Counterexample{Found: o.rep, Shrunk: o.rep, Seed: o.seed, Index: i, After: i + 1, Time: o.at}
			}
		case Inconclusive:
			sv.Inconclusive++
			s := stat(v.Lemma)
			s.Undecided = append(s.Undecided, Undecided{Index: i, Seed: o.seed, Reason: v.Reason})
		}
	}
	if !h.NoShrink && !sv.Interrupted {
		for _, s := range sv.Lemmas {
			cx := s.Counterexample
			if cx == nil {
				continue
			}
			if h.Progress != nil {
				h.Progress(sv.Programs, sv.Violated, sv.Inconclusive, true)
			}
			cx.Shrunk, cx.IsShrunk = ShrinkData(ctx, opt, h.Data, cx.Seed, ShrinkBound{Steps: h.ShrinkSteps, Time: h.ShrinkTime}, cx.Found)
		}
	}
	sv.Elapsed = time.Since(start)
	if sv.Interrupted {
		return sv, ctx.Err()
	}
	return sv, nil
}

// Violations lists the violated lemmas in catalog order.
func (sv *Survey) Violations() []Lemma {
	var out []Lemma
	for _, s := range sv.Lemmas {
		if s.Status() == Violated {
			out = append(out, s.Lemma)
		}
	}
	return out
}

// Case is a regression case of testdata/fixedbugs: a (shrunk)
// counterexample and the claims it makes about the variants. Its header is
// comment lines of the form `; key: value`, so the file stays a program
// that `lockstep check` accepts:
//
//	; variant: published, v1-all-candidates   the variants it refutes (a bare name is a
//	                                          summary variant; other engines: NAME:VARIANT)
//	; expect: WF Summarize                    the lemma they break, then the rule (optional, the rest of the line)
//	; k: 2
//	; steps: 150
//	; holds: kbound-assume, fixed             variants on which every lemma holds
//	; semantics: paper                        common-rule semantics (optional; default java)
//
// Other comment lines (how it was found, what other variants do) are free
// text.
type Case struct {
	File    string
	Program *javalite.Program
	Refutes []string // variant names
	Lemma   Lemma
	Rule    string // "" when the lemma is not checked at a step (C12, C13)
	K       int
	Steps   int
	Holds   []string
	// Semantics names the common-rule semantics (machine.ParseSemantics)
	// of every run of the case; "" is the default, java. A finding that
	// no longer reproduces under Java keeps its case under paper.
	Semantics string
}

// ParseCase reads a regression case.
func ParseCase(file string, src []byte) (*Case, error) {
	c := &Case{File: file, K: -1, Steps: -1}
	seen := map[string]bool{}
	for n, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, ";") {
			continue
		}
		key, val, ok := strings.Cut(strings.TrimSpace(strings.TrimLeft(line, ";")), ":")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !ok {
			continue
		}
		switch key {
		case "variant", "expect", "k", "steps", "holds", "semantics":
		default:
			continue // free text
		}
		if seen[key] {
			return nil, fmt.Errorf("%s:%d: `%s:` given twice", file, n+1, key)
		}
		seen[key] = true
		var err error
		switch key {
		case "variant":
			c.Refutes = splitNames(val)
		case "holds":
			c.Holds = splitNames(val)
		case "expect":
			// The rule is the rest of the line: rule names have spaces.
			lemma, rule, _ := strings.Cut(val, " ")
			if lemma == "" {
				return nil, fmt.Errorf("%s:%d: want `; expect: LEMMA [RULE]`, got %q", file, n+1, val)
			}
			c.Lemma, c.Rule = Lemma(lemma), strings.TrimSpace(rule)
			if _, known := Claim[c.Lemma]; !known {
				return nil, fmt.Errorf("%s:%d: unknown lemma %q (the catalog: %v)", file, n+1, lemma, Lemmas)
			}
		case "semantics":
			_, err = machine.ParseSemantics(val)
			c.Semantics = val
		case "k":
			// -1 is the unbounded k of the engines checked at k = −1
			// (lazier, lazier#, pose, uber: ENGINES.md §8.4).
			if val == "-1" {
				c.K = -1
			} else {
				c.K, err = nonNegative(val)
			}
		case "steps":
			c.Steps, err = nonNegative(val)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %v", file, n+1, key, err)
		}
	}
	for _, key := range []string{"variant", "expect", "k", "steps"} {
		if !seen[key] {
			return nil, fmt.Errorf("%s: no `; %s:` header line", file, key)
		}
	}
	if len(c.Refutes) == 0 {
		return nil, fmt.Errorf("%s: `; variant:` names no variant", file)
	}
	p, err := javalite.ParseAndCheck(file, src)
	if err != nil {
		return nil, err
	}
	c.Program = p
	return c, nil
}

func splitNames(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func nonNegative(s string) (int, error) {
	var n int
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil || fmt.Sprint(n) != s || n < 0 {
		return 0, fmt.Errorf("want a non-negative integer, got %q", s)
	}
	return n, nil
}

// Header is the machine-readable header of c (without free text).
func (c *Case) Header() string {
	var b strings.Builder
	fmt.Fprintf(&b, "; variant: %s\n", strings.Join(c.Refutes, ", "))
	if c.Rule != "" {
		fmt.Fprintf(&b, "; expect: %s %s\n", c.Lemma, c.Rule)
	} else {
		fmt.Fprintf(&b, "; expect: %s\n", c.Lemma)
	}
	fmt.Fprintf(&b, "; k: %d\n; steps: %d\n", c.K, c.Steps)
	if len(c.Holds) > 0 {
		fmt.Fprintf(&b, "; holds: %s\n", strings.Join(c.Holds, ", "))
	}
	if c.Semantics != "" && c.Semantics != machine.SemJava {
		fmt.Fprintf(&b, "; semantics: %s\n", c.Semantics)
	}
	return b.String()
}
