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

// engineName is the engine of a survey's column ("summary", "pose").
func engineName(sv *checker.Survey) string {
	name, _ := engine.Split(sv.Engine)
	return name
}

// multiEngine is whether the matrix has columns of more than one engine
// (`-engines`): it then has a row for every lemma of the catalog.
func multiEngine(svs []*checker.Survey) bool {
	for _, sv := range svs {
		if engineName(sv) != engineName(svs[0]) {
			return true
		}
	}
	return false
}

// uniform is whether every column checked the same programs with the
// same bounds (one line says how the matrix was made).
func uniform(svs []*checker.Survey) bool {
	for _, sv := range svs {
		a, b := sv.Options, svs[0].Options
		if sv.Programs != svs[0].Programs || a.K != b.K || a.Steps != b.Steps {
			return false
		}
	}
	return true
}

// programsLine says how the columns were checked when they differ: one
// line per run of neighbouring columns of one engine with the same bounds.
func programsLine(svs []*checker.Survey) string {
	var b strings.Builder
	o := svs[0].Options
	fmt.Fprintf(&b, "* programs: the same stream for every column (gen.Program, seed %d), timeout %s per program; a column with fewer programs checks the first ones of the stream:\n",
		svs[0].Seed, o.Timeout)
	for i := 0; i < len(svs); {
		j := i + 1
		for j < len(svs) && engineName(svs[j]) == engineName(svs[i]) && svs[j].Programs == svs[i].Programs &&
			svs[j].Options.K == svs[i].Options.K && svs[j].Options.Steps == svs[i].Options.Steps {
			j++
		}
		what := fmt.Sprintf("%d columns", j-i)
		if j-i <= 3 {
			var names []string
			for _, sv := range svs[i:j] {
				names = append(names, sv.Variant)
			}
			what = strings.Join(names, ", ")
		}
		fmt.Fprintf(&b, "  * %s (%s): %d programs per column, k = %s, step bound %d\n",
			engineName(svs[i]), what, svs[i].Programs, kText(svs[i].Options.K), svs[i].Options.Steps)
		i = j
	}
	return b.String()
}

func kText(k int) string {
	if k < 0 {
		return "−1 (unbounded)"
	}
	return fmt.Sprint(k)
}

// columnsDoc names the rows and columns for "How to read a cell".
func columnsDoc(multi bool) string {
	if !multi {
		return "rows: lemmas of RULES.md §8; columns: variants of RULES.md §9, see `lockstep variants`"
	}
	return "rows: every lemma of the catalog, RULES.md §8 and ENGINES.md §8.3, with its claim below the matrix; columns: every variant of every engine, see `lockstep engines`"
}

// multiEngineDoc explains the columns of the one matrix and their k.
func multiEngineDoc(svs []*checker.Survey) string {
	var b strings.Builder
	b.WriteString("* columns: the summary engine's variants by name (`lockstep variants`), every other engine's as NAME:VARIANT (`lockstep engines`). Engine mutations (pose's `mut-…` variants) are no column: they are the mutation catalog's ([MUTANTS.md](MUTANTS.md)).")
	lineage, sk, summaryCols := false, 0, false
	unbounded := false // some other engine's column at k = −1
	for _, sv := range svs {
		lineage = lineage || strings.HasPrefix(sv.Engine, "summary:fixed+u-")
		if engineName(sv) == "summary" {
			sk, summaryCols = sv.Options.K, true
		} else {
			unbounded = unbounded || sv.Options.K < 0
		}
	}
	if lineage {
		b.WriteString(" `fixed+u-st` and `fixed+u-eqand` are seed 004's readings of the summary engine (ENGINES.md §6, [UBER.md](UBER.md), [FINDINGS.md](FINDINGS.md) F5, F6), checked as summary variants (at the summary engine's k, on as many programs as the other engines' columns).")
	}
	b.WriteString("\n")
	if unbounded {
		b.WriteString("* k: ")
		if summaryCols && sk >= 0 {
			fmt.Fprintf(&b, "the summary engine's columns are checked at k = %d, as `lockstep lemmas -all` checks them (the same stream and bounds give the same numbers); ", sk)
		}
		b.WriteString("lazier, lazier#, pose and uber at k = −1, as ENGINES.md §8.4 says: POSE-J has no k-bound, and the k-bounds of Kiasan and U-DEFER bound another thing than GSE's (resolution time, not read time), so at a finite k they diverge from GSE by design (lemma KB, reported apart: FINDINGS.md KB-1 to KB-3). At k = −1 GSE and the engine are bounded by the step bound alone, and KB, a finite-k verdict, is no claim of the check (\"–\").\n")
	}
	return b.String()
}

