package checker

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// Hunting is checking a stream of generated programs on several workers
// until one breaks a lemma, then shrinking that program to a minimal one.
//
// Each program of the stream is drawn by rapid from a seed of its own
// (ProgramSeed), so that a failing program found by any worker can be
// handed back to rapid, which regenerates it from the same seed and
// shrinks it. rapid is built for `go test`: its settings are flags on
// flag.CommandLine, and it reports to a testing.TB, which shrinkTB
// provides outside tests.

// HuntOptions configure Hunt.
type HuntOptions struct {
	N       int   // programs to check
	Seed    int64 // seed of the program stream
	Shard   Shard // the part of the stream to check (zero: all of it)
	Workers int   // parallel workers, one solver each
	// ShrinkSteps and ShrinkTime bound the shrinking of each
	// counterexample (ShrinkBound: Steps and Time).
	ShrinkSteps int
	ShrinkTime  time.Duration
	// Data is the generator's data switch (gen.Config.Data), as
	// `check -gen`'s -data: the zero value (gen.DataMixed) draws programs
	// with data for an engine with the data rules and the reference-only
	// stream for one without (StreamData); gen.DataNone is always the
	// reference-only stream of before data (-data none).
	Data gen.DataMode
	// All keeps checking after a violation and collects the first
	// violation of every lemma (each shrunk); otherwise Hunt stops at the
	// first violation.
	All bool
	// Progress, if not nil, is called after every program.
	Progress func(done, holds, inconclusive int64)
	// Shrinking, if not nil, is called before each counterexample is
	// shrunk, with its lemma.
	Shrinking func(Lemma)
}

// HuntResult is the outcome of Hunt.
type HuntResult struct {
	Programs, Holds, Inconclusive, Violated int
	// Checked sums, per lemma, the checks that held over all programs.
	Checked map[Lemma]int
	// Counterexamples holds the shrunk counterexample of each violated
	// lemma (only the first one unless All).
	Counterexamples map[Lemma]*Counterexample
	// First is the lemma of the first violation found, or "".
	First   Lemma
	Elapsed time.Duration
	// Undecided lists the inconclusive programs in stream order, so that a
	// user can look at each one (a time limit, a budget, an unknown answer).
	Undecided []Undecided
	// Slowest are the programs whose checks took longest (at most
	// SlowestKept, slowest first), and CheckTime the checks' summed time:
	// on the generated streams a handful of programs take most of it, and
	// they are where a faster checker has to start.
	Slowest   []Timed
	CheckTime time.Duration
}

// SlowestKept is how many of the slowest programs a Hunt reports.
const SlowestKept = 5

// Timed is a program of the stream and how long its check took.
type Timed struct {
	Index   int   // position in the stream
	Seed    int64 // ProgramSeed
	Elapsed time.Duration
	Status  Status
}

// keepSlowest adds t to the slowest-first list ts of at most SlowestKept.
func keepSlowest(ts []Timed, t Timed) []Timed {
	i, _ := slices.BinarySearchFunc(ts, t, func(a, b Timed) int {
		switch {
		case a.Elapsed > b.Elapsed:
			return -1
		case a.Elapsed < b.Elapsed:
			return 1
		}
		return a.Index - b.Index
	})
	if i >= SlowestKept {
		return ts
	}
	ts = slices.Insert(ts, i, t)
	if len(ts) > SlowestKept {
		ts = ts[:SlowestKept]
	}
	return ts
}

// Counterexample is a violation found by Hunt and its shrunk form.
type Counterexample struct {
	Found    *Report // as found
	Shrunk   *Report // after shrinking (== Found if it could not shrink)
	IsShrunk bool
	Seed     int64 // ProgramSeed of the program as found
	Index    int   // its position in the stream
	// After is how many programs had been checked when it was found, and
	// Time how long that took (before shrinking).
	After int
	Time  time.Duration
}

// ProgramSeed is the seed of the i-th program of the stream seed.
func ProgramSeed(seed int64, i int) int64 {
	x := uint64(seed)*0x9E3779B97F4A7C15 + uint64(i)*0xBF58476D1CE4E5B9
	x ^= x >> 31
	return int64(x & (1<<62 - 1))
}

// ProgramOf is the program of a ProgramSeed in the reference-only stream
// (gen.DataNone, `check -gen -data none`), the one every result recorded
// before data names; ProgramOfData names the stream. rapid draws the first
// case of a check from its base seed exactly as Example does, so a
// one-check rapid run with this seed sees the same program.
func ProgramOf(seed int64) *javalite.Program { return ProgramOfData(seed, gen.DataNone) }

