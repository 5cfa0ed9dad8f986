package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/internal/report"
)

func init() {
	register(&command{
		name:   "lemmas",
		short:  "the status of every lemma (RULES.md §8, ENGINES.md §8.3) for an engine or variant, every variant (-all), or every engine in one matrix (-engines all, docs/LEMMAS.md) on generated programs",
		usage:  "[-engine NAME[:VARIANT] | -variant NAME | -all | -engines all|NAME,…] [-n N] [-seed S] [-data mixed|none] [flags]",
		runCtx: runLemmas,
	})
}

// errInconclusive is exit 3 after the results were printed: nothing was
// violated, but not everything could be decided, which is not a pass.
var errInconclusive = errors.New("some checks are inconclusive")

func runLemmas(ctx context.Context, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	var cf checkFlags
	cf.register(fs)
	n := fs.Int("n", 100, "number of generated programs per variant")
	seed := fs.Int64("seed", 1, "seed of the program stream")
	asJSON := fs.Bool("json", false, "print one JSON document: the survey, or with -all and -engines {\"surveys\": [...], \"exit_code\": …}")
	all := fs.Bool("all", false, "every variant of the engine (of the summary engine: 'lockstep variants'); -o writes their matrix")
	var out string
	fs.StringVar(&out, "o", "", "with -all or -engines: write the markdown lemma matrix to this `FILE` ('-' for standard output); nothing is written without it (docs/LEMMAS.md is made with -o docs/LEMMAS.md)")
	fs.StringVar(&out, "out", "", "the same as -o")
	fixed := fs.String("fixedbugs", "", "write each shrunk counterexample as a regression case into this directory")
	data := fs.String("data", "", "data in the programs: mixed (int and bool fields, arithmetic, comparisons) or none (the reference-only stream of before data, program for program); default, as check -gen: mixed for an engine with data rules, none for one without")
	var shrink shrinkFlags
	shrink.register(fs, "", 0)
	noShrink := fs.Bool("no-shrink", false, "keep counterexamples as found")
	shardSpec := shardFlag(fs)
	var mf matrixFlags
	mf.register(fs) // lemmas_engines.go
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cf.huntBounds(fs)
	if mf.engines != "" {
		if flagSet(fs, "engine") || flagSet(fs, "variant") {
			return usageError("-engines and -engine/-variant exclude each other: -engines makes a column of every variant")
		}
		if *fixed != "" {
			return usageError("-fixedbugs writes regression cases for summary variants only; it does not take -engines")
		}
		*all = true
	} else {
		for _, f := range []string{"engines-k", "engines-n", "engines-steps"} {
			if flagSet(fs, f) {
				return usageError("-%s needs -engines", f)
			}
		}
	}
	if mf.n < 0 || mf.steps < 0 {
		return usageError("-engines-n and -engines-steps must not be negative")
	}
	if mf.k < -1 {
		return usageError("-engines-k must be -1 (unbounded) or at least 0, not %d", mf.k)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return usageError("unexpected arguments: %s (lemmas checks generated programs only)", strings.Join(fs.Args(), " "))
	}
	if err := atLeast("n", *n, 1); err != nil {
		return err
	}
	if err := shrink.validate(); err != nil {
		return err
	}
	if out != "" && !*all {
		return usageError("-o writes the matrix of -all or -engines")
	}
	if out == "-" && *asJSON {
		return usageError("-json and -o - would both print to standard output: give -o a file")
	}
	variantSet := flagSet(fs, "variant")
	if name, v := engine.Split(cf.eng.engine); *all && (variantSet || v != "") {
		return usageError("-all and a variant (-variant, -engine %s:%s) exclude each other", name, v)
	}
	base, err := cf.options()
	if err != nil {
		return err
	}
	shard, err := shardOf(*shardSpec, *n)
	if err != nil {
		return err
	}
	cols := []column{{opt: base, n: *n}}
	switch {
	case mf.engines != "":
		if cols, err = matrixColumns(base, mf, *n); err != nil {
			return err
		}
	case *all:
		info, _, err := engine.Lookup(base.Engine)
		if err != nil {
			return err
		}
		if info.Variants != nil {
			cols = nil
			for _, v := range info.Variants() {
				opt := base
				opt.Engine = info.Name + ":" + v.Name
				cols = append(cols, column{opt: opt, n: *n})
			}
		}
	}
	cmdline := "lockstep lemmas " + strings.Join(args, " ")

	var surveys []*checker.Survey
	for i, c := range cols {
		opt, err := c.opt.Resolved()
		if err != nil {
			return err
		}
		dataMode, err := dataFor(*data, opt)
		if err != nil {
			return err
		}
		sopt := checker.SurveyOptions{N: c.n, Seed: *seed, Shard: shard, Workers: cf.workers, Data: dataMode, ShrinkSteps: shrink.bound().Steps, ShrinkTime: shrink.time, NoShrink: *noShrink}
		sv, err := survey(ctx, opt, sopt, fmt.Sprintf("%d/%d", i+1, len(cols)), stderr)
		if ctx.Err() != nil {
			// What finished is printed: the surveys before, and this
			// one's programs that finished.
			if sv != nil && sv.Programs > 0 {
				surveys = append(surveys, sv)
				if !*asJSON {
					printSurvey(stdout, sv, !*all)
				}
			}
			break
		}
		if err != nil {
			return internalError{fmt.Errorf("variant %s: %w", opt.Label(), err)}
		}
		surveys = append(surveys, sv)
		if !*asJSON {
			printSurvey(stdout, sv, !*all)
		}
	}
	js := make([]report.Survey, len(surveys))
	for i, sv := range surveys {
		js[i] = report.SurveyOf(sv)
	}
	st := report.Status{ExitCode: report.SurveysExit(js)}
	if ctx.Err() != nil {
		st = interruptedStatus(ctx)
		for i, sv := range surveys {
			if sv.Interrupted {
				js[i].Status = st
			}
		}
	}
	if *asJSON {
		var doc any
		if *all || len(js) != 1 {
			doc = report.Surveys{Surveys: js, Status: st}
		} else {
			js[0].Status = st
			doc = js[0]
		}
		if err := encodeIndented(stdout, doc); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		if !*asJSON {
			fmt.Fprintf(stdout, "%s: the counts above are of the programs that finished (the last survey is partial: its counterexamples are not shrunk); nothing was written\n", interruptNote(ctx))
		}
		return errInterrupted
	}
	now := time.Now()
	if out != "" {
		md := report.LemmasMarkdown(surveys, cmdline, now)
		if out == "-" {
			fmt.Fprint(stdout, md)
		} else {
			if err := os.WriteFile(out, []byte(md), 0o644); err != nil {
				return err
			}
			fmt.Fprintf(stderr, "wrote %s\n", out)
		}
	}
	if *fixed != "" {
		if name, _ := engine.Split(base.Engine); name != "summary" {
			// Regression cases name summary variants (checker.Case).
			return usageError("-fixedbugs writes regression cases for summary variants only, not for %s", base.Engine)
		}
		files, err := report.WriteFixedBugs(*fixed, surveys, base, cmdline, now)
		if err != nil {
			return err
		}
		for _, f := range files {
			fmt.Fprintf(stderr, "wrote %s\n", f)
		}
	}
	return exitErr(st.ExitCode)
}

