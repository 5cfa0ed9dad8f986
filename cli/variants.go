package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lockstep-dev/lockstep/internal/mutation/choice"
	"github.com/lockstep-dev/lockstep/internal/report"
	"github.com/lockstep-dev/lockstep/summary"
)

func init() {
	register(&command{
		name:  "variants",
		short: "list the heap-summary rule variants (RULES.md §9, seed 004) and, with -mutants, the mutations",
		usage: "[-mutants] [-json]",
		run:   runVariants,
	})
}

func runVariants(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	mutants := fs.Bool("mutants", false, "also list the deliberate single-point mutations used to test the checker "+
		"(alone a name means published with the mutation; 'lockstep mutants -list' lists the catalog built on fixed)")
	asJSON := fs.Bool("json", false, "print one JSON document: {\"variants\": [{name, kind, doc}], \"exit_code\": 0, …}")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	type variantJSON struct {
		Name string `json:"name"`
		Kind string `json:"kind"`
		Doc  string `json:"doc"`
	}
	var list []variantJSON
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
		list = append(list, variantJSON{r.Name, r.Kind.String(), doc})
	}
	if *asJSON {
		return encodeIndented(stdout, struct {
			Variants []variantJSON `json:"variants"`
			report.Status
		}{list, report.Status{}})
	}
	for _, v := range list {
		fmt.Fprintf(stdout, "%-24s %-11s %s\n", v.Name, v.Kind, v.Doc)
	}
	return nil
}
