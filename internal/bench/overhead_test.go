package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeRunner answers each command with a CPU time by its first two words
// (check, run gse, run ENGINE), each run a little slower than the last, so
// the least of several runs is the first.
func fakeRunner(exit int) (Runner, *[][]string) {
	var calls [][]string
	n := 0
	return func(_ context.Context, args []string) (Usage, error) {
		calls = append(calls, args)
		n++
		extra := time.Duration(n) * time.Microsecond
		switch {
		case args[0] == "check":
			return Usage{CPU: 900*time.Millisecond + extra, MaxRSS: 2048 + int64(n), Exit: exit}, nil
		case args[2] == "gse":
			return Usage{CPU: 100*time.Millisecond + extra}, nil
		}
		return Usage{CPU: 200*time.Millisecond + extra}, nil
	}, &calls
}

func TestOverheadRows(t *testing.T) {
	run, calls := fakeRunner(0)
	rows, err := Overhead(context.Background(), OverheadCases(), 2, run, nil)
	require.NoError(t, err)
	require.Len(t, rows, 3)
	require.Len(t, *calls, 3*3*2)
	for _, r := range rows {
		require.Equal(t, "holds", r.Status)
		require.Equal(t, 2, r.Runs)
		require.InDelta(t, 0.3, r.ExploreSec, 0.001)
		require.InDelta(t, 3.0, r.Ratio, 0.01)
		require.Positive(t, r.CheckRSS)
	}
	// The command lines: the check with one worker, both runs with the
	// case's k and step bound, the file last.
	c, g, e := OverheadArgs(OverheadCases()[1])
	require.Equal(t, []string{"check", "-workers", "1", "-timeout", "10m", "-engine", "uber", "-k", "3", "-steps", "300", "testdata/bench/linkedlist_calls4.jl"}, c)
	require.Equal(t, []string{"run", "-engine", "gse", "-k", "3", "-steps", "300", "testdata/bench/linkedlist_calls4.jl"}, g)
	require.Equal(t, []string{"run", "-engine", "uber", "-k", "3", "-steps", "300", "testdata/bench/linkedlist_calls4.jl"}, e)

	var table bytes.Buffer
	require.NoError(t, WriteOverhead(&table, rows, false))
	lines := strings.Split(strings.TrimSpace(table.String()), "\n")
	require.Len(t, lines, 5, table.String())
	require.Contains(t, lines[0], "ratio")
	require.Contains(t, lines[2], "uber")
	require.Contains(t, lines[2], "3.0×")
	require.Contains(t, lines[4], "least of 2 run(s)")

	var js bytes.Buffer
	require.NoError(t, WriteOverhead(&js, rows, true))
	var doc struct {
		Overhead []map[string]any `json:"overhead"`
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &doc))
	require.Len(t, doc.Overhead, 3)
	for _, key := range []string{"file", "engine", "k", "steps", "status", "check_cpu_seconds", "gse_run_cpu_seconds", "engine_run_cpu_seconds", "explore_cpu_seconds", "ratio", "check_peak_rss_kib", "runs"} {
		require.Contains(t, doc.Overhead[0], key)
	}
}

// A check that does not hold is measured and named; a run that fails, or
// a runner that cannot start, stops the measurement.
func TestOverheadStatusAndErrors(t *testing.T) {
	run, _ := fakeRunner(3)
	rows, err := Overhead(context.Background(), OverheadCases()[:1], 1, run, nil)
	require.NoError(t, err)
	require.Equal(t, "inconclusive", rows[0].Status)

	failing := func(_ context.Context, args []string) (Usage, error) {
		if args[0] == "run" {
			return Usage{Exit: 2}, nil
		}
		return Usage{}, nil
	}
	_, err = Overhead(context.Background(), OverheadCases()[:1], 1, failing, nil)
	require.ErrorContains(t, err, "exited with 2")

	broken := func(context.Context, []string) (Usage, error) { return Usage{}, errors.New("no such binary") }
	_, err = Overhead(context.Background(), OverheadCases()[:1], 1, broken, nil)
	require.ErrorContains(t, err, "no such binary")
}
