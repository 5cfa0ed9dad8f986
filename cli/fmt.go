package cli

import (
	"flag"
	"fmt"
	"io"

	"github.com/lockstep-dev/lockstep/javalite"
)

func init() {
	register(&command{
		name:  "fmt",
		short: "parse and check a program and print its canonical form",
		usage: "FILE",
		run:   runFmt,
	})
}

// runFmt prints the canonical text of FILE (javalite.Print), which parses
// back to the same tree. A file that does not parse or check gets every
// positioned error, one per line, and exit status 2.
func runFmt(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("exactly one program FILE is required")
	}
	p, err := javalite.LoadFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return errReported
	}
	_, err = io.WriteString(stdout, javalite.Print(p))
	return err
}
