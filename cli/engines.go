package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/engine/extern"
	"github.com/lockstep-dev/lockstep/internal/report"
	"github.com/lockstep-dev/lockstep/smt"
)

func init() {
	register(&command{
		name:  "engines",
		short: "list the registered engines: name, shape, default variant, k-bound and default k, what it is",
		usage: "[-json] [-exec COMMAND]",
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
	asJSON := fs.Bool("json", false, "print one JSON document: {\"engines\": [...], \"exit_code\": 0, …}")
	execCmd := fs.String("exec", "", "describe the external engine COMMAND runs (its handshake: docs/PROTOCOL.md) instead of the registered ones")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if *execCmd != "" {
		return execEngine(*execCmd, *asJSON, stdout)
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
			e.Lemmas = checker.ApplicableInfo(eut, info, "")
		}
		list = append(list, e)
	}
	if *asJSON {
		return encodeIndented(stdout, struct {
			Engines []engineJSON `json:"engines"`
			report.Status
		}{list, report.Status{}})
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

// execEngine prints what an external engine says of itself in the
// handshake (package engine/extern): name, version, shape, variants,
// mutants, and the lemmas a check of it decides.
func execEngine(command string, asJSON bool, stdout io.Writer) error {
	defer extern.Shutdown()
	h, err := extern.Handshake(command)
	if err != nil {
		return err
	}
	spec := extern.Prefix + ":" + command
	sol, err := smt.NewSolver()
	if err != nil {
		return err
	}
	defer sol.Close()
	info, variant, err := engine.Lookup(spec)
	if err != nil {
		return err
	}
	eut, err := info.New(variant, engine.Config{K: 2, Solver: sol})
	if err != nil {
		return err
	}
	out := struct {
		Spec string `json:"spec"`
		extern.Hello
		Lemmas []checker.Lemma `json:"lemmas"`
		report.Status
	}{spec, *h, checker.ApplicableInfo(eut, info, variant), report.Status{}}
	if asJSON {
		return encodeIndented(stdout, out)
	}
	fmt.Fprintf(stdout, "%s %s (protocol %d): %s\n", h.Name, h.Version, h.Protocol, h.Doc)
	fmt.Fprintf(stdout, "  spec     %s\n  shape    %s\n", spec, h.Shape)
	view := "checked (lemma VIEW)"
	if h.IdentityView {
		view = "identity"
	}
	fmt.Fprintf(stdout, "  view     %s\n", view)
	data := "none: " + info.NoData
	if info.Data {
		data = "int and bool (protocol 2); If (sym), Assume: "
		if len(h.DataRules) == 0 {
			data += "lockstep's, on the engine's φ"
		} else {
			data += "the engine's own " + strings.Join(h.DataRules, ", ")
		}
	}
	fmt.Fprintf(stdout, "  data     %s\n", data)
	for _, v := range h.Variants {
		def := ""
		if v.Name == h.Default {
			def = " (default)"
		}
		fmt.Fprintf(stdout, "  variant  %s%s: %s\n", v.Name, def, v.Doc)
	}
	if m := h.Mutants; m != nil {
		for _, x := range m.List {
			fmt.Fprintf(stdout, "  mutant   %s: %s\n", engine.Join(spec, m.Base+"+"+x.Name), x.Doc)
		}
	}
	var ls []string
	for _, l := range out.Lemmas {
		ls = append(ls, string(l))
	}
	fmt.Fprintf(stdout, "  lemmas   %s\n", strings.Join(ls, " "))
	return nil
}
