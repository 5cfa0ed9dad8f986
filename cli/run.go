package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

func init() {
	register(&command{
		name:   "run",
		short:  "explore one program with one engine (gse, summary or any of 'lockstep engines') and print what it found",
		usage:  "[-engine NAME[:VARIANT]] [-variant NAME] [-k K] [-steps N] [-paths] [-trace] [-json] [-timeout D] FILE",
		runCtx: runRun,
	})
}

// runConfig is the parsed command line of run.
type runConfig struct {
	engine, file string // engine: canonical NAME[:VARIANT]
	// variant is -variant: the summary variant whose common-rule options
	// every engine without variants of its own (gse) runs with.
	variant      summary.Variant
	k, steps     int
	paths, trace bool
	asJSON, full bool
	timeout      time.Duration
	// variantGiven: -variant was on the command line (for gse, whose
	// report then names the variant whose common rules it ran).
	variantGiven bool
}

// defaultRunTimeout is run's time limit unless -timeout is given: a
// program whose exploration does not end (a cyclic heap without a step
// bound, a k too large for the summary engine's formulas) stops with the
// counts it reached instead of running for hours.
const defaultRunTimeout = 2 * time.Minute

func parseRun(fs *flag.FlagSet, args []string) (runConfig, error) {
	var c runConfig
	fs.StringVar(&c.engine, "engine", "gse", "engine, NAME[:VARIANT] (see 'lockstep engines')")
	variant := fs.String("variant", "", "summary rule variant (see 'lockstep variants'; -engine summary -variant V is -engine summary:V); its common-rule options apply to gse too")
	sem := semanticsFlag(fs)
	fs.IntVar(&c.k, "k", 2, "k-bound (-1: unbounded); at a finite k an engine named without a variant runs with its variant of GSE's bound, as in check (pose and uber as NAME:…+kbound), and a variant without a bound is refused")
	fs.IntVar(&c.steps, "steps", 1000, "step bound of every path (-1: none; paths on cyclic heaps may then never end). Higher than check's 200 and dot's 300: run explores one engine alone, which is cheap per step, while check runs two engines and every lemma at each step, and dot draws one state")
	fs.BoolVar(&c.paths, "paths", false, "print every path's end: outcome, value and path condition (with its shared subformulas named, cut at 2000 characters unless -full)")
	fs.BoolVar(&c.full, "full", false, "with -paths: print every path condition whole, however long")
	fs.BoolVar(&c.trace, "trace", false, "print every step: path, step number, rule and control (η e k)")
	fs.BoolVar(&c.asJSON, "json", false, "print the summary (and paths, each path condition whole) as one JSON document")
	fs.DurationVar(&c.timeout, "timeout", defaultRunTimeout, "stop exploring after this long and print the counts reached, lower bounds marked as cut (exit 3)")
	answerBoundFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return c, err
	}
	var problems []string
	c.variantGiven = *variant != ""
	for _, err := range []error{kRange("k", c.k), positive("timeout", c.timeout)} {
		if err != nil {
			problems = append(problems, err.Error())
		}
	}
	if c.steps == 0 || c.steps < -1 {
		problems = append(problems, fmt.Sprintf("-steps must be -1 (no bound) or at least 1, not %d", c.steps))
	}
	if fs.NArg() != 1 {
		problems = append(problems, "exactly one program FILE is required")
	} else {
		c.file = fs.Arg(0)
	}
	name, ev := engine.Split(c.engine)
	if *variant != "" && name == "summary" {
		if ev != "" && ev != *variant {
			problems = append(problems, fmt.Sprintf("-engine %s and -variant %s disagree", c.engine, *variant))
		}
		c.engine = "summary:" + *variant
	}
	if *variant == "" {
		*variant = "published"
	}
	v, err := summary.Lookup(*variant)
	if err != nil {
		problems = append(problems, err.Error())
	}
	if c.variant, err = withSemantics(v, *sem); err != nil {
		problems = append(problems, err.Error())
	}
	// As check does: at a finite k an engine named without a variant is
	// its variant with GSE's bound (pose → pose:world-exact+kbound), and a
	// variant without a bound named explicitly is refused, so the k
	// printed is the k explored (engine.AtK).
	if spec, err := engine.AtK(c.engine, c.k); err != nil {
		problems = append(problems, err.Error())
	} else {
		c.engine = spec
	}
	if c.trace && c.asJSON {
		problems = append(problems, "-trace and -json exclude each other")
	}
	if len(problems) > 0 {
		return c, errors.New(strings.Join(problems, "; "))
	}
	return c, nil
}

