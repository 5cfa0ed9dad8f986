package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/summary"
)

func TestLemmasEnginesUsage(t *testing.T) {
	for _, args := range [][]string{
		{"lemmas", "-engines", "pose:world-exact"},
		{"lemmas", "-engines", "gse"},
		{"lemmas", "-engines", "no-such-engine"},
		{"lemmas", "-engines", ","},
		{"lemmas", "-engines-k", "1"},
		{"lemmas", "-engines-n", "5"},
		{"lemmas", "-engines", "all", "-variant", "fixed"},
		{"lemmas", "-engines", "all", "-engine", "pose"},
		{"lemmas", "-engines", "all", "-fixedbugs", "dir"},
		{"lemmas", "-engines", "all", "-engines-n", "-1"},
	} {
		code, _, stderr := runCode(args...)
		assert.Equal(t, exitUsage, code, "%v", args)
		assert.NotEmpty(t, stderr, "%v", args)
	}
}

// The columns: every variant of every engine but pose's mutations, in the
// order summary, lazier, lazier#, pose, uber, then seed 004's summary
// readings; the summary engine at -k on -n programs, the others at
// -engines-k on -engines-n.
func TestMatrixColumns(t *testing.T) {
	base := checker.DefaultOptions()
	base.K, base.Steps = 2, 150
	cols, err := matrixColumns(base, matrixFlags{engines: "all", k: -1, n: 100}, 300)
	require.NoError(t, err)
	var specs []string
	for _, c := range cols {
		specs = append(specs, c.opt.Engine)
		name, variant, _ := strings.Cut(c.opt.Engine, ":")
		assert.NotContains(t, variant, "mut-", c.opt.Engine)
		assert.Equal(t, 150, c.opt.Steps)
		switch {
		case name == "summary" && strings.HasPrefix(variant, "fixed+u-"):
			assert.Equal(t, 2, c.opt.K, c.opt.Engine)
			assert.Equal(t, 100, c.n, c.opt.Engine)
		case name == "summary":
			assert.Equal(t, 2, c.opt.K, c.opt.Engine)
			assert.Equal(t, 300, c.n, c.opt.Engine)
		default:
			assert.Equal(t, -1, c.opt.K, c.opt.Engine)
			assert.Equal(t, 100, c.n, c.opt.Engine)
		}
	}
	var want []string
	for _, v := range summary.Variants() {
		want = append(want, "summary:"+v.Name)
	}
	require.Equal(t, want, specs[:len(want)], "the summary columns of lemmas -all, in its order")
	for _, s := range []string{"lazier:default", "lazier#:stamp-kbound", "pose:world-exact", "pose:pose-published-merge", "pose:jpose-eq", "uber:defer", "uber:defer+u-newsym", "summary:fixed+u-st", "summary:fixed+u-eqand"} {
		assert.Contains(t, specs, s)
	}
	idx := func(s string) int { return indexOf(specs, s) }
	assert.Less(t, idx("summary:seed000"), idx("lazier:default"))
	assert.Less(t, idx("lazier:stamp-kbound"), idx("lazier#:default"))
	assert.Less(t, idx("lazier#:stamp-kbound"), idx("pose:world-exact"))
	assert.Less(t, idx("pose:jpose-eq"), idx("uber:defer"))
	assert.Less(t, idx("uber:defer+u-newsym"), idx("summary:fixed+u-st"))

	names, err := matrixEngines("uber, pose,summary,pose")
	require.NoError(t, err)
	assert.Equal(t, []string{"summary", "pose", "uber"}, names)
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// TestLemmasEngines: one matrix of two engines has a row for every lemma
// of the catalog, "–" where a lemma does not apply to a column's engine
// (L1 for lazier, P1 for pose, KB at k = −1), INV-P decided for pose, and
// says at which k each engine was checked.
func TestLemmasEngines(t *testing.T) {
	md := filepath.Join(t.TempDir(), "LEMMAS.md")
	code, _, stderr := runCode("lemmas", "-engines", "pose,lazier", "-n", "2", "-steps", "30", "-no-shrink", "-o", md)
	require.Contains(t, []int{exitOK, exitViolation, exitInconclusive}, code, stderr)
	b, err := os.ReadFile(md)
	require.NoError(t, err)
	doc := string(b)
	header := "| lemma |"
	for _, v := range []string{"default", "acmp-null-full", "eq-new-shortcut", "ifnull-syntactic", "alias-pending", "stamp-kbound"} {
		header += " lazier:" + v + " |"
	}
	header += " pose:world-exact | pose:pose-published-merge | pose:jpose-eq | pose:kbound |"
	require.True(t, strings.Contains(doc, header+"\n"), "no header %q", header)
	rows := map[checker.Lemma][]string{}
	for _, line := range strings.Split(doc, "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) == 11 && strings.HasPrefix(line, "| ") {
			rows[checker.Lemma(strings.TrimPrefix(cells[0], "| "))] = cells[1:]
		}
	}
	for _, l := range checker.Lemmas {
		require.Contains(t, rows, l, "no row for %s", l)
	}
	dash := func(l checker.Lemma, col int) bool { return strings.TrimSuffix(rows[l][col], " |") == "–" }
	for col := 0; col < 10; col++ {
		assert.True(t, dash(checker.L1, col), "L1 applies to no column here")
		assert.True(t, dash(checker.KB, col), "KB at k = −1")
		assert.True(t, dash(checker.P4, col))
		assert.True(t, dash(checker.VS, col))
		assert.False(t, dash(checker.T11, col))
		lazier := col < 6
		assert.Equal(t, lazier, !dash(checker.P1, col), "P1, column %d", col)
		assert.Equal(t, lazier, dash(checker.C13, col), "C13, column %d", col)
		assert.Equal(t, lazier, dash(checker.INVP, col), "INV-P, column %d", col)
	}
	for _, want := range []string{
		"Generated by `lockstep lemmas -engines all`",
		"* command: `lockstep lemmas -engines pose,lazier -n 2",
		"k = -1, step bound 30",
		"lazier, lazier#, pose and uber at k = −1, as ENGINES.md §8.4 says",
		"## The rows",
		"| INV-P | two symbolic locations",
		"## The Kiasan hunts (k = −1, 1, 2)",
		"lockstep check -gen -n 1000 -seed 1 -engine lazier -k -1",
		"| variant | programs | k |",
	} {
		assert.True(t, strings.Contains(doc, want), "missing %q", want)
	}
	assert.NotContains(t, header, "mut-")
	assert.False(t, strings.Contains(doc, "fixed+u-st"), "seed 004's summary readings are columns only with uber")
}
