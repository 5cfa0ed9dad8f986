package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/internal/mutation"
)

// merge combines the -json results of the shards of one run (`check -gen`,
// `lemmas` or `mutants` with -shard I/N, N machines, one shard each) into
// the result the unsharded run gives, with the same exit status. Program i
// of the stream is in shard i mod N and keeps its index and seed there
// (checker.Shard), so the merge sums the counts, and where the unsharded
// run keeps the earliest counterexample of the stream, keeps the one with
// the smallest stream index over the shards. What cannot be the same is
// time: seconds are the longest shard's (the wall time of a parallel run).
//
// A hunt that stops at its first violation (`check -gen`, a mutant) stops
// in every shard at that shard's first: the merged counterexample is the
// unsharded run's with one worker (the earliest of the stream), and for a
// killed mutant `programs` is its stream position + 1, as a one-worker
// run counts; the holds and inconclusive counts are then what the shards
// checked together.

func init() {
	register(&command{
		name:  "merge",
		short: "combine the -json results of the shards (-shard I/N) of check -gen, lemmas or mutants into one report",
		usage: "[-json] FILE...",
		run:   runMerge,
	})
}

// shardFlag registers -shard on a command that checks a program stream.
func shardFlag(fs *flag.FlagSet) *string {
	return fs.String("shard", "", "check only part I of N of the program stream, `I/N` (programs whose index ≡ I mod N); 'lockstep merge' combines the -json results of all N parts")
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func runMerge(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	asJSON := fs.Bool("json", false, "print the merged result as JSON, in the form the command that made the parts prints")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("no files: give the -json output of every shard")
	}
	var parts []json.RawMessage
	var from []string // the file of each part
	for _, f := range fs.Args() {
		ps, err := readParts(f)
		if err != nil {
			return err
		}
		parts = append(parts, ps...)
		for range ps {
			from = append(from, f)
		}
	}
	kind := ""
	for i, p := range parts {
		k, err := partKind(p)
		if err != nil {
			return fmt.Errorf("%s: %v", from[i], err)
		}
		if kind != "" && k != kind {
			return fmt.Errorf("%s: a %s result among %s results: merge the parts of one run", from[i], k, kind)
		}
		kind = k
	}
	switch kind {
	case "check":
		return mergeChecks(parts, *asJSON, stdout)
	case "lemmas":
		return mergeSurveys(parts, *asJSON, stdout)
	default:
		return mergeMutants(parts, *asJSON, stdout)
	}
}

// readParts reads the JSON values of a file: one object, a stream of
// objects, or an array of them (lemmas -all).
func readParts(file string) ([]json.RawMessage, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var out []json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s: offset %d: %v", file, dec.InputOffset(), err)
		}
		if t := bytes.TrimSpace(v); len(t) > 0 && t[0] == '[' {
			var vs []json.RawMessage
			if err := json.Unmarshal(v, &vs); err != nil {
				return nil, fmt.Errorf("%s: %v", file, err)
			}
			out = append(out, vs...)
			continue
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no JSON result", file)
	}
	return out, nil
}

// partKind tells the command that wrote a result by its fields.
func partKind(p json.RawMessage) (string, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(p, &probe); err != nil {
		return "", fmt.Errorf("not a JSON object: %v", err)
	}
	switch {
	case probe["results"] != nil && probe["summary"] != nil:
		return "mutants", nil
	case probe["lemmas"] != nil:
		return "lemmas", nil
	case probe["programs_per_second"] != nil:
		return "check", nil
	}
	return "", fmt.Errorf("not the -json result of check -gen, lemmas or mutants")
}

// cover checks that the shards of one run are all N parts, each once (or
// one unsharded result alone), with the same settings (key).
func cover(what string, shards, keys []string) error {
	for i := range keys {
		if keys[i] != keys[0] {
			return fmt.Errorf("%s: the parts were made with different settings (%s, %s)", what, keys[0], keys[i])
		}
	}
	if len(shards) == 1 && shards[0] == "" {
		return nil
	}
	seen := map[int]bool{}
	n := 0
	for _, s := range shards {
		if s == "" {
			return fmt.Errorf("%s: an unsharded result among shards", what)
		}
		sh, err := checker.ParseShard(s)
		if err != nil {
			return fmt.Errorf("%s: %v", what, err)
		}
		if n != 0 && sh.N != n {
			return fmt.Errorf("%s: shards of different splits (%d and %d parts)", what, n, sh.N)
		}
		n = sh.N
		if seen[sh.I] {
			return fmt.Errorf("%s: shard %s given twice", what, s)
		}
		seen[sh.I] = true
	}
	if len(seen) != n {
		var missing []string
		for i := 0; i < n; i++ {
			if !seen[i] {
				missing = append(missing, fmt.Sprintf("%d/%d", i, n))
			}
		}
		return fmt.Errorf("%s: missing shard(s) %s", what, strings.Join(missing, ", "))
	}
	return nil
}

