package smt

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// Cancellation. A check can run for a long time, and the process that runs
// it must stay responsive to Ctrl-C and SIGTERM. Z3 by default installs a
// SIGINT handler of its own around every check; under the Go runtime that
// crashes the process ("non-Go code set up signal handler without
// SA_ONSTACK flag", or a fault inside Z3) or swallows the signal. The
// binding therefore turns that off (solver parameter ctrl_c=false, z3.go),
// and cancellation comes from Go: SetContext binds a context, and when it
// ends a watcher calls Z3_interrupt on the solver's Z3 context, which makes
// a check in flight return unknown.
//
// Z3_interrupt cancels the Z3 context's resource limit for good (Z3 4.8.12
// never resets it), and a check that was interrupted may still return sat
// or unsat from work it did before it noticed. So a canceled Solver is
// finished: the answer of the query in flight is discarded, and every later
// query fails with ErrCanceled without reaching Z3. An answer obtained after
// cancellation can therefore never become a verdict.

// ErrCanceled is returned by every query of a Solver whose context has
// ended. It wraps context.Canceled.
var ErrCanceled = fmt.Errorf("smt: query canceled: %w", context.Canceled)

// gate is what every check passes through on its way to Z3: cancellation
// (this file) and fault injection (faults.go).
type gate struct {
	// mu orders interrupt against free: the watcher holds it while it calls
	// Z3_interrupt, free holds it while it deletes the context.
	mu       sync.Mutex
	canceled atomic.Bool
	// stop unregisters the current context watcher.
	stop func() bool

	faults *injector
	// reason is the reason of an injected unknown, read once by
	// reasonUnknown.
	reason string
	// retried counts queries run a second time (retry).
	retried int64
}

// enter is called before a query reaches Z3. With stop set, the query must
// not run and (r, err) is its answer.
func (g *gate) enter(op string) (r int, err error, stop bool) {
	if g.canceled.Load() {
		return lUndef, ErrCanceled, true
	}
	if g.faults != nil {
		return g.faults.draw(g, op)
	}
	return 0, nil, false
}

// exit is called after Z3 answered: if the context was canceled meanwhile,
// the answer is discarded.
func (g *gate) exit() error {
	if g.canceled.Load() {
		return ErrCanceled
	}
	return nil
}

// queryAttempts is how often a query is tried in all (retry).
const queryAttempts = 3

// retry runs one query and, while it answers unknown or meets an injected
// fault, runs it again, queryAttempts times in all: an unknown answer (a
// timeout, a resource limit) or a query cut short on its own may not
// recur, and sat and unsat are always right, so another attempt can only
// turn an undecided query into a decided one. An unknown or faulty check
// left the solver as it was. Never retried: a real Z3 error (Z3 may have
// touched the solver), and the cancellation of the solver's context (which
// means stop: gate.canceled refuses every later attempt anyway).
func (z *zctx) retry(once func() (int, error)) (int, error) {
	z.gate.reason = ""
	r, err := once()
	for i := 1; i < queryAttempts && !z.gate.canceled.Load() &&
		((r == lUndef && err == nil) || errors.Is(err, ErrInjected) || errors.Is(err, errInjectedCancel)); i++ {
		z.gate.retried++
		z.gate.reason = ""
		r, err = once()
	}
	return r, err
}

func (g *gate) takeReason() string {
	r := g.reason
	g.reason = ""
	return r
}

// SetContext binds ctx to the solver: when ctx ends, a check in flight is
// interrupted and the solver is canceled for good (every later query,
// including one in flight, fails with ErrCanceled). Binding a new context
// replaces the previous one; nil unbinds. A Solver stays single-goroutine;
// only the watcher that SetContext starts runs concurrently with it, and it
// only ever calls Z3_interrupt.
func (s *Solver) SetContext(ctx context.Context) {
	if s.z == nil {
		return
	}
	z := s.z
	if z.gate.stop != nil {
		z.gate.stop()
		z.gate.stop = nil
	}
	if ctx == nil {
		return
	}
	if ctx.Err() != nil {
		z.interrupt()
		return
	}
	z.gate.stop = context.AfterFunc(ctx, z.interrupt)
}

// Canceled reports whether the solver's context has ended (the solver then
// answers nothing more).
func (s *Solver) Canceled() bool { return s.z != nil && s.z.gate.canceled.Load() }

// Undecided reports whether err means that a query could not be decided —
// the solver answered unknown, was canceled or timed out, or failed —
// rather than that the caller asked something wrong. The checker turns such
// errors into inconclusive verdicts, never into a pass or a violation.
func Undecided(err error) bool {
	if err == nil {
		return false
	}
	var ze *Z3Error
	return errors.Is(err, ErrUnknown) || errors.Is(err, context.Canceled) ||
		errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ze)
}

// goAnswer passes an answer of the Go decision procedure (decide.go)
// through the gate as a Z3 answer passes: a canceled solver refuses it
// (every query after cancellation fails with ErrCanceled, whoever would
// have answered it), and injected faults hit it at the same rate, retried
// the same way, so a fault-injection run exercises every query the
// checker asks, not only the few that reach Z3.
func (z *zctx) goAnswer(r Result) (int, error) {
	return z.retry(func() (int, error) {
		if x, err, stop := z.gate.enter("check"); stop {
			return x, err
		}
		if r == Sat {
			return lTrue, nil
		}
		return lFalse, nil
	})
}
