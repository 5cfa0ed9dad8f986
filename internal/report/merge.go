package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/internal/mutation"
)

// Merged is the merge of the parts of one run: exactly one of Check,
// Surveys and Mutants is set, by the command that wrote the parts.
type Merged struct {
	Kind    string // "check", "lemmas" or "mutants"
	Shards  int    // how many parts were merged
	Check   *Generated
	Surveys []Survey
	// All is whether the lemmas parts were of lemmas -all or -engines (a
	// Surveys document) rather than one survey.
	All     bool
	Mutants *Mutants
	// ExitCode is the exit status of the unsharded run, which the merge
	// exits with.
	ExitCode int
}

// Part is one JSON document of a shard and where it came from (a file
// name, for messages).
type Part struct {
	From string
	JSON json.RawMessage
}

// ReadParts reads the JSON documents of one file: one object, several
// (older check -json), or an array of surveys (older lemmas -all).
func ReadParts(from string, r io.Reader) ([]Part, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", from, err)
	}
	var out []Part
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s: offset %d: %v", from, dec.InputOffset(), err)
		}
		if t := bytes.TrimSpace(v); len(t) > 0 && t[0] == '[' {
			var vs []json.RawMessage
			if err := json.Unmarshal(v, &vs); err != nil {
				return nil, fmt.Errorf("%s: %v", from, err)
			}
			for _, x := range vs {
				out = append(out, Part{from, x})
			}
			continue
		}
		out = append(out, Part{from, v})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no JSON result", from)
	}
	return out, nil
}

// kindOf tells the command that wrote a document by its fields.
func kindOf(p json.RawMessage) (string, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(p, &probe); err != nil {
		return "", fmt.Errorf("not a JSON object: %v", err)
	}
	switch {
	case probe["results"] != nil && probe["summary"] != nil:
		return "mutants", nil
	case probe["surveys"] != nil:
		return "surveys", nil
	case probe["lemmas"] != nil:
		return "lemmas", nil
	case probe["programs_per_second"] != nil:
		return "check", nil
	}
	return "", fmt.Errorf("not the -json result of check -gen, lemmas or mutants")
}

// Merge merges the parts of one sharded run into the unsharded result.
func Merge(parts []Part) (*Merged, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no parts: give the -json output of every shard")
	}
	kind, all := "", false
	var flat []Part // surveys documents unpacked into their surveys
	// An interrupted surveys document (lemmas -all) lists only the
	// columns it reached: their statuses.
	var stopped []Status
	for _, p := range parts {
		k, err := kindOf(p.JSON)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p.From, err)
		}
		if k == "surveys" {
			var s struct {
				Surveys []json.RawMessage `json:"surveys"`
				Status
			}
			if err := json.Unmarshal(p.JSON, &s); err != nil {
				return nil, fmt.Errorf("%s: %v", p.From, err)
			}
			for _, x := range s.Surveys {
				flat = append(flat, Part{p.From, x})
			}
			if s.Interrupted {
				stopped = append(stopped, s.Status)
			}
			k, all = "lemmas", true
		} else {
			flat = append(flat, p)
		}
		if kind != "" && k != kind {
			return nil, fmt.Errorf("%s: a %s result among %s results: merge the parts of one run", p.From, k, kind)
		}
		kind = k
	}
	m := &Merged{Kind: kind, All: all}
	switch kind {
	case "check":
		gs, err := decodeAll[Generated](flat)
		if err != nil {
			return nil, err
		}
		g, err := MergeChecks(gs)
		if err != nil {
			return nil, err
		}
		m.Check, m.Shards, m.ExitCode = &g, len(gs), g.ExitCode
	case "lemmas":
		svs, err := decodeAll[Survey](flat)
		if err != nil {
			return nil, err
		}
		cut := 0 // every column of a run reached by all its parts
		if len(stopped) > 0 {
			cut = len(parts)
		}
		ms, shards, err := mergeSurveys(svs, cut)
		if err != nil {
			return nil, err
		}
		m.Surveys, m.Shards = ms, shards
		m.All = m.All || len(ms) > 1
		m.ExitCode = SurveysExit(ms)
		for _, s := range ms {
			if s.Interrupted {
				m.ExitCode = s.ExitCode
				break
			}
		}
		if st, ok := interruption(stopped); ok {
			m.ExitCode = st.ExitCode
		}
	default:
		ms, err := decodeAll[Mutants](flat)
		if err != nil {
			return nil, err
		}
		mm, err := MergeMutants(ms)
		if err != nil {
			return nil, err
		}
		m.Mutants, m.Shards, m.ExitCode = &mm, len(ms), mm.ExitCode
	}
	return m, nil
}

