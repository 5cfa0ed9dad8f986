package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/internal/report"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// order reports lemma P4 (checker/order.go): the papers' ordering of the
// engines by path count, #summary ≤ #lazier# ≤ #lazier ≤ #GSE, compared
// program by program on separate explorations of each engine. P4 is not a
// lemma of `check` (it is a claim across engines, reported, not enforced
// there); here it is the property the command checks, so a failed
// inequality exits 1, an undecided one 3.
func init() {
	register(&command{
		name:   "order",
		short:  "compare the engines' path counts (lemma P4: summary ≤ lazier# ≤ lazier ≤ GSE) on given or generated programs",
		usage:  "[flags] FILE... | -gen [-n N] [-seed S]",
		runCtx: runOrder,
	})
}

type orderJSON struct {
	File    string                        `json:"file,omitempty"`
	Program string                        `json:"program"`
	K       int                           `json:"k"`
	Steps   int                           `json:"step_bound"`
	Counts  map[string]checker.PathCounts `json:"counts"`
	Claims  []orderClaimJSON              `json:"claims"`
}

type orderClaimJSON struct {
	Claim  string `json:"claim"`
	Status string `json:"status"` // holds, fails, inconclusive
	Cut    bool   `json:"cut"`
	Reason string `json:"reason,omitempty"`
}

func orderReportJSON(r *checker.OrderReport) orderJSON {
	j := orderJSON{File: r.Program.File, Program: javalite.Print(r.Program), K: r.K, Steps: r.Steps, Counts: r.Counts}
	for _, c := range r.Claims {
		j.Claims = append(j.Claims, orderClaimJSON{Claim: c.OrderClaim.String(), Status: orderStatus(c.Status), Cut: c.Cut, Reason: c.Reason})
	}
	return j
}

func orderStatus(s checker.Status) string {
	switch s {
	case checker.Holds:
		return "holds"
	case checker.Violated:
		return "fails"
	}
	return "inconclusive"
}

type orderTallyJSON struct {
	Claim        string     `json:"claim"`
	Held         int        `json:"held"`
	HeldUncut    int        `json:"held_uncut"`
	Failed       int        `json:"failed"`
	FailedUncut  int        `json:"failed_uncut"`
	Inconclusive int        `json:"inconclusive"`
	Found        *orderJSON `json:"found,omitempty"`
	Shrunk       *orderJSON `json:"shrunk,omitempty"`
	Seed         int64      `json:"seed,omitempty"`
	Index        int        `json:"index,omitempty"`
	FoundLines   int        `json:"found_lines,omitempty"`
	ShrunkLines  int        `json:"shrunk_lines,omitempty"`
}

type orderGenJSON struct {
	K          int              `json:"k"`
	Steps      int              `json:"step_bound"`
	Semantics  string           `json:"semantics"`
	N          int              `json:"n"`
	StreamSeed int64            `json:"stream_seed"`
	Shard      string           `json:"shard,omitempty"`
	Programs   int              `json:"programs"`
	Claims     []orderTallyJSON `json:"claims"`
	Seconds    float64          `json:"seconds"`
	report.Status
}

