package main

import (
	"flag"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"lockstep/checker"
	"lockstep/gen"
)

// Generated programs are drawn by rapid from a per-program seed, so that a
// failing program found by any worker can be handed back to rapid, which
// regenerates it from the same seed and shrinks it. rapid is built for
// `go test`; outside it, its settings are flags on flag.CommandLine and it
// reports through a testing.TB-like value, which shrinkTB provides.

var rapidInit sync.Once

// programSeed is the seed of the i-th program of the stream seed. rapid
// draws the first case of a check from its base seed exactly as Example
// does, so Example(programSeed(...)) and a one-check rapid run with that
// seed see the same program.
func programSeed(seed int64, i int) int64 {
	x := uint64(seed)*0x9E3779B97F4A7C15 + uint64(i)*0xBF58476D1CE4E5B9
	x ^= x >> 31
	return int64(x & (1<<62 - 1))
}

// setRapid sets rapid's command-line settings for one shrink run.
func setRapid(seed uint64, shrinkTime time.Duration) error {
	var err error
	rapidInit.Do(func() {
		testing.Init()
		err = flag.CommandLine.Parse([]string{"-rapid.nofailfile"})
	})
	if err != nil {
		return err
	}
	for name, value := range map[string]string{
		"rapid.seed":       strconv.FormatUint(seed, 10),
		"rapid.checks":     "1",
		"rapid.shrinktime": shrinkTime.String(),
	} {
		if err := flag.CommandLine.Set(name, value); err != nil {
			return err
		}
	}
	return nil
}

// shrinkTB is the testing.TB rapid reports to. rapid only needs to log,
// to be told of a failure, and to stop; it never runs subtests.
type shrinkTB struct {
	failed   bool
	messages []string
	cleanups []func()
}

func (t *shrinkTB) Helper()                 {}
func (t *shrinkTB) Name() string            { return "lockstep-shrink" }
func (t *shrinkTB) Logf(f string, a ...any) { t.messages = append(t.messages, fmt.Sprintf(f, a...)) }
func (t *shrinkTB) Log(a ...any)            { t.messages = append(t.messages, fmt.Sprint(a...)) }
func (t *shrinkTB) Skipf(string, ...any)    {}
func (t *shrinkTB) Skip(...any)             {}
func (t *shrinkTB) SkipNow()                {}
func (t *shrinkTB) Errorf(f string, a ...any) {
	t.failed = true
	t.Logf(f, a...)
}
func (t *shrinkTB) Error(a ...any)            { t.failed = true; t.Log(a...) }
func (t *shrinkTB) Fatalf(f string, a ...any) { t.Errorf(f, a...) }
func (t *shrinkTB) Fatal(a ...any)            { t.Error(a...) }
func (t *shrinkTB) FailNow()                  { t.failed = true }
func (t *shrinkTB) Fail()                     { t.failed = true }
func (t *shrinkTB) Failed() bool              { return t.failed }
func (t *shrinkTB) Cleanup(f func())          { t.cleanups = append(t.cleanups, f) }

// shrink regenerates the program of seed inside rapid and lets rapid shrink
// it. It returns the report of the smallest failing program rapid found, and
// false when rapid could not reproduce the failure (then the original
// report is returned).
func shrink(opt checker.Options, seed int64, shrinkTime time.Duration, orig *checker.Report) (*checker.Report, bool) {
	if err := setRapid(uint64(seed), shrinkTime); err != nil {
		return orig, false
	}
	tb := &shrinkTB{}
	var smallest *checker.Report
	rapid.Check(tb, checker.PropertyOf(tb, opt, gen.Program(), func(r *checker.Report) {
		// rapid replays the minimal case last, so the last failing report
		// is the shrunk one; keep the smallest anyway in case of flakiness.
		if smallest == nil || checker.Lines(r.Program) <= checker.Lines(smallest.Program) {
			smallest = r
		}
	}))
	for i := len(tb.cleanups) - 1; i >= 0; i-- {
		tb.cleanups[i]()
	}
	if smallest == nil {
		return orig, false
	}
	return smallest, true
}
