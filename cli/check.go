package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

func init() {
	register(&command{
		name:   "check",
		short:  "run an engine in lockstep with GSE and check every lemma (given or generated programs)",
		usage:  "[flags] FILE... | -gen [-n N] [-seed S]",
		runCtx: runCheck,
	})
}

// checkFlags are the flags shared by check and lemmas.
type checkFlags struct {
	eng      engineFlags
	versus   string
	semantic string
	k        optionalInt // unset: the engine's default k (checker.EngineK)
	steps    optionalInt // unset: checker.EngineSteps
	workers  int
	timeout  time.Duration
	noExact  bool
	maxGroup int
}

func (c *checkFlags) register(fs *flag.FlagSet) {
	c.eng.register(fs, checker.DefaultEngine, "the engine under test")
	fs.StringVar(&c.versus, "vs", "", "compare the engine with this one, NAME[:VARIANT], instead of with GSE (both one-per-control; ENGINES.md §8.4)")
	semanticsVar(fs, &c.semantic)
	fs.Var(&c.k, "k", "k-bound `K` on input depth, the same in both engines (default: the engine's, 'lockstep engines': 2 for summary, −1 for an engine without GSE's bound; at a finite k an engine named without a variant is checked with its variant of GSE's bound, pose and uber as NAME:…+kbound)")
	fs.Var(&c.steps, "steps", fmt.Sprintf("step bound `S`, the same in both engines (default: %d with a k-bound, %d at k = −1)", checker.DefaultSteps, checker.UnboundedSteps))
	fs.IntVar(&c.workers, "workers", 2, "parallel workers, one Z3 context each")
	fs.DurationVar(&c.timeout, "timeout", 60*time.Second, "time limit per program (exceeding it is inconclusive)")
	fs.BoolVar(&c.noExact, "no-exact", false, "skip the concretization half of exactness")
	fs.IntVar(&c.maxGroup, "max-group", checker.DefaultOptions().MaxGroup, "largest set of GSE states in one pair before the check is inconclusive")
}

func (c *checkFlags) options() (checker.Options, error) {
	spec, err := c.eng.spec()
	if err != nil {
		return checker.Options{}, err
	}
	sem, err := machine.ParseSemantics(c.semantic)
	if err != nil {
		return checker.Options{}, fmt.Errorf("-semantics: %w", err)
	}
	if c.workers < 1 {
		return checker.Options{}, fmt.Errorf("-workers must be at least 1")
	}
	opt := checker.DefaultOptions()
	opt.Engine, opt.Semantics = spec, sem
	if name, v := engine.Split(c.eng.engine); v == "" && c.eng.variant == "" && name != "" {
		// Named without a variant: at a finite k the engine's variant
		// with GSE's bound may serve it (engine.AtK).
		opt.Engine = name
	}
	if c.versus != "" {
		if _, err = engine.Canonical(c.versus); err != nil {
			return checker.Options{}, err
		}
		opt.Versus = c.versus // as given: at a finite k "pose" may be served (engine.AtK)
	}
	opt.Timeout, opt.NoExactness, opt.MaxGroup = c.timeout, c.noExact, c.maxGroup
	if c.k.set {
		opt.K = c.k.v
	}
	if c.steps.set {
		opt.Steps = c.steps.v
	}
	// The engine's default k, and at a finite k the engine with GSE's
	// bound (or a usage error saying what to use).
	if opt, err = opt.Resolved(); err != nil {
		return checker.Options{}, err
	}
	// Bad options are a usage error once, not an internal error per program.
	sol, err := smt.NewSolver()
	if err != nil {
		return checker.Options{}, err
	}
	defer sol.Close()
	if err := opt.Validate(sol); err != nil {
		return checker.Options{}, err
	}
	return opt, nil
}

