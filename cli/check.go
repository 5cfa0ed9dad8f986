package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/internal/report"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/jvm"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

func init() {
	register(&command{
		name:   "check",
		short:  "run an engine in lockstep with GSE and check every lemma (given or generated programs)",
		usage:  "[flags] FILE... | -gen [-n N] [-seed S] [-data none|mixed]",
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
	maxPairs int
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
	fs.IntVar(&c.maxGroup, "max-group", checker.FileMaxGroup, fmt.Sprintf("largest set of GSE states in one pair before the check is inconclusive (named programs; generated ones, -gen and lemmas: the hunt's %d, checker.DefaultOptions)", checker.DefaultOptions().MaxGroup))
	fs.IntVar(&c.maxPairs, "max-pairs", checker.FileMaxPairs, fmt.Sprintf("most pairs (GSE group, engine state) one program may check before the check is inconclusive (named programs; generated ones: the hunt's %d)", checker.DefaultOptions().MaxPairs))
}

// huntBounds sets the group and pair bounds that were not given to a
// hunt's (checker.DefaultOptions), for the commands that check generated
// programs; the flags' defaults are those of named programs
// (checker.FileOptions).
func (c *checkFlags) huntBounds(fs *flag.FlagSet) {
	if !flagSet(fs, "max-group") {
		c.maxGroup = checker.DefaultOptions().MaxGroup
	}
	if !flagSet(fs, "max-pairs") {
		c.maxPairs = checker.DefaultOptions().MaxPairs
	}
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
	steps := 1 // unset: the engine's default, in range
	if c.steps.set {
		steps = c.steps.v
	}
	for _, err := range []error{atLeast("workers", c.workers, 1), atLeast("steps", steps, 1), kRange("k", c.k.v),
		positive("timeout", c.timeout), atLeast("max-group", c.maxGroup, 1), atLeast("max-pairs", c.maxPairs, 1)} {
		if err != nil {
			return checker.Options{}, err
		}
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
	opt.Timeout, opt.NoExactness, opt.MaxGroup, opt.MaxPairs = c.timeout, c.noExact, c.maxGroup, c.maxPairs
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
	data := fs.String("data", "", "with -gen: data in the programs: mixed (int and bool fields, arithmetic, comparisons) or none (the reference-only stream of before data, program for program); default: mixed for an engine with data rules, none for one without")
	asJSON := fs.Bool("json", false, "print one JSON document: with files {\"reports\": [one per file], counts, \"exit_code\"}, with -gen the run's summary")
	engines := fs.String("engines", "", "with files: check them under each of these engines (comma-separated NAME[:VARIANT]) at each k of -ks and print the verdicts as one Markdown table, with the command, commit, date and machine in its header (docs/results/trees.md)")
	ksFlag := fs.String("ks", "", "with -engines: the k-bounds, comma-separated (default: each engine's default k)")
	save := fs.String("save", "", "with -gen: write the shrunk counterexample into this `DIR` as a regression case (the header of testdata/fixedbugs; replay with checker.Replay or lockstep check); default: a new temporary directory, whose path the report prints")
	dotDir := fs.String("dot", "", "write DOT pictures of both sides of a counterexample into this directory (default: a temporary directory); with files, each file's are named after it (FILE-ENGINE.dot, FILE-gse.dot)")
	var shrink shrinkFlags
	shrink.register(fs, "with -gen: ", 0)
	coverage := fs.Bool("coverage", false, "with -gen: instead of checking, measure which data rules of PRIMITIVES.md the stream reaches, in which outcome (checker.DataCoverage), and print the table")
	allowExec := fs.Bool("allow-exec", false, "let a case file's header name an engine that runs a command (exec:); without it such a header is refused and nothing is started (a case file is data)")
	shardSpec := shardFlag(fs)
	oracle := fs.String("oracle", "interp", "ORC's concrete side: interp (lockstep's interpreter) or jvm (the program exported to Java and run on the JVM: slower, for soaks and CI shards; docs/JVM.md)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *useGen {
		cf.huntBounds(fs)
	}
	opt, err := cf.options()
	if err != nil {
		return err
	}
	switch *oracle {
	case "interp":
	case "jvm":
		if opt.Semantics != (machine.Options{}) {
			return usageError("-oracle jvm: the JVM runs the Java semantics only (use -semantics java)")
		}
		if !jvm.HaveJDK() {
			return usageError("-oracle jvm: %v", jvm.ErrNoJDK)
		}
		orc, err := jvm.NewORC(ctx, "")
		if err != nil {
			return err
		}
		defer orc.Close()
		opt.Runner, opt.Also = orc.Run, orc.Also
	default:
		return usageError("-oracle %q: want interp or jvm", *oracle)
	}
	if err := atLeast("n", *n, 1); err != nil {
		return err
	}
	if err := shrink.validate(); err != nil {
		return err
	}
	shard, err := shardOf(*shardSpec, *n)
	if err != nil {
		return err
	}
	dataMode, err := dataFor(*data, opt)
	if err != nil {
		return err
	}
	if *useGen {
		if fs.NArg() > 0 {
			return usageError("-gen takes no files")
		}
		if *coverage {
			return printCoverage(ctx, opt, *n, *seed, dataMode, shard, *asJSON, stdout)
		}
		g := genRun{opt: opt, workers: cf.workers, n: *n, seed: *seed, data: dataMode, shard: shard, shrink: shrink.bound(), asJSON: *asJSON, dotDir: *dotDir, save: *save,
			cmdline: shellCommand(append([]string{"lockstep", "check"}, args...))}
		return g.run(ctx, stdout, stderr)
	}
	if !shard.Whole() {
		return usageError("-shard splits the generated stream: it needs -gen")
	}
	if *coverage {
		return usageError("-coverage measures the generated stream: it needs -gen")
	}
	if *save != "" {
		return usageError("-save keeps the counterexamples of -gen")
	}
	if err := genOnly(fs, "n", "seed", "data", "shrink-time", "shrink-steps"); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("no files (or use -gen)")
	}
	progs, err := loadPrograms(fs.Args(), stderr)
	if err != nil {
		return err
	}
	opts, notes, err := caseOptions(fs, cf, opt, progs, *allowExec)
	if err != nil {
		return err
	}
	for i, p := range progs {
		for _, spec := range []string{opts[i].EngineSpec(), opts[i].Versus} {
			if spec == "" {
				continue
			}
			if err := refuseData(spec, p); err != nil {
				return err
			}
		}
	}
	if *engines != "" {
		if *asJSON || cf.k.set || cf.eng.engine != "" || cf.eng.variant != "" || cf.versus != "" {
			return usageError("-engines prints one Markdown table of its engines at the k-bounds of -ks: it does not take -json, -k, -engine, -variant or -vs")
		}
		ks := []int{}
		if *ksFlag != "" {
			if ks, err = parseKs(*ksFlag); err != nil {
				return usageError("%v", err)
			}
		}
		var list []string
		for _, e := range strings.Split(*engines, ",") {
			if e = strings.TrimSpace(e); e != "" {
				list = append(list, e)
			}
		}
		return checkMatrix(ctx, cf, list, ks, progs, "lockstep check "+strings.Join(args, " "), stdout, stderr)
	}
	if *ksFlag != "" {
		return usageError("-ks goes with -engines")
	}
	// The first-contact note is for a check of the default engine: one
	// that names an engine or variant asked for that engine's verdict.
	explain := !flagSet(fs, "engine") && !flagSet(fs, "variant")
	return checkFiles(ctx, opts, notes, explain, cf.workers, progs, *asJSON, *dotDir, stdout, stderr)
}

// caseHeader matches the line that makes a file a regression case
// (checker.ParseCase): `; variant: ...`.
var caseHeader = regexp.MustCompile(`(?m)^[ \t]*;[ \t]*variant[ \t]*:`)

// caseOptions are the options of each named file. A case file (a program
// with the header of testdata/fixedbugs, as check -gen -save writes it) is
// checked with the engine, k, step bound and semantics its header records,
// each unless its flag is given (-engine or -variant, -k, -steps,
// -semantics), and its note says which it used; any other file with base.
// A header is data: one naming an engine that runs a command (exec:) is
// refused, before anything starts, unless -allow-exec.
func caseOptions(fs *flag.FlagSet, cf checkFlags, base checker.Options, progs []*javalite.Program, allowExec bool) ([]checker.Options, []string, error) {
	opts := make([]checker.Options, len(progs))
	notes := make([]string, len(progs))
	engineGiven := flagSet(fs, "engine") || flagSet(fs, "variant")
	for i, p := range progs {
		opts[i] = base
		src, err := os.ReadFile(p.File)
		if err != nil || !caseHeader.Match(src) {
			continue
		}
		c, err := checker.ParseCase(p.File, src)
		if err != nil {
			return nil, nil, usageError("%v", err)
		}
		one := cf
		var used, flags []string
		if engineGiven {
			flags = append(flags, "engine")
		} else {
			if err := checker.CheckCaseEngines(c, checker.ReplayOptions{AllowExec: allowExec}); err != nil {
				return nil, nil, usageError("%v", err)
			}
			one.eng.engine, one.eng.variant = checker.CaseSpec(c.Refutes[0]), ""
			used = append(used, "engine "+one.eng.engine)
		}
		if cf.k.set {
			flags = append(flags, "k")
		} else {
			one.k = optionalInt{v: c.K, set: true}
			used = append(used, fmt.Sprintf("k %d", c.K))
		}
		if cf.steps.set {
			flags = append(flags, "steps")
		} else {
			one.steps = optionalInt{v: c.Steps, set: true}
			used = append(used, fmt.Sprintf("steps %d", c.Steps))
		}
		if flagSet(fs, "semantics") {
			flags = append(flags, "semantics")
		} else {
			one.semantic = cmp.Or(c.Semantics, machine.SemJava)
			used = append(used, "semantics "+one.semantic)
		}
		if opts[i], err = one.options(); err != nil {
			return nil, nil, fmt.Errorf("%s: the case header: %w", p.File, err)
		}
		note := "the case header's " + strings.Join(used, ", ")
		if len(used) == 0 {
			note = "the flags, not the case header"
		} else if len(flags) > 0 {
			note += "; -" + strings.Join(flags, ", -") + " from the flags"
		}
		if len(c.Refutes) > 1 && !engineGiven {
			note += fmt.Sprintf(" (the header also names %s: check each with -engine)", strings.Join(c.Refutes[1:], ", "))
		}
		notes[i] = note
	}
	return opts, notes, nil
}

// refuseData is exit 2 for a program with data and an engine without the
// data rules (engine.Info.Data): one line naming the file and what to use,
// never a verdict about rules the engine does not have.
func refuseData(spec string, progs ...*javalite.Program) error {
	refusal := engine.RefuseData(spec)
	if refusal == nil {
		return nil
	}
	for _, p := range progs {
		if machine.UsesData(p) {
			return usageError("%s: %v", p.File, refusal)
		}
	}
	return nil
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

// filesJSON is the -json document of check on files: one report per file,
// in the order given, the counts of programs by verdict, and the status.
type filesJSON struct {
	Semantics    string       `json:"semantics"`
	Programs     int          `json:"programs"`
	Holds        int          `json:"holds"`
	Violated     int          `json:"violated"`
	Inconclusive int          `json:"inconclusive"`
	NotChecked   int          `json:"not_checked"` // cut short by an interruption
	Reports      []fileReport `json:"reports"`
	report.Status
}

type fileReport struct {
	Semantics string `json:"semantics"`
	// Case says which options of a case file's header the check used
	// (caseOptions); empty for a file without one.
	Case string `json:"case,omitempty"`
	*checker.JSONReport
	// Note explains a violation of summary:published (the default
	// engine): the finding it shows and what summary:fixed says
	// (checker.ExplainPublished).
	Note string `json:"note,omitempty"`
}

// checkFiles checks progs[i] with opts[i] and prints each report, after
// notes[i] when there is one.
func checkFiles(ctx context.Context, opts []checker.Options, notes []string, explain bool, workers int, progs []*javalite.Program, asJSON bool, dotDir string, stdout, stderr io.Writer) error {
	reps := make([]*checker.Report, len(progs))
	var done atomic.Int64
	// The files with the same options are checked together (a case file
	// may have options of its own), in the order of their first file.
	var groups [][]int
	key := func(o checker.Options) string {
		return fmt.Sprintf("%s|%s|%d|%d|%s", o.EngineSpec(), o.Versus, o.K, o.Steps, o.SemanticsName())
	}
	at := map[string]int{}
	for i, o := range opts {
		g, ok := at[key(o)]
		if !ok {
			g = len(groups)
			at[key(o)] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	var err error
	for _, idx := range groups {
		if ctx.Err() != nil {
			break
		}
		err = checker.Each(ctx, opts[idx[0]], len(idx), workers,
			func(j int) (*javalite.Program, string) { return progs[idx[j]], progs[idx[j]].File },
			func(j int, rep *checker.Report) {
				i := idx[j]
				reps[i] = rep
				progressLine(stderr, "%d/%d programs (%s: %s)", done.Add(1), len(progs), progs[i].File, rep.Verdict.Status)
			})
		if err != nil {
			break
		}
	}
	if err != nil && ctx.Err() == nil {
		return internalError{err}
	}
	opt := opts[0]
	doc := filesJSON{Semantics: opt.SemanticsName(), Programs: len(progs), Reports: []fileReport{}}
	filePrefixes := picturePrefixes(progs)
	for i, rep := range reps {
		opt := opts[i]
		if notes[i] != "" && !asJSON {
			fmt.Fprintf(stdout, "%s: checked with %s\n", progs[i].File, notes[i])
		}
		if rep == nil {
			// Cut short by an interruption: Each reports nothing for it.
			doc.NotChecked++
			if asJSON {
				doc.Reports = append(doc.Reports, fileReport{Semantics: opt.SemanticsName(), Case: notes[i], JSONReport: &checker.JSONReport{File: progs[i].File, Status: "not checked", Checked: map[string]int{}}})
			} else {
				fmt.Fprintf(stdout, "%s: not checked (%s)\n", progs[i].File, interruptNote(ctx))
			}
			continue
		}
		switch rep.Verdict.Status {
		case checker.Violated:
			doc.Violated++
		case checker.Inconclusive:
			doc.Inconclusive++
		default:
			doc.Holds++
		}
		note := ""
		if explain {
			note = explainPublished(ctx, progs[i], opt, rep, stderr)
		}
		if asJSON {
			j := rep.JSON()
			doc.Reports = append(doc.Reports, fileReport{Semantics: opt.SemanticsName(), Case: notes[i], JSONReport: &j, Note: note})
			continue
		}
		fmt.Fprintf(stdout, "%s: %s", progs[i].File, rep.Text(false))
		if note != "" {
			fmt.Fprintln(stdout, note)
		}
		if rep.Verdict.Status == checker.Violated {
			writeVerdictPictures(rep, dotDir, filePrefixes[i], stdout)
		}
	}
	return endFiles(ctx, stdout, asJSON, &doc, &doc.Status, doc.Violated > 0, doc.Inconclusive > 0)
}

// explainPublished is the one line that goes with a violation of the
// default engine's published rules: the finding it shows and what the fixed
// rules say on the same program (checker.ExplainPublished); "" for any
// other report, or when the explanation could not be had.
func explainPublished(ctx context.Context, p *javalite.Program, opt checker.Options, rep *checker.Report, stderr io.Writer) string {
	if rep.Verdict.Status != checker.Violated || ctx.Err() != nil {
		return ""
	}
	progressLine(stderr, "%s: checking -variant fixed on it", p.File)
	n, err := checker.ExplainPublished(ctx, p, opt, rep, nil)
	if err != nil || n == nil || ctx.Err() != nil {
		return ""
	}
	return n.Line()
}

// picturePrefixes name each file's pictures after the file, so that the
// pictures of one file do not replace another's in the same -dot
// directory: "swap-" for swap.jl, with the file's position added when two
// files share a name ("swap-2-").
func picturePrefixes(progs []*javalite.Program) []string {
	base := func(p *javalite.Program) string {
		return safeFileName(strings.TrimSuffix(filepath.Base(p.File), filepath.Ext(p.File)))
	}
	count := map[string]int{}
	for _, p := range progs {
		count[base(p)]++
	}
	out := make([]string, len(progs))
	for i, p := range progs {
		b := base(p)
		if count[b] > 1 {
			b = fmt.Sprintf("%s-%d", b, i+1)
		}
		out[i] = b + "-"
	}
	return out
}

// writeVerdictPictures writes DOT pictures of both sides of a violation,
// their file names starting with prefix.
func writeVerdictPictures(rep *checker.Report, dir, prefix string, w io.Writer) {
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
	ref, refTitle := "gse", "GSE"
	if rep.Versus != "" {
		ref, _ = engine.Split(rep.Versus)
		refTitle = ref
	}
	under, reference := pictureNames(side, ref)
	under, reference = prefix+under, prefix+reference
	write(under, sum, side+" state, "+string(rep.Verdict.Lemma))
	write(reference, g, refTitle+" state, "+string(rep.Verdict.Lemma))
}

// pictureNames are the files a counterexample's pictures are written to,
// named after the engine under test and the reference (gse.dot, or the -vs
// engine's): each name made safe for a file name (an exec: engine is a
// command line), the reference's "NAME-ref.dot" if the two would share one.
func pictureNames(under, ref string) (string, string) {
	u, r := safeFileName(under)+".dot", safeFileName(ref)+".dot"
	if u == r {
		r = safeFileName(ref) + "-ref.dot"
	}
	return u, r
}

// safeFileName makes n a short file name: letters, digits, '-', '_' and
// '#' kept, anything else '-', at most 40 bytes.
func safeFileName(n string) string {
	n = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '#' {
			return r
		}
		return '-'
	}, n)
	if len(n) > 40 {
		n = n[:40]
	}
	return n
}

// maxUndecidedLines bounds the inconclusive programs listed in the text
// output (the JSON lists all of them).
const maxUndecidedLines = 10

// printUndecided lists the inconclusive programs for people, with the
// command that checks one of them alone.
func printUndecided(w io.Writer, sum report.Generated) {
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

// printSlowest prints the slowest programs of a run on one line, with
// their share of the checking time when there is more than one program.
func printSlowest(w io.Writer, sum report.Generated) {
	if len(sum.Slowest) == 0 || sum.Programs < 2 {
		return
	}
	var b strings.Builder
	total := 0.0
	for i, t := range sum.Slowest {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "program %d %.1fs (%s)", t.Index, t.Seconds, t.Status)
		total += t.Seconds
	}
	if sum.CheckSeconds > 0 {
		fmt.Fprintf(&b, ": %.0f %% of the checking time", 100*total/sum.CheckSeconds)
	}
	fmt.Fprintf(w, "  slowest: %s\n", b.String())
}

// genRun is one run of check -gen.
type genRun struct {
	opt          checker.Options
	workers, n   int
	seed         int64
	data         gen.DataMode
	shard        checker.Shard
	shrink       checker.ShrinkBound
	asJSON       bool
	dotDir, save string
	cmdline      string
}

func (g genRun) run(ctx context.Context, stdout, stderr io.Writer) error {
	opt, shard, n := g.opt, g.shard, g.n
	prog := newProgress(stderr, shard.Len(n))
	var done, holds, inconcl atomic.Int64
	stop := prog.start(func() (int64, string) {
		return done.Load(), fmt.Sprintf("%d hold, %d inconclusive", holds.Load(), inconcl.Load())
	})
	mt := newMemTrace(stderr)
	res, err := checker.Hunt(ctx, opt, checker.HuntOptions{
		N: n, Seed: g.seed, Data: g.data, Shard: shard, Workers: g.workers, ShrinkSteps: g.shrink.Steps, ShrinkTime: g.shrink.Time,
		Progress: func(d, h, i int64) {
			mt.done(d)
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
	sum := report.Generated{
		Variant: opt.Label(), Semantics: opt.SemanticsName(), K: opt.K, Steps: opt.Steps, N: n, StreamSeed: g.seed, Shard: shard.String(), Programs: res.Programs, Holds: res.Holds, Inconclusive: res.Inconclusive,
		Violated: res.Violated, Seconds: res.Elapsed.Seconds(), Settings: report.SettingsOf(opt, g.data),
	}
	if sum.Seconds > 0 {
		sum.PerSecond = float64(sum.Programs) / sum.Seconds
	}
	for _, u := range res.Undecided {
		sum.Undecided = append(sum.Undecided, report.Undecided{Index: u.Index, Seed: u.Seed, Lemma: string(u.Lemma), Reason: u.Reason})
	}
	for _, t := range res.Slowest {
		sum.Slowest = append(sum.Slowest, report.Timed{Index: t.Index, Seed: t.Seed, Seconds: t.Elapsed.Seconds(), Status: t.Status.String()})
	}
	sum.CheckSeconds = res.CheckTime.Seconds()
	cx := res.Counterexamples[res.First]
	interrupted := ctx.Err() != nil
	sum.ExitCode = report.Exit("", false, cx != nil, sum.Inconclusive > 0)
	if interrupted {
		sum.Status = interruptedStatus(ctx)
	}
	if cx != nil {
		seed, index := cx.Seed, cx.Index
		sum.FailingSeed, sum.FailingIndex, sum.Shrunk, sum.FoundLines = &seed, &index, cx.IsShrunk, checker.Lines(cx.Found.Program)
		j := cx.Shrunk.JSON()
		sum.Counterexample = &j
		if file, err := saveCase(g.save, cx, opt, g.cmdline); err != nil {
			fmt.Fprintf(stderr, "lockstep check: cannot save the counterexample: %v\n", err)
		} else {
			sum.Saved = file
		}
	}
	if g.asJSON {
		if err := encodeIndented(stdout, sum); err != nil {
			return err
		}
		return exitErr(sum.ExitCode)
	}
	if cx == nil {
		head := fmt.Sprintf("variant %s, semantics %s:", sum.Variant, sum.Semantics)
		if interrupted {
			head = fmt.Sprintf("variant %s, semantics %s: %s after", sum.Variant, sum.Semantics, interruptNote(ctx))
		}
		fmt.Fprintf(stdout, "%s %s, %d hold, %d inconclusive, 0 violated (stream seed %d; %.1fs, %.1f programs/s)\n",
			head, plural(sum.Programs, "program"), sum.Holds, sum.Inconclusive, g.seed, sum.Seconds, sum.PerSecond)
		printUndecided(stdout, sum)
		printSlowest(stdout, sum)
		return exitErr(sum.ExitCode)
	}
	if interrupted {
		fmt.Fprintf(stdout, "variant %s: %s after %s (%d hold, %d inconclusive, %d violated); the counterexample found so far:\n",
			sum.Variant, interruptNote(ctx), plural(sum.Programs, "program"), sum.Holds, sum.Inconclusive, sum.Violated)
	}
	fmt.Fprintf(stdout, "variant %s, semantics %s: counterexample at program %d of the stream (stream seed %d, program seed %d), after %s (%.1fs; found with %d lines",
		sum.Variant, sum.Semantics, cx.Index, g.seed, cx.Seed, plural(cx.After, "program"), cx.Time.Seconds(), checker.Lines(cx.Found.Program))
	if cx.IsShrunk {
		fmt.Fprintf(stdout, ", shrunk to %d)\n", checker.Lines(cx.Shrunk.Program))
	} else {
		fmt.Fprintf(stdout, ", could not shrink)\n")
	}
	fmt.Fprint(stdout, cx.Shrunk.Text(false))
	if sum.Saved != "" {
		fmt.Fprintf(stdout, "saved: %s (replay: %s)\n", sum.Saved, replayCommand(opt, sum.Saved))
	}
	writeVerdictPictures(cx.Shrunk, g.dotDir, "", stdout)
	return exitErr(sum.ExitCode)
}

// saveCase writes the shrunk counterexample as a regression case into
// dir (a new temporary directory when dir is ""), named after the engine,
// the lemma and the program seed, and returns its path.
func saveCase(dir string, cx *checker.Counterexample, opt checker.Options, cmdline string) (string, error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "lockstep-cases-")
		if err != nil {
			return "", err
		}
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	name := strings.NewReplacer(":", "-", "+", "-", "#", "sharp", "/", "-").Replace(opt.EngineSpec())
	file := filepath.Join(dir, fmt.Sprintf("%s_%s_%d.jl", name, cx.Shrunk.Verdict.Lemma, cx.Seed))
	return file, os.WriteFile(file, cx.CaseFile(opt, cmdline), 0o644)
}

// replayCommand is the command line that checks a saved case again, each
// word quoted for a POSIX shell (a file name with a space, an exec: engine
// with quotes).
func replayCommand(opt checker.Options, file string) string {
	return shellCommand([]string{"lockstep", "check", "-engine", opt.EngineSpec(), "-semantics", opt.SemanticsName(),
		"-k", strconv.Itoa(opt.K), "-steps", strconv.Itoa(opt.Steps), file})
}

// shellCommand joins words into a command line for a POSIX shell.
func shellCommand(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shellQuote(w)
	}
	return strings.Join(q, " ")
}

// shellQuote quotes s for a POSIX shell: as it is when it has only
// characters no shell reads specially, else in single quotes (a single
// quote inside as '\”).
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:,+=@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// dataFor is the -data switch: as given, or by default mixed for an engine
// with data rules (engine.Info.Data) and none for one without, whose
// checks would all be refused.
func dataFor(flag string, opt checker.Options) (gen.DataMode, error) {
	if flag == "" {
		if checker.RefuseData(opt) != nil {
			return gen.DataNone, nil
		}
		return gen.DataMixed, nil
	}
	d, err := gen.ParseDataMode(flag)
	if err != nil {
		return 0, usageError("-data: %v", err)
	}
	if d == gen.DataMixed {
		if err := checker.RefuseData(opt); err != nil {
			return 0, usageError("-data mixed: %v", err)
		}
	}
	return d, nil
}

// printCoverage is check -gen -coverage: the data rule coverage of the
// stream's programs (of the shard), at the check's k (GSE and the summary
// engine; 2 when the engine's own is −1) and step bound.
func printCoverage(ctx context.Context, opt checker.Options, n int, seed int64, data gen.DataMode, shard checker.Shard, asJSON bool, stdout io.Writer) error {
	progs := make([]*javalite.Program, shard.Len(n))
	for j := range progs {
		progs[j] = checker.ProgramOfData(checker.ProgramSeed(seed, shard.Index(j)), data)
	}
	k := opt.K
	if k < 0 {
		k = engine.PapersK
	}
	cov, err := checker.DataCoverage(ctx, progs, checker.CoverageOptions{K: k, Steps: opt.Steps}, nil)
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return internalError{err}
	}
	if asJSON {
		return encodeIndented(stdout, cov)
	}
	fmt.Fprintf(stdout, "stream seed %d, data %s, k = %d, step bound %d:\n", seed, data, k, opt.Steps)
	cov.Write(stdout)
	return nil
}
