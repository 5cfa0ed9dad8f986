package cli

import (
	"fmt"
	"io"
	"math"
	"os"
	"time"
)

// progressLines reports whether LOCKSTEP_PROGRESS=lines asks for progress
// as plain lines on stderr (for logs and CI, and for the signal tests, which
// wait for a phase before they send a signal): "lockstep: started" once the
// command runs with its signal handling in place (startedLine), then one
// line per program or phase.
func progressLines() bool { return os.Getenv("LOCKSTEP_PROGRESS") == "lines" }

// warnProgressMode says, in one line on stderr, that LOCKSTEP_PROGRESS has a
// value that is no mode (a typo would otherwise leave the terminal bar on,
// or a CI log without the lines it expects, and no word why).
func warnProgressMode(stderr io.Writer) {
	if v, ok := os.LookupEnv("LOCKSTEP_PROGRESS"); ok && v != "" && v != "lines" {
		fmt.Fprintf(stderr, "lockstep: ignoring LOCKSTEP_PROGRESS=%q: the one mode is LOCKSTEP_PROGRESS=lines (plain progress lines on stderr); unset it for the terminal bar\n", v)
	}
}

// progressLine prints one progress line in lines mode.
func progressLine(w io.Writer, format string, args ...any) {
	if progressLines() {
		fmt.Fprintf(w, "progress: "+format+"\n", args...)
	}
}

// progress prints a one-line progress bar with rate and ETA on a terminal,
// and nothing when the output is not a terminal (logs, CI, pipes).
type progress struct {
	w     io.Writer
	total int
	tty   bool

	// lastN and lastChange: when the count last moved, so that the ETA of
	// a run waiting on one slow item is not a countdown already at 0s.
	lastN      int64
	lastChange time.Duration
}

func newProgress(w io.Writer, total int) *progress {
	tty := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return &progress{w: w, total: total, tty: tty}
}

// start polls count every half second until the returned stop is called.
func (p *progress) start(count func() (int64, string)) (stop func()) {
	if !p.tty {
		return func() {}
	}
	begin := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(p.w, "\r\033[K")
				return
			case <-t.C:
				n, extra := count()
				p.draw(n, extra, time.Since(begin))
			}
		}
	}()
	return func() { close(done); <-finished }
}

func (p *progress) draw(n int64, extra string, el time.Duration) {
	const width = 30
	frac := 0.0
	if p.total > 0 {
		frac = float64(n) / float64(p.total)
	}
	bar := make([]byte, width)
	for i := range bar {
		if float64(i) < frac*width {
			bar[i] = '='
		} else {
			bar[i] = ' '
		}
	}
	rate := float64(n) / el.Seconds()
	fmt.Fprintf(p.w, "\r\033[K[%s] %d/%d  %.1f/s  ETA %s  %s", bar, n, p.total, rate, p.eta(n, el), extra)
}

// eta estimates the time left from the rate so far, in whole seconds
// rounded up (never "0s" while something is left), and "?" when it cannot
// tell: nothing done yet, or the count has not moved for longer than the
// estimate (the next item is slower than the ones before it).
func (p *progress) eta(n int64, el time.Duration) string {
	if n != p.lastN {
		p.lastN, p.lastChange = n, el
	}
	left := int64(p.total) - n
	if n <= 0 || left <= 0 || el <= 0 {
		if left <= 0 && n > 0 {
			return "0s"
		}
		return "?"
	}
	secs := float64(left) * el.Seconds() / float64(n)
	if (el - p.lastChange).Seconds() > secs {
		return "?"
	}
	return (time.Duration(math.Ceil(secs)) * time.Second).String()
}

// startedLine prints "lockstep: started" in lines mode, once the command
// is known and, for a command that watches its context, once a signal is
// noted rather than fatal: a test that signals at this line must find the
// process ready for it. (It was printed before the command was looked up,
// and a signal that landed in between exited at once, without the note
// the test expects: the cmd/lockstep flake of sessions 3 and 4.)
func startedLine(w io.Writer) {
	if progressLines() {
		fmt.Fprintln(w, "lockstep: started")
	}
}

// plural is "1 program", "2 programs": n and the word, plural unless n is 1.
func plural[N ~int | ~int64](n N, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
