// Package earlysig catches SIGINT and SIGTERM from the first moments of
// the process: its init runs before the other packages' (it imports
// nothing of lockstep's), which together take milliseconds (rapid's, gob's),
// so a signal in that time is queued for the CLI instead of killing the
// process with no word of what happened. Package cli takes the signals
// from C (cli/signals.go). Only the time the dynamic loader takes before Go
// starts (loading libz3) stays uncovered.
//
// A test binary (`go test`, named *.test) is left alone: nothing there
// takes the signals from C, and Ctrl-C must still end it.
package earlysig

import (
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// C receives the first signals, from init on (nil in a test binary).
var C chan os.Signal

func init() {
	if len(os.Args) > 0 && strings.HasSuffix(os.Args[0], ".test") {
		return
	}
	C = make(chan os.Signal, 2)
	signal.Notify(C, os.Interrupt, syscall.SIGTERM)
}
