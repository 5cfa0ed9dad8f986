package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/internal/report"
)

// TestExitCodes: every outcome class maps to its documented exit status,
// and -json carries the same status.
func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"holds", []string{"check", "-variant", "fixed", "../testdata/programs/swap.jl"}, exitOK},
		{"help", []string{"check", "-h"}, exitOK},
		{"violated", []string{"check", "-variant", "published", "-k", "2", llFile}, exitViolation},
		{"bad flag", []string{"check", "-bogus"}, exitUsage},
		{"bad program", []string{"check", "../testdata/errors/check.jl"}, exitUsage},
		{"missing file", []string{"check", "no-such-file.jl"}, exitUsage},
		{"unknown variant", []string{"check", "-variant", "no-such", llFile}, exitUsage},
		// An engine without the data rules is refused a program with data
		// (one line, exit 2), never judged on rules it does not have.
		{"data refused", []string{"check", "-engine", "nodata-test", "../testdata/data/write_alias.jl"}, exitUsage},
		{"data refused run", []string{"run", "-engine", "nodata-test", "../testdata/data/write_alias.jl"}, exitUsage},
		{"data holds", []string{"check", "-variant", "fixed", "-k", "2", "../testdata/data/write_alias.jl"}, exitOK},
		// Every program runs out of time at once: nothing violated,
		// nothing decided.
		{"inconclusive", []string{"check", "-gen", "-n", "2", "-timeout", "1ns", "-variant", "fixed"}, exitInconclusive},
		{"inconclusive file", []string{"check", "-timeout", "1ns", "-variant", "fixed", llFile}, exitInconclusive},
		{"unknown -data", []string{"check", "-gen", "-n", "1", "-data", "some"}, exitUsage},
		{"-data none", []string{"check", "-gen", "-n", "2", "-timeout", "1ns", "-variant", "fixed", "-data", "none"}, exitInconclusive},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(tc.args, &out, &errb)
			require.Equal(t, tc.want, code, "stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
			if tc.want == exitUsage && tc.name != "bad flag" {
				require.NotEmpty(t, strings.TrimSpace(errb.String()), "a usage or input error says why")
			}
		})
	}
	var out, errb bytes.Buffer
	code := run([]string{"check", "-gen", "-n", "2", "-timeout", "1ns", "-variant", "fixed", "-json"}, &out, &errb)
	require.Equal(t, exitInconclusive, code)
	var sum report.Generated
	require.NoError(t, json.Unmarshal(out.Bytes(), &sum))
	require.Equal(t, exitInconclusive, sum.ExitCode)
	require.False(t, sum.Interrupted)
	require.Equal(t, 2, sum.Inconclusive)
	// Each inconclusive program is listed, in stream order, with its lemma.
	require.Len(t, sum.Undecided, 2)
	for i, u := range sum.Undecided {
		require.Equal(t, i, u.Index)
		require.NotEmpty(t, u.Lemma)
		require.NotEmpty(t, u.Reason)
	}
	out.Reset()
	code = run([]string{"check", "-gen", "-n", "2", "-timeout", "1ns", "-variant", "fixed"}, &out, &errb)
	require.Equal(t, exitInconclusive, code)
	require.Contains(t, out.String(), "inconclusive: program 1:")
	require.Contains(t, out.String(), "-shard 0/2")
}
