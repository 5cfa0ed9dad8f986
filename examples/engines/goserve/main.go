// Command goserve is lockstep's command line with one more engine,
// gse-facts (examples/engines/gsefacts, the Go twin of
// examples/engines/gse.py), and a mode that serves any registered engine
// as an external one: the engine's side of the process protocol
// (docs/PROTOCOL.md) on standard input and output. It measures what the
// protocol costs a Go engine (docs/PERFORMANCE.md: the same engine
// in-process and through exec:) and is the template of a Go engine in a
// process of its own.
//
//	go build -o /tmp/goserve ./examples/engines/goserve
//	/tmp/goserve check -engine summary:fixed testdata/programs/swap.jl                     # in-process
//	/tmp/goserve check -engine 'exec:/tmp/goserve serve summary#fixed' testdata/programs/swap.jl  # through the protocol
package main

import (
	"fmt"
	"os"

	"github.com/lockstep-dev/lockstep/cli"
	"github.com/lockstep-dev/lockstep/engine"
	_ "github.com/lockstep-dev/lockstep/engine/builtin"
	"github.com/lockstep-dev/lockstep/engine/extern"
	"github.com/lockstep-dev/lockstep/examples/engines/gsefacts"
)

func main() {
	engine.Register(gsefacts.Info)
	if len(os.Args) >= 2 && os.Args[1] == "serve" {
		if len(os.Args) != 3 {
			fmt.Fprintln(os.Stderr, "usage: goserve serve ENGINE (a registered engine: summary, lazier#, gse-facts, …)")
			os.Exit(2)
		}
		if err := extern.ServeRegistered(os.Args[2], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "goserve:", err)
			os.Exit(1)
		}
		return
	}
	cli.Main()
}