// rowsDoc is the claim of every row, the engines whose columns decide it,
// and why P4 and VS are decided in no column.
func rowsDoc(svs []*checker.Survey) string {
	var b strings.Builder
	b.WriteString("\n## The rows\n\nEvery lemma of the catalog (`checker.Lemmas`, `checker.Claim`; [SEMANTICS.md §8](SEMANTICS.md#8-the-lemma-catalog) says where each is checked) and the engines whose columns decide it (`checker.Applicable`).\n\n| lemma | claim | decided for |\n|---|---|---|\n")
	for _, l := range checker.Lemmas {
		var engs []string
		for _, sv := range svs {
			if e := engineName(sv); sv.Stat(l) != nil && !slices.Contains(engs, e) {
				engs = append(engs, e)
			}
		}
		where := strings.Join(engs, ", ")
		switch l {
		case checker.P4:
			where = "no column: a claim across engines on one program (ENGINES.md §8.2: reported, not enforced), decided by `lockstep order` (`checker.Order`). On 1,000 generated programs (seed 1, steps 100): at k = −1 `lazier# ≤ lazier` fails on 40 (P4-1: the null-test reading of a comparison), every other claim holds; at k = 1 and 2 `lazier ≤ GSE` fails on 79 and 20 and `summary:fixed ≤ lazier#` on 1 and 0 ([FINDINGS.md](FINDINGS.md) P4, `testdata/order/p4.jl`)"
		case checker.KB:
			if where == "" {
				where = "no column here: a finite-k verdict, and every Partition engine's column is checked at k = −1; the Kiasan hunts at k = 1 and 2 below decide it"
			}
		case checker.VS:
			where = "no column: engine against engine without GSE (`lockstep check -engine A -vs B`; [TESTING.md](TESTING.md): pose and uber against `summary:fixed` on 100 generated programs, 96 hold, 4 inconclusive, 0 violated)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", l, mdEscape(checker.Claim[l]), orDash(where))
	}
	return b.String()
}

// huntsDoc carries the Kiasan hunts of issue 13 (≥ 1,000 programs at
// k = −1; k = 1 and 2) when the matrix has Kiasan columns: they are longer
// runs than the matrix's and are not rerun by it.
func huntsDoc(svs []*checker.Survey) string {
	for _, sv := range svs {
		if e := engineName(sv); e == "lazier" || e == "lazier#" {
			return kiasanHuntsDoc
		}
	}
	return ""
}

const kiasanHuntsDoc = `
## The Kiasan hunts (k = −1, 1, 2)

Longer runs than the matrix's, not rerun by this command; recorded on 2026-11-23 in
[TESTING.md](TESTING.md) ("After the merges of 2026-11-23") and [FINDINGS.md](FINDINGS.md) (KB-2).
` + "`check -gen`" + ` stops at the first violated program.

| engine | k | command | programs | result |
|---|---|---|---|---|
| lazier | −1 | ` + "`lockstep check -gen -n 1000 -seed 1 -engine lazier -k -1 -steps 60 -timeout 10s -workers 2`" + ` | 1,000 | 956 hold, 44 inconclusive, **0 violated** |
| lazier# | −1 | the same with ` + "`-engine 'lazier#'`" + ` | 1,000 | 956 hold, 44 inconclusive, **0 violated** |
| lazier, lazier# | 1 | the same with ` + "`-k 1 -shrink-time 20s`" + ` | 6 | KB within the first 6 programs, shrunk from 7 to 6 lines (P2 at k = 1, every lemma at k = −1): ` + "`testdata/fixedbugs/kiasan-kbound-alias_KB.jl`" + ` |
| lazier, lazier# | 2 | the same with ` + "`-k 2`" + ` | 6 | KB within the first 6 programs (7 lines; P2 at k = 2, every lemma at k = −1) |

So without a k-bound both Kiasan engines hold partition exactness (P1–P3, FEAS, VIEW) on the
first 1,000 programs of the stream, and at k = 1 and 2 they diverge from GSE within six
programs, as ENGINES.md §3.2 predicts (KB).
`
