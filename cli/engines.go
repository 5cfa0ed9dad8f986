package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/smt"
)

func init() {
	register(&command{
		name:  "engines",
		short: "list the registered engines: name, shape, default variant, k-bound and default k, what it is",
		usage: "[-json]",
		run:   runEngines,
	})
}

// engineJSON describes one registered engine.
type engineJSON struct {
	Name    string `json:"name"`
	Shape   string `json:"shape"`
	Default string `json:"default_variant,omitempty"`
	// Variants counts the named variants ('lockstep variants' lists the
	// summary engine's).
	Variants int    `json:"variants"`
	Doc      string `json:"doc"`
	// Lemmas are the lemmas a check of the engine decides; Reference marks
	// GSE, which is never the engine under test.
	Lemmas []checker.Lemma `json:"lemmas,omitempty"`
	// Bound is the k-bound of the default variant relative to GSE's
	// (engine.Bound: "gse", "own", "none"), DefaultK the k a check uses
	// when none is given, KBound the variant part that gives GSE's bound.
	Bound     string `json:"bound"`
	DefaultK  int    `json:"default_k"`
	KBound    string `json:"kbound_variant,omitempty"`
	Reference bool   `json:"reference,omitempty"`
}

func runEngines(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	asJSON := fs.Bool("json", false, "print a JSON array")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	// The shape is a property of an engine value, so each engine is built
	// once (its default variant; a solver it does not use yet).
	sol, err := smt.NewSolver()
	if err != nil {
		return err
	}
	defer sol.Close()
	var list []engineJSON
	for _, info := range engine.Engines() {
		eut, err := info.New(info.Default, engine.Config{K: 2, Solver: sol})
		if err != nil {
			return fmt.Errorf("engine %s: %w", info.Name, err)
		}
		e := engineJSON{Name: info.Name, Shape: eut.Shape().String(), Default: info.Default, Doc: info.Doc,
			Reference: info.Name == "gse", Bound: info.BoundOf("").String(), DefaultK: info.DefaultK(""), KBound: info.KBound}
		if info.Variants != nil {
			e.Variants = len(info.Variants())
		}
		if !e.Reference {
			e.Lemmas = checker.ApplicableBound(eut, info.BoundOf(""))
		}
		list = append(list, e)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	for _, e := range list {
		def := "–"
		if e.Default != "" {
			def = fmt.Sprintf("%s (%d variants)", e.Default, e.Variants)
		}
		bound := "bound " + e.Bound
		if e.KBound != "" {
			bound += " (+" + e.KBound + ": gse)"
		}
		fmt.Fprintf(stdout, "%-10s %-16s %-26s %-25s k=%-3d %s\n", e.Name, e.Shape, def, bound, e.DefaultK, e.Doc)
	}
	return nil
}