func runOrder(ctx context.Context, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	def := checker.DefaultOrderOptions()
	k := fs.Int("k", def.K, "k-bound on input depth, the same in every engine (P4 is a k = −1 claim)")
	steps := fs.Int("steps", def.Steps, "step bound, the same in every engine")
	var sem string
	semanticsVar(fs, &sem)
	engines := fs.String("engines", "", "comma-separated engines (NAME[:VARIANT]) to compare: only the claims between two of them (default: every claim of P4)")
	workers := fs.Int("workers", 2, "parallel workers, one Z3 context each")
	timeout := fs.Duration("timeout", def.Timeout, "time limit per program, all engines together (exceeding it is inconclusive)")
	maxPaths := fs.Int("max-paths", def.MaxPaths, "most path ends of one engine on one program (exceeding it is inconclusive)")
	useGen := fs.Bool("gen", false, "compare on generated programs instead of files")
	n := fs.Int("n", 100, "with -gen: number of programs")
	seed := fs.Int64("seed", 1, "with -gen: seed of the program stream")
	var shrink shrinkFlags
	shrink.register(fs, "with -gen: ", 0)
	asJSON := fs.Bool("json", false, "print one JSON document: with files {\"reports\": [one per file], counts, \"exit_code\"}, with -gen the run's summary")
	var claims []checker.OrderClaim
	fs.Func("claim", "an inequality of path counts to compare, 'LESS <= MORE' (engine specs; repeatable), instead of P4's: for engines outside P4's chain ('exec:COMMAND <= gse')", func(v string) error {
		less, more, ok := strings.Cut(v, "<=")
		if !ok {
			return fmt.Errorf("want LESS <= MORE, got %q", v)
		}
		c := checker.OrderClaim{Less: strings.TrimSpace(less), More: strings.TrimSpace(more)}
		for _, e := range []*string{&c.Less, &c.More} {
			canon, err := engine.Canonical(*e)
			if err != nil {
				return err
			}
			*e = canon
		}
		claims = append(claims, c)
		return nil
	})
	shardSpec := shardFlag(fs)
	answerBoundFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	machineOpt, err := machine.ParseSemantics(sem)
	if err != nil {
		return fmt.Errorf("-semantics: %w", err)
	}
	for _, err := range []error{atLeast("workers", *workers, 1), kRange("k", *k), atLeast("steps", *steps, 1),
		positive("timeout", *timeout), atLeast("max-paths", *maxPaths, 1), atLeast("n", *n, 1), shrink.validate()} {
		if err != nil {
			return err
		}
	}
	opt := checker.OrderOptions{K: *k, Steps: *steps, Semantics: machineOpt, MaxPaths: *maxPaths, Timeout: *timeout}
	if claims != nil {
		if *engines != "" {
			return fmt.Errorf("-claim and -engines exclude each other")
		}
		opt.Claims = claims
	}
	if *engines != "" {
		keep := map[string]bool{}
		for _, e := range strings.Split(*engines, ",") {
			c, err := engine.Canonical(strings.TrimSpace(e))
			if err != nil {
				return err
			}
			keep[c] = true
		}
		opt.Claims = []checker.OrderClaim{}
		for _, c := range checker.P4Claims {
			less, _ := engine.Canonical(c.Less)
			more, _ := engine.Canonical(c.More)
			if keep[less] && keep[more] {
				opt.Claims = append(opt.Claims, c)
			}
		}
	}
	sol, err := smt.NewSolver()
	if err != nil {
		return err
	}
	err = opt.Validate(sol)
	sol.Close()
	if err != nil {
		return err
	}
	shard, err := shardOf(*shardSpec, *n)
	if err != nil {
		return err
	}
	if *useGen {
		if fs.NArg() > 0 {
			return fmt.Errorf("-gen takes no files")
		}
		return orderGenerated(ctx, opt, checker.HuntOptions{N: *n, Seed: *seed, Shard: shard, Workers: *workers, ShrinkSteps: shrink.bound().Steps, ShrinkTime: shrink.time}, sem, *asJSON, stdout, stderr)
	}
	if !shard.Whole() {
		return fmt.Errorf("-shard splits the generated stream: it needs -gen")
	}
	if err := genOnly(fs, "n", "seed", "shrink-time", "shrink-steps"); err != nil {
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
	return orderFiles(ctx, opt, *workers, progs, *asJSON, stdout, stderr)
}

// orderFiles compares the claims on each file (on workers), and prints
// the reports in the order of the files.
func orderFiles(ctx context.Context, opt checker.OrderOptions, workers int, progs []*javalite.Program, asJSON bool, stdout, stderr io.Writer) error {
	reps := make([]*checker.OrderReport, len(progs))
	var mu sync.Mutex
	done := 0
	err := checker.OrderEach(ctx, opt, len(progs), workers,
		func(i int) (*javalite.Program, string) { return progs[i], progs[i].File },
		func(i int, rep *checker.OrderReport) {
			mu.Lock()
			reps[i] = rep
			done++
			progressLine(stderr, "%d/%d programs (%s: %s)", done, len(progs), progs[i].File, orderStatus(rep.Status()))
			mu.Unlock()
		})
	if err != nil && ctx.Err() == nil {
		return internalError{err}
	}
	doc := struct {
		Programs   int         `json:"programs"`
		Holds      int         `json:"holds"`
		Fails      int         `json:"fails"`
		Undecided  int         `json:"inconclusive"`
		NotChecked int         `json:"not_checked"` // cut short by an interruption
		Reports    []orderJSON `json:"reports"`
		report.Status
	}{Programs: len(progs), Reports: []orderJSON{}}
	worst := checker.Holds
	for i, rep := range reps {
		if rep == nil {
			doc.NotChecked++
			if !asJSON {
				fmt.Fprintf(stdout, "%s: not checked (%s)\n", progs[i].File, interruptNote(ctx))
			}
			continue
		}
		switch rep.Status() {
		case checker.Violated:
			doc.Fails++
		case checker.Inconclusive:
			doc.Undecided++
		default:
			doc.Holds++
		}
		switch st := rep.Status(); {
		case st == checker.Violated:
			worst = st
		case st == checker.Inconclusive && worst == checker.Holds:
			worst = st
		}
		if asJSON {
			doc.Reports = append(doc.Reports, orderReportJSON(rep))
			continue
		}
		fmt.Fprintf(stdout, "%s: ", rep.Program.File)
		fmt.Fprint(stdout, rep.Text())
	}
	return endFiles(ctx, stdout, asJSON, &doc, &doc.Status, worst == checker.Violated, worst == checker.Inconclusive)
}

// orderGenerated hunts for counterexamples to P4 on the generated stream
// and prints, per claim, how many programs held it, failed it, and could
// not decide it, with the shrunk counterexample of each failed claim.
func orderGenerated(ctx context.Context, opt checker.OrderOptions, h checker.HuntOptions, sem string, asJSON bool, stdout, stderr io.Writer) error {
	prog := newProgress(stderr, h.Shard.Len(h.N))
	var done, holds, inconcl atomic.Int64
	stop := prog.start(func() (int64, string) {
		return done.Load(), fmt.Sprintf("%d hold, %d inconclusive", holds.Load(), inconcl.Load())
	})
	h.Progress = func(d, hh, i int64) {
		done.Store(d)
		holds.Store(hh)
		inconcl.Store(i)
		progressLine(stderr, "%d/%d programs (%d hold every claim, %d inconclusive)", d, h.Shard.Len(h.N), hh, i)
	}
	res, err := checker.OrderHunt(ctx, opt, h)
	stop()
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return internalError{err}
	}
	sum := orderGenJSON{K: opt.K, Steps: opt.Steps, Semantics: sem, N: h.N, StreamSeed: h.Seed, Shard: h.Shard.String(), Programs: res.Programs, Seconds: res.Elapsed.Seconds()}
	failed, undecided := false, false
	for _, c := range res.Claims {
		t := res.Tally[c]
		tj := orderTallyJSON{Claim: c.String(), Held: t.Held, HeldUncut: t.HeldUncut, Failed: t.Failed, FailedUncut: t.FailedUncut, Inconclusive: t.Inconclusive}
		if cx := res.Counterexamples[c]; cx != nil {
			f, s := orderReportJSON(cx.Found), orderReportJSON(cx.Shrunk)
			tj.Found, tj.Shrunk, tj.Seed, tj.Index = &f, &s, cx.Seed, cx.Index
			tj.FoundLines, tj.ShrunkLines = checker.Lines(cx.Found.Program), checker.Lines(cx.Shrunk.Program)
		}
		failed = failed || t.Failed > 0
		undecided = undecided || t.Inconclusive > 0
		sum.Claims = append(sum.Claims, tj)
	}
	var result error
	switch {
	case ctx.Err() != nil:
		result = errInterrupted
	case failed:
		result = errViolation
	case undecided:
		result = fmt.Errorf("%w: some claims of P4 are undecided", errInconclusive)
	}
	sum.Status = statusOf(ctx, result)
	if asJSON {
		if err := encodeIndented(stdout, sum); err != nil {
			return err
		}
		return result
	}
	fmt.Fprintf(stdout, "P4 ordering at k = %d, step bound %d, semantics %s: %d programs (seed %d; %.1fs); paths = value + error ends\n",
		opt.K, opt.Steps, sem, res.Programs, h.Seed, res.Elapsed.Seconds())
	for _, t := range sum.Claims {
		fmt.Fprintf(stdout, "  %-24s held %d (%d with no path cut), failed %d (%d with no path cut), inconclusive %d\n",
			t.Claim, t.Held, t.HeldUncut, t.Failed, t.FailedUncut, t.Inconclusive)
	}
	for _, c := range res.Claims {
		cx := res.Counterexamples[c]
		if cx == nil {
			continue
		}
		fmt.Fprintf(stdout, "\ncounterexample to %s: program %d (seed %d), %d lines", c, cx.Index, cx.Seed, checker.Lines(cx.Found.Program))
		if cx.IsShrunk {
			fmt.Fprintf(stdout, ", shrunk to %d\n", checker.Lines(cx.Shrunk.Program))
		} else {
			fmt.Fprintf(stdout, ", not shrunk\n")
		}
		fmt.Fprint(stdout, javalite.Print(cx.Shrunk.Program))
		fmt.Fprint(stdout, cx.Shrunk.Text())
	}
	if ctx.Err() != nil {
		fmt.Fprintf(stdout, "%s: the counts above are of the programs that finished\n", interruptNote(ctx))
	}
	return result
}
