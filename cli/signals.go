package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/lockstep-dev/lockstep/engine/extern"
	"github.com/lockstep-dev/lockstep/internal/earlysig"
)

// Signals. The first SIGINT or SIGTERM cancels the context every command
// runs under (with the signal as the cause), and says so on stderr; the
// command then stops its workers (a Z3 check in flight is interrupted from
// Go: smt.Solver.SetContext), prints the summary of what it finished and
// exits 130 or 143. A second signal exits at once with the code of the
// first. Z3 never sees a signal: it is told not to install a handler of its
// own (smt/z3.go).

// interruptible is set while a command that watches its context runs
// (command.runCtx). For the others the first signal exits at once, as Go's
// default handling would, rather than being noted and ignored.
var interruptible atomic.Bool

// started is set when a command starts (runContext): a signal before that
// is noted in the context and the command starts interrupted.
var started atomic.Bool

// interruption is the cause of a context ended by a signal.
type interruption struct{ sig os.Signal }

func (i *interruption) Error() string { return "interrupted by " + signalName(i.sig) }
func (i *interruption) Unwrap() error { return errInterrupted }

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return fmt.Sprint(s)
}

// signalExit is the exit code of an interruption by sig (130 when unknown).
func signalExit(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return exitSIGTERM
	}
	return exitSIGINT
}

// interruptedBy returns the signal that ended ctx, or nil.
func interruptedBy(ctx context.Context) os.Signal {
	if i, ok := context.Cause(ctx).(*interruption); ok {
		return i.sig
	}
	return nil
}

// interruptNote is the line a command prints when ctx was interrupted.
func interruptNote(ctx context.Context) string {
	sig := interruptedBy(ctx)
	if sig == nil {
		return "interrupted"
	}
	return "interrupted by " + signalName(sig)
}

// notifySignals returns a context that the first SIGINT/SIGTERM cancels,
// and a stop function that restores the default handling.
func notifySignals(stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	// Signals are caught from the process's first moments (package
	// earlysig); one that comes before a command has started cancels ctx,
	// and the command starts interrupted (runContext).
	ch := earlysig.C
	if ch == nil { // a test binary
		ch = make(chan os.Signal, 2)
		signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	}
	done := make(chan struct{})
	var first atomic.Value
	go func() {
		select {
		case s := <-ch:
			first.Store(s)
			if started.Load() && !interruptible.Load() {
				extern.Kill()
				os.Exit(signalExit(s))
			}
			fmt.Fprintf(stderr, "\nlockstep: %s: stopping and printing what was finished (send it again to quit at once)\n", signalName(s))
			cancel(&interruption{sig: s})
		case <-done:
			return
		}
		select {
		case <-ch:
			fmt.Fprintf(stderr, "lockstep: second signal: quitting now\n")
			extern.Kill() // engine processes (exec:) and what they started
			os.Exit(signalExit(first.Load().(os.Signal)))
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}
