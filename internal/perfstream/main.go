// Command perfstream measures the checker program by program: it checks
// programs of a generated stream (summary:fixed against GSE, one solver,
// as `lockstep check -gen -workers 1` does, without shrinking) and prints
// one line per program: its index, status, lemma ("-" when it holds), the
// process CPU time the check took (user + system, getrusage; the least of
// -rep runs) and its wall time. Two runs' lines compare verdicts program by
// program; docs/PERFORMANCE.md uses it.
//
//	go run ./internal/perfstream -seed 1 -n 200 -timeout 10s > after.txt
//	go run ./internal/perfstream -seed 1 -only held.txt -rep 3 -cpuprofile c.prof
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/smt"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	n := flag.Int("n", 200, "programs 0..n-1 of the stream")
	seed := flag.Int64("seed", 1, "seed of the stream")
	timeout := flag.Duration("timeout", 60*time.Second, "time limit per program (wall)")
	steps := flag.Int("steps", 200, "step bound")
	maxGroup := flag.Int("max-group", 2000, "largest GSE group")
	only := flag.String("only", "", "check only the programs whose index starts a line of this file")
	reps := flag.Int("rep", 1, "runs per program; the least CPU time is printed")
	prof := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "perfstream:", err)
		os.Exit(2)
	}
	var want map[int]bool
	if *only != "" {
		f, err := os.Open(*only)
		if err != nil {
			fail(err)
		}
		want = map[int]bool{}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var i int
			if _, err := fmt.Sscan(sc.Text(), &i); err == nil {
				want[i] = true
			}
		}
		f.Close()
	}
	opt := checker.DefaultOptions()
	opt.Engine = "summary:fixed"
	opt.Timeout, opt.Steps, opt.MaxGroup = *timeout, *steps, *maxGroup
	s, err := smt.NewSolver()
	if err != nil {
		fail(err)
	}
	defer s.Close()
	if err := opt.Validate(s); err != nil {
		fail(err)
	}
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		defer pprof.StopCPUProfile()
	}
	var total time.Duration
	for i := range *n {
		if want != nil && !want[i] {
			continue
		}
		p := checker.ProgramOf(checker.ProgramSeed(*seed, i))
		var rep *checker.Report
		var least time.Duration
		w0 := time.Now()
		for k := range max(1, *reps) {
			s.ResetCache() // every run starts from the same solver caches
			c0 := cpu()
			rep, err = checker.Run(context.Background(), p, opt, s)
			if err != nil {
				fail(fmt.Errorf("program %d: %w", i, err))
			}
			if c := cpu() - c0; k == 0 || c < least {
				least = c
			}
		}
		total += least
		lemma := string(rep.Verdict.Lemma)
		if lemma == "" {
			lemma = "-"
		}
		fmt.Printf("%d %s %s cpu=%.3f wall=%.3f pairs=%d\n", i, rep.Verdict.Status, lemma, least.Seconds(), time.Since(w0).Seconds(), rep.Pairs)
	}
	st := s.Stats()
	fmt.Printf("total cpu=%.3f go-decided=%d from-models=%d cache-hits=%d z3=%d\n", total.Seconds(), st.Decided, st.FromModels, st.CacheHits, st.Queries)
}
