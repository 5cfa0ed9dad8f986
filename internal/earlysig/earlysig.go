// Package earlysig catches SIGINT and SIGTERM from the first moments of
// the process: its init runs before the other packages' (it imports
// nothing of lockstep's), which together take milliseconds (rapid's, gob's),
// so a signal in that time is queued for the CLI instead of killing the
// process with no word of what happened. Package cli takes the signals
// from C (cli/signals.go).
package earlysig

import (
	"os"
	"os/signal"
	"syscall"
)

// C receives the first signals, from init on.
var C = make(chan os.Signal, 2)

func init() { signal.Notify(C, os.Interrupt, syscall.SIGTERM) }
