package cli

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestShellQuote: a quoted word reads back as itself in a POSIX shell.
func TestShellQuote(t *testing.T) {
	words := []string{"plain", "a b", "it's", "", "exec:sh -c 'echo \"x\" $HOME; `id`'", "tab\there", "summary:lazier#", "*"}
	out, err := exec.Command("sh", "-c", `for w in `+shellCommand(words)+`; do printf '%s\n' "$w"; done`).Output()
	require.NoError(t, err)
	require.Equal(t, strings.Join(words, "\n")+"\n", string(out))
	require.Equal(t, "summary:fixed", shellQuote("summary:fixed"))
}

// TestSaveReplayQuoted: the replay command printed by -save works when the
// case's path has a space: run as a shell would split it, it finds the
// same violation.
func TestSaveReplayQuoted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "saved cases")
	code, out, _ := runCode("check", "-gen", "-data", "none", "-k", "1", "-steps", "60", "-workers", "1", "-shrink-time", "1s",
		"-variant", "published", "-n", "9", "-max-group", "3", "-save", dir)
	require.Equal(t, exitViolation, code, out)
	m := regexp.MustCompile(`\(replay: (lockstep check .*)\)\n`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	// The shell splits the command into words; lockstep runs them.
	words, err := exec.Command("sh", "-c", `for w in `+strings.TrimPrefix(m[1], "lockstep ")+`; do printf '%s\0' "$w"; done`).Output()
	require.NoError(t, err)
	args := strings.Split(strings.TrimSuffix(string(words), "\x00"), "\x00")
	require.Contains(t, args, filepath.Join(dir, filepath.Base(args[len(args)-1])))
	var o, e bytes.Buffer
	require.Equal(t, exitViolation, run(args, &o, &e), o.String()+e.String())
}

// TestGenFlagsWithFiles: the flags of a generated stream are refused with
// files (exit 2, one line naming the flag), not silently ignored.
func TestGenFlagsWithFiles(t *testing.T) {
	for _, c := range [][]string{
		{"check", "-n", "5"}, {"check", "-seed", "7"}, {"check", "-data", "none"}, {"check", "-shrink-time", "1s"},
		{"check", "-shrink-steps", "3"}, {"order", "-n", "5"}, {"order", "-seed", "7"}, {"order", "-shrink-steps", "3"},
	} {
		var o, e bytes.Buffer
		code := run(append(c, "../testdata/programs/swap.jl"), &o, &e)
		require.Equal(t, exitUsage, code, c)
		require.Equal(t, 1, strings.Count(e.String(), "\n"), e.String())
		require.Contains(t, e.String(), c[1]+" is for a generated stream")
	}
}
