package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/internal/report"
)

// Signal tests run the built CLI and interrupt it at chosen moments, as a
// user or a CI runner would: before the first program, while programs are
// being checked (most of that time is spent inside Z3 or the relations),
// while a counterexample is being shrunk, during run and during bench, and
// with a second signal. Every interrupted run must exit 130 (SIGINT) or 143
// (SIGTERM), print the summary of what it finished and say that it was
// interrupted, never print a VIOLATED verdict for a variant that holds, and
// never crash the Go runtime. The process is started with
// LOCKSTEP_PROGRESS=lines, whose stderr lines mark the moments.
//
// `make test` runs one signal per moment; LOCKSTEP_SOAK=1 (`make soak`)
// runs sigSoakRuns signals at random delays and logs how each ended.

const sigSoakRuns = 60

// cli is the command the process tests run: this test binary, which
// TestMain turns into the CLI (cmd/lockstep's main is cli.Main and nothing
// else) when started with LOCKSTEP_CLI_TEST_BINARY=1, so the tests need no
// go build of their own (a link of 1.4 s of CPU on every run).
func cli(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	require.Equal(t, "1", os.Getenv(asCLI), "TestMain sets it for the processes the tests start")
	return exe
}

// sigCase is one moment to interrupt.
type sigCase struct {
	name    string
	args    []string
	waitFor string // a stderr substring that marks the moment
	sig     syscall.Signal
	// maxDelay: the signal is sent a random delay in [0, maxDelay) after
	// the moment.
	maxDelay time.Duration
	second   bool // send a second signal: the process must quit at once
	// refuted: the variant is refuted, so a VIOLATED verdict found before
	// the signal may be printed.
	refuted bool
	// summary must appear in stdout (a regexp-free substring).
	summary string
	json    bool
}

var sigCases = []sigCase{
	{name: "before-first-program", args: []string{"check", "-gen", "-n", "500", "-seed", "1", "-variant", "fixed"},
		waitFor: "lockstep: started", sig: syscall.SIGINT, summary: "variant fixed, semantics java: interrupted by SIGINT after"},
	{name: "checking-sigterm-json", args: []string{"check", "-gen", "-n", "500", "-seed", "1", "-variant", "fixed", "-json"},
		waitFor: "progress: 1/500", sig: syscall.SIGTERM, maxDelay: 400 * time.Millisecond, json: true},
	{name: "checking", args: []string{"check", "-gen", "-n", "500", "-seed", "2", "-variant", "fixed"},
		waitFor: "progress: 1/500", sig: syscall.SIGINT, maxDelay: 400 * time.Millisecond, summary: "variant fixed, semantics java: interrupted by SIGINT after"},
	{name: "shrinking", args: []string{"check", "-gen", "-n", "500", "-seed", "1", "-variant", "seed000"},
		// No delay: with the Go decision procedure a shrink takes well under
		// a second, and the signal must land inside it.
		waitFor: "progress: shrinking", sig: syscall.SIGINT, refuted: true,
		summary: "interrupted by SIGINT after"},
	{name: "run", args: []string{"run", "-engine", "summary", "-k", "5", "-steps", "3000", "../testdata/bench/linkedlist_calls5.jl"},
		waitFor: "progress: exploring", sig: syscall.SIGINT, maxDelay: 400 * time.Millisecond, summary: "interrupted by SIGINT: the counts are what finished"},
	// The full suite, not -quick: with the Go decision procedure the quick
	// suite ends in about 0.1 s, before a delayed signal can land.
	{name: "bench", args: []string{"bench"},
		waitFor: " paths ", sig: syscall.SIGTERM, maxDelay: 200 * time.Millisecond, summary: "suite full"},
	{name: "lemmas", args: []string{"lemmas", "-variant", "fixed", "-n", "500", "-workers", "1"},
		waitFor: "progress: fixed (column 1/1): 1/500", sig: syscall.SIGINT, maxDelay: 400 * time.Millisecond,
		summary: "interrupted by SIGINT: the counts above are of the programs that finished"},
	{name: "mutants", args: []string{"mutants", "-n", "100", "-workers", "1"},
		waitFor: "(2/", sig: syscall.SIGTERM, maxDelay: 200 * time.Millisecond, summary: "mutants finished (above)"},
	{name: "order", args: []string{"order", "-gen", "-n", "200", "-k", "-1", "-steps", "60", "-workers", "1"},
		waitFor: "progress: 1/200", sig: syscall.SIGINT, maxDelay: 300 * time.Millisecond,
		summary: "interrupted by SIGINT: the counts above are of the programs that finished"},
	{name: "second-signal", args: []string{"check", "-gen", "-n", "500", "-seed", "3", "-variant", "fixed"},
		waitFor: "progress: 1/500", sig: syscall.SIGINT, maxDelay: 200 * time.Millisecond, second: true},
}

// sigOutcome is how one interrupted run ended.
type sigOutcome struct {
	code    int
	stdout  string
	stderr  string
	latency time.Duration // from the (first) signal to the exit
	missed  bool          // the moment never came: the command ended first
}

var crashMarks = []string{"goroutine ", "fatal error", "SIGSEGV", "panic:", "unexpected signal", "SA_ONSTACK"}

