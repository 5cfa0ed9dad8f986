package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/internal/mutation"
)

func settings() *Settings {
	return &Settings{Engine: "summary:fixed", Data: "mixed", MaxGroup: 2000, MaxPairs: 20000, Timeout: "1m0s"}
}

// TestMergeRefusesOtherFlags: a shard made with any other flag that
// changes which programs are drawn or what is checked is refused, and the
// refusal names the flag; shards that agree merge. A stream that fails
// unsharded must never merge to "0 violated" from a shard that checked
// other programs (-data none) or fewer claims (-no-exact).
func TestMergeRefusesOtherFlags(t *testing.T) {
	with := func(i int, f func(g *Generated)) Generated {
		g := part(i, 9)
		g.Settings = settings()
		if f != nil {
			f(&g)
		}
		return g
	}
	_, err := MergeChecks([]Generated{with(0, nil), with(1, nil), with(2, nil)})
	require.NoError(t, err)
	for flag, f := range map[string]func(g *Generated){
		"-data none":         func(g *Generated) { g.Settings.Data = "none" },
		"-no-exact=true":     func(g *Generated) { g.Settings.NoExact = true },
		"-engine uber":       func(g *Generated) { g.Settings.Engine = "uber" },
		"-vs pose":           func(g *Generated) { g.Settings.Versus = "pose" },
		"-max-group 5":       func(g *Generated) { g.Settings.MaxGroup = 5 },
		"-max-pairs 7":       func(g *Generated) { g.Settings.MaxPairs = 7 },
		"-timeout 1s":        func(g *Generated) { g.Settings.Timeout = "1s" },
		"-variant published": func(g *Generated) { g.Variant = "published" },
		"-semantics paper":   func(g *Generated) { g.Semantics = "paper" },
		"-k 3":               func(g *Generated) { g.K = 3 },
		"-steps 61":          func(g *Generated) { g.Steps = 61 },
		"-seed 2":            func(g *Generated) { g.StreamSeed = 2 },
	} {
		_, err := MergeChecks([]Generated{with(0, nil), with(1, f), with(2, nil)})
		require.ErrorContains(t, err, "shard 1/3 was made with "+flag, flag)
	}
	// An outside engine's answer bounds (recorded for exec: engines).
	exec := func(depth int) func(g *Generated) {
		return func(g *Generated) {
			g.Settings.Engine = "exec:./my-engine"
			g.Settings.AnswerBounds = &AnswerBounds{Line: 1 << 20, Depth: depth, Successors: 100, Terms: 1000}
		}
	}
	_, err = MergeChecks([]Generated{with(0, exec(64)), with(1, exec(64)), with(2, exec(64))})
	require.NoError(t, err)
	_, err = MergeChecks([]Generated{with(0, exec(64)), with(1, exec(9)), with(2, exec(64))})
	require.ErrorContains(t, err, "shard 1/3 was made with -engine-max-depth 9, shard 0/3 with -engine-max-depth 64")
	// Settings recorded by some parts only: not the parts of one run.
	_, err = MergeChecks([]Generated{with(0, nil), with(1, func(g *Generated) { g.Settings = nil }), with(2, nil)})
	require.ErrorContains(t, err, "do not both record their settings")
}

// TestMergeSurveysRefuseOtherFlags: the same for lemmas parts.
func TestMergeSurveysRefuseOtherFlags(t *testing.T) {
	sv := func(i int, data string) Survey {
		sh := checker.Shard{I: i, N: 2}
		s := Survey{Variant: "fixed", Semantics: "java", K: 2, Steps: 60, Seed: 1, N: 4, Shard: sh.String(), Timeout: "1m0s",
			Programs: 2, Holds: 2, Verdict: "holds", Lemmas: []Lemma{{Lemma: "L1", Checks: 2, Programs: 2}}, Settings: settings()}
		s.Settings.Data = data
		return s
	}
	_, _, err := MergeSurveys([]Survey{sv(0, "mixed"), sv(1, "mixed")})
	require.NoError(t, err)
	_, _, err = MergeSurveys([]Survey{sv(0, "mixed"), sv(1, "none")})
	require.ErrorContains(t, err, "-data none")
}

// mutantsPart is shard i/2 of a mutants run of m1 and m2 over 6
// programs, both survived; interrupted, it finished m1 only.
func mutantsPart(i int, interrupted bool) Mutants {
	sh := checker.Shard{I: i, N: 2}
	s := settings()
	s.Mutants, s.ConfirmTimeout = []string{"m1", "m2"}, "2m0s"
	m := Mutants{Engine: "summary", Base: "fixed", Sem: "java", N: 6, Seed: 1, Shard: sh.String(), K: 2, Steps: 200, Settings: s}
	for _, name := range s.Mutants {
		m.Results = append(m.Results, mutation.Result{Mutant: name, Programs: 3, Holds: 3})
	}
	m.Summary = mutation.Summarize(m.Results)
	m.ExitCode = MutantsExit(m.Summary)
	if interrupted {
		m.Results = m.Results[:1]
		m.Status = Status{Interrupted: true, Signal: "SIGTERM", ExitCode: ExitSIGTERM}
	}
	return m
}

