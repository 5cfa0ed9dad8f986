// Command lockstep runs the GSE and heap-summary engines over Javalite
// programs, alone or in lockstep, and reports what it finds.
//
// Each subcommand lives in its own file and registers itself in init, so the
// driver stays thin: main parses the subcommand name, hands the remaining
// arguments to the subcommand's own flag set, and turns its result into an
// exit code following Go conventions: 0 when everything holds, 1 when a
// property is violated, 2 for usage or input errors.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// Exit codes.
const (
	exitOK        = 0
	exitViolation = 1
	exitUsage     = 2
)

// command is one subcommand.
type command struct {
	name  string
	short string // one line for the command list
	usage string // argument synopsis, e.g. "[flags] FILE"
	// run parses args with fs (already named and wired to stderr) and does
	// the work. It returns an error wrapped with usageError or inputError for
	// exit 2, violation for exit 1, any other error for exit 2 as well.
	run func(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// errViolation signals exit code 1: a checked property does not hold.
var errViolation = errors.New("property violated")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		topUsage(stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
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
	}
	defer profileFlag(fs, stderr)()
	err := c.run(fs, args[1:], stdout, stderr)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errViolation):
		return exitViolation
	default:
		if !errors.Is(err, errReported) {
			fmt.Fprintf(stderr, "lockstep %s: %v\n", c.name, err)
		}
		return exitUsage
	}
}

// errReported is returned by a subcommand that already printed its error
// (for instance a list of positioned type errors) and wants exit 2.
var errReported = errors.New("reported")

func topUsage(w io.Writer) {
	fmt.Fprintln(w, "lockstep checks heap-summary symbolic execution against GSE in lockstep.")
	fmt.Fprintln(w, "\nusage: lockstep COMMAND [flags] [args]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].short)
	}
	fmt.Fprintln(w, "\nRun 'lockstep COMMAND -h' for a command's flags.")
	fmt.Fprintln(w, "Exit status: 0 all properties hold, 1 a property is violated, 2 usage or input error.")
}
