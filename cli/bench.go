package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/internal/bench"
	"github.com/lockstep-dev/lockstep/internal/report"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/summary"
)

func init() {
	register(&command{
		name:   "bench",
		short:  "reproduce the papers' evaluation: run a suite through GSE, heap summaries and the other engines, print one table",
		usage:  "[-quick|-data] [-json|-csv] [-engine NAME[:VARIANT] | -variant V] [-also LIST] [-budget D] [-steps N] [-out DIR] [-plot DIR] | -overhead [-runs N] [-engine E -k K -steps N FILE...]",
		runCtx: runBench,
	})
}

// benchConfig is the parsed command line of bench.
type benchConfig struct {
	quick, data, asJSON, asCSV, md bool
	budget                         time.Duration
	steps                          int
	out, plotDir, root             string
	variant                        summary.Variant
	engine                         string // canonical NAME[:VARIANT]
	also                           []string
	sem                            machine.Options
	// overhead: measure the checker's overhead instead (bench.Overhead)
	// on the three workloads or on files, each command run runs times.
	overhead  bool
	runs, k   int
	files     []string
	engineSet bool
}

// defaultAlso are the engines bench runs beside GSE and the compared
// engine unless -also says otherwise.
const defaultAlso = "lazier,lazier#,pose,uber"

func parseBench(fs *flag.FlagSet, args []string) (benchConfig, error) {
	var c benchConfig
	fs.BoolVar(&c.quick, "quick", false, "run the quick subset (seconds) instead of the full suite")
	fs.BoolVar(&c.data, "data", false, "run only the full suite's programs with int and bool data (the tree programs of seeds 000, 002, 003 and the LinkedList driver with its invariant)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON instead of the table")
	fs.BoolVar(&c.asCSV, "csv", false, "print CSV instead of the table")
	fs.BoolVar(&c.md, "md", false, "print a Markdown document instead of the table: a header with the command, commit, date and machine, then the table (docs/results/*.md are made this way)")
	fs.DurationVar(&c.budget, "budget", bench.DefaultBudget, "time budget of one exploration; a run over it is reported as cut")
	fs.IntVar(&c.steps, "steps", 0, fmt.Sprintf("step bound of every case (0: the LinkedList cases use 26·calls·(k+1)+10, the others %d)", bench.DefaultSteps))
	fs.StringVar(&c.out, "out", "", "also write table.txt, results.json, results.csv and the figures (fig2 and growth, .png and .svg) into this directory")
	fs.StringVar(&c.plotDir, "plot", "", "write the figures (fig2 and growth, .png and .svg) into this directory")
	fs.StringVar(&c.root, "root", "", "repository root holding testdata/ (default: found from the working directory)")
	fs.BoolVar(&c.overhead, "overhead", false, "measure the checker's overhead instead: CPU time of check ÷ (run -engine gse + run -engine E), each a child process, on the three workloads of docs/PERFORMANCE.md's \"Checker overhead\" or, with FILE arguments, on those files with -engine, -k and -steps")
	fs.IntVar(&c.runs, "runs", 3, "with -overhead: runs of each command; the least CPU time counts")
	fs.IntVar(&c.k, "k", 2, "with -overhead and files: k-bound of the check and both runs")
	also := fs.String("also", defaultAlso, "comma-separated engines (NAME[:VARIANT]) run on every case beside GSE and -engine; \"none\" for none")
	var ef engineFlags
	ef.register(fs, "summary:published", "the engine compared with GSE")
	sem := semanticsFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return c, err
	}
	overheadOnly := ""
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "engine", "variant":
			c.engineSet = true
		case "k", "runs":
			overheadOnly = f.Name
		}
	})
	switch {
	case overheadOnly != "" && !c.overhead:
		return c, fmt.Errorf("-%s is for -overhead", overheadOnly)
	case fs.NArg() > 0 && !c.overhead:
		return c, fmt.Errorf("unexpected arguments %q (files are for -overhead)", fs.Args())
	case c.overhead && (c.quick || c.data || c.asCSV || c.md || c.out != "" || c.plotDir != ""):
		return c, errors.New("-overhead runs alone: without -quick, -data, -csv, -md, -out and -plot")
	case c.overhead && c.runs < 1:
		return c, errors.New("-runs must be at least 1")
	case c.overhead && fs.NArg() == 0 && c.engineSet:
		return c, errors.New("-overhead without files runs its three workloads with their own engines; -engine applies to named files")
	case c.asJSON && c.asCSV, c.asJSON && c.md, c.asCSV && c.md:
		return c, errors.New("give at most one of -json, -csv and -md")
	case c.budget <= 0:
		return c, errors.New("-budget must be positive")
	case c.steps < 0:
		return c, errors.New("-steps must not be negative")
	}
	spec, err := ef.spec()
	if err != nil {
		return c, err
	}
	c.engine = spec
	if c.sem, err = machine.ParseSemantics(*sem); err != nil {
		return c, fmt.Errorf("-semantics: %w", err)
	}
	if *also != "none" && *also != "" {
		for _, spec := range strings.Split(*also, ",") {
			spec = strings.TrimSpace(spec)
			if _, _, err := engine.Lookup(spec); err != nil {
				return c, fmt.Errorf("-also: %w", err)
			}
			if name, _ := engine.Split(spec); name == "gse" {
				return c, errors.New("-also: gse is the reference and always runs")
			}
			c.also = append(c.also, spec)
		}
		if err := bench.CheckAlso(c.also); err != nil {
			return c, err
		}
	}
	if name, variant := engine.Split(spec); name == "summary" {
		if c.variant, err = summary.Lookup(variant); err != nil {
			return c, err
		}
		c.variant = c.variant.WithSemantics(c.sem)
	}
	if c.root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return c, err
		}
		c.root = wd
	}
	c.root, err = bench.FindRoot(c.root)
	c.files = fs.Args()
	return c, err
}