// TestMergeMutantsInterrupted: a mutants shard interrupted before its
// last mutant merges to an interrupted run (143), with the mutants every
// shard finished; it is not a usage error.
func TestMergeMutantsInterrupted(t *testing.T) {
	m, err := MergeMutants([]Mutants{mutantsPart(0, false), mutantsPart(1, true)})
	require.NoError(t, err)
	require.True(t, m.Interrupted)
	require.Equal(t, ExitSIGTERM, m.ExitCode)
	require.Len(t, m.Results, 1)
	require.Equal(t, "m1", m.Results[0].Mutant)
	require.Equal(t, 6, m.Results[0].Programs)

	m, err = MergeMutants([]Mutants{mutantsPart(0, false), mutantsPart(1, false)})
	require.NoError(t, err)
	require.Equal(t, ExitViolated, m.ExitCode, "two survivors") // MutantsExit: a survivor is a finding
	require.Len(t, m.Results, 2)

	// A shard that lost a mutant without an interruption is refused.
	short := mutantsPart(1, false)
	short.Results = short.Results[:1]
	_, err = MergeMutants([]Mutants{mutantsPart(0, false), short})
	require.ErrorContains(t, err, "m2 is in 1 of the 2 shards")
	// As is one hunting other mutants, or with another -confirm-timeout.
	other := mutantsPart(1, false)
	other.Settings.ConfirmTimeout = "1s"
	_, err = MergeMutants([]Mutants{mutantsPart(0, false), other})
	require.ErrorContains(t, err, "-confirm-timeout 1s")
}

// TestExpect: told the run's shard count, the merge names every shard
// without a finished result (missing, unreadable, interrupted), in
// Slurm's --array form.
func TestExpect(t *testing.T) {
	js := func(g Generated) Part {
		b, err := json.Marshal(g)
		require.NoError(t, err)
		return Part{From: "f" + g.Shard, JSON: b}
	}
	p := func(i int) Generated {
		sh := checker.Shard{I: i, N: 6}
		return Generated{Variant: "fixed", N: 12, StreamSeed: 1, Shard: sh.String(), Programs: 2, Holds: 2}
	}
	all := []Part{js(p(0)), js(p(1)), js(p(2)), js(p(3)), js(p(4)), js(p(5))}
	l, err := Expect(all, nil, 6)
	require.NoError(t, err)
	require.Nil(t, l)

	cut := p(4)
	cut.Status = Status{Interrupted: true, Signal: "SIGTERM", ExitCode: ExitSIGTERM}
	bad := []Unreadable{{File: "shard-2.json", Err: errors.New("shard-2.json: unexpected EOF")}}
	l, err = Expect([]Part{js(p(0)), js(p(5)), js(cut)}, bad, 6)
	require.NoError(t, err)
	require.Equal(t, []int{1, 2, 3}, l.Missing)
	require.Equal(t, []int{4}, l.Interrupted)
	require.False(t, l.Complete())
	require.Equal(t, "1-4", ArrayRanges(l.Indices()))
	require.Contains(t, l.Error(), "no result of shard(s) 1/6, 2/6, 3/6 of 6")
	require.Contains(t, l.Error(), "shard-2.json: unexpected EOF")

	// Interrupted only: complete, the merge is the interrupted run's.
	l, err = Expect([]Part{js(p(0)), js(p(1)), js(p(2)), js(p(3)), js(cut), js(p(5))}, nil, 6)
	require.NoError(t, err)
	require.True(t, l.Complete())
	require.Equal(t, []int{4}, l.Indices())

	_, err = Expect(all, nil, 4)
	require.ErrorContains(t, err, "not of a run of 4 shards")

	for want, ix := range map[string][]int{"": nil, "0": {0}, "0,2-4,7": {0, 2, 3, 4, 7}, "1-2,9-10": {1, 2, 9, 10}} {
		require.Equal(t, want, ArrayRanges(ix), fmt.Sprint(ix))
	}
}

// TestMergeLemmasAllInterrupted: a lemmas -all shard interrupted in its
// first column lists that column only, partial; the merge is interrupted
// (143) with the columns every shard reached, not a usage error.
func TestMergeLemmasAllInterrupted(t *testing.T) {
	col := func(variant string, i, programs int) Survey {
		sh := checker.Shard{I: i, N: 2}
		s := Survey{Variant: variant, Semantics: "java", K: 2, Steps: 60, Seed: 1, N: 6, Shard: sh.String(), Timeout: "1m0s",
			Programs: programs, Holds: programs, Verdict: "holds", Lemmas: []Lemma{{Lemma: "L1", Checks: programs, Programs: programs}}, Settings: settings()}
		s.Settings.Engine = "summary:" + variant
		return s
	}
	doc := func(st Status, svs ...Survey) Part {
		b, err := json.Marshal(Surveys{Surveys: svs, Status: st})
		require.NoError(t, err)
		return Part{From: "doc", JSON: b}
	}
	cut := col("fixed", 1, 1)
	term := Status{Interrupted: true, Signal: "SIGTERM", ExitCode: ExitSIGTERM}
	cut.Status = term
	m, err := Merge([]Part{doc(Status{}, col("fixed", 0, 3), col("published", 0, 3)), doc(term, cut)})
	require.NoError(t, err)
	require.Equal(t, ExitSIGTERM, m.ExitCode)
	require.Len(t, m.Surveys, 1)
	require.Equal(t, "fixed", m.Surveys[0].Variant)
	require.Equal(t, 4, m.Surveys[0].Programs, "what the shards finished")

	// Cut before its first column had a program: no column at all.
	m, err = Merge([]Part{doc(Status{}, col("fixed", 0, 3), col("published", 0, 3)), doc(term)})
	require.NoError(t, err)
	require.Equal(t, ExitSIGTERM, m.ExitCode)
	require.Empty(t, m.Surveys)

	// Not interrupted, a column missing is a missing shard.
	_, err = Merge([]Part{doc(Status{}, col("fixed", 0, 3), col("published", 0, 3)), doc(Status{}, col("fixed", 1, 3))})
	require.ErrorContains(t, err, "missing shard")
}
