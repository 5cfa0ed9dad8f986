package cli

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/internal/mutation/choice"
	"github.com/lockstep-dev/lockstep/summary"
)

// One matrix for every engine (`lemmas -engines all`): a column per
// variant of each engine named, in the order summary, lazier, lazier#,
// pose, uber (then any other registered engine), all on the same program
// stream. The summary engine keeps the k of -k (its columns are those of
// `lemmas -all`, with the same numbers); the other engines are checked at
// -engines-k, by default k = −1 (ENGINES.md §8.4: they are exact only
// without a k-bound, and at a finite k their divergences are KB, reported
// apart), on the first -engines-n programs of the stream.

// matrixFlags are the flags of the one matrix.
type matrixFlags struct {
	engines string
	k, n    int
	steps   int
}

func (m *matrixFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&m.engines, "engines", "", "one matrix for these engines: 'all' or NAME,NAME,… (a column per variant of each; implies -all)")
	fs.IntVar(&m.k, "engines-k", -1, "with -engines: the k-bound of the engines other than summary (ENGINES.md §8.4: -1, unbounded)")
	fs.IntVar(&m.n, "engines-n", 0, "with -engines: programs per column of the engines other than summary (0: -n)")
	fs.IntVar(&m.steps, "engines-steps", 0, "with -engines: the step bound of the engines other than summary (0: -steps)")
}

// engineOrder is the order of the matrix's column groups: the engine the
// project began with, then the others as ENGINES.md introduces them.
var engineOrder = []string{"summary", "lazier", "lazier#", "pose", "uber"}

// matrixEngines lists the engines named by -engines ("all": every
// registered engine but the reference), in engineOrder.
func matrixEngines(spec string) ([]string, error) {
	var names []string
	if spec == "all" {
		for _, info := range engine.Engines() {
			if info.Name != "gse" {
				names = append(names, info.Name)
			}
		}
	} else {
		for _, n := range strings.Split(spec, ",") {
			n = strings.TrimSpace(n)
			if n == "" {
				continue
			}
			if strings.Contains(n, ":") {
				return nil, fmt.Errorf("-engines takes engine names, not variants (%q): every variant of each is a column", n)
			}
			if n == "gse" {
				return nil, fmt.Errorf("-engines: gse is the reference engine; it cannot be the engine under test")
			}
			if _, _, err := engine.Lookup(n); err != nil {
				return nil, fmt.Errorf("-engines: %w", err)
			}
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("-engines names no engine")
		}
	}
	rank := func(n string) int {
		if i := slices.Index(engineOrder, n); i >= 0 {
			return i
		}
		return len(engineOrder)
	}
	slices.SortStableFunc(names, func(a, b string) int { return rank(a) - rank(b) })
	return names, nil
}

// column is one column of the matrix: the options of its check and the
// programs it checks.
type column struct {
	opt checker.Options
	n   int
}

// matrixColumns are the columns of the matrix for the engines named. The
// mutations of an engine (pose's mut-… variants) are no column: they are
// the mutation catalog's (docs/MUTANTS.md). With uber, seed 004's readings
// of the summary engine (summary.Table's Lineage rows, u-st and u-eqand)
// are columns too, applied to fixed (the summary engine's exact
// configuration, ENGINES.md §6), at the summary engine's k, on the
// programs of the other engines' columns.
func matrixColumns(base checker.Options, m matrixFlags, n int) ([]column, error) {
	names, err := matrixEngines(m.engines)
	if err != nil {
		return nil, err
	}
	other := base
	other.K = m.k
	if m.steps > 0 {
		other.Steps = m.steps
	}
	on := n
	if m.n > 0 {
		on = m.n
	}
	var cols []column
	add := func(opt checker.Options, n int, spec string) {
		opt.Engine = spec
		cols = append(cols, column{opt: opt, n: n})
	}
	for _, name := range names {
		info, _, err := engine.Lookup(name)
		if err != nil {
			return nil, err
		}
		opt, cn := other, on
		if name == "summary" {
			opt, cn = base, n
		}
		if info.Variants == nil {
			add(opt, cn, name)
			continue
		}
		for _, v := range info.Variants() {
			if strings.HasPrefix(v.Name, "mut-") {
				continue
			}
			add(opt, cn, name+":"+v.Name)
		}
		if name == "uber" {
			for _, r := range summary.Table.Select(func(r choice.Row[summary.Variant]) bool { return r.Kind == choice.Lineage }) {
				add(base, on, "summary:fixed+"+r.Name)
			}
		}
	}
	return cols, nil
}