// Document is what `merge -json` prints: the merged result in the form
// the command that made the parts prints.
func (m *Merged) Document() any {
	switch {
	case m.Check != nil:
		return m.Check
	case m.Mutants != nil:
		return m.Mutants
	case !m.All && len(m.Surveys) == 1:
		return m.Surveys[0]
	}
	st := Status{ExitCode: m.ExitCode}
	for _, s := range m.Surveys {
		if s.Interrupted {
			st.Interrupted, st.Signal = true, s.Signal
		}
	}
	return Surveys{Surveys: m.Surveys, Status: st}
}

func decodeAll[T any](parts []Part) ([]T, error) {
	out := make([]T, len(parts))
	for i, p := range parts {
		if err := json.Unmarshal(p.JSON, &out[i]); err != nil {
			return nil, fmt.Errorf("%s: %v", p.From, err)
		}
	}
	return out, nil
}

// cover checks that the shards of one run are all N parts, each once (or
// one unsharded result alone), made with the same flags (agree), and
// returns the shard of each part.
func cover(what string, shards []string, flags [][]flagValue) ([]checker.Shard, error) {
	if err := agree(what, shards, flags); err != nil {
		return nil, err
	}
	if len(shards) == 1 && shards[0] == "" {
		return []checker.Shard{{}}, nil
	}
	seen := map[int]bool{}
	n := 0
	var out []checker.Shard
	for _, s := range shards {
		if s == "" {
			return nil, fmt.Errorf("%s: an unsharded result among shards", what)
		}
		sh, err := checker.ParseShard(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", what, err)
		}
		if n != 0 && sh.N != n {
			return nil, fmt.Errorf("%s: shards of different splits (%d and %d parts)", what, n, sh.N)
		}
		n = sh.N
		if seen[sh.I] {
			return nil, fmt.Errorf("%s: shard %s given twice", what, s)
		}
		seen[sh.I] = true
		out = append(out, sh)
	}
	if len(seen) != n {
		var missing []string
		for i := 0; i < n; i++ {
			if !seen[i] {
				missing = append(missing, fmt.Sprintf("%d/%d", i, n))
			}
		}
		return nil, fmt.Errorf("%s: missing shard(s) %s", what, strings.Join(missing, ", "))
	}
	return out, nil
}

// counts checks what a part claims to have checked against what its
// shard holds: no negative count, the outcomes adding up to the programs,
// no more programs than the shard has, all of them unless the part stopped
// early (at a violation, or interrupted), and every program it names in
// the shard and with its seed of the stream.
func counts(what string, sh checker.Shard, n int, seed int64, programs, holds, inconcl, violated int, stoppedEarly bool, indices []int, seeds []int64) error {
	if n < 0 || programs < 0 || holds < 0 || inconcl < 0 || violated < 0 {
		return fmt.Errorf("%s: a negative count", what)
	}
	if holds+inconcl+violated != programs {
		return fmt.Errorf("%s: %d hold + %d inconclusive + %d violated is not the %d programs it claims", what, holds, inconcl, violated, programs)
	}
	if max := sh.Len(n); programs > max || (!stoppedEarly && programs != max) {
		return fmt.Errorf("%s: claims %d programs, but its part of a stream of %d has %d", what, programs, n, max)
	}
	for i, ix := range indices {
		if ix < 0 || ix >= n || (!sh.Whole() && ix%sh.N != sh.I) {
			return fmt.Errorf("%s: program %d of the stream is not in this part", what, ix)
		}
		if seeds != nil && seeds[i] != checker.ProgramSeed(seed, ix) {
			return fmt.Errorf("%s: program %d has seed %d, not the stream's %d", what, ix, seeds[i], checker.ProgramSeed(seed, ix))
		}
	}
	return nil
}

// interruption is the status of merged parts some of which were
// interrupted: interrupted with the first one's signal and exit code.
func interruption(parts []Status) (Status, bool) {
	for _, s := range parts {
		if s.Interrupted {
			return s, true
		}
	}
	return Status{}, false
}