// survey runs one variant with a progress line on a terminal.
func survey(ctx context.Context, opt checker.Options, sopt checker.SurveyOptions, column string, stderr io.Writer) (*checker.Survey, error) {
	prog := newProgress(stderr, sopt.Shard.Len(sopt.N))
	var done, viol, inconcl atomic.Int64
	var shrinking atomic.Bool
	stop := prog.start(func() (int64, string) {
		extra := fmt.Sprintf("%s: %d violated, %d inconclusive", opt.Label(), viol.Load(), inconcl.Load())
		if shrinking.Load() {
			extra += ", shrinking"
		}
		return done.Load(), extra
	})
	sopt.Progress = func(d, v, i int, shr bool) {
		if shr {
			progressLine(stderr, "%s (column %s): shrinking a counterexample", opt.Label(), column)
		} else {
			progressLine(stderr, "%s (column %s): %d/%d programs (%d violated, %d inconclusive)", opt.Label(), column, d, sopt.Shard.Len(sopt.N), v, i)
		}
		done.Store(int64(d))
		viol.Store(int64(v))
		inconcl.Store(int64(i))
		shrinking.Store(shr)
	}
	sv, err := checker.RunSurvey(ctx, opt, sopt)
	stop()
	return sv, err
}

func printSurvey(w io.Writer, sv *checker.Survey, details bool) {
	o := sv.Options
	fmt.Fprintf(w, "variant %s, semantics %s: %s (k=%d, steps %d, seed %d, data %s): %d hold, %d violated, %d inconclusive (%.1fs)\n",
		sv.Variant, o.SemanticsName(), plural(sv.Programs, "program"), o.K, o.Steps, sv.Seed, sv.Data, sv.Holds, sv.Violated, sv.Inconclusive, sv.Elapsed.Seconds())
	for _, s := range sv.Lemmas {
		fmt.Fprintf(w, "  %-4s %s\n", s.Lemma, s.Summary(sv))
	}
	if !details {
		return
	}
	for _, s := range sv.Lemmas {
		if s.Status() != checker.Violated {
			continue
		}
		fmt.Fprintf(w, "\n%s, smallest counterexample (program seed %d):\n", s.Lemma, s.Counterexample.Seed)
		fmt.Fprint(w, s.Counterexample.Shrunk.Text(false))
	}
}
