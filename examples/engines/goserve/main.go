// Command goserve runs an engine of lockstep's registry as an external
// engine: the engine's side of the process protocol (docs/PROTOCOL.md)
// over standard input and output, for measuring what the protocol costs
// a Go engine (docs/PERFORMANCE.md) and as the template of a Go engine in
// a process of its own.
//
//	go build -o /tmp/goserve ./examples/engines/goserve
//	lockstep check -engine 'exec:/tmp/goserve summary#fixed' testdata/programs/swap.jl
package main

import (
	"fmt"
	"os"

	_ "github.com/lockstep-dev/lockstep/engine/builtin"
	"github.com/lockstep-dev/lockstep/engine/extern"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: goserve ENGINE (a registered engine name: summary, lazier#, pose, …)")
		os.Exit(2)
	}
	if err := extern.ServeRegistered(os.Args[1], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "goserve:", err)
		os.Exit(1)
	}
}
