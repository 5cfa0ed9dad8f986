package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// readmeCommand is one command line of README.md.
type readmeCommand struct {
	line string // the shell command, without its comment
	want int    // the exit status its comment gives, "(exit N…"; 0 when none
	long bool   // its comment says it runs for minutes
}

var (
	readmeComment = regexp.MustCompile(`\s#\s.*$`)
	readmeExit    = regexp.MustCompile(`\(exit (\d+)`)
)

// readmeCommands extracts every line of README.md's ```sh blocks that runs
// bin/lockstep (the make targets are CI's business).
func readmeCommands(t *testing.T) []readmeCommand {
	t.Helper()
	f, err := os.Open("../README.md")
	require.NoError(t, err)
	defer f.Close()
	var out []readmeCommand
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			in = line == "```sh"
			continue
		case !in || !strings.Contains(line, "bin/lockstep"):
			continue
		}
		c := readmeCommand{line: strings.TrimSpace(readmeComment.ReplaceAllString(line, ""))}
		c.long = strings.Contains(readmeComment.FindString(line), "minutes")
		if m := readmeExit.FindStringSubmatch(readmeComment.FindString(line)); m != nil {
			c.want, _ = strconv.Atoi(m[1])
		}
		out = append(out, c)
	}
	require.NoError(t, sc.Err())
	return out
}

// readmeFirstDone marks, in the output of a minutes-long README line run
// with LOCKSTEP_PROGRESS=lines, that it finished its first unit of work: a
// survey's or a mutant's first program ("progress: … 1/300 programs"), a
// suite's first row (" paths 17 (").
var readmeFirstDone = regexp.MustCompile(`(?m)^progress: .*\b1/\d+ programs| paths \d+ \(`)

// watchedBuffer is the combined output of a command; marked is closed once
// the output matches readmeFirstDone.
type watchedBuffer struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	marked chan struct{}
	closed bool
}

func (w *watchedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if !w.closed && readmeFirstDone.Match(w.buf.Bytes()) {
		close(w.marked)
		w.closed = true
	}
	return n, err
}

func (w *watchedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestReadmeCommands runs every command line of README.md against the
// built CLI, in order (later lines read what earlier ones wrote), in a
// scratch directory that has bin/lockstep, testdata/ and an empty docs/,
// so that nothing is written into the repository. A command that ends
// must exit with the status its comment gives. One whose comment says it
// runs for minutes (the surveys and mutation runs: `make soak` runs them to
// their end) is run with LOCKSTEP_PROGRESS=lines and interrupted with
// SIGINT once it has finished its first program or row, or after a second,
// whichever comes first: it must have started (no usage error: its flags
// and files are right, which the CLI settles in milliseconds, before any
// work) and stop with 130.
func TestReadmeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built CLI")
	}
	soak := os.Getenv("LOCKSTEP_SOAK") != ""
	bin := cli(t)
	dir := t.TempDir()
	testdata, err := filepath.Abs("../testdata")
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bin"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "docs"), 0o755))
	require.NoError(t, os.Symlink(bin, filepath.Join(dir, "bin", "lockstep")))
	require.NoError(t, os.Symlink(testdata, filepath.Join(dir, "testdata")))
	cmds := readmeCommands(t)
	require.Greater(t, len(cmds), 20, "README.md lists the commands")
	for _, c := range cmds {
		limit := 5 * time.Minute // a bound for a hung command, not a timing
		if c.long && !soak {
			limit = time.Second
		}
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		cmd := exec.Command("bash", "-c", c.line)
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		out := &watchedBuffer{marked: make(chan struct{})}
		cmd.Stdout, cmd.Stderr = out, out
		var marked <-chan struct{} // nil: never, for a line run to its end
		if c.long && !soak {
			cmd.Env = append(os.Environ(), "LOCKSTEP_PROGRESS=lines")
			marked = out.marked
		}
		require.NoError(t, cmd.Start(), c.line)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		cut, when := false, ""
		var err error
		select {
		case err = <-done:
		case <-marked:
			cut, when = true, "its first program or row"
		case <-ctx.Done():
			cut, when = true, limit.String()
		}
		if cut {
			select {
			case err = <-done: // it ended on its own meanwhile
				cut = false
			default:
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) // the whole pipeline
				select {
				case err = <-done:
				case <-time.After(time.Minute):
					_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
					<-done
					t.Fatalf("%s: still running a minute after SIGINT", c.line)
				}
			}
		}
		cancel()
		code := cmd.ProcessState.ExitCode()
		var ee *exec.ExitError
		if errors.As(err, &ee) && code < 0 { // killed by a signal: bash's status
			code = 128 + int(ee.Sys().(syscall.WaitStatus).Signal())
		}
		text := out.String()
		for _, m := range crashMarks {
			require.NotContains(t, text, m, "%s: crashed:\n%s", c.line, text)
		}
		if cut {
			require.Truef(t, c.long, "%s: still running after %s", c.line, limit)
			t.Logf("%s: interrupted after %s (exit %d)", c.line, when, code)
			require.Equalf(t, exitSIGINT, code, "%s: started and stopped on SIGINT:\n%s", c.line, text)
			continue
		}
		require.Equalf(t, c.want, code, "%s: exit status; output:\n%s", c.line, text)
	}
}
