package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lockstep-dev/lockstep/internal/mutation/choice"
	"github.com/lockstep-dev/lockstep/summary"
)

func init() {
	register(&command{
		name:  "variants",
		short: "list the heap-summary rule variants (RULES.md §9, seed 004) and, with -mutants, the mutations",
		usage: "[-mutants]",
		run:   runVariants,
	})
}

func runVariants(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	mutants := fs.Bool("mutants", false, "also list the deliberate single-point mutations used to test the checker "+
		"(alone a name means published with the mutation; 'lockstep mutants -list' lists the catalog built on fixed)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	// Every line comes from summary.Table: name, kind, and for a
	// combination the single choices it makes.
	for _, r := range summary.Table.Rows {
		if r.Kind == choice.Mutation && !*mutants {
			continue
		}
		doc := summary.Table.Doc(r)
		if r.Kind == choice.Combination {
			v, err := summary.Lookup(r.Name)
			if err != nil {
				return err
			}
			doc = "= " + strings.Join(v.Differences(), "+") + " — " + doc
		}
		fmt.Fprintf(stdout, "%-24s %-11s %s\n", r.Name, r.Kind, doc)
	}
	return nil
}
