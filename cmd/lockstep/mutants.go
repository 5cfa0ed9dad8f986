package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/internal/mutation"
	"github.com/lockstep-dev/lockstep/machine"
)

func init() {
	register(&command{
		name:  "mutants",
		short: "mutation testing of the checker: hunt for a counterexample to each single-point mutant of 'fixed'",
		usage: "[-engine summary:fixed] [-n N] [-seed S] [-workers W] [-json] [-only NAME[,NAME...]] [-list]",
		run:   runMutants,
	})
}

// mutantsJSON is the -json output.
type mutantsJSON struct {
	Base    string            `json:"base"`
	Sem     string            `json:"semantics"`
	N       int               `json:"n"`
	Seed    int64             `json:"seed"`
	Shard   string            `json:"shard,omitempty"`
	Steps   int               `json:"steps"`
	Workers int               `json:"workers"`
	K       int               `json:"k"`
	Date    string            `json:"date"`
	Results []mutation.Result `json:"results"`
	Summary mutation.Summary  `json:"summary"`
}

func runMutants(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	n := fs.Int("n", 200, "programs per mutant at most")
	seed := fs.Int64("seed", 1, "seed of the program stream (the same for every mutant)")
	workers := fs.Int("workers", 2, "parallel workers, one Z3 context each")
	k := fs.Int("k", 2, "k-bound on input depth, the same in both engines")
	steps := fs.Int("steps", 200, "step bound, the same in both engines")
	timeout := fs.Duration("timeout", 20*time.Second, "time limit per program (exceeding it is inconclusive)")
	shrinkTime := fs.Duration("shrink-time", 10*time.Second, "time limit for shrinking each counterexample")
	asJSON := fs.Bool("json", false, "print one JSON object with every result and the summary")
	only := fs.String("only", "", "run only these mutants (comma-separated; summary:fixed+m-drop-orig, fixed+m-drop-orig or m-drop-orig)")
	list := fs.Bool("list", false, "list the mutants and exit")
	verbose := fs.Bool("v", false, "print each shrunk counterexample")
	sem := semanticsFlag(fs)
	noExact := fs.Bool("no-exact", false, "skip the concretization half of exactness (to see which mutants only it kills)")
	shardSpec := shardFlag(fs)
	var ef engineFlags
	ef.register(fs, "summary:"+mutation.BaseName, "the engine whose mutants are hunted")
	if err := fs.Parse(args); err != nil {
		return err
	}
	shard, err := checker.ParseShardFlag(*shardSpec)
	if err != nil {
		return err
	}
	// Mutants are per engine (ENGINES.md §8.1); the catalog has mutants of
	// one engine so far, each built on its base variant.
	if spec, err := ef.spec(); err != nil {
		return err
	} else if spec != "summary:"+mutation.BaseName {
		return fmt.Errorf("no mutants of %s: the catalog holds mutants of summary:%s only", spec, mutation.BaseName)
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if *n < 1 || *workers < 1 {
		return fmt.Errorf("-n and -workers must be at least 1")
	}
	ms := mutation.Mutants()
	if *only != "" {
		ms = nil
		for _, name := range strings.Split(*only, ",") {
			m, err := mutation.Lookup(strings.TrimSpace(name))
			if err != nil {
				return err
			}
			ms = append(ms, m)
		}
	}
	if *list {
		for _, m := range ms {
			eq := ""
			if m.Equivalent != "" {
				eq = " [argued equivalent]"
			}
			fmt.Fprintf(stdout, "%-38s %s%s\n", m.Name, m.Doc, eq)
		}
		return nil
	}
	copt := checker.DefaultOptions()
	copt.K, copt.Steps, copt.Timeout, copt.NoExactness = *k, *steps, *timeout, *noExact
	semOpt, err := machine.ParseSemantics(*sem)
	if err != nil {
		return fmt.Errorf("-semantics: %w", err)
	}
	opt := mutation.Options{Check: copt, Semantics: semOpt, N: *n, Seed: *seed, Workers: *workers, Shard: shard, ShrinkTime: *shrinkTime}

	if !*asJSON {
		fmt.Fprintf(stdout, "mutants of %s, semantics %s: up to %d programs each (seed %d, k=%d, %d workers)\n\n",
			mutation.BaseName, semOpt.SemanticsName(), *n, *seed, *k, *workers)
		fmt.Fprintf(stdout, "%-38s %-17s %-5s %-17s %8s %8s %6s\n", "mutant", "status", "lemma", "rule", "programs", "seconds", "lines")
	}
	var results []mutation.Result
	for i, m := range ms {
		prog := newProgress(stderr, shard.Len(*n))
		var done, holds, inconcl atomic.Int64
		stop := prog.start(func() (int64, string) {
			return done.Load(), fmt.Sprintf("%s (%d/%d): %d hold, %d inconclusive", m.Name, i+1, len(ms), holds.Load(), inconcl.Load())
		})
		opt.Progress = func(d, h, c int64) { done.Store(d); holds.Store(h); inconcl.Store(c) }
		r, err := mutation.Run(context.Background(), m, opt)
		stop()
		if err != nil {
			return err
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
		fmt.Fprintf(stdout, "%-38s %-17s %-5s %-17s %8d %8.2f %6s\n",
			r.Mutant, r.Status(), r.Killer, r.Rule, r.Programs, r.Seconds, lines)
		if r.Inconclusive > 0 && !r.Killed {
			fmt.Fprintf(stdout, "%-38s (%d of %d programs inconclusive)\n", "", r.Inconclusive, r.Programs)
		}
		if r.Error != "" {
			fmt.Fprintf(stdout, "%s\n", indentText(r.Error))
		}
		if *verbose && r.Killed {
			fmt.Fprintf(stdout, "%s\n", indentText(r.Program))
		}
	}
	sum := mutation.Summarize(results)
	if *asJSON {
		out := mutantsJSON{Base: mutation.BaseName, Sem: semOpt.SemanticsName(), N: *n, Seed: *seed, Workers: *workers, Shard: shard.String(), Steps: *steps, K: *k,
			Date: time.Now().Format("2006-01-02"), Results: results, Summary: sum}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "\n%d mutants: %d killed, %d argued equivalent, %d survived, %d errors",
			sum.Mutants, sum.Killed, sum.Equivalent, sum.Survived, sum.Errors)
		if sum.KilledEquivalent > 0 {
			fmt.Fprintf(stdout, " (%d argued equivalent but killed: the argument is wrong)", sum.KilledEquivalent)
		}
		fmt.Fprintf(stdout, "\nkill rate %.0f%% of non-equivalent mutants; median to kill %.2fs (%.0f programs), median shrunk counterexample %.0f lines\n",
			100*sum.KillRate, sum.MedianSeconds, sum.MedianPrograms, sum.MedianShrunkLines)
		if !*verbose && sum.Killed > 0 {
			fmt.Fprintln(stdout, "(* = could not shrink; -v prints the counterexamples)")
		}
	}
	if sum.Errors > 0 {
		// A hunt that failed (or a kill the base does not confirm) decided
		// nothing about its mutant: exit 3, not a usage error.
		return internalError{fmt.Errorf("%d mutant hunts failed", sum.Errors)}
	}
	if sum.Survived > 0 || sum.KilledEquivalent > 0 {
		// A surviving non-equivalent mutant is a finding about the checker.
		return errViolation
	}
	return nil
}

func indentText(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