func runSignal(t *testing.T, bin string, c sigCase, rng *rand.Rand) sigOutcome {
	t.Helper()
	cmd := exec.Command(bin, c.args...)
	cmd.Env = append(os.Environ(), "LOCKSTEP_PROGRESS=lines")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	errPipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	var stderr bytes.Buffer
	var mu sync.Mutex
	moment := make(chan struct{})
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(errPipe)
		seen := false
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			stderr.WriteString(line + "\n")
			mu.Unlock()
			if !seen && strings.Contains(line, c.waitFor) {
				seen = true
				close(moment)
			}
		}
		_, _ = io.Copy(io.Discard, errPipe)
	}()
	exited := make(chan error, 1)
	go func() { <-copied; exited <- cmd.Wait() }()

	var out sigOutcome
	var sent time.Time
	select {
	case <-moment:
		if c.maxDelay > 0 {
			time.Sleep(time.Duration(rng.Int64N(int64(c.maxDelay))))
		}
		sent = time.Now()
		require.NoError(t, cmd.Process.Signal(c.sig))
		if c.second {
			time.Sleep(50 * time.Millisecond)
			_ = cmd.Process.Signal(c.sig)
		}
	case <-exited:
		out.missed = true
		exited <- nil
	case <-time.After(5 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("%s: the moment %q never came", c.name, c.waitFor)
	}
	select {
	case <-exited:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		<-exited
		mu.Lock()
		t.Fatalf("%s: still running 2 minutes after %s; stderr:\n%s", c.name, c.sig, stderr.String())
		mu.Unlock()
	}
	if !sent.IsZero() {
		out.latency = time.Since(sent)
	}
	out.code = cmd.ProcessState.ExitCode()
	out.stdout = stdout.String()
	mu.Lock()
	out.stderr = stderr.String()
	mu.Unlock()
	return out
}

// checkOutcome asserts what every interrupted run must satisfy.
func checkOutcome(t *testing.T, c sigCase, o sigOutcome) {
	t.Helper()
	all := o.stdout + o.stderr
	for _, m := range crashMarks {
		require.NotContains(t, all, m, "%s: the process crashed:\n%s", c.name, all)
	}
	require.False(t, o.missed, "%s: the command ended before the moment %q:\n%s", c.name, c.waitFor, all)
	want := exitSIGINT
	if c.sig == syscall.SIGTERM {
		want = exitSIGTERM
	}
	require.Equal(t, want, o.code, "%s: exit code; output:\n%s", c.name, all)
	if !c.refuted {
		require.NotContains(t, o.stdout, "VIOLATED", "%s: a verdict after the signal", c.name)
	}
	if c.second {
		return // quits at once: no summary is promised
	}
	require.Contains(t, o.stderr, "stopping and printing what was finished", c.name)
	if c.summary != "" {
		require.Contains(t, o.stdout, c.summary, "%s: no summary:\n%s", c.name, all)
	}
	if c.json {
		var sum report.Generated
		require.NoError(t, json.Unmarshal([]byte(o.stdout), &sum), o.stdout)
		require.True(t, sum.Interrupted)
		require.Equal(t, "SIGTERM", sum.Signal)
		require.Equal(t, want, sum.ExitCode)
		require.Zero(t, sum.Violated)
		require.Equal(t, sum.Programs, sum.Holds+sum.Inconclusive)
	}
}

func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the CLI")
	}
	bin := cli(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range sigCases {
		t.Run(c.name, func(t *testing.T) {
			o := runSignal(t, bin, c, rng)
			checkOutcome(t, c, o)
			t.Logf("%s: exit %d, %v after the signal", c.name, o.code, o.latency.Round(time.Millisecond))
		})
	}
}

// TestSignalsSoak sends sigSoakRuns signals, cycling through the moments
// with random delays, and logs the tally that docs/TESTING.md records.
func TestSignalsSoak(t *testing.T) {
	if os.Getenv("LOCKSTEP_SOAK") == "" {
		t.Skip("soak only (LOCKSTEP_SOAK=1)")
	}
	bin := cli(t)
	rng := rand.New(rand.NewPCG(7, 8))
	type tally struct {
		runs     int
		codes    map[int]int
		latency  []time.Duration
		failures int
	}
	byCase := map[string]*tally{}
	for i := 0; i < sigSoakRuns; i++ {
		c := sigCases[i%len(sigCases)]
		if c.maxDelay > 0 {
			c.maxDelay *= 3 // reach further into the run than make test does
		}
		tl := byCase[c.name]
		if tl == nil {
			tl = &tally{codes: map[int]int{}}
			byCase[c.name] = tl
		}
		o := runSignal(t, bin, c, rng)
		tl.runs++
		tl.codes[o.code]++
		tl.latency = append(tl.latency, o.latency)
		ok := t.Run(fmt.Sprintf("%02d-%s", i, c.name), func(t *testing.T) { checkOutcome(t, c, o) })
		if !ok {
			tl.failures++
		}
	}
	names := make([]string, 0, len(byCase))
	for n := range byCase {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		tl := byCase[n]
		sort.Slice(tl.latency, func(i, j int) bool { return tl.latency[i] < tl.latency[j] })
		t.Logf("| %s | %d | %v | %d | median %v, max %v |", n, tl.runs, tl.codes, tl.failures,
			tl.latency[len(tl.latency)/2].Round(time.Millisecond), tl.latency[len(tl.latency)-1].Round(time.Millisecond))
	}
}