func runBench(ctx context.Context, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	c, err := parseBench(fs, args)
	if err != nil {
		return err
	}
	if c.overhead {
		return runOverhead(ctx, c, stdout, stderr)
	}
	suite := bench.Full()
	switch {
	case c.quick && c.data:
		return usageError("-quick and -data exclude each other")
	case c.data && c.plotDir != "":
		return usageError("-plot draws the LinkedList series, which -data has not")
	case c.quick:
		suite = bench.Quick()
	case c.data:
		suite = bench.Data()
	}
	opt := bench.Options{Root: c.root, Budget: c.budget, Steps: bench.DefaultSteps, Engine: c.engine, Variant: c.variant, Semantics: c.sem, Also: c.also, Progress: stderr}
	if c.steps > 0 {
		opt.Steps, opt.ForceSteps = c.steps, true
	}
	start := time.Now()
	commit := "" // of the tree measured, before anything can change it
	if c.md {
		commit = buildCommit()
	}
	rows, runErr := bench.Run(ctx, suite, opt)
	label := c.variant.Name
	if label == "" {
		label = c.engine
	}
	rep := bench.Report{Suite: suite.Name, Variant: label, Also: c.also, Semantics: c.sem.SemanticsName(), Steps: opt.Steps, Budget: c.budget,
		GoMaxP: runtime.GOMAXPROCS(0), Total: time.Since(start), Rows: rows,
		Command: strings.Join(append([]string{"lockstep", "bench"}, args...), " ")}
	if c.steps == 0 {
		rep.Steps = 0 // per case: see each row's step_bound
	}
	rep.Interrupted = ctx.Err() != nil
	switch {
	case rep.Interrupted:
		rep.ExitCode = exitCode(ctx, errInterrupted)
	case runErr != nil:
		rep.ExitCode = exitInconclusive
	}

	var table, js, csv bytes.Buffer
	if err := bench.WriteTable(&table, rows, c.budget, c.engine); err != nil {
		return err
	}
	alsoLabel := "none"
	if len(c.also) > 0 {
		alsoLabel = strings.Join(c.also, ",")
	}
	fmt.Fprintf(&table, "suite %s, variant %s, also %s, semantics %s, %d rows in %v (GOMAXPROCS %d).\n", suite.Name, label, alsoLabel, c.sem.SemanticsName(), len(rows), rep.Total.Round(time.Millisecond), rep.GoMaxP)
	fmt.Fprintf(&table, "command: %s\n", rep.Command)
	if rep.Interrupted {
		fmt.Fprintf(&table, "%s: the rows above are the cases that finished.\n", interruptNote(ctx))
	}
	if err := bench.WriteJSON(&js, rep); err != nil {
		return err
	}
	if err := bench.WriteCSV(&csv, rows); err != nil {
		return err
	}
	var md bytes.Buffer
	if c.md {
		title := "the full suite"
		switch suite.Name {
		case bench.Quick().Name:
			title = "the quick suite"
		case bench.Data().Name:
			title = "the programs with data"
		}
		fmt.Fprintf(&md, "# lockstep bench: %s, every engine\n\n", title)
		md.WriteString(report.NewProvenance(rep.Command, commit).Markdown())
		md.WriteString("Read it beside docs/RESULTS.md, which explains the columns and where the counts differ from the papers'.\n\n```\n")
		md.Write(table.Bytes())
		md.WriteString("```\n")
	}
	out := &table
	switch {
	case c.asJSON:
		out = &js
	case c.asCSV:
		out = &csv
	case c.md:
		out = &md
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		return err
	}
	if ctx.Err() != nil {
		// The table above holds the rows that finished.
		fmt.Fprintf(stderr, "lockstep bench: %s after %d rows\n", interruptNote(ctx), len(rows))
		return errInterrupted
	}
	if runErr != nil {
		return internalError{fmt.Errorf("stopped after %d rows: %w", len(rows), runErr)}
	}
	if c.out != "" {
		if err := os.MkdirAll(c.out, 0o755); err != nil {
			return err
		}
		for name, b := range map[string][]byte{"table.txt": table.Bytes(), "results.json": js.Bytes(), "results.csv": csv.Bytes()} {
			if err := os.WriteFile(filepath.Join(c.out, name), b, 0o644); err != nil {
				return err
			}
		}
		// The figures plot the LinkedList series, which -data has not.
		if !c.data {
			if err := bench.Plot(rows, c.out); err != nil {
				return err
			}
		}
	}
	if c.plotDir != "" {
		if err := bench.Plot(rows, c.plotDir); err != nil {
			return err
		}
	}
	return nil
}

