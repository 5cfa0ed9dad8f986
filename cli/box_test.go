package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/engine/extern"
)

// Box tests run the built CLI with misbehaving outside engines (shell
// one-liners speaking just enough of docs/PROTOCOL.md) and check that
// lockstep ends long before the engine's children would: every child
// sleeps 60 s, every bound asserted is 30 s, and the processes are gone
// afterwards.

// hangEngine answers the handshake and the load, then hangs in a child
// whose pid it writes to pidfile.
func hangEngine(pidfile string) string {
	hello := `{"id":1,"protocol":1,"name":"hang","version":"0","shape":"one-per-control","identity_view":true}`
	return fmt.Sprintf(`exec:sh -c 'read l; echo '"'"'%s'"'"'; read l; echo '"'"'{"id":2,"ok":true}'"'"'; sleep 60 & echo $! > %s; wait'`, hello, pidfile)
}

// processGone waits until the process of pidfile no longer exists.
func processGone(t *testing.T, pidfile string) {
	t.Helper()
	b, err := os.ReadFile(pidfile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return syscall.Kill(pid, 0) != nil }, 20*time.Second, 20*time.Millisecond,
		"process %d outlives lockstep", pid)
}

func TestExecEngineBox(t *testing.T) {
	bin := cli(t)
	prog, err := filepath.Abs("../testdata/programs/nullderef.jl")
	require.NoError(t, err)
	runCLI := func(t *testing.T, sig bool, args ...string) (string, int, time.Duration) {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		require.NoError(t, cmd.Start())
		if sig {
			time.Sleep(1500 * time.Millisecond)
			require.NoError(t, cmd.Process.Signal(os.Interrupt))
		}
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else {
			require.NoError(t, err)
		}
		return out.String(), code, time.Since(start)
	}

	t.Run("timeout", func(t *testing.T) {
		pidfile := filepath.Join(t.TempDir(), "pid")
		out, code, took := runCLI(t, false, "check", "-timeout", "1s", "-engine", hangEngine(pidfile), prog)
		require.Equal(t, exitInconclusive, code, out)
		require.Contains(t, out, "time limit")
		require.Less(t, took, 30*time.Second, "a hanging engine held lockstep past -timeout")
		processGone(t, pidfile)
	})
	t.Run("sigint", func(t *testing.T) {
		pidfile := filepath.Join(t.TempDir(), "pid")
		out, code, took := runCLI(t, true, "check", "-engine", hangEngine(pidfile), prog)
		require.Equal(t, exitSIGINT, code, out)
		require.Less(t, took, 30*time.Second, "a hanging engine held lockstep past a signal")
		processGone(t, pidfile)
	})
	t.Run("background-child", func(t *testing.T) {
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("python3 is not on PATH: the Python reference engine cannot run")
		}
		script, err := filepath.Abs("../examples/engines/gse.py")
		require.NoError(t, err)
		pidfile := filepath.Join(t.TempDir(), "pid")
		engine := fmt.Sprintf("exec:sh -c 'sleep 60 & echo $! > %s; exec python3 %s'", pidfile, script)
		out, code, took := runCLI(t, false, "check", "-k", "2", "-engine", engine, "../testdata/programs/swap.jl")
		require.Equal(t, exitOK, code, out)
		require.Contains(t, out, "left processes behind in its group: killed")
		require.Less(t, took, 30*time.Second, "the engine's child held lockstep")
		processGone(t, pidfile)
	})
}

// TestSignalBeforeStart: a signal that comes before a command has started
// (caught from the process's first moments, package earlysig) ends it
// with the signal's code and a line saying so; a command that watches
// its context starts interrupted and prints the summary of nothing.
func TestSignalBeforeStart(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"variants"}, "interrupted by SIGINT before it started"},
		{[]string{"check", "-gen", "-n", "5", "-engine", "summary:fixed"}, "interrupted"},
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(&interruption{sig: os.Interrupt})
		var out, errb bytes.Buffer
		code := runContext(ctx, c.args, &out, &errb)
		require.Equal(t, exitSIGINT, code, out.String()+errb.String())
		require.Contains(t, out.String()+errb.String(), c.want)
	}
}

// TestAnswerBoundFlags: the bounds on an engine's answers are flags of
// the commands that run engines, at least 1 (the depth at most 100,000),
// and start from the defaults on every command.
func TestAnswerBoundFlags(t *testing.T) {
	for _, bad := range [][]string{{"-engine-max-depth", "0"}, {"-engine-max-depth", "200000"}, {"-engine-max-line", "x"}, {"-engine-max-terms", "-1"}} {
		var o, e bytes.Buffer
		require.Equal(t, exitUsage, run(append([]string{"check"}, append(bad, "../testdata/programs/swap.jl")...), &o, &e), bad)
		require.Contains(t, e.String(), bad[0])
	}
	var o, e bytes.Buffer
	require.Equal(t, exitOK, run([]string{"run", "-engine-max-successors", "7", "-engine", "summary:fixed", "../testdata/programs/swap.jl"}, &o, &e), e.String())
	require.Equal(t, 7, extern.Bounds.Successors)
	require.Equal(t, exitOK, run([]string{"run", "-engine", "summary:fixed", "../testdata/programs/swap.jl"}, &o, &e), e.String())
	require.Equal(t, extern.DefaultLimits, extern.Bounds)
}
