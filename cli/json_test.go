package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJSONContract: the -json output of every command is one JSON document
// (an object, nothing after it) whose "exit_code" is the status the
// process exits with and whose "interrupted" says whether a signal cut it
// short (README.md, "JSON"). A usage error (exit 2 before anything ran)
// prints no JSON, only its message on stderr.
func TestJSONContract(t *testing.T) {
	dir := t.TempDir()
	shards := make([]string, 2)
	for i := range shards {
		code, out, stderr := runCode("check", "-gen", "-json", "-n", "4", "-k", "1", "-steps", "40", "-workers", "1", "-variant", "fixed", "-shard", []string{"0/2", "1/2"}[i])
		require.Equal(t, exitOK, code, stderr)
		shards[i] = filepath.Join(dir, "shard"+string(rune('0'+i))+".json")
		require.NoError(t, os.WriteFile(shards[i], []byte(out), 0o644))
	}
	swap, null := "../testdata/programs/swap.jl", "../testdata/programs/nullderef.jl"
	for _, args := range [][]string{
		{"fmt", swap},
		{"fmt", "../testdata/errors/check.jl"},
		{"run", "-k", "1", swap},
		{"run", "-engine", "summary", "-k", "1", "-paths", swap},
		{"engines"},
		{"variants"},
		{"version"},
		{"check", "-k", "1", swap, null},
		{"check", "-variant", "published", "../testdata/fixedbugs/published_L1.jl"},
		{"check", "-gen", "-n", "3", "-k", "1", "-steps", "40", "-workers", "1", "-variant", "fixed"},
		{"dot", "-final", swap},
		{"lemmas", "-variant", "fixed", "-n", "2", "-steps", "40", "-no-shrink", "-workers", "1"},
		{"lemmas", "-all", "-n", "1", "-steps", "30", "-no-shrink", "-workers", "1"},
		{"mutants", "-only", "m-drop-null", "-n", "3", "-workers", "1", "-shrink-time", "1s"},
		{"order", "-k", "-1", swap},
		{"order", "-gen", "-n", "2", "-steps", "40", "-workers", "1"},
		{"merge", shards[0], shards[1]},
		{"bench", "-quick"},
	} {
		t.Run(strings.Join(args[:1], " "), func(t *testing.T) {
			code, out, stderr := runCode(append(args, "-json")...)
			require.Containsf(t, []int{exitOK, exitViolation, exitUsage, exitInconclusive}, code, "%v: stderr %s", args, stderr)
			dec := json.NewDecoder(strings.NewReader(out))
			var doc map[string]any
			require.NoErrorf(t, dec.Decode(&doc), "%v: stdout %q", args, out)
			var more any
			require.ErrorIsf(t, dec.Decode(&more), io.EOF, "%v: more than one JSON document", args)
			require.Containsf(t, doc, "exit_code", "%v", args)
			require.EqualValuesf(t, code, doc["exit_code"], "%v: exit_code is the exit status", args)
			require.Containsf(t, doc, "interrupted", "%v", args)
			require.Equalf(t, false, doc["interrupted"], "%v", args)
		})
	}
	var out, errb bytes.Buffer
	require.Equal(t, exitUsage, run([]string{"check", "-json", "-n", "-1", "-gen"}, &out, &errb))
	require.Zero(t, out.Len(), "a usage error prints no JSON")
}
