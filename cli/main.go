// Package cli is the lockstep command line: every subcommand, its flags,
// its output and its exit code. cmd/lockstep is a main that calls Main; a
// researcher's own binary is the same main after registering an engine
// (engine.Register), so that every command sees it beside the built-in ones:
//
//	func main() { engine.Register(myEngine); cli.Main() }
//

// Each subcommand lives in its own file and registers itself in init, so the
// driver stays thin: main parses the subcommand name, hands the remaining
// arguments to the subcommand's own flag set, and turns its result into an
// exit code in one place (exitCode), so that a CI can branch on it:
//
//	0    every property holds
//	1    a property is violated
//	2    usage or input error
//	3    nothing violated, but something undecided (inconclusive), or the
//	     tool itself failed on a program (printed as an internal error)
//	130  interrupted by SIGINT (Ctrl-C), 143 interrupted by SIGTERM
//
// Interruption (signals.go): the first SIGINT or SIGTERM cancels the run's
// context; the command stops its workers, prints the summary of what it
// finished, says that it was interrupted, and exits 130 or 143. A second
// signal exits at once.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sort"

	"github.com/lockstep-dev/lockstep/engine/extern"
)

// Exit codes (README.md, "Exit status").
const (
	exitOK           = 0
	exitViolation    = 1
	exitUsage        = 2
	exitInconclusive = 3
	exitSIGINT       = 130 // 128 + SIGINT
	exitSIGTERM      = 143 // 128 + SIGTERM
)

// exitCodes is the table printed by -h and the README.
const exitCodes = "Exit status: 0 all properties hold, 1 a property is violated, 2 usage or input error,\n" +
	"3 nothing violated but something inconclusive (or an internal error), 130/143 interrupted (SIGINT/SIGTERM)."

// command is one subcommand.
type command struct {
	name  string
	short string // one line for the command list
	usage string // argument synopsis, e.g. "[flags] FILE"
	// run parses args with fs (already named and wired to stderr) and does
	// the work. It returns an error wrapped with usageError or inputError for
	// exit 2, violation for exit 1, any other error for exit 2 as well.
	run func(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error
	// runCtx, if set, is used instead of run: ctx ends on SIGINT/SIGTERM,
	// and the command then prints what it finished and returns
	// errInterrupted.
	runCtx func(ctx context.Context, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// errViolation signals exit code 1: a checked property does not hold.
var errViolation = errors.New("property violated")

// errInconclusive (exit 3) is declared with the lemmas command.

// errInterrupted is returned by a command whose context a signal ended.
var errInterrupted = errors.New("interrupted")

// internalError marks a failure of the tool itself on a program (exit 3:
// nothing was shown violated, and nothing was decided either).
type internalError struct{ err error }

func (e internalError) Error() string { return "internal error: " + e.err.Error() }
func (e internalError) Unwrap() error { return e.err }

// Main runs the lockstep command line on os.Args and exits with its exit
// code; it never returns.
func Main() {
	tuneGC()
	ctx, stop := notifySignals(os.Stderr)
	// A read from an engine process (exec:) ends with a signal, whatever
	// run it is for.
	extern.WatchContext(ctx)
	code := runContext(ctx, os.Args[1:], os.Stdout, os.Stderr)
	// Engine processes end with lockstep, with every process they started
	// (their process groups), within about a second.
	for _, note := range extern.Shutdown() {
		fmt.Fprintf(os.Stderr, "lockstep: %s\n", note)
	}
	if sig := interruptedBy(ctx); sig != nil {
		code = signalExit(sig)
	}
	stop()
	os.Exit(code)
}

func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr)
}

func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 2 && args[0] == "help" {
		// `lockstep help CMD` is `lockstep CMD -h`.
		if _, ok := commands[args[1]]; !ok {
			fmt.Fprintf(stderr, "lockstep help: unknown command %q\n\n", args[1])
			topUsage(stderr)
			return exitUsage
		}
		args = []string{args[1], "-h"}
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		topUsage(stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "-version" || args[0] == "--version" {
		// What people type first; `lockstep version` is the command.
		args = append([]string{"version"}, args[1:]...)
	}
	warnProgressMode(stderr)
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "lockstep: unknown command %q\n\n", args[0])
		topUsage(stderr)
		return exitUsage
	}
	fs := flag.NewFlagSet("lockstep "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: lockstep %s %s\n\n%s\n\nflags:\n", c.name, c.usage, c.short)
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\n%s\n", exitCodes)
	}
	defer profileFlag(fs, stderr)()
	stdout = limitLines(c.name, args[1:], stdout)
	var err error
	if c.runCtx != nil {
		interruptible.Store(true)
		started.Store(true)
		startedLine(stderr)
		err = c.runCtx(ctx, fs, args[1:], stdout, stderr)
	} else {
		started.Store(true)
		if sig := interruptedBy(ctx); sig != nil {
			// A signal before the command started (notifySignals).
			fmt.Fprintf(stderr, "lockstep %s: interrupted by %s before it started: nothing finished\n", c.name, signalName(sig))
			return signalExit(sig)
		}
		startedLine(stderr)
		err = c.run(fs, args[1:], stdout, stderr)
	}
	code := exitCode(ctx, err)
	if code == exitUsage || code == exitInconclusive {
		var ec exitCodeError
		if err != nil && !errors.Is(err, errReported) && !errors.As(err, &ec) {
			fmt.Fprintf(stderr, "lockstep %s: %v\n", c.name, err)
		}
	}
	return code
}

