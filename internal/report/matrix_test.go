package report

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/gen"
)

// TestLemmasMarkdown: the matrix of two variants' surveys has a column per
// variant, a row per lemma a column decides, the command it was made with,
// and the counterexample of the refuted variant.
func TestLemmasMarkdown(t *testing.T) {
	var svs []*checker.Survey
	for _, v := range []string{"fixed", "seed000"} {
		opt := checker.DefaultOptions()
		opt.Engine, opt.K, opt.Steps = "summary:"+v, 1, 40
		sv, err := checker.RunSurvey(context.Background(), opt, checker.SurveyOptions{N: 3, Seed: 1, Data: gen.DataNone, Workers: 1, NoShrink: true})
		require.NoError(t, err)
		svs = append(svs, sv)
	}
	md := LemmasMarkdown(svs, "lockstep lemmas -test", time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC))
	require.Contains(t, md, "| lemma | fixed | seed000 |\n")
	require.Contains(t, md, "* command: `lockstep lemmas -test`")
	require.Contains(t, md, "| L1 |")
	require.Contains(t, md, "### seed000: WF", "seed000 is refuted within the first programs")
	require.Regexp(t, `\| WF \| ✓ \(\d+\) \| ✗ \(\d+\) \|`, md)
	require.NotContains(t, md, "### fixed:")
	require.Equal(t, ExitViolated, SurveysExit([]Survey{SurveyOf(svs[0]), SurveyOf(svs[1])}))
	for _, line := range strings.Split(md, "\n") {
		require.NotContains(t, line, "\t")
	}
}

// TestWriteFixedBugsKeepsCases: a regression case written into a
// directory that already has one of the same name gets a new name; the
// kept case is never replaced.
func TestWriteFixedBugsKeepsCases(t *testing.T) {
	opt := checker.DefaultOptions()
	opt.Engine, opt.K, opt.Steps = "summary:seed000", 1, 40
	sv, err := checker.RunSurvey(context.Background(), opt, checker.SurveyOptions{N: 3, Seed: 1, Workers: 1, NoShrink: true})
	require.NoError(t, err)
	dir := t.TempDir()
	now := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	first, err := WriteFixedBugs(dir, []*checker.Survey{sv}, opt, "lockstep lemmas -first", now)
	require.NoError(t, err)
	require.NotEmpty(t, first)
	kept, err := os.ReadFile(first[0])
	require.NoError(t, err)
	second, err := WriteFixedBugs(dir, []*checker.Survey{sv}, opt, "lockstep lemmas -second", now)
	require.NoError(t, err)
	require.Len(t, second, len(first))
	for i := range first {
		require.NotEqual(t, first[i], second[i])
		require.Equal(t, strings.TrimSuffix(first[i], ".jl")+"_2.jl", second[i])
	}
	again, err := os.ReadFile(first[0])
	require.NoError(t, err)
	require.Equal(t, string(kept), string(again), "the kept case was replaced")
	require.Contains(t, string(again), "lemmas -first")
}