func runCheck(ctx context.Context, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	var cf checkFlags
	cf.register(fs)
	useGen := fs.Bool("gen", false, "check generated programs instead of files")
	n := fs.Int("n", 100, "with -gen: number of programs")
	seed := fs.Int64("seed", 1, "with -gen: seed of the program stream")
	asJSON := fs.Bool("json", false, "print JSON (one object per program with files, one summary with -gen)")
	dotDir := fs.String("dot", "", "write DOT pictures of both sides of a counterexample into this directory (default: a temporary directory)")
	shrinkTime := fs.Duration("shrink-time", 30*time.Second, "with -gen: time limit for shrinking a counterexample")
	shardSpec := shardFlag(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	opt, err := cf.options()
	if err != nil {
		return err
	}
	shard, err := checker.ParseShardFlag(*shardSpec)
	if err != nil {
		return err
	}
	if *useGen {
		if fs.NArg() > 0 {
			return fmt.Errorf("-gen takes no files")
		}
		return checkGenerated(ctx, opt, cf.workers, *n, *seed, shard, *shrinkTime, *asJSON, *dotDir, stdout, stderr)
	}
	if !shard.Whole() {
		return fmt.Errorf("-shard splits the generated stream: it needs -gen")
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("no files (or use -gen)")
	}
	progs, err := loadPrograms(fs.Args(), stderr)
	if err != nil {
		return err
	}
	return checkFiles(ctx, opt, cf.workers, progs, *asJSON, *dotDir, stdout, stderr)
}

// loadPrograms parses and checks every file, printing every error of every
// file before giving up.
func loadPrograms(files []string, stderr io.Writer) ([]*javalite.Program, error) {
	var progs []*javalite.Program
	bad := false
	for _, f := range files {
		p, err := javalite.LoadFile(f)
		if err != nil {
			fmt.Fprintln(stderr, err)
			bad = true
			continue
		}
		progs = append(progs, p)
	}
	if bad {
		return nil, errReported
	}
	return progs, nil
}

func checkFiles(ctx context.Context, opt checker.Options, workers int, progs []*javalite.Program, asJSON bool, dotDir string, stdout, stderr io.Writer) error {
	reps := make([]*checker.Report, len(progs))
	err := checker.Each(ctx, opt, len(progs), workers,
		func(i int) (*javalite.Program, string) { return progs[i], progs[i].File },
		func(i int, rep *checker.Report) { reps[i] = rep })
	if err != nil && ctx.Err() == nil {
		return internalError{err}
	}
	violated, inconclusive := false, false
	enc := json.NewEncoder(stdout)
	for i, rep := range reps {
		if rep == nil {
			// Cut short by an interruption: Each reports nothing for it.
			if asJSON {
				if err := enc.Encode(checker.JSONReport{File: progs[i].File, Status: "interrupted", Checked: map[string]int{}}); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(stdout, "%s: not checked (%s)\n", progs[i].File, interruptNote(ctx))
			}
			continue
		}
		switch rep.Verdict.Status {
		case checker.Violated:
			violated = true
		case checker.Inconclusive:
			inconclusive = true
		}
		if asJSON {
			// The report of one program, with the semantics it was made
			// under (the checker's JSON does not know the flag).
			j := rep.JSON()
			out := struct {
				Semantics string `json:"semantics"`
				*checker.JSONReport
			}{opt.SemanticsName(), &j}
			if err := enc.Encode(out); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(stdout, "%s: %s", progs[i].File, rep.Text(false))
		if rep.Verdict.Status == checker.Violated {
			writeVerdictPictures(rep, dotDir, stdout)
		}
	}
	if ctx.Err() != nil {
		if !asJSON {
			fmt.Fprintf(stdout, "%s: the results above are what finished\n", interruptNote(ctx))
		}
		return errInterrupted
	}
	if violated {
		return errViolation
	}
	if inconclusive {
		// Undecided is not a pass; it is not a violation either.
		return fmt.Errorf("%w: some checks were inconclusive", errInconclusive)
	}
	return nil
}

// writeVerdictPictures writes DOT pictures of both sides of a violation.
func writeVerdictPictures(rep *checker.Report, dir string, w io.Writer) {
	sum, g := rep.Verdict.Sides()
	if sum == nil && g == nil {
		return
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "lockstep-cex-")
		if err != nil {
			fmt.Fprintf(w, "cannot write pictures: %v\n", err)
			return
		}
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(w, "cannot write pictures: %v\n", err)
		return
	}
	write := func(name string, s *machine.State, title string) {
		if s == nil {
			return
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(machine.DOT(s, title)), 0o644); err != nil {
			fmt.Fprintf(w, "cannot write %s: %v\n", path, err)
			return
		}
		fmt.Fprintf(w, "picture: %s\n", path)
	}
	side, _ := engine.Split(rep.Engine) // the picture names the engine ("pose state")
	if side == "" {
		side = "summary"
	}
	write("summary.dot", sum, side+" state, "+string(rep.Verdict.Lemma))
	write("gse.dot", g, "GSE state, "+string(rep.Verdict.Lemma))
}

// undecidedJSON is one inconclusive program of a generated run (check
// -gen, lemmas).
type undecidedJSON struct {
	Index  int    `json:"index"`
	Seed   int64  `json:"program_seed"`
	Lemma  string `json:"lemma,omitempty"`
	Reason string `json:"reason"`
}

// maxUndecidedLines bounds the inconclusive programs listed in the text
// output (the JSON lists all of them).
const maxUndecidedLines = 10

// printUndecided lists the inconclusive programs for people, with the
// command that checks one of them alone.
func printUndecided(w io.Writer, sum genSummary) {
	for i, u := range sum.Undecided {
		if i == maxUndecidedLines {
			fmt.Fprintf(w, "  … and %d more (-json lists them all)\n", len(sum.Undecided)-i)
			break
		}
		fmt.Fprintf(w, "  inconclusive: program %d: %s: %s\n", u.Index, u.Lemma, u.Reason)
	}
	if len(sum.Undecided) > 0 {
		u := sum.Undecided[0]
		fmt.Fprintf(w, "  (check program %d alone: lockstep check -gen -seed %d -n %d -shard %d/%d, with the same flags)\n", u.Index, sum.StreamSeed, sum.N, u.Index, sum.N)
	}
}

// genSummary is the JSON result of a generated run.
type genSummary struct {
	Variant        string              `json:"variant"`
	Semantics      string              `json:"semantics"`
	K              int                 `json:"k"`
	Steps          int                 `json:"steps"`
	N              int                 `json:"n"`
	StreamSeed     int64               `json:"seed"`
	Shard          string              `json:"shard,omitempty"`
	Programs       int                 `json:"programs"`
	Holds          int                 `json:"holds"`
	Inconclusive   int                 `json:"inconclusive"`
	Violated       int                 `json:"violated"`
	Seconds        float64             `json:"seconds"`
	PerSecond      float64             `json:"programs_per_second"`
	Counterexample *checker.JSONReport `json:"counterexample,omitempty"`
	Shrunk         bool                `json:"shrunk"`
	Seed           int64               `json:"failing_seed,omitempty"`
	Index          int                 `json:"failing_index,omitempty"`
	FoundLines     int                 `json:"found_lines,omitempty"`
	// Undecided lists the inconclusive programs: their index in the
	// stream (check one alone with -shard INDEX/N), the lemma and why.
	Undecided []undecidedJSON `json:"inconclusive_programs,omitempty"`
	// Interrupted: a signal stopped the run; the counts are what finished.
	Interrupted bool   `json:"interrupted"`
	Signal      string `json:"signal,omitempty"`
	// ExitCode is the process's exit status (README.md, "Exit status").
	ExitCode int `json:"exit_code"`
}

func checkGenerated(ctx context.Context, opt checker.Options, workers, n int, seed int64, shard checker.Shard, shrinkTime time.Duration, asJSON bool, dotDir string, stdout, stderr io.Writer) error {
	prog := newProgress(stderr, shard.Len(n))
	var done, holds, inconcl atomic.Int64
	stop := prog.start(func() (int64, string) {
		return done.Load(), fmt.Sprintf("%d hold, %d inconclusive", holds.Load(), inconcl.Load())
	})
	res, err := checker.Hunt(ctx, opt, checker.HuntOptions{
		N: n, Seed: seed, Shard: shard, Workers: workers, ShrinkTime: shrinkTime,
		Progress: func(d, h, i int64) {
			done.Store(d)
			holds.Store(h)
			inconcl.Store(i)
			progressLine(stderr, "%d/%d programs (%d hold, %d inconclusive)", d, shard.Len(n), h, i)
		},
		Shrinking: func(l checker.Lemma) { progressLine(stderr, "shrinking a counterexample to %s", l) },
	})
	stop()
	if err != nil && ctx.Err() == nil {
		return internalError{err}
	}
	if res == nil { // a tool failure raced with the interruption
		res = &checker.HuntResult{Counterexamples: map[checker.Lemma]*checker.Counterexample{}}
	}
	sum := genSummary{
		Variant: opt.Label(), Semantics: opt.SemanticsName(), K: opt.K, Steps: opt.Steps, N: n, StreamSeed: seed, Shard: shard.String(), Programs: res.Programs, Holds: res.Holds, Inconclusive: res.Inconclusive,
		Violated: res.Violated, Seconds: res.Elapsed.Seconds(),
	}
	if sum.Seconds > 0 {
		sum.PerSecond = float64(sum.Programs) / sum.Seconds
	}
	for _, u := range res.Undecided {
		sum.Undecided = append(sum.Undecided, undecidedJSON{Index: u.Index, Seed: u.Seed, Lemma: string(u.Lemma), Reason: u.Reason})
	}
	interrupted := ctx.Err() != nil
	if interrupted {
		sum.Interrupted = true
		if sig := interruptedBy(ctx); sig != nil {
			sum.Signal = signalName(sig)
		}
	}
	cx := res.Counterexamples[res.First]
	if cx == nil {
		var result error
		switch {
		case interrupted:
			result = errInterrupted
		case sum.Inconclusive > 0:
			result = fmt.Errorf("%w: %d checks were inconclusive", errInconclusive, sum.Inconclusive)
		}
		sum.ExitCode = exitCode(ctx, result)
		if asJSON {
			if err := json.NewEncoder(stdout).Encode(sum); err != nil {
				return err
			}
		} else {
			head := fmt.Sprintf("variant %s, semantics %s:", sum.Variant, sum.Semantics)
			if interrupted {
				head = fmt.Sprintf("variant %s, semantics %s: %s after", sum.Variant, sum.Semantics, interruptNote(ctx))
			}
			fmt.Fprintf(stdout, "%s %d programs, %d hold, %d inconclusive, 0 violated (%.1fs, %.1f programs/s)\n",
				head, sum.Programs, sum.Holds, sum.Inconclusive, sum.Seconds, sum.PerSecond)
			printUndecided(stdout, sum)
		}
		return result
	}
	result := errViolation
	if interrupted {
		result = errInterrupted
	}
	sum.ExitCode = exitCode(ctx, result)
	sum.Seed, sum.Shrunk, sum.Index, sum.FoundLines = cx.Seed, cx.IsShrunk, cx.Index, checker.Lines(cx.Found.Program)
	j := cx.Shrunk.JSON()
	sum.Counterexample = &j
	if asJSON {
		if err := json.NewEncoder(stdout).Encode(sum); err != nil {
			return err
		}
		return result
	}
	if interrupted {
		fmt.Fprintf(stdout, "variant %s: %s after %d programs (%d hold, %d inconclusive, %d violated); the counterexample found so far:\n",
			sum.Variant, interruptNote(ctx), sum.Programs, sum.Holds, sum.Inconclusive, sum.Violated)
	}
	fmt.Fprintf(stdout, "variant %s, semantics %s: counterexample after %d programs (%.1fs; found with %d lines",
		sum.Variant, sum.Semantics, cx.After, cx.Time.Seconds(), checker.Lines(cx.Found.Program))
	if cx.IsShrunk {
		fmt.Fprintf(stdout, ", shrunk to %d)\n", checker.Lines(cx.Shrunk.Program))
	} else {
		fmt.Fprintf(stdout, ", could not shrink)\n")
	}
	fmt.Fprint(stdout, cx.Shrunk.Text(false))
	writeVerdictPictures(cx.Shrunk, dotDir, stdout)
	return result
}
