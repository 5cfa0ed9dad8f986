package cli

import (
	"encoding/json"
	"flag"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
)

// TestFlagRanges: a numeric flag out of its range is a usage error (exit
// 2, with a message naming the flag), never a run that checks nothing and
// exits 0.
func TestFlagRanges(t *testing.T) {
	swap := "../testdata/programs/swap.jl"
	for _, tc := range []struct {
		flag string
		args []string
	}{
		{"-n", []string{"check", "-gen", "-n", "-1"}},
		{"-n", []string{"check", "-gen", "-n", "0"}},
		{"-steps", []string{"check", "-steps", "0", swap}},
		{"-shard", []string{"check", "-gen", "-shard", "5/10", "-n", "3"}},
		{"-timeout", []string{"check", "-timeout", "0", swap}},
		{"-max-group", []string{"check", "-max-group", "0", swap}},
		{"-max-pairs", []string{"check", "-max-pairs", "0", swap}},
		{"-k", []string{"check", "-k", "-7", swap}},
		{"-k", []string{"run", "-k", "-7", swap}},
		{"-steps", []string{"run", "-steps", "0", swap}},
		{"-timeout", []string{"run", "-timeout", "0", swap}},
		{"-k", []string{"dot", "-final", "-k", "-7", swap}},
		{"-n", []string{"lemmas", "-n", "0"}},
		{"-shard", []string{"lemmas", "-n", "3", "-shard", "5/10"}},
		{"-timeout", []string{"lemmas", "-timeout", "0"}},
		{"-engines-k", []string{"lemmas", "-engines", "pose", "-engines-k", "-7"}},
		{"-n", []string{"mutants", "-n", "-1"}},
		{"-k", []string{"mutants", "-k", "-7"}},
		{"-steps", []string{"mutants", "-steps", "0"}},
		{"-k", []string{"order", "-k", "-7", swap}},
		{"-steps", []string{"order", "-steps", "0", swap}},
		{"-n", []string{"order", "-gen", "-n", "0"}},
		{"-max-paths", []string{"order", "-max-paths", "0", swap}},
		{"-shrink-time", []string{"lemmas", "-shrink-time", "-1s"}},
		{"-shrink-time", []string{"order", "-gen", "-shrink-time", "-1s"}},
		{"-shrink-time", []string{"check", "-gen", "-shrink-time", "-1s"}},
		{"-shrink-time", []string{"mutants", "-shrink-time", "-1s"}},
		{"-shrink-steps", []string{"lemmas", "-shrink-steps", "-1"}},
		{"-shrink-steps", []string{"order", "-gen", "-shrink-steps", "-1"}},
		{"-shrink-steps", []string{"check", "-gen", "-shrink-steps", "-1"}},
		{"-shrink-steps", []string{"mutants", "-shrink-steps", "-1"}},
	} {
		code, out, stderr := runCode(tc.args...)
		require.Equalf(t, exitUsage, code, "%v: stdout %s", tc.args, out)
		require.Containsf(t, stderr, tc.flag, "%v: the message names the flag", tc.args)
	}
}

// TestFlagsAfterFiles: flags may follow the file names, as people type
// them; "--" ends the flags.
func TestFlagsAfterFiles(t *testing.T) {
	out := runOK(t, "check", "../testdata/programs/swap.jl", "-k", "1", "-variant", "fixed")
	require.Contains(t, out, "swap.jl: holds")
	out = runOK(t, "run", "../testdata/programs/swap.jl", "-json", "-k", "1")
	var rep runReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Equal(t, 1, rep.K)
	code, _, stderr := runCode("fmt", "--", "-k")
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "-k", "after --, -k is a file name")
}

// TestHelpAndVersion: `lockstep help CMD` is `lockstep CMD -h`; version
// names the module.
func TestHelpAndVersion(t *testing.T) {
	code, _, stderr := runCode("help", "check")
	require.Equal(t, exitOK, code)
	require.True(t, strings.HasPrefix(stderr, "usage: lockstep check"), stderr)
	code, _, _ = runCode("help", "no-such-command")
	require.Equal(t, exitUsage, code)
	require.Contains(t, runOK(t, "version"), "github.com/lockstep-dev/lockstep")
	var v versionJSON
	require.NoError(t, json.Unmarshal([]byte(runOK(t, "version", "-json")), &v))
	require.NotEmpty(t, v.Version)
	require.NotEmpty(t, v.Go)
}

// TestMaxBounds: -max-group and -max-pairs reach the checker: a program
// that holds at the defaults is inconclusive (exit 3) at bounds below what
// it needs, and says which bound stopped it.
func TestMaxBounds(t *testing.T) {
	prog := "../testdata/programs/linkedlist.jl"
	runOK(t, "check", "-variant", "fixed", "-k", "1", prog)
	for _, tc := range []struct{ flag, want string }{
		{"-max-pairs", "more than 3 pairs"},
		{"-max-group", "exceeds the bound 3"},
	} {
		code, out, _ := runCode("check", "-variant", "fixed", "-k", "1", tc.flag, "3", prog)
		require.Equal(t, exitInconclusive, code, "%s: %s", tc.flag, out)
		require.Contains(t, out, tc.want, tc.flag)
	}
}

// TestBoundsNamedAndGenerated: a check of named programs has
// checker.FileOptions' group and pair bounds, a check of generated ones
// (huntBounds) the hunt's, and a bound given on the command line is kept
// by both.
func TestBoundsNamedAndGenerated(t *testing.T) {
	parse := func(hunt bool, args ...string) checkFlags {
		fs := flag.NewFlagSet("check", flag.ContinueOnError)
		var cf checkFlags
		cf.register(fs)
		require.NoError(t, parseFlags(fs, args))
		if hunt {
			cf.huntBounds(fs)
		}
		return cf
	}
	named, hunt := parse(false), parse(true)
	require.Equal(t, [2]int{checker.FileMaxGroup, checker.FileMaxPairs}, [2]int{named.maxGroup, named.maxPairs})
	d := checker.DefaultOptions()
	require.Equal(t, [2]int{d.MaxGroup, d.MaxPairs}, [2]int{hunt.maxGroup, hunt.maxPairs})
	given := parse(true, "-max-group", "7", "-max-pairs", "9")
	require.Equal(t, [2]int{7, 9}, [2]int{given.maxGroup, given.maxPairs})
	require.Greater(t, checker.FileMaxGroup, d.MaxGroup)
}
