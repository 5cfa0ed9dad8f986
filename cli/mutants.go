package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/internal/mutation"
	"github.com/lockstep-dev/lockstep/internal/report"
	"github.com/lockstep-dev/lockstep/machine"
)

func init() {
	register(&command{
		name:   "mutants",
		short:  "mutation testing of the checker: hunt for a counterexample to each single-point mutant of an engine",
		usage:  "[-engine summary|lazier|lazier#|pose|uber] [-shared] [-n N] [-seed S] [-workers W] [-k K] [-steps S] [-json] [-only NAME[,NAME...]] [-list]",
		runCtx: runMutants,
	})
}

// The mutants command hunts, for each mutant of one engine's catalog
// (internal/mutation: the engine's registered engine.Mutants, each mutant
// the engine's base variant plus one mutation, an engine spec such as
// "lazier:default+resolve-no-alias"), a generated program on which the
// checker reports a lemma violation, shrinks it, and confirms it by running
// the base engine on the shrunk program (the base must hold). Each engine's
// mutants run at its catalog's k and step bound unless -k or -steps is
// given: k = 2 for the summary engine, k = −1 with 60 steps for lazier,
// lazier#, pose and uber (ENGINES.md §8.4: at a finite k these engines
// diverge from GSE by design, docs/FINDINGS.md KB-1..3). Results are in
// docs/MUTANTS.md.