// StreamData is the stream a hunt of opt with data switch d draws, as
// `check -gen` chooses it: d, except that the zero gen.DataMixed is the
// reference-only stream for an engine without the data rules (RefuseData),
// whose every check of a program with data would be refused.
func StreamData(opt Options, d gen.DataMode) gen.DataMode {
	if d == gen.DataMixed && RefuseData(opt) != nil {
		return gen.DataNone
	}
	return d
}

// ProgramOfData is ProgramOf in the stream with data switch d.
func ProgramOfData(seed int64, d gen.DataMode) *javalite.Program {
	return gen.ProgramWith(gen.Default.WithData(d)).Example(int(seed))
}

// Hunt checks h.N generated programs with opt.
func Hunt(ctx context.Context, opt Options, h HuntOptions) (*HuntResult, error) {
	start := time.Now()
	res := &HuntResult{Checked: map[Lemma]int{}, Counterexamples: map[Lemma]*Counterexample{}}
	var done, holds, inconcl atomic.Int64
	var mu sync.Mutex
	h.Data = StreamData(opt, h.Data)
	outer := ctx // shrinking stops when the caller's ctx ends, not at the first violation
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	err := stream(ctx, opt, h.N, h.Seed, h.Shard, h.Workers, h.Data, func(i int, ps int64, rep *Report) {
		n := done.Add(1)
		mu.Lock()
		for l, c := range rep.Checked {
			res.Checked[l] += c
		}
		res.CheckTime += rep.Elapsed
		res.Slowest = keepSlowest(res.Slowest, Timed{Index: i, Seed: ps, Elapsed: rep.Elapsed, Status: rep.Verdict.Status})
		switch rep.Verdict.Status {
		case Holds:
			holds.Add(1)
		case Inconclusive:
			inconcl.Add(1)
			res.Undecided = append(res.Undecided, Undecided{Index: i, Seed: ps, Lemma: rep.Verdict.Lemma, Reason: rep.Verdict.Reason})
		case Violated:
			res.Violated++
			l := rep.Verdict.Lemma
			if res.First == "" {
				res.First = l
			}
			if res.Counterexamples[l] == nil {
				res.Counterexamples[l] = &Counterexample{Found: rep, Seed: ps, Index: i, After: int(n), Time: time.Since(start)}
			}
			if !h.All {
				cancel()
			}
		}
		mu.Unlock()
		if h.Progress != nil {
			h.Progress(n, holds.Load(), inconcl.Load())
		}
	})
	if err != nil {
		return nil, err
	}
	res.Programs, res.Holds, res.Inconclusive = int(done.Load()), int(holds.Load()), int(inconcl.Load())
	slices.SortFunc(res.Undecided, func(a, b Undecided) int { return a.Index - b.Index })
	for _, cx := range res.Counterexamples {
		if h.Shrinking != nil {
			h.Shrinking(cx.Found.Verdict.Lemma)
		}
		cx.Shrunk, cx.IsShrunk = ShrinkData(outer, opt, h.Data, cx.Seed, ShrinkBound{Steps: h.ShrinkSteps, Time: h.ShrinkTime}, cx.Found)
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// stream checks the programs of shard among 0..n-1 of the seed stream
// (see Each); visit gets each program's index in the stream.
func stream(ctx context.Context, opt Options, n int, seed int64, shard Shard, workers int, data gen.DataMode, visit func(i int, ps int64, rep *Report)) error {
	return Each(ctx, opt, shard.Len(n), workers,
		func(j int) (*javalite.Program, string) {
			i := shard.Index(j)
			ps := ProgramSeed(seed, i)
			return ProgramOfData(ps, data), fmt.Sprintf("program %d (seed %d)", i, ps)
		},
		func(j int, rep *Report) { i := shard.Index(j); visit(i, ProgramSeed(seed, i), rep) })
}

// Each runs the lockstep check on programs 0..n-1, program(i) giving the
// i-th and a name for it, on workers goroutines, each with a solver of its
// own, and hands every report to visit as it completes (concurrently:
// visit synchronizes itself). A failure of the tool on any program stops
// the run and is returned. When ctx ends (another part of the caller
// decided to stop), programs cut short by it are not reported: their
// inconclusive verdict would say nothing.
func Each(ctx context.Context, opt Options, n, workers int, program func(i int) (*javalite.Program, string), visit func(i int, rep *Report)) error {
	return eachProgram(ctx, n, workers, func(ctx context.Context) (func(i int) (*Report, bool, error), func(), error) {
		s, err := smt.NewSolver()
		if err != nil {
			return nil, nil, err
		}
		// A Z3 check in flight when ctx ends is interrupted, and no
		// answer obtained after that reaches a verdict (smt.SetContext).
		s.SetContext(ctx)
		check := func(i int) (*Report, bool, error) {
			p, name := program(i)
			if err := applyFaults(s, opt.Faults, i); err != nil {
				return nil, false, err
			}
			rep, err := Run(ctx, p, opt, s)
			if rep != nil && opt.Faults != nil {
				rep.Faults = s.FaultStats()
			}
			if err != nil {
				return nil, false, fmt.Errorf("%s: %w\n%s", name, err, javalite.Print(p))
			}
			return rep, ctx.Err() == nil || rep.Verdict.Status != Inconclusive, nil
		}
		return check, s.Close, nil
	}, visit)
}

// eachProgram is the worker pool of Each and OrderEach: workers
// goroutines take the programs 0..n-1 in turn. Each goroutine calls start
// once, with the pool's context (ended by the caller or by the first
// failure), for its own check function and the function that releases what
// it holds. check(i) returns the report of program i, whether to hand it to
// visit (not when ctx ending cut it short: that verdict would say
// nothing), or a failure of the tool, which stops the run and is returned.
func eachProgram[R any](ctx context.Context, n, workers int, start func(ctx context.Context) (check func(i int) (R, bool, error), stop func(), err error), visit func(i int, rep R)) error {
	workers = max(1, min(workers, n))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var wg sync.WaitGroup
	errc := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			check, stop, err := start(ctx)
			if err != nil {
				errc <- err
				cancel()
				return
			}
			defer stop()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				rep, report, err := check(i)
				if err != nil {
					errc <- err
					cancel()
					return
				}
				if report {
					visit(i, rep)
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	return <-errc
}

// ShrinkBound bounds the shrinking of one counterexample by the number of
// candidate programs rapid checks, not by a clock, so that the same seed,
// options and bound give the same shrunk program on every machine (a
// candidate whose check is cut short by Options.Timeout is the one
// exception: it counts as not failing). rapid's shrinker is deterministic
// given the property's answers; a clock cuts it at a point that depends on
// the machine's speed and load.
type ShrinkBound struct {
	// Steps is how many candidate programs may be checked, the failing
	// program's first run included (0: DefaultShrinkSteps; negative: no
	// shrinking). Past it every candidate counts as not failing, so rapid
	// ends its round at once and keeps the smallest failure so far.
	Steps int
	// Time, if positive, also stops shrinking after that long; the result
	// then depends on the machine. Zero: no time limit.
	Time time.Duration
}

// DefaultShrinkSteps is the step bound of shrinking when none is given:
// enough for rapid to finish on most counterexamples of the generated
// streams (docs/TESTING.md, "Reproducible shrinking").
const DefaultShrinkSteps = 1000

// steps is b.Steps with the default filled in.
func (b ShrinkBound) steps() int {
	if b.Steps == 0 {
		return DefaultShrinkSteps
	}
	return b.Steps
}

// noClock is rapid's shrink time limit when the bound has none: rapid
// needs one, and steps end shrinking long before it.
const noClock = 24 * time.Hour

var (
	rapidInit sync.Once
	rapidMu   sync.Mutex // rapid's settings are global
)

// setRapid sets rapid's command-line settings for one shrink run.
func setRapid(seed uint64, shrinkTime time.Duration) error {
	var err error
	rapidInit.Do(func() {
		if flag.CommandLine.Lookup("test.v") == nil {
			testing.Init()
		}
		// testing.Short, which rapid calls, requires parsed flags; the
		// settings themselves are set below.
		if !flag.Parsed() {
			err = flag.CommandLine.Parse(nil)
		}
	})
	if err != nil {
		return err
	}
	if shrinkTime <= 0 {
		shrinkTime = noClock
	}
	// One check: the program of seed, which rapid then shrinks. Under go
	// test -short rapid runs a fifth of rapid.checks, which would be none
	// (nothing found, nothing shrunk), so ask for five there: a shrink is
	// the same with or without the caller's -short.
	checks := 1
	if testing.Short() {
		checks = 5
	}
	for name, value := range map[string]string{
		"rapid.seed":       strconv.FormatUint(seed, 10),
		"rapid.checks":     strconv.Itoa(checks),
		"rapid.shrinktime": shrinkTime.String(),
		"rapid.nofailfile": "true",
	} {
		if err := flag.CommandLine.Set(name, value); err != nil {
			return err
		}
	}
	return nil
}

// Shrink regenerates the program of seed inside rapid and lets rapid shrink
// it while it still breaks the same lemma, within bound. It returns the
// report of the smallest such program, and false when rapid could not
// reproduce the failure (then orig is returned).
func Shrink(opt Options, seed int64, bound ShrinkBound, orig *Report) (*Report, bool) {
	return ShrinkContext(context.Background(), opt, seed, bound, orig)
}

// ShrinkContext is Shrink that stops when ctx ends: every program rapid
// tries after that is skipped at once (its check would be cut short), so
// rapid finishes quickly, and the smallest counterexample found until then
// is returned.
// It shrinks in the stream a Hunt of opt draws by default
// (StreamData(opt, gen.DataMixed)); ShrinkData names the stream.
func ShrinkContext(ctx context.Context, opt Options, seed int64, bound ShrinkBound, orig *Report) (*Report, bool) {
	return ShrinkData(ctx, opt, StreamData(opt, gen.DataMixed), seed, bound, orig)
}

// ShrinkData is ShrinkContext for a program of the stream with data switch
// data (the generator must be the one that made the program, or rapid
// regenerates another program from its seed).
func ShrinkData(ctx context.Context, opt Options, data gen.DataMode, seed int64, bound ShrinkBound, orig *Report) (*Report, bool) {
	if bound.Steps < 0 {
		return orig, false
	}
	var mu sync.Mutex // guards smallest: rapid runs in a goroutine of its own
	var smallest *Report
	shrinkWithRapid(ctx, seed, bound, func(tb *shrinkTB) func(*rapid.T) {
		return sameLemma(ctx, tb, opt, data, orig.Verdict.Lemma, func(r *Report) {
			mu.Lock()
			defer mu.Unlock()
			if smallest == nil || Lines(r.Program) <= Lines(smallest.Program) {
				smallest = r
			}
		})
	})
	mu.Lock()
	defer mu.Unlock()
	if smallest == nil {
		return orig, false
	}
	return smallest, true
}

// shrinkWithRapid runs rapid once, from the program of seed, with the
// property made by prop, within bound: after bound's steps every further
// case is skipped before it draws a program (rapid counts it as not
// reproducing the failure, and ends its round quickly), and bound's time,
// if any, is rapid's shrink time. rapid's command-line flags are
// process-wide, so the run holds rapidMu and restores them after. When ctx
// ends it returns at once; rapid, whose every further case is then skipped
// by the property, winds down on its own (and holds rapidMu until it has).
func shrinkWithRapid(ctx context.Context, seed int64, bound ShrinkBound, prop func(*shrinkTB) func(*rapid.T)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		rapidMu.Lock()
		defer rapidMu.Unlock()
		saved := map[string]string{}
		for _, name := range []string{"rapid.seed", "rapid.checks", "rapid.shrinktime", "rapid.nofailfile"} {
			if f := flag.CommandLine.Lookup(name); f != nil {
				saved[name] = f.Value.String()
			}
		}
		defer func() {
			for name, v := range saved {
				_ = flag.CommandLine.Set(name, v)
			}
		}()
		if err := setRapid(uint64(seed), bound.Time); err != nil {
			return
		}
		tb := &shrinkTB{}
		inner := prop(tb)
		limit, steps := bound.steps(), 0
		rapid.Check(tb, func(rt *rapid.T) {
			if steps >= limit {
				rt.Skipf("shrink step bound %d reached", limit)
			}
			steps++
			inner(rt)
		})
		for i := len(tb.cleanups) - 1; i >= 0; i-- {
			tb.cleanups[i]()
		}
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// sameLemma is Property restricted to failures of one lemma, so that
// shrinking keeps the counterexample about the same claim.
func sameLemma(ctx context.Context, t TB, opt Options, data gen.DataMode, lemma Lemma, onFail func(*Report)) func(*rapid.T) {
	return propertyOf(ctx, t, opt, gen.ProgramWith(gen.Default.WithData(data)), func(r *Report) {
		if r.Verdict.Lemma == lemma {
			onFail(r)
		}
	}, lemma)
}

// shrinkTB is the testing.TB rapid reports to outside tests: rapid only
// logs, marks failures and stops.
type shrinkTB struct {
	failed   bool
	cleanups []func()
}

func (t *shrinkTB) Helper()                   {}
func (t *shrinkTB) Name() string              { return "lockstep-shrink" }
func (t *shrinkTB) Logf(string, ...any)       {}
func (t *shrinkTB) Log(...any)                {}
func (t *shrinkTB) Skipf(string, ...any)      {}
func (t *shrinkTB) Skip(...any)               {}
func (t *shrinkTB) SkipNow()                  {}
func (t *shrinkTB) Errorf(string, ...any)     { t.failed = true }
func (t *shrinkTB) Error(...any)              { t.failed = true }
func (t *shrinkTB) Fatalf(f string, a ...any) { t.failed = true }
func (t *shrinkTB) Fatal(a ...any)            { t.failed = true }
func (t *shrinkTB) FailNow()                  { t.failed = true }
func (t *shrinkTB) Fail()                     { t.failed = true }
func (t *shrinkTB) Failed() bool              { return t.failed }
func (t *shrinkTB) Cleanup(f func())          { t.cleanups = append(t.cleanups, f) }
