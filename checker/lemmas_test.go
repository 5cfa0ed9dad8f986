package checker

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/summary"
)

func surveyOpt(t *testing.T, variant string) Options {
	t.Helper()
	_, err := summary.Lookup(variant)
	require.NoError(t, err)
	opt := DefaultOptions()
	opt.Engine, opt.Steps, opt.Timeout = "summary:"+variant, 60, 20*time.Second
	return opt
}

// TestLemmaStatStatus: a lemma holds only with checks and nothing
// undecided; a violation wins over everything.
func TestLemmaStatStatus(t *testing.T) {
	for _, c := range []struct {
		s    LemmaStat
		want Status
	}{
		{LemmaStat{}, Inconclusive},
		{LemmaStat{Checks: 3, Programs: 2}, Holds},
		{LemmaStat{Checks: 3, Programs: 2, Undecided: []Undecided{{Index: 4}}}, Inconclusive},
		{LemmaStat{Undecided: []Undecided{{Index: 4}}}, Inconclusive},
		{LemmaStat{Checks: 3, Violations: 1, Undecided: []Undecided{{Index: 4}}}, Violated},
		{LemmaStat{Violations: 1}, Violated},
	} {
		require.Equal(t, c.want, c.s.Status(), "%+v", c.s)
	}
	sv := &Survey{Programs: 5, Violated: 1, Lemmas: []*LemmaStat{{Lemma: L1, Checks: 2, Programs: 2}}}
	require.Equal(t, Holds, sv.Status())
	sum := sv.Lemmas[0].Summary(sv)
	require.Contains(t, sum, "holds on the 2 program(s) where it was checked, of 5")
	require.Contains(t, sum, "1 program(s) stopped at their first failure")
	// Checked on every program is not "holds on every program" when a
	// program stopped early.
	sv.Lemmas[0].Programs = 5
	require.Contains(t, sv.Lemmas[0].Summary(sv), "holds on the 5 program(s) where it was checked, of 5")
	sv.Violated = 0
	require.Equal(t, "holds on 5 programs (2 checks)", sv.Lemmas[0].Summary(sv))
	sv.Lemmas = append(sv.Lemmas, &LemmaStat{Lemma: L2})
	require.Equal(t, Inconclusive, sv.Status())
	require.Contains(t, sv.Lemmas[1].Summary(sv), "never checked")
}

// TestSurveyAgreesWithHunt: the survey sees the same programs as Hunt with
// All, so its per-lemma checks sum to Hunt's, it violates the same lemmas,
// and its bookkeeping adds up. seed000 breaks lemmas within a few steps,
// so this is quick.
func TestSurveyAgreesWithHunt(t *testing.T) {
	opt := surveyOpt(t, "seed000")
	const n = 12
	sv, err := RunSurvey(context.Background(), opt, SurveyOptions{N: n, Seed: 7, Data: gen.DataNone, Workers: 2, NoShrink: true})
	require.NoError(t, err)
	h, err := Hunt(context.Background(), opt, HuntOptions{N: n, Seed: 7, Data: gen.DataNone, Workers: 2, All: true, ShrinkTime: time.Second})
	require.NoError(t, err)
	require.Zero(t, sv.Inconclusive+h.Inconclusive, "an undecided program makes this comparison meaningless")

	require.Equal(t, n, sv.Programs)
	require.Equal(t, sv.Programs, sv.Holds+sv.Violated+sv.Inconclusive)
	require.Equal(t, h.Holds, sv.Holds)
	require.Equal(t, h.Violated, sv.Violated)
	require.Positive(t, sv.Violated, "seed000 is known to fail; without a failure this test checks nothing")
	violations := 0
	for _, s := range sv.Lemmas {
		require.Equal(t, h.Checked[s.Lemma], s.Checks, "checks of %s", s.Lemma)
		require.LessOrEqual(t, s.Programs, sv.Programs)
		if s.Checks > 0 {
			require.Positive(t, s.Programs)
		}
		violations += s.Violations
		_, inHunt := h.Counterexamples[s.Lemma]
		require.Equal(t, inHunt, s.Status() == Violated, "lemma %s", s.Lemma)
		if cx := s.Counterexample; cx != nil {
			require.Equal(t, s.Lemma, cx.Found.Verdict.Lemma)
			require.Equal(t, Violated, cx.Found.Verdict.Status)
			require.Same(t, cx.Found, cx.Shrunk, "NoShrink keeps the program as found")
			require.Equal(t, ProgramSeed(7, cx.After-1), cx.Seed)
		}
	}
	require.Equal(t, sv.Violated, violations)
	require.Equal(t, Violated, sv.Status())
	require.NotEmpty(t, sv.Violations())
}

