package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
)

// part is a check -gen shard of a stream of n programs with seed 1 in
// which every program of shard i/3 held, except those listed inconclusive.
func part(i, n int, inconclusive ...int) Generated {
	sh := checker.Shard{I: i, N: 3}
	g := Generated{Variant: "fixed", Semantics: "java", K: 1, Steps: 60, N: n, StreamSeed: 1, Shard: sh.String(), Programs: sh.Len(n)}
	for _, ix := range inconclusive {
		g.Undecided = append(g.Undecided, Undecided{Index: ix, Seed: checker.ProgramSeed(1, ix), Lemma: "T11", Reason: "budget"})
	}
	g.Inconclusive = len(inconclusive)
	g.Holds = g.Programs - g.Inconclusive
	g.ExitCode = Exit("", false, false, g.Inconclusive > 0)
	return g
}

// violate makes g stop at its program ix, violated.
func violate(g Generated, ix int) Generated {
	sh, _ := checker.ParseShard(g.Shard)
	seed := checker.ProgramSeed(1, ix)
	g.Programs = (ix-sh.I)/sh.N + 1
	var keep []Undecided
	for _, u := range g.Undecided {
		if u.Index < ix {
			keep = append(keep, u)
		}
	}
	g.Undecided, g.Inconclusive, g.Violated = keep, len(keep), 1
	g.Holds = g.Programs - 1 - g.Inconclusive
	g.Counterexample = &checker.JSONReport{Status: "violated", Lemma: "WF"}
	g.FailingIndex, g.FailingSeed = &ix, &seed
	g.ExitCode = ExitViolated
	return g
}

func TestMergeChecksExitCode(t *testing.T) {
	// Holds in two shards, inconclusive in one: the merge is inconclusive.
	m, err := MergeChecks([]Generated{part(0, 9), part(1, 9, 4), part(2, 9)})
	require.NoError(t, err)
	require.Equal(t, ExitInconclusive, m.ExitCode)
	require.Equal(t, 9, m.Programs)
	require.Equal(t, 8, m.Holds)

	// A violation at 5 in shard 2, one at 7 in shard 1: the earliest wins,
	// with the counts of programs 0..5 (4 inconclusive before it; 8 after
	// it is not counted).
	m, err = MergeChecks([]Generated{part(0, 9), violate(part(1, 9, 4), 7), violate(part(2, 9, 8), 5)})
	require.NoError(t, err)
	require.Equal(t, ExitViolated, m.ExitCode)
	require.Equal(t, 5, *m.FailingIndex)
	require.Equal(t, []int{6, 4, 1, 1}, []int{m.Programs, m.Holds, m.Inconclusive, m.Violated})
	require.False(t, m.Interrupted)
}

func TestMergeChecksInterrupted(t *testing.T) {
	cut := part(1, 9)
	cut.Programs, cut.Holds = 1, 1
	cut.Status = Status{Interrupted: true, Signal: "SIGTERM", ExitCode: ExitSIGTERM}
	m, err := MergeChecks([]Generated{part(0, 9), cut, part(2, 9)})
	require.NoError(t, err)
	require.True(t, m.Interrupted)
	require.Equal(t, "SIGTERM", m.Signal)
	require.Equal(t, ExitSIGTERM, m.ExitCode)
	require.Equal(t, 7, m.Programs, "what the shards finished")
}

func TestMergeChecksRefuses(t *testing.T) {
	huge := part(1, 9)
	huge.Programs, huge.Holds = 1_000_000_000_000, 1_000_000_000_000
	short := part(1, 9) // not interrupted, no violation, yet stopped early
	short.Programs, short.Holds = 1, 1
	other := part(2, 9)
	other.N = 10
	wrongSeed := violate(part(2, 9), 5)
	*wrongSeed.FailingSeed = 42
	notMine := violate(part(2, 9), 5)
	*notMine.FailingIndex = 4
	negative := part(1, 9)
	negative.Holds, negative.Inconclusive = 4, -1
	for name, tc := range map[string][]Generated{
		"missing part":       {part(0, 9), part(1, 9)},
		"overlap":            {part(0, 9), part(1, 9), part(1, 9), part(2, 9)},
		"absurd count":       {part(0, 9), huge, part(2, 9)},
		"stopped silently":   {part(0, 9), short, part(2, 9)},
		"wrong total":        {part(0, 9), part(1, 9), other},
		"seed not of stream": {part(0, 9), part(1, 9), wrongSeed},
		"index not in shard": {part(0, 9), part(1, 9), notMine},
		"negative":           {part(0, 9), negative, part(2, 9)},
	} {
		_, err := MergeChecks(tc)
		require.Error(t, err, name)
	}
}