// runPath is one path's end, for -paths.
type runPath struct {
	N       int64  `json:"n"`
	Outcome string `json:"outcome"` // value, error, cut, stuck
	Value   string `json:"value,omitempty"`
	Steps   int    `json:"steps"`
	// PathCondition is whole, its shared subformulas named (formula.go).
	PathCondition sharedFormula `json:"path_condition"`
}

// runReport is everything run prints.
type runReport struct {
	File   string `json:"file"`
	Engine string `json:"engine"`
	// Variant is the engine's variant; an engine without variants (gse)
	// has none, and CommonRulesOf names the summary variant whose
	// common-rule options (V9) it ran with when -variant was given.
	Variant       string           `json:"variant,omitempty"`
	CommonRulesOf string           `json:"common_rules_of,omitempty"`
	Semantic      string           `json:"semantics"` // machine.SemanticsNames
	K             int              `json:"k"`
	Steps         int              `json:"step_bound"`
	Complete      bool             `json:"complete"`
	Paths         int64            `json:"paths"`
	Ends          map[string]int64 `json:"ends"`
	// Pruned counts the ends rule Assume pruned: not paths (PRIMITIVES.md §3).
	Pruned   int64            `json:"pruned"`
	States   int64            `json:"states"`
	RuleApps int64            `json:"steps"`
	Rules    map[string]int64 `json:"rules"`
	WallSec  float64          `json:"wall_seconds"`
	// GSE only.
	Inits *gse.InitStats `json:"initializations,omitempty"`
	// Summary only.
	Solver   *smt.Stats     `json:"solver,omitempty"`
	Summary  *summary.Stats `json:"summary_engine,omitempty"`
	PathEnds []runPath      `json:"path_ends,omitempty"`
	// Interrupted: a signal stopped the exploration (the counts are lower
	// bounds); ExitCode is the process's exit status.
	// CutBy is "timeout" when the time limit stopped the exploration
	// (the counts are lower bounds).
	CutBy       string `json:"cut_by,omitempty"`
	Interrupted bool   `json:"interrupted"`
	Signal      string `json:"signal,omitempty"`
	ExitCode    int    `json:"exit_code"`
}