func decodeAll[T any](parts []json.RawMessage) ([]T, error) {
	out := make([]T, len(parts))
	for i, p := range parts {
		if err := json.Unmarshal(p, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func encodeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// mergeChecks merges `check -gen -json` results.
func mergeChecks(parts []json.RawMessage, asJSON bool, stdout io.Writer) error {
	gs, err := decodeAll[genSummary](parts)
	if err != nil {
		return err
	}
	var shards, keys []string
	for _, g := range gs {
		shards = append(shards, g.Shard)
		keys = append(keys, fmt.Sprintf("variant %s, semantics %s, k %d, steps %d, n %d, seed %d", g.Variant, g.Semantics, g.K, g.Steps, g.N, g.StreamSeed))
	}
	if err := cover("check -gen", shards, keys); err != nil {
		return err
	}
	m := genSummary{Variant: gs[0].Variant, Semantics: gs[0].Semantics, K: gs[0].K, Steps: gs[0].Steps, N: gs[0].N, StreamSeed: gs[0].StreamSeed}
	var cx *genSummary
	for i := range gs {
		g := &gs[i]
		m.Programs += g.Programs
		m.Holds += g.Holds
		m.Inconclusive += g.Inconclusive
		m.Violated += g.Violated
		m.Undecided = append(m.Undecided, g.Undecided...)
		m.Seconds = max(m.Seconds, g.Seconds)
		if g.Counterexample != nil && (cx == nil || g.Index < cx.Index) {
			cx = g
		}
	}
	slices.SortFunc(m.Undecided, func(a, b undecidedJSON) int { return a.Index - b.Index })
	if m.Seconds > 0 {
		m.PerSecond = float64(m.Programs) / m.Seconds
	}
	if cx != nil {
		m.Counterexample, m.Shrunk, m.Seed, m.Index, m.FoundLines = cx.Counterexample, cx.Shrunk, cx.Seed, cx.Index, cx.FoundLines
	}
	if asJSON {
		if err := json.NewEncoder(stdout).Encode(m); err != nil {
			return err
		}
	} else if cx == nil {
		fmt.Fprintf(stdout, "variant %s: %d programs, %d hold, %d inconclusive, 0 violated (%.1fs, %.1f programs/s; %d shards)\n",
			m.Variant, m.Programs, m.Holds, m.Inconclusive, m.Seconds, m.PerSecond, len(gs))
		printUndecided(stdout, m)
	} else {
		fmt.Fprintf(stdout, "variant %s: counterexample at program %d of the stream (program seed %d; found with %d lines",
			m.Variant, m.Index, m.Seed, m.FoundLines)
		if m.Shrunk {
			fmt.Fprintf(stdout, ", shrunk to %d)\n", m.Counterexample.Lines)
		} else {
			fmt.Fprintf(stdout, ", could not shrink)\n")
		}
		printJSONReport(stdout, m.Counterexample)
	}
	switch {
	case cx != nil:
		return errViolation
	case m.Inconclusive > 0:
		return fmt.Errorf("%d checks were inconclusive: %w", m.Inconclusive, errInconclusive)
	}
	return nil
}

// printJSONReport prints a violation read from JSON, as Report.Text does.
func printJSONReport(w io.Writer, r *checker.JSONReport) {
	fmt.Fprintf(w, "%s: %s (%s)\n", r.Status, r.Lemma, r.Claim)
	if r.Rule != "" {
		fmt.Fprintf(w, "rule: %s, step %d\n", r.Rule, r.Step)
	}
	if r.Reason != "" {
		fmt.Fprintf(w, "reason: %s\n", r.Reason)
	}
	if r.Witness != "" {
		fmt.Fprintf(w, "witness: %s\n", r.Witness)
	}
	if r.Program != "" {
		fmt.Fprintf(w, "program (%d lines):\n%s", r.Lines, r.Program)
	}
}

// mergeSurveys merges `lemmas -json` results, variant by variant.
func mergeSurveys(parts []json.RawMessage, asJSON bool, stdout io.Writer) error {
	svs, err := decodeAll[surveyJSON](parts)
	if err != nil {
		return err
	}
	var order []string
	byVariant := map[string][]surveyJSON{}
	for _, sv := range svs {
		if byVariant[sv.Variant] == nil {
			order = append(order, sv.Variant)
		}
		byVariant[sv.Variant] = append(byVariant[sv.Variant], sv)
	}
	var merged []surveyJSON
	for _, v := range order {
		m, err := mergeSurvey(byVariant[v])
		if err != nil {
			return err
		}
		merged = append(merged, m)
	}
	if asJSON {
		var err error
		if len(merged) == 1 {
			err = encodeIndented(stdout, merged[0])
		} else {
			err = encodeIndented(stdout, merged)
		}
		if err != nil {
			return err
		}
	}
	st := checker.Holds
	for _, m := range merged {
		if !asJSON {
			printMergedSurvey(stdout, m, len(byVariant[m.Variant]))
		}
		for _, s := range []checker.Status{checker.Violated, checker.Inconclusive} {
			if m.Status == s.String() {
				st = worse(st, s)
			}
		}
	}
	return surveyExit(st)
}

// worse is the status of two results together: violated over
// inconclusive over holds.
func worse(a, b checker.Status) checker.Status {
	switch {
	case a == checker.Violated || b == checker.Violated:
		return checker.Violated
	case a == checker.Inconclusive || b == checker.Inconclusive:
		return checker.Inconclusive
	}
	return checker.Holds
}

// surveyExit is the exit status of lemmas (and of its merge) for the
// worst status of its surveys.
func surveyExit(st checker.Status) error {
	switch st {
	case checker.Violated:
		return errViolation
	case checker.Inconclusive:
		return errInconclusive
	}
	return nil
}

func mergeSurvey(parts []surveyJSON) (surveyJSON, error) {
	var shards, keys []string
	for _, p := range parts {
		shards = append(shards, p.Shard)
		keys = append(keys, fmt.Sprintf("semantics %s, k %d, steps %d, n %d, seed %d, timeout %s", p.Semantics, p.K, p.Steps, p.N, p.Seed, p.Timeout))
	}
	if err := cover("lemmas, variant "+parts[0].Variant, shards, keys); err != nil {
		return surveyJSON{}, err
	}
	p0 := parts[0]
	m := surveyJSON{Variant: p0.Variant, Engine: p0.Engine, Semantics: p0.Semantics, K: p0.K, Steps: p0.Steps, Seed: p0.Seed, N: p0.N, Timeout: p0.Timeout}
	var order []string
	lemmas := map[string]*lemmaJSON{}
	for _, p := range parts {
		m.Programs += p.Programs
		m.Holds += p.Holds
		m.Violated += p.Violated
		m.Inconclusive += p.Inconclusive
		m.Seconds = max(m.Seconds, p.Seconds)
		for _, l := range p.Lemmas {
			ml := lemmas[l.Lemma]
			if ml == nil {
				ml = &lemmaJSON{Lemma: l.Lemma, Claim: l.Claim}
				lemmas[l.Lemma] = ml
				order = append(order, l.Lemma)
			}
			ml.Checks += l.Checks
			ml.Programs += l.Programs
			ml.Violations += l.Violations
			ml.Undecided = append(ml.Undecided, l.Undecided...)
			if l.Counterexample != nil && (ml.Counterexample == nil || l.ProgramIndex < ml.ProgramIndex) {
				ml.Counterexample, ml.Shrunk, ml.FoundLines, ml.ProgramSeed, ml.ProgramIndex =
					l.Counterexample, l.Shrunk, l.FoundLines, l.ProgramSeed, l.ProgramIndex
			}
		}
	}
	// Lemmas in catalog order, as a survey lists them; others after.
	sort.SliceStable(order, func(i, j int) bool { return catalogPos(order[i]) < catalogPos(order[j]) })
	st := checker.Holds
	for _, name := range order {
		l := lemmas[name]
		sort.Slice(l.Undecided, func(i, j int) bool { return l.Undecided[i].Index < l.Undecided[j].Index })
		e := checker.Evidence{Checks: l.Checks, Programs: l.Programs, Violations: l.Violations,
			FoundLines: l.FoundLines, Shrunk: l.Shrunk, Seed: l.ProgramSeed}
		for _, u := range l.Undecided {
			e.Undecided = append(e.Undecided, checker.Undecided{Index: u.Index, Seed: u.Seed, Reason: u.Reason})
		}
		if cx := l.Counterexample; cx != nil {
			e.ShrunkLines, e.Rule = cx.Lines, cx.Rule
		}
		s := e.Status()
		l.Status, l.Summary = s.String(), e.Summary(m.Programs, m.Violated+m.Inconclusive)
		st = worse(st, s)
		m.Lemmas = append(m.Lemmas, *l)
	}
	m.Status = st.String()
	return m, nil
}

func catalogPos(l string) int {
	if i := slices.Index(checker.Lemmas, checker.Lemma(l)); i >= 0 {
		return i
	}
	return len(checker.Lemmas)
}

func printMergedSurvey(w io.Writer, m surveyJSON, shards int) {
	fmt.Fprintf(w, "variant %s: %d programs (k=%d, steps %d, seed %d; %d shards): %d hold, %d violated, %d inconclusive (%.1fs)\n",
		m.Variant, m.Programs, m.K, m.Steps, m.Seed, shards, m.Holds, m.Violated, m.Inconclusive, m.Seconds)
	for _, l := range m.Lemmas {
		fmt.Fprintf(w, "  %-4s %s\n", l.Lemma, l.Summary)
	}
	for _, l := range m.Lemmas {
		if l.Counterexample == nil {
			continue
		}
		fmt.Fprintf(w, "\n%s, smallest counterexample (program %d of the stream, seed %d):\n", l.Lemma, l.ProgramIndex, l.ProgramSeed)
		printJSONReport(w, l.Counterexample)
	}
}

// mergeMutants merges `mutants -json` results, mutant by mutant.
func mergeMutants(parts []json.RawMessage, asJSON bool, stdout io.Writer) error {
	ms, err := decodeAll[mutantsJSON](parts)
	if err != nil {
		return err
	}
	var shards, keys []string
	for _, m := range ms {
		shards = append(shards, m.Shard)
		var names []string
		for _, r := range m.Results {
			names = append(names, r.Mutant)
		}
		keys = append(keys, fmt.Sprintf("base %s, n %d, seed %d, k %d, steps %d, mutants %s",
			m.Base, m.N, m.Seed, m.K, m.Steps, strings.Join(names, ",")))
	}
	if err := cover("mutants", shards, keys); err != nil {
		return err
	}
	out := mutantsJSON{Engine: ms[0].Engine, Base: ms[0].Base, N: ms[0].N, Seed: ms[0].Seed, K: ms[0].K, Steps: ms[0].Steps}
	for _, m := range ms {
		out.Workers += m.Workers
		out.Date = max(out.Date, m.Date)
	}
	for i := range ms[0].Results {
		var rs []mutation.Result
		for _, m := range ms {
			rs = append(rs, m.Results[i])
		}
		out.Results = append(out.Results, mergeMutant(rs))
	}
	out.Summary = mutation.Summarize(out.Results)
	sum := out.Summary
	if asJSON {
		if err := encodeIndented(stdout, out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "mutants of %s: up to %d programs each (seed %d, k=%d, %d shards)\n\n", out.Base, out.N, out.Seed, out.K, len(ms))
		fmt.Fprintf(stdout, "%-28s %-17s %-5s %-17s %8s %8s %6s\n", "mutant", "status", "lemma", "rule", "programs", "seconds", "lines")
		for _, r := range out.Results {
			lines := "-"
			if r.Killed {
				lines = fmt.Sprint(r.ShrunkLines)
				if !r.Shrunk {
					lines += "*"
				}
			}
			fmt.Fprintf(stdout, "%-28s %-17s %-5s %-17s %8d %8.2f %6s\n", r.Mutant, r.Status(), r.Killer, r.Rule, r.Programs, r.Seconds, lines)
			if r.Error != "" {
				fmt.Fprintf(stdout, "%s\n", indentText(r.Error))
			}
		}
		fmt.Fprintf(stdout, "\n%d mutants: %d killed, %d argued equivalent, %d survived, %d errors; kill rate %.0f%% of non-equivalent mutants\n",
			sum.Mutants, sum.Killed, sum.Equivalent, sum.Survived, sum.Errors, 100*sum.KillRate)
	}
	// The exit rules of mutants.
	if sum.Errors > 0 {
		return fmt.Errorf("%d mutant hunts failed", sum.Errors)
	}
	if sum.Survived > 0 || sum.KilledEquivalent > 0 {
		return errViolation
	}
	return nil
}

// mergeMutant is one mutant over the shards: an error of any shard is the
// result; else the kill with the earliest program of the stream; else the
// sums of what survived.
func mergeMutant(rs []mutation.Result) mutation.Result {
	var kill *mutation.Result
	holds, inconcl, programs := 0, 0, 0
	secs := 0.0
	for i := range rs {
		r := &rs[i]
		if r.Error != "" {
			return *r
		}
		holds, inconcl, programs, secs = holds+r.Holds, inconcl+r.Inconclusive, programs+r.Programs, max(secs, r.Seconds)
		if r.Killed && (kill == nil || r.Index < kill.Index) {
			kill = r
		}
	}
	if kill != nil {
		m := *kill
		m.Programs, m.Holds, m.Inconclusive = m.Index+1, holds, inconcl
		return m
	}
	m := rs[0]
	m.Programs, m.Holds, m.Inconclusive, m.Seconds = programs, holds, inconcl, secs
	return m
}