// MergeChecks merges `check -gen -json` results. A run that stops at its
// first violation stops in each shard at that shard's first; the merge
// keeps the earliest of the stream and the counts of the programs before
// it, as the unsharded run with one worker reports them.
func MergeChecks(gs []Generated) (Generated, error) {
	var shards []string
	var flags [][]flagValue
	for _, g := range gs {
		shards = append(shards, g.Shard)
		flags = append(flags, append(top(g.Variant, g.Semantics, g.K, g.Steps, g.N, g.StreamSeed), g.Settings.flags()...))
	}
	shs, err := cover("check -gen", shards, flags)
	if err != nil {
		return Generated{}, err
	}
	var sts []Status
	for i, g := range gs {
		what := "check -gen"
		if g.Shard != "" {
			what += ", shard " + g.Shard
		}
		var idx []int
		var seeds []int64
		for _, u := range g.Undecided {
			idx, seeds = append(idx, u.Index), append(seeds, u.Seed)
		}
		if (g.Counterexample != nil) != (g.FailingIndex != nil) || (g.Counterexample != nil) != (g.FailingSeed != nil) {
			return Generated{}, fmt.Errorf("%s: a counterexample needs its failing_index and failing_seed", what)
		}
		if g.FailingIndex != nil {
			idx, seeds = append(idx, *g.FailingIndex), append(seeds, *g.FailingSeed)
		}
		if len(g.Undecided) != g.Inconclusive {
			return Generated{}, fmt.Errorf("%s: lists %d inconclusive programs of %d", what, len(g.Undecided), g.Inconclusive)
		}
		if (g.Violated > 0) != (g.Counterexample != nil) {
			return Generated{}, fmt.Errorf("%s: %d violated programs and %s", what, g.Violated, map[bool]string{true: "a counterexample", false: "none"}[g.Counterexample != nil])
		}
		if err := counts(what, shs[i], g.N, g.StreamSeed, g.Programs, g.Holds, g.Inconclusive, g.Violated, g.Violated > 0 || g.Interrupted, idx, seeds); err != nil {
			return Generated{}, err
		}
		sts = append(sts, g.Status)
	}
	g0 := gs[0]
	m := Generated{Variant: g0.Variant, Semantics: g0.Semantics, K: g0.K, Steps: g0.Steps, N: g0.N, StreamSeed: g0.StreamSeed, Settings: g0.Settings}
	var cx *Generated
	for i := range gs {
		g := &gs[i]
		m.Programs += g.Programs
		m.Holds += g.Holds
		m.Inconclusive += g.Inconclusive
		m.Violated += g.Violated
		m.Undecided = append(m.Undecided, g.Undecided...)
		m.Slowest = append(m.Slowest, g.Slowest...)
		m.CheckSeconds += g.CheckSeconds
		m.Seconds = max(m.Seconds, g.Seconds)
		if g.Counterexample != nil && (cx == nil || *g.FailingIndex < *cx.FailingIndex) {
			cx = g
		}
	}
	slices.SortFunc(m.Undecided, func(a, b Undecided) int { return a.Index - b.Index })
	st, interrupted := interruption(sts)
	if cx != nil {
		m.Counterexample, m.Shrunk, m.FailingSeed, m.FailingIndex, m.FoundLines, m.Saved =
			cx.Counterexample, cx.Shrunk, cx.FailingSeed, cx.FailingIndex, cx.FoundLines, cx.Saved
		if !interrupted {
			// The unsharded run checks the programs before the earliest
			// counterexample, then stops: count those alone.
			at := *cx.FailingIndex
			m.Undecided = slices.DeleteFunc(m.Undecided, func(u Undecided) bool { return u.Index > at })
			m.Slowest = slices.DeleteFunc(m.Slowest, func(t Timed) bool { return t.Index > at })
			m.CheckSeconds = 0 // the programs after it are in the shards' sums
			m.Programs, m.Violated, m.Inconclusive = at+1, 1, len(m.Undecided)
			m.Holds = m.Programs - m.Violated - m.Inconclusive
		}
	}
	if len(m.Undecided) == 0 {
		m.Undecided = nil
	}
	slices.SortFunc(m.Slowest, func(a, b Timed) int {
		if a.Seconds != b.Seconds {
			return cmp.Compare(b.Seconds, a.Seconds)
		}
		return a.Index - b.Index
	})
	if len(m.Slowest) > checker.SlowestKept {
		m.Slowest = m.Slowest[:checker.SlowestKept]
	}
	if len(m.Slowest) == 0 {
		m.Slowest = nil
	}
	if m.Seconds > 0 {
		m.PerSecond = float64(m.Programs) / m.Seconds
	}
	if interrupted {
		m.Status = st
	} else {
		m.ExitCode = Exit("", false, cx != nil, m.Inconclusive > 0)
	}
	return m, nil
}

// MergeSurveys merges `lemmas -json` results, variant by variant, in the
// order the variants first appear; it returns the merged surveys and how
// many shards each had.
func MergeSurveys(svs []Survey) ([]Survey, int, error) { return mergeSurveys(svs, 0) }

