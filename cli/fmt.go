package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lockstep-dev/lockstep/internal/report"
	"github.com/lockstep-dev/lockstep/javalite"
)

func init() {
	register(&command{
		name:  "fmt",
		short: "parse and check a program and print its canonical form",
		usage: "[-json] FILE",
		run:   runFmt,
	})
}

// runFmt prints the canonical text of FILE (javalite.Print), which parses
// back to the same tree. A file that does not parse or check gets every
// positioned error, one per line, and exit status 2.
func runFmt(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	asJSON := fs.Bool("json", false, "print one JSON document: {\"file\", \"program\" (the canonical text) or \"errors\" (file:line:col: reason), \"exit_code\", …}")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return usageError("exactly one program FILE is required")
	}
	type fmtJSON struct {
		File    string   `json:"file"`
		Program string   `json:"program,omitempty"`
		Errors  []string `json:"errors,omitempty"`
		report.Status
	}
	p, err := javalite.LoadFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, err)
		if *asJSON {
			doc := fmtJSON{File: fs.Arg(0), Errors: strings.Split(strings.TrimSpace(err.Error()), "\n"), Status: report.Status{ExitCode: exitUsage}}
			if err := encodeIndented(stdout, doc); err != nil {
				return err
			}
		}
		return errReported
	}
	if src, err := os.ReadFile(fs.Arg(0)); err == nil {
		if n := javalite.CommentLines(src); n > 0 {
			// The canonical form is the tree's text: it keeps no comment.
			fmt.Fprintf(stderr, "lockstep fmt: %s: the canonical form has no comments: the %s of the file are not printed\n", fs.Arg(0), plural(n, "comment line"))
		}
	}
	if *asJSON {
		return encodeIndented(stdout, fmtJSON{File: fs.Arg(0), Program: javalite.Print(p)})
	}
	_, err = io.WriteString(stdout, javalite.Print(p))
	return err
}