// runOverhead is bench -overhead: the checker's CPU time over the two
// explorations', each command a child process of this binary.
func runOverhead(ctx context.Context, c benchConfig, stdout, stderr io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	var cases []bench.OverheadCase
	if len(c.files) == 0 {
		for _, oc := range bench.OverheadCases() {
			oc.File = filepath.Join(c.root, oc.File)
			cases = append(cases, oc)
		}
	} else {
		steps := c.steps
		if steps == 0 {
			steps = bench.OverheadSteps
		}
		for _, f := range c.files {
			if _, err := os.Stat(f); err != nil {
				return usageError("%v", err)
			}
			cases = append(cases, bench.OverheadCase{File: f, Engine: c.engine, K: c.k, Steps: steps})
		}
	}
	rows, err := bench.Overhead(ctx, cases, c.runs, bench.ExecRunner(exe), stderr)
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "lockstep bench: %s after %d rows\n", interruptNote(ctx), len(rows))
		return errInterrupted
	}
	if err != nil {
		return internalError{err}
	}
	if len(c.files) == 0 {
		for i := range rows {
			if rel, err := filepath.Rel(c.root, rows[i].File); err == nil {
				rows[i].File = rel
			}
		}
	}
	return bench.WriteOverhead(stdout, rows, c.asJSON)
}