// mergeSurveys is MergeSurveys of the columns of cut lemmas -all
// documents (cut > 0) some of which were interrupted: an interrupted shard
// lists only the columns it reached, so a column that fewer than cut
// documents list is left out of the merge (not every shard reached it)
// instead of refused as a missing shard.
func mergeSurveys(svs []Survey, cut int) ([]Survey, int, error) {
	var order []string
	byVariant := map[string][]Survey{}
	for _, sv := range svs {
		if byVariant[sv.Variant] == nil {
			order = append(order, sv.Variant)
		}
		byVariant[sv.Variant] = append(byVariant[sv.Variant], sv)
	}
	var merged []Survey
	shards := 0
	for _, v := range order {
		if len(byVariant[v]) < cut {
			continue // not reached by an interrupted shard
		}
		m, err := mergeSurvey(byVariant[v])
		if err != nil {
			return nil, 0, err
		}
		merged = append(merged, m)
		shards = max(shards, len(byVariant[v]))
	}
	return merged, shards, nil
}

func mergeSurvey(parts []Survey) (Survey, error) {
	var shards []string
	var flags [][]flagValue
	for _, p := range parts {
		shards = append(shards, p.Shard)
		f := append(top(p.Variant, p.Semantics, p.K, p.Steps, p.N, p.Seed), flagValue{"-timeout", p.Timeout})
		flags = append(flags, append(f, p.Settings.flags()...))
	}
	what := "lemmas, variant " + parts[0].Variant
	shs, err := cover(what, shards, flags)
	if err != nil {
		return Survey{}, err
	}
	var sts []Status
	for i, p := range parts {
		var idx []int
		var seeds []int64
		violations, undecided := 0, 0
		for _, l := range p.Lemmas {
			if l.Programs < 0 || l.Programs > p.Programs || l.Checks < 0 || l.Violations < 0 {
				return Survey{}, fmt.Errorf("%s, shard %s: lemma %s claims %d checks on %d of %d programs", what, p.Shard, l.Lemma, l.Checks, l.Programs, p.Programs)
			}
			violations += l.Violations
			undecided += len(l.Undecided)
			for _, u := range l.Undecided {
				idx, seeds = append(idx, u.Index), append(seeds, u.Seed)
			}
			if l.Counterexample != nil {
				idx, seeds = append(idx, l.ProgramIndex), append(seeds, l.ProgramSeed)
			}
		}
		// Every program counts once, by the lemma of its first failure.
		if violations != p.Violated || undecided != p.Inconclusive {
			return Survey{}, fmt.Errorf("%s, shard %s: its lemmas count %d violated and %d undecided programs, its summary %d and %d", what, p.Shard, violations, undecided, p.Violated, p.Inconclusive)
		}
		if err := counts(what+", shard "+p.Shard, shs[i], p.N, p.Seed, p.Programs, p.Holds, p.Inconclusive, p.Violated, p.Interrupted, idx, seeds); err != nil {
			return Survey{}, err
		}
		sts = append(sts, p.Status)
	}
	p0 := parts[0]
	m := Survey{Variant: p0.Variant, Engine: p0.Engine, Semantics: p0.Semantics, K: p0.K, Steps: p0.Steps, Seed: p0.Seed, N: p0.N, Timeout: p0.Timeout, Settings: p0.Settings, Data: p0.Data}
	var order []string
	lemmas := map[string]*Lemma{}
	for _, p := range parts {
		m.Programs += p.Programs
		m.Holds += p.Holds
		m.Violated += p.Violated
		m.Inconclusive += p.Inconclusive
		m.Seconds = max(m.Seconds, p.Seconds)
		for _, l := range p.Lemmas {
			ml := lemmas[l.Lemma]
			if ml == nil {
				ml = &Lemma{Lemma: l.Lemma, Claim: l.Claim}
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
	m.Verdict = st.String()
	if s, ok := interruption(sts); ok {
		m.Status = s
	} else {
		m.ExitCode = Exit("", false, st == checker.Violated, st == checker.Inconclusive)
	}
	return m, nil
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

func catalogPos(l string) int {
	if i := slices.Index(checker.Lemmas, checker.Lemma(l)); i >= 0 {
		return i
	}
	return len(checker.Lemmas)
}

// MergeMutants merges `mutants -json` results, mutant by mutant. A shard
// that was interrupted lists only the mutants it finished: the merge then
// has the mutants every shard finished, and is interrupted.
func MergeMutants(ms []Mutants) (Mutants, error) {
	var shards []string
	var flags [][]flagValue
	for _, m := range ms {
		shards = append(shards, m.Shard)
		f := append(top(m.Base, m.Sem, m.K, m.Steps, m.N, m.Seed), flagValue{"-engine", m.Engine})
		flags = append(flags, append(f, m.Settings.flags()...))
	}
	shs, err := cover("mutants", shards, flags)
	if err != nil {
		return Mutants{}, err
	}
	var sts []Status
	for i, m := range ms {
		seen := map[string]bool{}
		for _, r := range m.Results {
			what := fmt.Sprintf("mutants, shard %s, %s", m.Shard, r.Mutant)
			if seen[r.Mutant] {
				return Mutants{}, fmt.Errorf("%s: listed twice", what)
			}
			seen[r.Mutant] = true
			var idx []int
			var seeds []int64
			if r.Killed {
				idx, seeds = []int{r.Index}, []int64{r.Seed}
			}
			if r.Error != "" {
				continue // a failed hunt's counts are what it reached
			}
			if r.Programs < 0 || r.Holds < 0 || r.Inconclusive < 0 || r.Programs > shs[i].Len(m.N) ||
				(!r.Killed && !m.Interrupted && r.Programs != shs[i].Len(m.N)) {
				return Mutants{}, fmt.Errorf("%s: claims %d programs, but its part of a stream of %d has %d", what, r.Programs, m.N, shs[i].Len(m.N))
			}
			if err := counts(what, shs[i], m.N, m.Seed, 0, 0, 0, 0, true, idx, seeds); err != nil {
				return Mutants{}, err
			}
		}
		sts = append(sts, m.Status)
	}
	st, interrupted := interruption(sts)
	// The mutants of the run, in the order hunted: those the settings
	// name (every shard hunts them in that order), else the first
	// shard's that finished most of them.
	var order []string
	if s := ms[0].Settings; s != nil && len(s.Mutants) > 0 {
		order = s.Mutants
	} else {
		most := 0
		for i, m := range ms {
			if len(m.Results) > len(ms[most].Results) {
				most = i
			}
		}
		for _, r := range ms[most].Results {
			order = append(order, r.Mutant)
		}
	}
	for _, m := range ms {
		for _, r := range m.Results {
			if !slices.Contains(order, r.Mutant) {
				return Mutants{}, fmt.Errorf("mutants, shard %s: %s is not among the mutants of the run (%s)", m.Shard, r.Mutant, strings.Join(order, ", "))
			}
		}
	}
	out := Mutants{Engine: ms[0].Engine, Base: ms[0].Base, Sem: ms[0].Sem, N: ms[0].N, Seed: ms[0].Seed, K: ms[0].K, Steps: ms[0].Steps, Settings: ms[0].Settings}
	for _, m := range ms {
		out.Workers += m.Workers
		out.Date = max(out.Date, m.Date)
	}
	for _, name := range order {
		var rs []mutation.Result
		for _, m := range ms {
			if j := slices.IndexFunc(m.Results, func(r mutation.Result) bool { return r.Mutant == name }); j >= 0 {
				rs = append(rs, m.Results[j])
			}
		}
		switch {
		case len(rs) == len(ms):
			out.Results = append(out.Results, mergeMutant(rs))
		case !interrupted && len(rs) > 0:
			return Mutants{}, fmt.Errorf("mutants: %s is in %d of the %d shards, none of them interrupted", name, len(rs), len(ms))
		}
		// Unfinished in an interrupted shard: not a result of the merge.
	}
	if out.Results == nil {
		out.Results = []mutation.Result{}
	}
	out.Summary = mutation.Summarize(out.Results)
	if interrupted {
		out.Status = st
	} else {
		out.ExitCode = MutantsExit(out.Summary)
	}
	return out, nil
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
	var undecided []int
	for _, r := range rs {
		undecided = append(undecided, r.Undecided...)
	}
	slices.Sort(undecided)
	if kill != nil {
		// The unsharded run stops at the earliest kill of the stream:
		// count the programs before it (the undecided among them are
		// listed; a part without the list, of an older lockstep, gives its
		// sums).
		m := *kill
		m.Programs, m.Holds, m.Inconclusive = m.Index+1, holds, inconcl
		if len(undecided) == inconcl {
			m.Undecided = slices.DeleteFunc(undecided, func(i int) bool { return i > m.Index })
			m.Inconclusive = len(m.Undecided)
			m.Holds = m.Index - m.Inconclusive
		}
		if len(m.Undecided) == 0 {
			m.Undecided = nil
		}
		return m
	}
	m := rs[0]
	m.Programs, m.Holds, m.Inconclusive, m.Seconds, m.Undecided = programs, holds, inconcl, secs, undecided
	return m
}
