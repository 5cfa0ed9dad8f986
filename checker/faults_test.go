package checker

import (
	"context"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// Fault injection: a solver that answers unknown, fails or is canceled in
// 10% of its queries must never change a verdict. Under `fixed` every
// program holds or is inconclusive; under a refuted variant every program
// the faulty run decides gets the verdict (and lemma) of the fault-free
// run. make test runs a small stream, make soak the full one
// (LOCKSTEP_FAULT_PROGRAMS overrides both).

var tenPercent = smt.Faults{Unknown: 0.05, Fail: 0.04, Cancel: 0.01, Seed: 12}

func faultPrograms(short, soak int) int {
	if n, err := strconv.Atoi(os.Getenv("LOCKSTEP_FAULT_PROGRAMS")); err == nil && n > 0 {
		return n
	}
	if os.Getenv("LOCKSTEP_SOAK") != "" {
		return soak
	}
	return short
}

func faultOptions(t *testing.T, name string) Options {
	opt := DefaultOptions()
	opt.Variant = variant(t, name)
	opt.Steps = 150
	opt.MaxGroup = 150
	opt.Timeout = 10 * time.Minute // a safety net only
	return opt
}

// streamReports checks programs 0..n-1 of seed 1 and returns every report.
func streamReports(t *testing.T, opt Options, n int) []*Report {
	reps := make([]*Report, n)
	var mu sync.Mutex
	err := Each(context.Background(), opt, n, 2,
		func(i int) (*javalite.Program, string) { return ProgramOf(ProgramSeed(1, i)), strconv.Itoa(i) },
		func(i int, rep *Report) { mu.Lock(); reps[i] = rep; mu.Unlock() })
	require.NoError(t, err)
	for i, r := range reps {
		require.NotNil(t, r, "program %d has no report", i)
	}
	return reps
}

func TestFaultsNeverViolateFixed(t *testing.T) {
	n := faultPrograms(30, 2000)
	opt := faultOptions(t, "fixed")
	f := tenPercent
	opt.Faults = &f
	reps := streamReports(t, opt, n)
	var holds, inconcl int
	var faults smt.FaultStats
	for i, r := range reps {
		require.NotEqual(t, Violated, r.Verdict.Status, "program %d: a fault became a violation:\n%s", i, r.Text(false))
		if r.Verdict.Status == Holds {
			holds++
		} else {
			inconcl++
		}
		faults.Queries += r.Faults.Queries
		faults.Unknown += r.Faults.Unknown
		faults.Fail += r.Faults.Fail
		faults.Cancel += r.Faults.Cancel
	}
	require.Positive(t, faults.Total(), "no fault was injected")
	t.Logf("fixed under 10%% faults: %d programs, %d hold, %d inconclusive, 0 violated; %d Z3 queries, %d faults (%d unknown, %d fail, %d cancel)",
		n, holds, inconcl, faults.Queries, faults.Total(), faults.Unknown, faults.Fail, faults.Cancel)
}

func TestFaultsKeepRefutations(t *testing.T) {
	n := faultPrograms(60, 500)
	opt := faultOptions(t, "published")
	clean := streamReports(t, opt, n)
	f := tenPercent
	opt.Faults = &f
	faulty := streamReports(t, opt, n)
	decided, violated, same := 0, 0, 0
	for i := range clean {
		c, fr := clean[i].Verdict, faulty[i].Verdict
		if c.Status == Violated {
			violated++
		}
		if fr.Status == Inconclusive {
			continue
		}
		decided++
		require.Equal(t, c.Status, fr.Status, "program %d: faults changed the verdict:\nclean: %s\nfaulty: %s", i, clean[i].Text(false), faulty[i].Text(false))
		if c.Status == Violated {
			require.Equal(t, c.Lemma, fr.Lemma, "program %d: faults changed the lemma", i)
			same++
		}
	}
	require.Positive(t, violated, "the stream never refutes published: the test shows nothing")
	require.Positive(t, decided, "faults left nothing decided: the test shows nothing")
	t.Logf("published: %d programs, %d violated without faults; under 10%% faults %d decided, %d of them refuted with the same lemma",
		n, violated, decided, same)
}