func runRun(ctx context.Context, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	c, err := parseRun(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		fmt.Fprintf(stderr, "lockstep run: %v\n", err)
		fs.Usage()
		return errReported
	}
	prog, err := javalite.LoadFile(c.file)
	if err != nil {
		fmt.Fprintln(stderr, err) // one positioned error per line
		return errReported
	}
	sol, err := smt.NewSolver()
	if err != nil {
		return err
	}
	defer sol.Close()
	// Every engine runs the common rules of -semantics (and the V9 choice
	// of -variant), as GSE does in a check.
	sigCtx := ctx
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	cfg := engine.Config{K: c.k, Solver: sol, Machine: c.variant.MachineOptions(), Context: ctx}
	if err := refuseData(c.engine, prog); err != nil {
		return err
	}
	eng, err := engine.New(c.engine, cfg)
	if err != nil {
		return err
	}
	g, _ := eng.(*gse.Engine)
	sumEng, _ := eng.(*summary.Engine)

	if sol != nil {
		// A Z3 check in flight when ctx ends is interrupted.
		sol.SetContext(ctx)
	}
	var npaths atomic.Int64
	progressLine(stderr, "exploring %s with %s", c.file, c.engine)
	stop := startRunProgress(stderr, &npaths)
	var ends []runPath
	visit := func(s *machine.State, kind machine.EndKind) bool {
		n := npaths.Add(1)
		if c.paths {
			p := runPath{N: n, Outcome: kind.String(), Steps: s.Steps, PathCondition: shareFormula(s.PathCondition())}
			if kind == machine.EndValue {
				p.Value = valueString(s)
			}
			if c.asJSON {
				ends = append(ends, p)
			} else {
				fmt.Fprintf(stdout, "path %d: %s", p.N, p.Outcome)
				if p.Value != "" {
					fmt.Fprintf(stdout, " %s", p.Value)
				}
				limit := maxFormulaText
				if c.full {
					limit = 0
				}
				fmt.Fprintf(stdout, " (step %d)  φ = %s\n", p.Steps, p.PathCondition.Text(limit))
			}
		}
		return true
	}
	var st machine.Stats
	switch {
	case c.trace:
		st, err = exploreTraced(ctx, machine.Initial(prog), eng, c.steps, visit, stdout)
	case g != nil:
		// The copy-free explorer: the same paths, counts and order
		// (gse/explore_test.go), several times faster.
		st, err = gse.Explore(ctx, machine.Initial(prog), g, c.steps, visit)
	default:
		st, err = machine.Explore(ctx, machine.Initial(prog), eng, c.steps, visit)
	}
	stop()
	interrupted := sigCtx.Err() != nil
	timedOut := !interrupted && ctx.Err() != nil
	if err != nil && !interrupted && !timedOut {
		if smt.Undecided(err) {
			return fmt.Errorf("%w: %v", errInconclusive, err)
		}
		return internalError{err}
	}
	if interrupted || timedOut {
		// The engine may have stopped inside a rule (a canceled solver
		// query) or between states: either way st holds what finished.
		st.Complete = false
	}

	name, variantName := engine.Split(c.engine)
	rulesOf := ""
	if variantName == "" && c.variantGiven {
		rulesOf = c.variant.Name
	}
	rep := runReport{
		File: c.file, Engine: name, Variant: variantName, CommonRulesOf: rulesOf, Semantic: c.variant.Semantics(), K: c.k, Steps: c.steps,
		Complete: st.Complete, Paths: st.Paths, States: st.States, RuleApps: st.Steps,
		Rules: st.Rules, WallSec: st.Wall.Seconds(), Ends: map[string]int64{}, PathEnds: ends,
		Interrupted: interrupted,
	}
	for k := machine.EndValue; k <= machine.EndStuck; k++ {
		rep.Ends[k.String()] = st.Ends[k]
	}
	rep.Pruned = st.Pruned
	switch {
	case g != nil:
		rep.Inits = g.Stats
	case sumEng != nil:
		ss, es := sol.Stats(), sumEng.Stats()
		rep.Solver, rep.Summary = &ss, &es
	default:
		ss := sol.Stats()
		rep.Solver = &ss
	}
	var result error
	switch {
	case interrupted:
		result = errInterrupted
		st := interruptedStatus(sigCtx)
		rep.Signal = st.Signal
	case timedOut:
		rep.CutBy = "timeout"
		fmt.Fprintf(stderr, "lockstep run: the exploration was cut by the time limit (-timeout %s); the counts are lower bounds\n", c.timeout)
		result = exitCodeError{exitInconclusive}
	}
	rep.ExitCode = exitCode(sigCtx, result)
	if c.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
		return result
	}
	printRunReport(stdout, &rep, st.Wall)
	if timedOut {
		fmt.Fprintf(stdout, "cut         by the time limit (-timeout %s): the counts are lower bounds\n", c.timeout)
	}
	if interrupted {
		fmt.Fprintf(stdout, "%s: the counts are what finished (lower bounds)\n", interruptNote(sigCtx))
	}
	return result
}

// valueString prints a terminal value: a boolean or a term (int or bool
// data), or a reference with the locations it may point to.
func valueString(s *machine.State) string {
	if s.Val.IsPrim() {
		return s.Val.String()
	}
	return fmt.Sprintf("%s ↦ %s", s.Val, s.Get(s.Val.Ref()))
}