// TestSurveyDeterministic: the counterexample kept for a lemma is that of
// the earliest program of the stream, whatever the number of workers.
func TestSurveyDeterministic(t *testing.T) {
	opt := surveyOpt(t, "seed000")
	one, err := RunSurvey(context.Background(), opt, SurveyOptions{N: 10, Seed: 3, Data: gen.DataNone, Workers: 1, NoShrink: true})
	require.NoError(t, err)
	two, err := RunSurvey(context.Background(), opt, SurveyOptions{N: 10, Seed: 3, Data: gen.DataNone, Workers: 2, NoShrink: true})
	require.NoError(t, err)
	require.Zero(t, one.Inconclusive+two.Inconclusive)
	for i, s := range one.Lemmas {
		u := two.Lemmas[i]
		require.Equal(t, s.Lemma, u.Lemma)
		require.Equal(t, s.Checks, u.Checks, "%s", s.Lemma)
		require.Equal(t, s.Programs, u.Programs, "%s", s.Lemma)
		require.Equal(t, s.Counterexample == nil, u.Counterexample == nil, "%s", s.Lemma)
		if s.Counterexample != nil {
			require.Equal(t, s.Counterexample.Seed, u.Counterexample.Seed, "%s", s.Lemma)
		}
	}
}

// TestSurveyShrinks: a shrunk counterexample breaks the same lemma and is
// no larger than the program as found.
func TestSurveyShrinks(t *testing.T) {
	opt := surveyOpt(t, "seed000")
	sv, err := RunSurvey(context.Background(), opt, SurveyOptions{N: 4, Seed: 1, Data: gen.DataNone, Workers: 2, ShrinkTime: 5 * time.Second})
	require.NoError(t, err)
	shrunk := 0
	for _, s := range sv.Lemmas {
		cx := s.Counterexample
		if cx == nil {
			continue
		}
		require.Equal(t, s.Lemma, cx.Shrunk.Verdict.Lemma)
		require.LessOrEqual(t, Lines(cx.Shrunk.Program), Lines(cx.Found.Program))
		if cx.IsShrunk {
			shrunk++
		}
	}
	require.Positive(t, shrunk, "no counterexample of seed000 on 4 programs was shrunk")
}

func TestSurveyBadInput(t *testing.T) {
	_, err := RunSurvey(context.Background(), surveyOpt(t, "published"), SurveyOptions{N: -1})
	require.Error(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = RunSurvey(ctx, surveyOpt(t, "published"), SurveyOptions{N: 3})
	require.Error(t, err, "an abandoned survey is no result")
}

const caseProgram = `(((class A ([A f])
    ((A main [bool x]
       ((this $ f) $ f)))))
 (A main))
`

func TestParseCase(t *testing.T) {
	src := "; Found by `lockstep lemmas`: free text with a colon\n" +
		"; variant: published, v1-all-candidates\n" +
		"; expect: L2 Field access (A′)\n" +
		";  k: 2\n" +
		"; steps: 150\n" +
		"; holds: fixed\n" + caseProgram
	c, err := ParseCase("x.jl", []byte(src))
	require.NoError(t, err)
	require.Equal(t, []string{"published", "v1-all-candidates"}, c.Refutes)
	require.Equal(t, L2, c.Lemma)
	require.Equal(t, "Field access (A′)", c.Rule)
	require.Equal(t, 2, c.K)
	require.Equal(t, 150, c.Steps)
	require.Equal(t, []string{"fixed"}, c.Holds)
	require.NotNil(t, c.Program)

	// The header round-trips.
	d, err := ParseCase("y.jl", []byte(c.Header()+caseProgram))
	require.NoError(t, err)
	c.File, c.Program, d.File, d.Program = "", nil, "", nil
	require.Equal(t, c, d)

	// A lemma without a rule.
	c, err = ParseCase("z.jl", []byte("; variant: a\n; expect: C13\n; k: 1\n; steps: 9\n"+caseProgram))
	require.NoError(t, err)
	require.Equal(t, C13, c.Lemma)
	require.Empty(t, c.Rule)
	require.Empty(t, c.Holds)
}

func TestParseCaseErrors(t *testing.T) {
	full := "; variant: published\n; expect: L1 Summarize\n; k: 2\n; steps: 150\n"
	for _, c := range []struct{ src, want string }{
		{strings.Replace(full, "; variant: published\n", "", 1), "no `; variant:`"},
		{strings.Replace(full, "; expect: L1 Summarize\n", "", 1), "no `; expect:`"},
		{strings.Replace(full, "; k: 2\n", "", 1), "no `; k:`"},
		{strings.Replace(full, "; steps: 150\n", "", 1), "no `; steps:`"},
		{strings.Replace(full, "L1 Summarize", "L8", 1), "unknown lemma"},
		{strings.Replace(full, "L1 Summarize", "", 1), "want `; expect: LEMMA [RULE]`"},
		{strings.Replace(full, "; k: 2", "; k: two", 1), "non-negative integer"},
		{strings.Replace(full, "; k: 2", "; k: -2", 1), "non-negative integer"}, // -1 (unbounded) is the one negative k
		{strings.Replace(full, "; steps: 150", "; steps: 150x", 1), "non-negative integer"},
		{full + "; k: 3\n", "given twice"},
		{strings.Replace(full, "published", " , ", 1), "names no variant"},
	} {
		_, err := ParseCase("bad.jl", []byte(c.src+caseProgram))
		require.ErrorContains(t, err, c.want, "%q", c.src)
	}
	_, err := ParseCase("bad.jl", []byte(full+"(((class A"))
	require.Error(t, err, "a program that does not parse")
}
