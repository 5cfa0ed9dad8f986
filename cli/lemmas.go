package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

func init() {
	register(&command{
		name:  "lemmas",
		short: "the status of every lemma (RULES.md §8, ENGINES.md §8.3) for an engine or variant, every variant (-all), or every engine in one matrix (-engines all, docs/LEMMAS.md) on generated programs",
		usage: "[-engine NAME[:VARIANT] | -variant NAME | -all | -engines all|NAME,…] [-n N] [-seed S] [flags]",
		run:   runLemmas,
	})
}

// errInconclusive is exit 3 after the results were printed: nothing was
// violated, but not everything could be decided, which is not a pass.
var errInconclusive = errors.New("some lemmas are inconclusive")

func runLemmas(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	var cf checkFlags
	cf.register(fs)
	n := fs.Int("n", 100, "number of generated programs per variant")
	seed := fs.Int64("seed", 1, "seed of the program stream")
	asJSON := fs.Bool("json", false, "print JSON (one object per variant; an array with -all)")
	all := fs.Bool("all", false, "every variant of the engine (of the summary engine: 'lockstep variants'); writes the matrix to -out")
	out := fs.String("out", "docs/LEMMAS.md", "with -all: the markdown file to write ('-' for stdout, '' for none)")
	fixed := fs.String("fixedbugs", "", "write each shrunk counterexample as a regression case into this directory")
	shrinkTime := fs.Duration("shrink-time", 30*time.Second, "time limit for shrinking each counterexample")
	noShrink := fs.Bool("no-shrink", false, "keep counterexamples as found")
	shardSpec := shardFlag(fs)
	var mf matrixFlags
	mf.register(fs) // lemmas_engines.go
	if err := fs.Parse(args); err != nil {
		return err
	}
	if mf.engines != "" {
		if flagSet(fs, "engine") || flagSet(fs, "variant") {
			return fmt.Errorf("-engines and -engine/-variant exclude each other: -engines makes a column of every variant")
		}
		if *fixed != "" {
			return fmt.Errorf("-fixedbugs writes regression cases for summary variants only; it does not take -engines")
		}
		*all = true
	} else {
		for _, f := range []string{"engines-k", "engines-n", "engines-steps"} {
			if flagSet(fs, f) {
				return fmt.Errorf("-%s needs -engines", f)
			}
		}
	}
	if mf.n < 0 || mf.steps < 0 {
		return fmt.Errorf("-engines-n and -engines-steps must not be negative")
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments: %s (lemmas checks generated programs only)", strings.Join(fs.Args(), " "))
	}
	if *n < 1 {
		return fmt.Errorf("-n must be at least 1")
	}
	variantSet := false
	fs.Visit(func(f *flag.Flag) { variantSet = variantSet || f.Name == "variant" })
	if name, v := engine.Split(cf.eng.engine); *all && (variantSet || v != "") {
		return fmt.Errorf("-all and a variant (-variant, -engine %s:%s) exclude each other", name, v)
	}
	base, err := cf.options()
	if err != nil {
		return err
	}
	shard, err := checker.ParseShardFlag(*shardSpec)
	if err != nil {
		return err
	}
	if !shard.Whole() && *all && !flagSet(fs, "out") {
		*out = "" // a shard's matrix is a part: it does not replace docs/LEMMAS.md
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
	for _, c := range cols {
		opt := c.opt
		sopt := checker.SurveyOptions{N: c.n, Seed: *seed, Shard: shard, Workers: cf.workers, ShrinkTime: *shrinkTime, NoShrink: *noShrink}
		sv, err := survey(opt, sopt, stderr)
		if err != nil {
			return fmt.Errorf("variant %s: %w", opt.Label(), err)
		}
		surveys = append(surveys, sv)
		if !*asJSON {
			printSurvey(stdout, sv, !*all)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		var err error
		if *all {
			js := make([]surveyJSON, len(surveys))
			for i, sv := range surveys {
				js[i] = toSurveyJSON(sv)
			}
			err = enc.Encode(js)
		} else {
			err = enc.Encode(toSurveyJSON(surveys[0]))
		}
		if err != nil {
			return err
		}
	}
	now := time.Now()
	if *all && *out != "" {
		md := lemmasMarkdown(surveys, cmdline, now)
		if *out == "-" {
			fmt.Fprint(stdout, md)
		} else {
			if err := os.WriteFile(*out, []byte(md), 0o644); err != nil {
				return err
			}
			fmt.Fprintf(stderr, "wrote %s\n", *out)
		}
	}
	if *fixed != "" {
		if name, _ := engine.Split(base.Engine); name != "summary" {
			// Regression cases name summary variants (checker.Case).
			return fmt.Errorf("-fixedbugs writes regression cases for summary variants only, not for %s", base.Engine)
		}
		files, err := writeFixedBugs(*fixed, surveys, base, cmdline, now)
		if err != nil {
			return err
		}
		for _, f := range files {
			fmt.Fprintf(stderr, "wrote %s\n", f)
		}
	}
	st := checker.Holds
	for _, sv := range surveys {
		st = worse(st, sv.Status())
	}
	return surveyExit(st)
}

// survey runs one variant with a progress line on a terminal.
func survey(opt checker.Options, sopt checker.SurveyOptions, stderr io.Writer) (*checker.Survey, error) {
	prog := newProgress(stderr, sopt.N)
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
		done.Store(int64(d))
		viol.Store(int64(v))
		inconcl.Store(int64(i))
		shrinking.Store(shr)
	}
	if checker.RefuseData(opt) != nil {
		// An engine without data rules is surveyed on the reference-only
		// stream (gen.DataNone): the programs it can run.
		sopt.Data = gen.DataNone
	}
	sv, err := checker.RunSurvey(context.Background(), opt, sopt)
	stop()
	return sv, err
}

func printSurvey(w io.Writer, sv *checker.Survey, details bool) {
	o := sv.Options
	fmt.Fprintf(w, "variant %s, semantics %s: %d programs (k=%d, steps %d, seed %d): %d hold, %d violated, %d inconclusive (%.1fs)\n",
		sv.Variant, o.SemanticsName(), sv.Programs, o.K, o.Steps, sv.Seed, sv.Holds, sv.Violated, sv.Inconclusive, sv.Elapsed.Seconds())
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

// surveyJSON is the machine-readable form of a survey.
type surveyJSON struct {
	Variant      string      `json:"variant"`
	Semantics    string      `json:"semantics"`
	Engine       string      `json:"engine,omitempty"`
	K            int         `json:"k"`
	Steps        int         `json:"steps"`
	Seed         int64       `json:"seed"`
	N            int         `json:"n"`
	Shard        string      `json:"shard,omitempty"`
	Timeout      string      `json:"timeout"`
	Programs     int         `json:"programs"`
	Holds        int         `json:"holds"`
	Violated     int         `json:"violated"`
	Inconclusive int         `json:"inconclusive"`
	Status       string      `json:"status"`
	Seconds      float64     `json:"seconds"`
	Lemmas       []lemmaJSON `json:"lemmas"`
}

type lemmaJSON struct {
	Lemma          string              `json:"lemma"`
	Claim          string              `json:"claim"`
	Status         string              `json:"status"`
	Summary        string              `json:"summary"`
	Checks         int                 `json:"checks"`
	Programs       int                 `json:"programs_checked"`
	Violations     int                 `json:"violations"`
	Undecided      []undecidedJSON     `json:"undecided,omitempty"`
	Counterexample *checker.JSONReport `json:"counterexample,omitempty"`
	Shrunk         bool                `json:"shrunk,omitempty"`
	FoundLines     int                 `json:"found_lines,omitempty"`
	ProgramSeed    int64               `json:"program_seed,omitempty"`
	ProgramIndex   int                 `json:"program_index,omitempty"`
}

func toSurveyJSON(sv *checker.Survey) surveyJSON {
	j := surveyJSON{
		Variant: sv.Variant, Engine: sv.Engine, Semantics: sv.Options.SemanticsName(), K: sv.Options.K, Steps: sv.Options.Steps, Seed: sv.Seed, N: sv.N, Shard: sv.Shard.String(), Timeout: sv.Options.Timeout.String(),
		Programs: sv.Programs, Holds: sv.Holds, Violated: sv.Violated, Inconclusive: sv.Inconclusive,
		Status: sv.Status().String(), Seconds: sv.Elapsed.Seconds(),
	}
	for _, s := range sv.Lemmas {
		lj := lemmaJSON{
			Lemma: string(s.Lemma), Claim: checker.Claim[s.Lemma], Status: s.Status().String(),
			Summary: s.Summary(sv), Checks: s.Checks, Programs: s.Programs, Violations: s.Violations,
		}
		for _, u := range s.Undecided {
			lj.Undecided = append(lj.Undecided, undecidedJSON{Index: u.Index, Seed: u.Seed, Reason: u.Reason})
		}
		if cx := s.Counterexample; cx != nil {
			r := cx.Shrunk.JSON()
			lj.Counterexample, lj.Shrunk = &r, cx.IsShrunk
			lj.FoundLines, lj.ProgramSeed, lj.ProgramIndex = checker.Lines(cx.Found.Program), cx.Seed, cx.Index
		}
		j.Lemmas = append(j.Lemmas, lj)
	}
	return j
}

// revision is the VCS revision the binary was built from, if recorded.
func revision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && dirty {
		rev += " (with uncommitted changes)"
	}
	return rev
}

// cell is one entry of the matrix.
func cell(s *checker.LemmaStat) string {
	switch s.Status() {
	case checker.Violated:
		return fmt.Sprintf("✗ (%d)", checker.Lines(s.Counterexample.Shrunk.Program))
	case checker.Inconclusive:
		if s.Checks == 0 && len(s.Undecided) == 0 {
			return "? (never)"
		}
		return fmt.Sprintf("? (%d undec.)", len(s.Undecided))
	}
	return fmt.Sprintf("✓ (%d)", s.Checks)
}

// lemmasMarkdown is docs/LEMMAS.md: how it was made, the matrix, the
// programs per variant, and every counterexample.
func lemmasMarkdown(svs []*checker.Survey, cmdline string, now time.Time) string {
	var b strings.Builder
	o := svs[0].Options
	b.WriteString("# Lemma matrix\n\n")
	if multiEngine(svs) {
		b.WriteString("Generated by `lockstep lemmas -engines all`, one matrix of every engine; do not edit by hand, run the command again.\n\n")
	} else {
		b.WriteString("Generated by `lockstep lemmas -all`; do not edit by hand, run the command again.\n\n")
	}
	fmt.Fprintf(&b, "* command: `%s`\n", cmdline)
	fmt.Fprintf(&b, "* date: %s\n", now.Format("2006-01-02 15:04 MST"))
	if rev := revision(); rev != "" {
		fmt.Fprintf(&b, "* revision: %s\n", rev)
	}
	multi := multiEngine(svs) // lemmas_engines.go
	if uniform(svs) {
		fmt.Fprintf(&b, "* programs: %d per variant, the same stream for every variant (gen.Program, seed %d); k = %d, step bound %d, timeout %s per program\n",
			svs[0].Programs, svs[0].Seed, o.K, o.Steps, o.Timeout)
	} else {
		b.WriteString(programsLine(svs))
	}
	fmt.Fprintf(&b, "* semantics: %s (the common rules V10/V11 of every column, RULES.md §3; `-semantics`)\n", o.SemanticsName())
	if multi {
		b.WriteString(multiEngineDoc(svs))
	}
	b.WriteString(`
How to read a cell (` + columnsDoc(multi) + `):

* **✓ (n)**: no violation, and the lemma was checked and held n times (summed over the programs).
  A program's check stops at its first failure, so on a program that violated another lemma
  first, this lemma was only checked up to that point: the evidence is the n checks, no more.
* **✗ (n)**: violated; n is the number of lines of the smallest (shrunk) counterexample,
  printed below. Only the first failure of each program counts, so a lemma masked by an
  earlier failure on every program shows as ✓ or ?, not ✗.
* **? (never)**: never checked (no program reached a step the lemma is about), so nothing is
  claimed. **? (u undec.)**: the check of the lemma could not be decided on u programs
  (timeout, solver unknown, a budget): not a pass, whatever it did elsewhere.
* **–**: the lemma does not apply to the column's engine (` + "`checker.Applicable`" + `, ENGINES.md §8.3).

`)
	b.WriteString(referenceLemmasDoc) // lemmas_doc.go
	// The matrix.
	b.WriteString("| lemma |")
	for _, sv := range svs {
		fmt.Fprintf(&b, " %s |", sv.Variant)
	}
	b.WriteString("\n|---|")
	for range svs {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	// Rows: the lemmas some column decides, in catalog order; a lemma
	// that does not apply to a column's engine (C13 for a Partition
	// engine, P1 for the summary engine) is "–" there.
	for _, l := range checker.Lemmas {
		row := multi // one matrix of every engine: a row for every lemma
		for _, sv := range svs {
			row = row || sv.Stat(l) != nil
		}
		if !row {
			continue
		}
		fmt.Fprintf(&b, "| %s |", l)
		for _, sv := range svs {
			if st := sv.Stat(l); st != nil {
				fmt.Fprintf(&b, " %s |", cell(st))
			} else {
				b.WriteString(" – |")
			}
		}
		b.WriteString("\n")
	}
	if multi {
		b.WriteString(rowsDoc(svs))
		b.WriteString(huntsDoc(svs))
	}
	b.WriteString("\n## Programs per variant\n\n")
	b.WriteString("A program *holds* when every check on it held to the step bound; *violated* and *inconclusive* count programs by their first failure.\n\n")
	if multi {
		b.WriteString("| variant | programs | k | holds | violated | inconclusive | violated lemmas (programs) | seconds |\n|---|---|---|---|---|---|---|---|\n")
	} else {
		b.WriteString("| variant | holds | violated | inconclusive | violated lemmas (programs) | seconds |\n|---|---|---|---|---|---|\n")
	}
	for _, sv := range svs {
		var vl []string
		for _, s := range sv.Lemmas {
			if s.Violations > 0 {
				vl = append(vl, fmt.Sprintf("%s (%d)", s.Lemma, s.Violations))
			}
		}
		if multi {
			fmt.Fprintf(&b, "| %s | %d | %d |", sv.Variant, sv.Programs, sv.Options.K)
		} else {
			fmt.Fprintf(&b, "| %s |", sv.Variant)
		}
		fmt.Fprintf(&b, " %d | %d | %d | %s | %.0f |\n", sv.Holds, sv.Violated, sv.Inconclusive,
			orDash(strings.Join(vl, ", ")), sv.Elapsed.Seconds())
	}
	var und []string
	for _, sv := range svs {
		for _, s := range sv.Lemmas {
			for _, u := range s.Undecided {
				und = append(und, fmt.Sprintf("| %s | %s | %d | %d | %s |", sv.Variant, s.Lemma, u.Index, u.Seed, mdEscape(u.Reason)))
			}
		}
	}
	if len(und) > 0 {
		b.WriteString("\n## Undecided checks\n\n| variant | lemma | program | program seed | reason |\n|---|---|---|---|---|\n")
		b.WriteString(strings.Join(und, "\n") + "\n")
	}
	b.WriteString("\n## Counterexamples\n\n")
	if multi {
		b.WriteString("The smallest counterexample of each violated lemma per variant: the violation of the earliest program of the stream (programs are numbered from 0), shrunk by rapid while it breaks the same lemma. Each names the command that replays it on the program saved as FILE.\n")
	} else {
		b.WriteString("The smallest counterexample of each violated lemma per variant: the violation of the earliest program of the stream (programs are numbered from 0), shrunk by rapid while it breaks the same lemma. Replay one with `lockstep check -variant V -semantics SEM -k K -steps S FILE`.\n")
	}
	any := false
	for _, sv := range svs {
		for _, s := range sv.Lemmas {
			cx := s.Counterexample
			if s.Status() != checker.Violated || cx == nil {
				continue
			}
			any = true
			r := cx.Shrunk
			v := r.Verdict
			fmt.Fprintf(&b, "\n### %s: %s\n\n", sv.Variant, s.Lemma)
			fmt.Fprintf(&b, "* claim: %s\n", checker.Claim[s.Lemma])
			if v.Rule != "" {
				fmt.Fprintf(&b, "* rule: %s, step %d\n", v.Rule, v.Step)
			}
			fmt.Fprintf(&b, "* violated on %d of %d programs; first at program %d (program seed %d), %d lines, ",
				s.Violations, sv.Programs, cx.After-1, cx.Seed, checker.Lines(cx.Found.Program))
			if cx.IsShrunk {
				fmt.Fprintf(&b, "shrunk to %d\n", checker.Lines(r.Program))
			} else {
				b.WriteString("could not be shrunk\n")
			}
			fmt.Fprintf(&b, "* reason: %s\n", mdEscape(v.Reason))
			if v.Witness != "" {
				fmt.Fprintf(&b, "* witness: %s\n", mdEscape(v.Witness))
			}
			if multi {
				o := sv.Options
				fmt.Fprintf(&b, "* replay: `lockstep check -engine '%s' -semantics %s -k %d -steps %d FILE`\n", sv.Engine, o.SemanticsName(), o.K, o.Steps)
			}
			fmt.Fprintf(&b, "\n```\n%s```\n", javalite.Print(r.Program))
		}
	}
	if !any {
		b.WriteString("\nNone.\n")
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// mdEscape keeps a one-line reason from breaking a table or list.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", "\\|")
	return s
}

// writeFixedBugs writes every shrunk counterexample of the surveys into dir
// as a regression case. Each program is run on every variant to fill in the
// header: the variants that break the same lemma at the same rule
// (`variant:`), those on which it holds (`holds:`), and the rest as a
// comment. The same program found for several variants is written once.
func writeFixedBugs(dir string, svs []*checker.Survey, base checker.Options, cmdline string, now time.Time) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	solver, err := smt.NewSolver()
	if err != nil {
		return nil, err
	}
	defer solver.Close()
	written := map[string]bool{} // program text + lemma + rule
	var files []string
	for _, sv := range svs {
		for _, s := range sv.Lemmas {
			cx := s.Counterexample
			if s.Status() != checker.Violated || cx == nil {
				continue
			}
			v := cx.Shrunk.Verdict
			src := javalite.Print(cx.Shrunk.Program)
			key := src + "\x00" + string(v.Lemma) + "\x00" + v.Rule
			if written[key] {
				continue
			}
			written[key] = true
			c := &checker.Case{Lemma: v.Lemma, Rule: v.Rule, K: base.K, Steps: base.Steps, Semantics: base.SemanticsName()}
			var other []string
			for _, variant := range summary.Variants() {
				opt := base
				opt.Engine = "summary:" + variant.Name
				rep, err := checker.Run(context.Background(), cx.Shrunk.Program, opt, solver)
				if err != nil {
					return files, fmt.Errorf("cross-checking %s/%s on %s: %w", sv.Variant, s.Lemma, variant.Name, err)
				}
				rv := rep.Verdict
				switch {
				case rv.Status == checker.Violated && rv.Lemma == v.Lemma && rv.Rule == v.Rule:
					c.Refutes = append(c.Refutes, variant.Name)
				case rv.Status == checker.Holds:
					c.Holds = append(c.Holds, variant.Name)
				case rv.Status == checker.Violated:
					other = append(other, fmt.Sprintf("%s (%s %s)", variant.Name, rv.Lemma, ruleText(rv.Rule)))
				default:
					other = append(other, fmt.Sprintf("%s (inconclusive: %s)", variant.Name, rv.Lemma))
				}
			}
			if !contains(c.Refutes, sv.Variant) {
				// Replaying the shrunk program did not reproduce the
				// violation (a timeout, say): it is no regression case.
				return files, fmt.Errorf("%s/%s: the shrunk counterexample does not reproduce on replay", sv.Variant, s.Lemma)
			}
			var b bytes.Buffer
			fmt.Fprintf(&b, "; Regression case: %s, %s (%s).\n", v.Lemma, checker.Claim[v.Lemma], ruleText(v.Rule))
			fmt.Fprintf(&b, "; Found by `%s` on %s: variant %s, program %d of the stream (program seed %d), %d lines,",
				cmdline, now.Format("2006-01-02"), sv.Variant, cx.After-1, cx.Seed, checker.Lines(cx.Found.Program))
			if cx.IsShrunk {
				fmt.Fprintf(&b, " shrunk to %d.\n", checker.Lines(cx.Shrunk.Program))
			} else {
				b.WriteString(" not shrunk.\n")
			}
			fmt.Fprintf(&b, "; Reason: %s\n", strings.ReplaceAll(v.Reason, "\n", " "))
			if len(other) > 0 {
				sort.Strings(other)
				fmt.Fprintf(&b, "; Other variants: %s\n", strings.Join(other, ", "))
			}
			b.WriteString(c.Header())
			b.WriteString("\n")
			b.WriteString(src)
			name := filepath.Join(dir, fmt.Sprintf("%s_%s.jl", sv.Variant, v.Lemma))
			if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
				return files, err
			}
			files = append(files, name)
		}
	}
	return files, nil
}

func ruleText(r string) string {
	if r == "" {
		return "separate explorations"
	}
	return "rule " + r
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