func printRunReport(w io.Writer, r *runReport, wall time.Duration) {
	fmt.Fprintf(w, "program     %s\n", r.File)
	eng := r.Engine
	switch {
	case r.Variant != "":
		eng += " (variant " + r.Variant + ")"
	case r.CommonRulesOf != "":
		eng += " (the common rules of variant " + r.CommonRulesOf + ")"
	}
	fmt.Fprintf(w, "engine      %s  semantics %s  k=%d  step bound %d\n", eng, r.Semantic, r.K, r.Steps)
	fmt.Fprintf(w, "paths       %d  (value %d, error %d, cut %d, stuck %d)\n", r.Paths,
		r.Ends["value"], r.Ends["error"], r.Ends["cut"], r.Ends["stuck"])
	if r.Pruned > 0 {
		fmt.Fprintf(w, "pruned      %d  (ends rule Assume pruned: not paths)\n", r.Pruned)
	}
	fmt.Fprintf(w, "states      %d\n", r.States)
	fmt.Fprintf(w, "steps       %d\n", r.RuleApps)
	if r.Inits != nil {
		fmt.Fprintf(w, "inits       null %d, new %d, alias %d\n", r.Inits.Null, r.Inits.New, r.Inits.Alias)
	}
	if r.Solver != nil {
		fmt.Fprintf(w, "solver      %d queries, %d cache hits, %d unknown, %s in Z3\n",
			r.Solver.Queries, r.Solver.CacheHits, r.Solver.Unknowns, r.Solver.SolverTime.Round(time.Microsecond))
		if e := r.Summary; e != nil {
			fmt.Fprintf(w, "summary     %d Summarize, %d new locations, %d k-bounded, %d pruned, %d S(φ) asked\n",
				e.Summarize, e.NewLocs, e.KBounded, e.Pruned, e.SatQueries)
		}
	}
	names := make([]string, 0, len(r.Rules))
	for n := range r.Rules {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "rules\n")
	for _, n := range names {
		fmt.Fprintf(w, "  %-28s %d\n", n, r.Rules[n])
	}
	rate := ""
	if s := wall.Seconds(); s > 0 {
		rate = fmt.Sprintf("  (%.0f paths/s)", float64(r.Paths)/s)
	}
	fmt.Fprintf(w, "wall        %s%s\n", wall.Round(time.Microsecond), rate)
	if !r.Complete {
		fmt.Fprintf(w, "complete    no: stopped early, counts are lower bounds\n")
	}
}

// exploreTraced is machine.Explore (same order, same end conditions, same
// counts) printing every step as it is taken. Each path carries its number:
// the first successor of a step continues its parent's path, the others are
// new paths, numbered as they branch.
func exploreTraced(ctx context.Context, init *machine.State, eng machine.Engine, bound int, visit machine.Visitor, w io.Writer) (machine.Stats, error) {
	fmt.Fprintf(w, "path 1 step 0: %-28s %s\n", "(initial)", init.ControlString())
	nextPath := int64(2)
	return machine.ExploreWith(ctx, init, eng, bound, int64(1),
		func(parent int64, i int, sc machine.Succ) int64 {
			id := parent
			if i > 0 {
				id = nextPath
				nextPath++
			}
			fmt.Fprintf(w, "path %d step %d: %-28s %s\n", id, sc.S.Steps, sc.Rule, sc.S.ControlString())
			return id
		},
		func(end *machine.State, path int64, kind machine.EndKind) bool {
			fmt.Fprintf(w, "path %d ends: %s\n", path, kind)
			return visit == nil || visit(end, kind)
		})
}

// startRunProgress shows paths so far and the rate on stderr, only when
// stderr is a terminal, so logs and pipes stay clean.
func startRunProgress(stderr io.Writer, paths *atomic.Int64) (stop func()) {
	f, ok := stderr.(*os.File)
	if !ok {
		return func() {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return func() {}
	}
	begin := time.Now()
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(f, "\r\033[K")
				return
			case <-t.C:
				n := paths.Load()
				el := time.Since(begin)
				fmt.Fprintf(f, "\r\033[K%d paths  %.0f paths/s  %s", n, float64(n)/el.Seconds(), el.Round(time.Second))
			}
		}
	}()
	return func() { close(done); <-finished }
}