func runMutants(ctx context.Context, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	n := fs.Int("n", 200, "programs per mutant at most")
	seed := fs.Int64("seed", 1, "seed of the program stream (the same for every mutant)")
	workers := fs.Int("workers", 2, "parallel workers, one Z3 context each")
	var kFlag, stepsFlag optionalInt
	fs.Var(&kFlag, "k", "k-bound `K` on input depth, the same in both engines, for every mutant (default: the catalog's, 2 for summary, −1 for the others, a mutant's own where it has one)")
	fs.Var(&stepsFlag, "steps", "step bound `S`, the same in both engines (default: the catalog's, 200 for summary, 60 for the others)")
	timeout := fs.Duration("timeout", 20*time.Second, "time limit per program (exceeding it is inconclusive)")
	var shrink shrinkFlags
	shrink.register(fs, "", 0)
	confirmTimeout := fs.Duration("confirm-timeout", 2*time.Minute, "time limit of the base engine's run on each shrunk counterexample (it explores every path the mutant's violation cut short)")
	asJSON := fs.Bool("json", false, "print one JSON object with every result and the summary")
	only := fs.String("only", "", "run only these mutants of the engine (comma-separated; summary:fixed+m-drop-orig, fixed+m-drop-orig or m-drop-orig)")
	list := fs.Bool("list", false, "list the mutants and exit")
	shared := fs.Bool("shared", false, "hunt the mutants of the layers every engine shares (the common rules, GSE's data rules, smt's term layer; all data rules) under the engine, instead of its own catalog")
	verbose := fs.Bool("v", false, "print each shrunk counterexample")
	sem := semanticsFlag(fs)
	noExact := fs.Bool("no-exact", false, "skip the concretization half of exactness (to see which mutants only it kills)")
	shardSpec := shardFlag(fs)
	var ef engineFlags
	ef.register(fs, mutation.DefaultEngine, "the engine whose mutants are hunted (its catalog: "+strings.Join(mutation.Engines(), ", ")+")")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	for _, err := range []error{atLeast("n", *n, 1), atLeast("workers", *workers, 1), positive("timeout", *timeout),
		shrink.validate(), positive("confirm-timeout", *confirmTimeout)} {
		if err != nil {
			return err
		}
	}
	if kFlag.set {
		if err := kRange("k", kFlag.v); err != nil {
			return err
		}
	}
	if stepsFlag.set {
		if err := atLeast("steps", stepsFlag.v, 1); err != nil {
			return err
		}
	}
	shard, err := shardOf(*shardSpec, *n)
	if err != nil {
		return err
	}
	// Mutants are per engine (ENGINES.md §8.1), each built on the base
	// variant of the engine's catalog: -engine names the engine, alone or
	// with that base.
	if _, err := ef.spec(); err != nil {
		return err
	}
	name, variant := engine.Split(ef.def)
	switch {
	case ef.variant != "":
		name, variant = "summary", ef.variant
	case ef.engine != "":
		name, variant = engine.Split(ef.engine)
	}
	ms, err := mutation.Of(name)
	if err != nil {
		return err
	}
	if *shared {
		if ms, err = mutation.SharedOf(name); err != nil {
			return err
		}
	}
	info, _, _ := engine.Lookup(name)
	cat := info.Mutants
	if variant != "" && variant != cat.Base {
		return fmt.Errorf("the mutants of %s are built on %s:%s; give -engine %s or %s:%s", name, name, cat.Base, name, name, cat.Base)
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if *only != "" {
		ms = nil
		for _, o := range strings.Split(*only, ",") {
			lookup := mutation.LookupIn
			if *shared {
				lookup = mutation.LookupShared
			}
			m, err := lookup(name, strings.TrimSpace(o))
			if err != nil {
				return err
			}
			ms = append(ms, m)
		}
	}
	// The bounds: the catalog's unless given (per mutant: one may carry
	// its own k).
	fixed := kFlag.set
	if fixed {
		// A finite k for an engine without a k-bound is a usage error,
		// once (engine.AtK says what to use instead).
		if _, err := engine.AtK(name+":"+cat.Base, kFlag.v); err != nil {
			return err
		}
	}
	k, steps := &kFlag.v, &stepsFlag.v
	if !kFlag.set {
		*k = cat.K
	}
	if !stepsFlag.set {
		*steps = cmp.Or(cat.Steps, checker.DefaultSteps)
	}
	if *list {
		for _, m := range ms {
			eq := ""
			if m.Equivalent != "" {
				eq = " [argued equivalent]"
			}
			kk := ""
			if !fixed && m.K != *k {
				kk = fmt.Sprintf(" (hunted at k = %d)", m.K)
			}
			fmt.Fprintf(stdout, "%-41s %s%s%s\n", m.Name, m.Doc, eq, kk)
		}
		return nil
	}
	copt := checker.DefaultOptions()
	copt.K, copt.Steps, copt.Timeout, copt.NoExactness = *k, *steps, *timeout, *noExact
	semOpt, err := machine.ParseSemantics(*sem)
	if err != nil {
		return fmt.Errorf("-semantics: %w", err)
	}
	opt := mutation.Options{Check: copt, FixedK: kFlag.set, FixedSteps: stepsFlag.set, Semantics: semOpt, N: *n, Seed: *seed, Workers: *workers, Shard: shard, ShrinkSteps: shrink.bound().Steps, ShrinkTime: shrink.time, ConfirmTimeout: *confirmTimeout}

	if !*asJSON {
		fmt.Fprintf(stdout, "mutants of %s:%s, semantics %s: up to %d programs each (seed %d, k=%d, %d steps, %d workers)\n\n",
			name, cat.Base, semOpt.SemanticsName(), *n, *seed, *k, *steps, *workers)
		fmt.Fprintf(stdout, "%-41s %-17s %-5s %-17s %8s %8s %6s\n", "mutant", "status", "lemma", "rule", "programs", "seconds", "lines")
	}
	var results []mutation.Result
	for i, m := range ms {
		prog := newProgress(stderr, shard.Len(*n))
		var done, holds, inconcl atomic.Int64
		stop := prog.start(func() (int64, string) {
			return done.Load(), fmt.Sprintf("%s (%d/%d): %d hold, %d inconclusive", m.Name, i+1, len(ms), holds.Load(), inconcl.Load())
		})
		opt.Progress = func(d, h, c int64) {
			done.Store(d)
			holds.Store(h)
			inconcl.Store(c)
			progressLine(stderr, "%s (%d/%d): %d/%d programs (%d hold, %d inconclusive)", m.Name, i+1, len(ms), d, shard.Len(*n), h, c)
		}
		r, err := mutation.Run(ctx, m, opt)
		stop()
		if ctx.Err() != nil {
			break // the mutants finished are printed below
		}
		if err != nil {
			return internalError{err}
		}
		results = append(results, r)
		if *asJSON {
			continue
		}
		lines := "-"
		if r.Killed {
			lines = fmt.Sprint(r.ShrunkLines)
			if !r.Shrunk {
				lines += "*"
			}
		}
		fmt.Fprintf(stdout, "%-41s %-17s %-5s %-17s %8d %8.2f %6s\n",
			r.Mutant, r.Status(), r.Killer, r.Rule, r.Programs, r.Seconds, lines)
		if r.K != *k {
			fmt.Fprintf(stdout, "%-41s (hunted at k = %d)\n", "", r.K)
		}
		if r.Inconclusive > 0 && !r.Killed {
			fmt.Fprintf(stdout, "%-41s (%d of %s inconclusive)\n", "", r.Inconclusive, plural(r.Programs, "program"))
		}
		if r.Error != "" {
			fmt.Fprintf(stdout, "%s\n", indentText(r.Error))
		}
		if *verbose && r.Killed {
			fmt.Fprintf(stdout, "%s\n", indentText(r.Program))
		}
	}
	sum := mutation.Summarize(results)
	st := report.Status{ExitCode: report.MutantsExit(sum)}
	if ctx.Err() != nil {
		st = interruptedStatus(ctx)
	}
	if *asJSON {
		out := report.Mutants{Engine: name, Base: cat.Base, Sem: semOpt.SemanticsName(), N: *n, Seed: *seed, Workers: *workers, Shard: shard.String(), Steps: *steps, K: *k,
			Date: time.Now().Format("2006-01-02"), Results: results, Summary: sum, Status: st}
		out.Settings = &report.Settings{Engine: name + ":" + cat.Base, NoExact: copt.NoExactness, MaxGroup: copt.MaxGroup, MaxPairs: copt.MaxPairs,
			Timeout: copt.Timeout.String(), ConfirmTimeout: confirmTimeout.String()}
		for _, m := range ms {
			out.Settings.Mutants = append(out.Settings.Mutants, m.Name)
		}
		if out.Results == nil {
			out.Results = []mutation.Result{}
		}
		if err := encodeIndented(stdout, out); err != nil {
			return err
		}
	} else {
		if ctx.Err() != nil {
			fmt.Fprintf(stdout, "\n%s: %d of %s finished (above)", interruptNote(ctx), len(results), plural(len(ms), "mutant"))
		}
		fmt.Fprintf(stdout, "\n%s: %d killed, %d argued equivalent, %d survived, %s",
			plural(sum.Mutants, "mutant"), sum.Killed, sum.Equivalent, sum.Survived, plural(sum.Errors, "error"))
		if sum.KilledEquivalent > 0 {
			fmt.Fprintf(stdout, " (%d argued equivalent but killed: the argument is wrong)", sum.KilledEquivalent)
		}
		fmt.Fprintf(stdout, "\nkill rate %.0f%% of non-equivalent mutants; median to kill %.2fs (%.0f programs), median shrunk counterexample %.0f lines\n",
			100*sum.KillRate, sum.MedianSeconds, sum.MedianPrograms, sum.MedianShrunkLines)
		fmt.Fprintf(stdout, "by rule kind: data %d of %d killed, reference %d of %d killed (non-equivalent, decided)\n",
			sum.DataKilled, sum.DataMutants, sum.RefKilled, sum.RefMutants)
		if !*verbose && sum.Killed > 0 {
			fmt.Fprintln(stdout, "(* = could not shrink; -v prints the counterexamples)")
		}
	}
	if st.ExitCode == exitInconclusive {
		// A hunt that failed (or a kill the base does not confirm) decided
		// nothing about its mutant: exit 3, not a usage error.
		return internalError{fmt.Errorf("%d mutant hunts failed", sum.Errors)}
	}
	// A surviving non-equivalent mutant is a finding about the checker.
	return exitErr(st.ExitCode)
}

// optionalInt is an int flag that knows whether it was given (its help
// then names no default: the default depends on the engine).
type optionalInt struct {
	v   int
	set bool
}

func (o *optionalInt) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.v)
}

func (o *optionalInt) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil {
		return err
	}
	o.v, o.set = v, true
	return nil
}

func indentText(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