// exitCode is the one place that maps a command's outcome to an exit code.
// An interruption wins over everything else: the output is partial.
func exitCode(ctx context.Context, err error) int {
	if sig := interruptedBy(ctx); sig != nil || errors.Is(err, errInterrupted) {
		return signalExit(sig)
	}
	var ie internalError
	var ec exitCodeError
	switch {
	case errors.As(err, &ec):
		return ec.code
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errViolation):
		return exitViolation
	case errors.Is(err, errInconclusive), errors.As(err, &ie):
		return exitInconclusive
	}
	return exitUsage
}

// errReported is returned by a subcommand that already printed its error
// (for instance a list of positioned type errors) and wants exit 2.
var errReported = errors.New("reported")

func topUsage(w io.Writer) {
	fmt.Fprintln(w, "lockstep checks symbolic-execution engines ('lockstep engines') against GSE in lockstep.")
	fmt.Fprintln(w, "\nusage: lockstep COMMAND [flags] [args]\n       lockstep help COMMAND\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].short)
	}
	fmt.Fprintln(w, "\nRun 'lockstep help COMMAND' or 'lockstep COMMAND -h' for a command's flags; flags may come before or after file names.")
	fmt.Fprintln(w, exitCodes)
}

// tuneGC lets the heap grow to five times the live data between
// collections (GOGC=400) instead of twice, with a soft limit of 4 GiB
// under which the collector works harder again. The checker allocates
// formulas, heaps and states by the million, most of them short-lived;
// measured side by side on issue 15's command (check -gen -n 200, one
// worker), this made it 8 % faster in wall time at twice the peak memory
// (107 to 201 MiB). GOGC and GOMEMLIMIT set in the environment win.
//
// While the live heap is small the collector runs at GOGC=200 instead
// (watchHeap): the runtime's smallest heap goal is 4 MiB × GOGC/100, so
// at 400 a check whose live heap stays at 2 MB (bst_insert.jl at k = 2)
// still grows its heap to 16 MiB between collections, 8 MiB of resident
// memory more than at 200 for no measurable CPU (3 collections instead
// of 8 in 0.15 s of CPU; GOGC=100, 20 collections, was 14 % slower).
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcSmall)
		watchHeap()
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(4 << 30)
	}
}

const (
	// gcSmall is GOGC while the live heap is below gcLargeLive, gcLarge
	// from then on.
	gcSmall = 200
	gcLarge = 400
	// gcLargeLive is the live heap from which GOGC=400's goal is five
	// times the live heap rather than its floor of 16 MiB (4 MiB ×
	// 400/100): from there on, 400 is what it was before the floor
	// mattered, and the heaps that make 400 pay are all larger.
	gcLargeLive = (4 << 20) * gcLarge / 100 / (1 + gcLarge/100)
)

// gcPercent is the GOGC for a live heap of live bytes (tuneGC).
func gcPercent(live uint64) int {
	if live >= gcLargeLive {
		return gcLarge
	}
	return gcSmall
}

// gcSentinel is an object whose finalizer runs once per collection:
// garbage from its making, the first collection after finds it
// unreachable. It holds a pointer, so that the runtime's tiny allocator
// (whose objects may share a block and never be finalized) leaves it be.
type gcSentinel struct{ _ *byte }

// watchHeap reads the live heap after every collection (from a sentinel's
// finalizer, which arms the next) until it reaches gcLargeLive, then sets
// GOGC=400 for the rest of the process: a heap that was large once is
// treated as large, so the collector's setting never swings back and
// forth along a stream of programs.
func watchHeap() {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(live)
		if live[0].Value.Kind() == metrics.KindUint64 {
			if p := gcPercent(live[0].Value.Uint64()); p != gcSmall {
				debug.SetGCPercent(p)
				return
			}
		}
		watchHeap()
	})
}
