package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lockstep-dev/lockstep/summary"
)

func init() {
	register(&command{
		name:  "variants",
		short: "list the heap-summary rule variants (RULES.md §9)",
		usage: "[-mutants]",
		run:   runVariants,
	})
}

func runVariants(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	mutants := fs.Bool("mutants", false, "also list the deliberate single-point mutants used to test the checker")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	list := summary.Variants()
	if *mutants {
		list = append(list, summary.Mutants()...)
	}
	for _, v := range list {
		diff := "default choices"
		if d := v.Differences(); len(d) > 0 {
			diff = strings.Join(d, "; ")
		}
		fmt.Fprintf(stdout, "%-22s %s — %s\n", v.Name, diff, v.Doc)
	}
	return nil
}
