package smt

import (
	"bufio"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// formulaPool builds n distinct pseudo-random formulas over 32 input refs
// and null, shaped like path conditions: conjunctions of (dis)equalities and
// small disjunctions. It is deterministic, so runs are comparable.
func formulaPool(n int) []*Formula {
	rng := rand.New(rand.NewPCG(1, 2))
	ref := func() Ref {
		if rng.IntN(5) == 0 {
			return Null
		}
		return Ref(1 + 3*rng.IntN(32))
	}
	lit := func() *Formula {
		if rng.IntN(2) == 0 {
			return Eq(ref(), ref())
		}
		return Neq(ref(), ref())
	}
	seen := make(map[*Formula]bool, n)
	pool := make([]*Formula, 0, n)
	for len(pool) < n {
		var conj []*Formula
		for range 2 + rng.IntN(5) {
			if rng.IntN(4) == 0 {
				conj = append(conj, Or(lit(), lit(), lit()))
			} else {
				conj = append(conj, lit())
			}
		}
		f := And(conj...)
		if f.IsTrue() || f.IsFalse() || seen[f] {
			continue
		}
		seen[f] = true
		pool = append(pool, f)
	}
	return pool
}

// vmRSS reads the resident set size of this process from /proc.
func vmRSS(t testing.TB) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			fields := strings.Fields(rest) // "123456 kB"
			kb, err := strconv.ParseInt(fields[0], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("VmRSS not found")
	return 0
}

const mib = 1 << 20

// TestSolverMemoryFlat runs push/assert/check/pop cycles on one solver over
// a pool of formulas three times larger than the translation-cache bound, so
// the cache fills and is released repeatedly, and requires the resident set
// to stay flat after warm-up. It asserts memory only, never time.
//
// `make test` runs 60,000 cycles, 40,000 after the warm-up (the
// translation cache of 16,384 entries fills and is released twice more
// after the first reading; a leak of 1.7 KB of the process, or of 420
// bytes of Z3's own, per cycle crosses its bound); the full 1,000,000
// cycles, a minute and a half of CPU, run under `make soak`
// (LOCKSTEP_SOAK=1).
func TestSolverMemoryFlat(t *testing.T) {
	cycles, warm := 60_000, 20_000
	if os.Getenv("LOCKSTEP_SOAK") != "" {
		cycles, warm = 1_000_000, 100_000
	}
	const maxGrowth = 64 * mib

	s := newSolver(t)
	pool := formulaPool(3 * defaultTransLimit)

	run := func(from, to int) {
		for i := from; i < to; i++ {
			if _, err := s.Check(pool[i%len(pool)]); err != nil {
				t.Fatalf("cycle %d: %v", i, err)
			}
		}
	}
	// FreeOSMemory collects and returns free Go heap spans to the OS, so
	// VmRSS is not inflated by garbage that merely awaits the scavenger
	// (without it the reading depends on where the GC cycle happens to be,
	// about ±10 MiB here).
	run(0, warm)
	debug.FreeOSMemory()
	before, z3Before := vmRSS(t), z3AllocBytes()
	run(warm, cycles)
	debug.FreeOSMemory()
	after, z3After := vmRSS(t), z3AllocBytes()

	st := s.Stats()
	t.Logf("cycles=%d warm-up=%d VmRSS before=%.1f MiB after=%.1f MiB growth=%+.1f MiB; "+
		"Z3 estimated alloc before=%.1f MiB after=%.1f MiB; translation cache %d entries; "+
		"Z3 time %v (%.1f µs/check)",
		cycles, warm, float64(before)/mib, float64(after)/mib, float64(after-before)/mib,
		float64(z3Before)/mib, float64(z3After)/mib, len(s.trans),
		st.SolverTime.Round(time.Millisecond), float64(st.SolverTime.Microseconds())/float64(st.Queries))
	if st.Queries != int64(cycles) {
		t.Fatalf("Queries = %d, want %d", st.Queries, cycles)
	}
	if after-before > maxGrowth {
		t.Fatalf("VmRSS grew by %.1f MiB over %d cycles (bound %d MiB)", float64(after-before)/mib, cycles-warm, maxGrowth/mib)
	}
	// Z3's own accounting must be flat too; this catches a leak of Z3
	// references even if it were small next to the process's RSS.
	if z3After-z3Before > maxGrowth/4 {
		t.Fatalf("Z3 allocation estimate grew by %.1f MiB", float64(z3After-z3Before)/mib)
	}
}