// TestMergeDocuments: Merge reads the documents of each command by their
// fields, and a surveys document of lemmas -all merges column by column.
func TestMergeDocuments(t *testing.T) {
	var parts []Part
	for i := range 3 {
		b, err := json.Marshal(part(i, 9))
		require.NoError(t, err)
		parts = append(parts, Part{From: "shard", JSON: b})
	}
	m, err := Merge(parts)
	require.NoError(t, err)
	require.Equal(t, "check", m.Kind)
	require.Equal(t, 3, m.Shards)
	require.Equal(t, ExitOK, m.ExitCode)

	_, err = Merge([]Part{{From: "x", JSON: json.RawMessage(`{"hello": 1}`)}})
	require.ErrorContains(t, err, "not the -json result")

	ps, err := ReadParts("f", strings.NewReader(`{"a":1} {"b":2}`))
	require.NoError(t, err)
	require.Len(t, ps, 2)
}

// TestMergeSurveysRefuses: survey parts whose lemmas do not add up to
// their summary, or that claim more programs than their shard has, are
// refused; consistent ones merge.
func TestMergeSurveysRefuses(t *testing.T) {
	sv := func(i int) Survey {
		sh := checker.Shard{I: i, N: 2}
		p := sh.Len(5)
		s := Survey{Variant: "fixed", Semantics: "java", K: 2, Steps: 60, Seed: 1, N: 5, Shard: sh.String(), Timeout: "1m0s",
			Programs: p, Holds: p - 1, Inconclusive: 1, Verdict: "inconclusive",
			Lemmas: []Lemma{{Lemma: "L1", Checks: 3, Programs: p}, {Lemma: "T11", Checks: 2, Programs: p,
				Undecided: []Undecided{{Index: i, Seed: checker.ProgramSeed(1, i), Reason: "budget"}}}}}
		s.ExitCode = ExitInconclusive
		return s
	}
	m, _, err := MergeSurveys([]Survey{sv(0), sv(1)})
	require.NoError(t, err)
	require.Len(t, m, 1)
	require.Equal(t, 5, m[0].Programs)
	require.Equal(t, ExitInconclusive, m[0].ExitCode)

	bad := sv(1)
	bad.Inconclusive, bad.Holds = 0, bad.Programs // the lemmas list one undecided program
	_, _, err = MergeSurveys([]Survey{sv(0), bad})
	require.ErrorContains(t, err, "undecided")
	big := sv(1)
	big.Programs, big.Holds = 1000, 999
	_, _, err = MergeSurveys([]Survey{sv(0), big})
	require.Error(t, err)
	_, _, err = MergeSurveys([]Survey{sv(0)})
	require.ErrorContains(t, err, "missing shard")
}

// TestMergeChecksSlowest: the merged run's slowest programs are the
// slowest of all shards' (at most checker.SlowestKept, slowest first), its
// checking time their sum; after a counterexample, programs past it are
// not the unsharded run's, and the sum is unknown.
func TestMergeChecksSlowest(t *testing.T) {
	timed := func(g Generated, ts ...Timed) Generated {
		g.Slowest = ts
		for _, x := range ts {
			g.CheckSeconds += x.Seconds
		}
		return g
	}
	ps := []Generated{
		timed(part(0, 30), Timed{Index: 0, Seconds: 1}, Timed{Index: 3, Seconds: 7}, Timed{Index: 6, Seconds: 2}),
		timed(part(1, 30), Timed{Index: 1, Seconds: 5}, Timed{Index: 4, Seconds: 4}, Timed{Index: 7, Seconds: 0.5}),
		timed(part(2, 30), Timed{Index: 2, Seconds: 6}, Timed{Index: 5, Seconds: 3}),
	}
	m, err := MergeChecks(ps)
	require.NoError(t, err)
	var idx []int
	for _, x := range m.Slowest {
		idx = append(idx, x.Index)
	}
	require.Equal(t, []int{3, 2, 1, 4, 5}, idx)
	require.InDelta(t, 28.5, m.CheckSeconds, 1e-9)

	ps[1] = violate(ps[1], 4)
	m, err = MergeChecks(ps)
	require.NoError(t, err)
	idx = nil
	for _, x := range m.Slowest {
		idx = append(idx, x.Index)
	}
	require.Equal(t, []int{3, 2, 1, 4, 0}, idx)
	require.Zero(t, m.CheckSeconds)
}
