package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/internal/report"
)

// merge combines the -json results of the shards of one run (`check -gen`,
// `lemmas` or `mutants` with -shard I/N) into the result the unsharded run
// gives, with the same exit status; the merging and its checks are
// report.Merge. This file reads the files and prints.

func init() {
	register(&command{
		name:  "merge",
		short: "combine the -json results of the shards (-shard I/N) of check -gen, lemmas or mutants into one report",
		usage: "[-json] [-shards N [-resubmit COMMAND]] FILE...",
		run:   runMerge,
	})
}

// stringsFlag is a flag that may be repeated.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, "; ") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

// readParts reads the JSON results of one file.
func readParts(f string) ([]report.Part, error) {
	r, err := os.Open(f)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return report.ReadParts(f, r)
}

// shardFlag registers -shard on a command that checks a program stream.
func shardFlag(fs *flag.FlagSet) *string {
	return fs.String("shard", "", "check only part I of N of the program stream, `I/N` (programs whose index ≡ I mod N); 'lockstep merge' combines the -json results of all N parts")
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func runMerge(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	asJSON := fs.Bool("json", false, "print the merged result as JSON, in the form the command that made the parts prints")
	shards := fs.Int("shards", 0, "the run has `N` shards: name every shard without a finished result (a file missing, unreadable or truncated, a shard interrupted) instead of stopping at the first bad file")
	var resubmit stringsFlag
	fs.Var(&resubmit, "resubmit", "with -shards: a `COMMAND` that runs shards again, printed with {array} replaced by the shards to run again in Slurm's --array form (0,2-4); repeat for several lines")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 && *shards == 0 {
		fs.Usage()
		return usageError("no files: give the -json output of every shard")
	}
	if len(resubmit) > 0 && *shards == 0 {
		return usageError("-resubmit needs -shards N")
	}
	var parts []report.Part
	var bad []report.Unreadable
	for _, f := range fs.Args() {
		ps, err := readParts(f)
		if err != nil && *shards == 0 {
			return err
		}
		if err != nil {
			bad = append(bad, report.Unreadable{File: f, Err: err})
			continue
		}
		parts = append(parts, ps...)
	}
	if *shards != 0 {
		lost, err := report.Expect(parts, bad, *shards)
		if err != nil {
			return usageError("%v", err)
		}
		if lost != nil {
			fmt.Fprintf(stderr, "lockstep merge: %v\n", lost)
			if len(resubmit) > 0 {
				fmt.Fprintf(stderr, "run them again with:\n")
				for _, r := range resubmit {
					fmt.Fprintf(stderr, "  %s\n", strings.ReplaceAll(r, "{array}", report.ArrayRanges(lost.Indices())))
				}
			}
			switch {
			case len(lost.Missing) > 0:
				return usageError("%d of %d shards have no result: the merge needs every one", len(lost.Missing), *shards)
			case !lost.Complete():
				return usageError("a file given holds no result (above): give the results of the shards only")
			}
			// Interrupted shards only: the merge is the interrupted run's.
		}
	}
	m, err := report.Merge(parts)
	if err != nil {
		return usageError("%v", err)
	}
	if *asJSON {
		if err := encodeIndented(stdout, m.Document()); err != nil {
			return err
		}
		return exitErr(m.ExitCode)
	}
	switch {
	case m.Check != nil:
		printMergedCheck(stdout, m.Check, m.Shards)
	case m.Mutants != nil:
		printMergedMutants(stdout, m.Mutants, m.Shards)
	default:
		for _, s := range m.Surveys {
			printMergedSurvey(stdout, s, m.Shards)
		}
	}
	if m.ExitCode == exitSIGINT || m.ExitCode == exitSIGTERM {
		fmt.Fprintf(stdout, "a shard was interrupted: the counts above are what the shards finished, a lower bound (exit %d)\n", m.ExitCode)
	}
	return exitErr(m.ExitCode)
}

func printMergedCheck(w io.Writer, m *report.Generated, shards int) {
	if m.Counterexample == nil {
		fmt.Fprintf(w, "variant %s: %s, %d hold, %d inconclusive, 0 violated (%.1fs, %.1f programs/s; %d shards)\n",
			m.Variant, plural(m.Programs, "program"), m.Holds, m.Inconclusive, m.Seconds, m.PerSecond, shards)
		printUndecided(w, *m)
		return
	}
	fmt.Fprintf(w, "variant %s: counterexample at program %d of the stream (program seed %d; found with %d lines",
		m.Variant, *m.FailingIndex, *m.FailingSeed, m.FoundLines)
	if m.Shrunk {
		fmt.Fprintf(w, ", shrunk to %d)\n", m.Counterexample.Lines)
	} else {
		fmt.Fprintf(w, ", could not shrink)\n")
	}
	if m.Interrupted {
		fmt.Fprintf(w, "the shards checked %s: %d hold, %d inconclusive, %d violated\n", plural(m.Programs, "program"), m.Holds, m.Inconclusive, m.Violated)
	} else {
		fmt.Fprintf(w, "%s before it: %d hold, %d inconclusive\n", plural(m.Programs-1, "program"), m.Holds, m.Inconclusive)
	}
	printJSONReport(w, m.Counterexample)
	if m.Saved != "" {
		fmt.Fprintf(w, "saved: %s\n", m.Saved)
	}
}

// printJSONReport prints a violation read from JSON, as Report.Text does.
func printJSONReport(w io.Writer, r *checker.JSONReport) {
	fmt.Fprintf(w, "%s: %s (%s)\n", r.Status, r.Lemma, r.Claim)
	if r.Rule != "" {
		fmt.Fprintf(w, "rule: %s, step %d\n", r.Rule, r.Step)
	}
	if r.Reason != "" {
		fmt.Fprintf(w, "reason: %s\n", r.Reason)
	}
	if r.Witness != "" {
		fmt.Fprintf(w, "witness: %s\n", r.Witness)
	}
	if r.Program != "" {
		fmt.Fprintf(w, "program (%d lines):\n%s", r.Lines, r.Program)
	}
}

func printMergedSurvey(w io.Writer, m report.Survey, shards int) {
	fmt.Fprintf(w, "variant %s: %s (k=%d, steps %d, seed %d; %d shards): %d hold, %d violated, %d inconclusive (%.1fs)\n",
		m.Variant, plural(m.Programs, "program"), m.K, m.Steps, m.Seed, shards, m.Holds, m.Violated, m.Inconclusive, m.Seconds)
	for _, l := range m.Lemmas {
		fmt.Fprintf(w, "  %-4s %s\n", l.Lemma, l.Summary)
	}
	for _, l := range m.Lemmas {
		if l.Counterexample == nil {
			continue
		}
		fmt.Fprintf(w, "\n%s, smallest counterexample (program %d of the stream, seed %d):\n", l.Lemma, l.ProgramIndex, l.ProgramSeed)
		printJSONReport(w, l.Counterexample)
	}
}

func printMergedMutants(w io.Writer, out *report.Mutants, shards int) {
	sum := out.Summary
	fmt.Fprintf(w, "mutants of %s: up to %d programs each (seed %d, k=%d, %d shards)\n\n", out.Base, out.N, out.Seed, out.K, shards)
	fmt.Fprintf(w, "%-28s %-17s %-5s %-17s %8s %8s %6s\n", "mutant", "status", "lemma", "rule", "programs", "seconds", "lines")
	for _, r := range out.Results {
		lines := "-"
		if r.Killed {
			lines = fmt.Sprint(r.ShrunkLines)
			if !r.Shrunk {
				lines += "*"
			}
		}
		fmt.Fprintf(w, "%-28s %-17s %-5s %-17s %8d %8.2f %6s\n", r.Mutant, r.Status(), r.Killer, r.Rule, r.Programs, r.Seconds, lines)
		if r.Error != "" {
			fmt.Fprintf(w, "%s\n", indentText(r.Error))
		}
	}
	fmt.Fprintf(w, "\n%s: %d killed, %d argued equivalent, %d survived, %s; kill rate %.0f%% of non-equivalent mutants\n",
		plural(sum.Mutants, "mutant"), sum.Killed, sum.Equivalent, sum.Survived, plural(sum.Errors, "error"), 100*sum.KillRate)
}
