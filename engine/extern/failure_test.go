package extern_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/engine/extern"
	"github.com/lockstep-dev/lockstep/smt"
)

// The test binary is also a misbehaving engine: `TEST fake-engine MODE`
// answers the handshake and the load, then misbehaves at the first rule
// request as MODE says.
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "fake-engine" {
		fakeEngine(os.Args[2])
		os.Exit(0)
	}
	if len(os.Args) == 3 && os.Args[1] == "serve" {
		if err := extern.ServeRegistered(os.Args[2], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func fakeEngine(mode string) {
	if mode == "child" || mode == "bgrule" {
		// A child that holds the engine's standard output and error and
		// would live a minute: the box must kill it.
		c := exec.Command("sleep", "60")
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if err := c.Start(); err != nil {
			os.Exit(8)
		}
		if f := os.Getenv("LOCKSTEP_TEST_PIDFILE"); f != "" {
			_ = os.WriteFile(f, []byte(strconv.Itoa(c.Process.Pid)), 0o644)
		}
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<26)
	say := func(v map[string]any) {
		b, _ := json.Marshal(v)
		fmt.Printf("%s\n", b)
	}
	for in.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(in.Bytes(), &msg); err != nil {
			os.Exit(9)
		}
		id := msg["id"]
		switch msg["op"] {
		case "hello":
			proto := 1
			if mode == "protocol3" {
				proto = 3
			}
			say(map[string]any{"id": id, "protocol": proto, "name": "fake", "version": "0", "shape": "one-per-control", "identity_view": true})
			continue
		case "load":
			say(map[string]any{"id": id, "ok": true})
			continue
		}
		state := msg["state"].(map[string]any)
		switch mode {
		case "crash":
			os.Exit(3)
		case "hang":
			time.Sleep(time.Hour)
		case "child":
			os.Exit(0) // the child keeps the standard output open
		case "bgrule":
			say(map[string]any{"id": id, "error": map[string]any{"kind": "rule", "message": "my rule does not apply"}})
		case "deep":
			n := 3000 // 6,000 levels of JSON
			fmt.Printf(`{"id":%v,"successors":[{"rule":"Field access (A)","state":{"phi":%s{"op":"true"}%s}}]}`+"\n",
				id, strings.Repeat(`{"op":"not","args":[`, n), strings.Repeat(`]}`, n))
		case "many":
			fmt.Printf(`{"id":%v,"successors":[%s{"rule":"Field access (A)","state":null}]}`+"\n",
				id, strings.Repeat(`{"rule":"Field access (A)","state":null},`, 200))
		case "terms":
			fmt.Printf(`{"id":%v,"successors":[{"rule":"Field access (A)","state":{"phi":{"op":"and","args":[%s{"op":"true"}]}}}]}`+"\n",
				id, strings.Repeat(`{"op":"true"},`, 200))
		case "long":
			fmt.Printf(`{"id":%v,"pad":"%s"}`+"\n", id, strings.Repeat("x", 1<<20))
		case "garbage":
			fmt.Println("this is not JSON")
		case "wrongid":
			say(map[string]any{"id": 12345, "successors": []any{}})
		case "nofield":
			say(map[string]any{"id": id})
		case "internal":
			say(map[string]any{"id": id, "error": map[string]any{"kind": "internal", "message": "boom"}})
		case "rule":
			say(map[string]any{"id": id, "error": map[string]any{"kind": "rule", "message": "my rule does not apply"}})
		case "badrule":
			say(map[string]any{"id": id, "successors": []any{map[string]any{"rule": "Summarize", "state": state}}})
		case "badstate":
			state["L"] = append(state["L"].([]any), map[string]any{"ref": 300, "gvs": []any{map[string]any{"guard": map[string]any{"op": "true"}, "loc": 99}}})
			state["mode"], state["val"] = "value", map[string]any{"ref": 300}
			state["k"] = state["k"].([]any)[1:]
			say(map[string]any{"id": id, "successors": []any{map[string]any{"rule": "Field access (A)", "state": state}}})
		case "pushframe":
			state["k"] = append([]any{map[string]any{"kind": "if", "expr": 0, "idx": 0}}, state["k"].([]any)...)
			say(map[string]any{"id": id, "successors": []any{map[string]any{"rule": "Field access (A)", "state": state}}})
		}
	}
}

func fakeSpec(mode string) string {
	return "exec:" + os.Args[0] + " fake-engine " + mode
}

// TestFailuresAreInconclusive: whatever a process does that is not an
// answer (crash, hang, garbage, a wrong id, a missing field, an internal
// error, a rule outside the request's, a state that is not a state, a
// pushed frame) is an inconclusive verdict naming an engine failure, never
// a violation and never a hang.
func TestFailuresAreInconclusive(t *testing.T) {
	defer extern.Shutdown()
	saved := extern.Timeout
	extern.Timeout = 2 * time.Second
	defer func() { extern.Timeout = saved }()
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	p := load(t, "nullderef.jl")
	for _, mode := range []string{"crash", "hang", "garbage", "wrongid", "nofield", "internal", "badrule", "badstate", "pushframe"} {
		t.Run(mode, func(t *testing.T) {
			opt := checker.DefaultOptions()
			opt.Engine = fakeSpec(mode)
			start := time.Now()
			rep, err := checker.Run(context.Background(), p, opt, solver)
			require.NoError(t, err)
			require.Equal(t, checker.Inconclusive, rep.Verdict.Status, rep.Text(false))
			require.Contains(t, rep.Verdict.Reason, "engine failure")
			require.Less(t, time.Since(start), time.Minute, "never a hang")
		})
	}
}

// TestRuleErrorIsTheEngines: an engine's own "my rule does not apply" is
// judged as a Go engine's error is (a violation of the rule's lemma).
func TestRuleErrorIsTheEngines(t *testing.T) {
	defer extern.Shutdown()
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	opt := checker.DefaultOptions()
	opt.Engine = fakeSpec("rule")
	rep, err := checker.Run(context.Background(), load(t, "nullderef.jl"), opt, solver)
	require.NoError(t, err)
	require.Equal(t, checker.Violated, rep.Verdict.Status)
	require.Contains(t, rep.Verdict.Reason, "my rule does not apply")
}

// TestHandshakeFailures: a wrong protocol version or a command that
// cannot start is refused when the engine is looked up, as an engine
// failure.
func TestHandshakeFailures(t *testing.T) {
	defer extern.Shutdown()
	_, _, err := engine.Lookup(fakeSpec("protocol3"))
	require.ErrorIs(t, err, engine.ErrFailure)
	require.ErrorContains(t, err, "protocol 3")
	_, _, err = engine.Lookup("exec:/nonexistent/engine")
	require.ErrorIs(t, err, engine.ErrFailure)
	var f *extern.Failure
	require.True(t, errors.As(err, &f))
	require.Equal(t, "start", f.Kind)
	_, _, err = engine.Lookup("exec:")
	require.Error(t, err)
	_, _, err = engine.Lookup(fakeSpec("crash") + "#nosuch")
	require.ErrorContains(t, err, "no variant")
}

// TestSpecs: the spec of an exec engine round-trips through Canonical.
func TestSpecs(t *testing.T) {
	defer extern.Shutdown()
	c, err := engine.Canonical(fakeSpec("crash"))
	require.NoError(t, err)
	require.Equal(t, fakeSpec("crash"), c)
	h, err := extern.Handshake(os.Args[0] + " fake-engine crash")
	require.NoError(t, err)
	require.Equal(t, "fake", h.Name)
	cmd, v := extern.Split("python3 'a b.py' --x#v1")
	require.Equal(t, "python3 'a b.py' --x", cmd)
	require.Equal(t, "v1", v)
	cmd, v = extern.Split("goserve lazier#")
	require.Equal(t, "goserve lazier#", cmd)
	require.Equal(t, "", v)
	cmd, v = extern.Split("goserve lazier##default")
	require.Equal(t, "goserve lazier#", cmd)
	require.Equal(t, "default", v)
	cmd, v = extern.Split("sh -c 'x #y'")
	require.Equal(t, "sh -c 'x #y'", cmd)
	require.Equal(t, "", v)
}

// TestBoxedEngines: an engine process runs in a box. A child it leaves
// holding its standard output when it exits, or in the background when
// its input ends, is killed with its process group and reported; a
// process that hangs is given up when the run's time limit passes or
// its context is canceled, not after Timeout. The child would sleep 60 s
// and Timeout is a minute: every bound asserted is far below both.
func TestBoxedEngines(t *testing.T) {
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	saved := extern.Timeout
	extern.Timeout = time.Minute
	defer func() { extern.Timeout = saved }()
	p := load(t, "nullderef.jl")
	gone := func(t *testing.T, pidfile string) {
		b, err := os.ReadFile(pidfile)
		require.NoError(t, err)
		pid, err := strconv.Atoi(string(b))
		require.NoError(t, err)
		require.Eventually(t, func() bool { return syscall.Kill(pid, 0) != nil }, 20*time.Second, 20*time.Millisecond,
			"the engine's child %d outlives it", pid)
	}
	for _, mode := range []string{"child", "bgrule"} {
		t.Run(mode, func(t *testing.T) {
			pidfile := t.TempDir() + "/pid"
			t.Setenv("LOCKSTEP_TEST_PIDFILE", pidfile)
			opt := checker.DefaultOptions()
			opt.Engine = fakeSpec(mode)
			start := time.Now()
			rep, err := checker.Run(context.Background(), p, opt, solver)
			require.NoError(t, err)
			notes := extern.Shutdown()
			require.Less(t, time.Since(start), 30*time.Second, "the child's sleep held lockstep")
			require.NotEqual(t, checker.Holds, rep.Verdict.Status)
			require.Len(t, notes, 1, "the child left behind is reported")
			require.Contains(t, notes[0], "left processes behind")
			gone(t, pidfile)
		})
	}
	for _, c := range []struct {
		name    string
		timeout time.Duration
		cancel  bool
		want    string
	}{
		{"timeout", 500 * time.Millisecond, false, "time limit"},
		{"cancel", 0, true, "interrupted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer extern.Shutdown()
			opt := checker.DefaultOptions()
			opt.Engine = fakeSpec("hang")
			opt.Timeout = c.timeout
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.cancel {
				time.AfterFunc(500*time.Millisecond, cancel)
			}
			start := time.Now()
			rep, err := checker.Run(ctx, p, opt, solver)
			require.Less(t, time.Since(start), 30*time.Second, "the read waited for Timeout")
			if err == nil {
				require.Equal(t, checker.Inconclusive, rep.Verdict.Status, rep.Text(false))
				require.Contains(t, rep.Verdict.Reason, c.want)
			}
		})
	}
}

// TestAnswerBounds: an answer past a bound (nesting, successors, terms,
// line size) is an engine failure naming the bound: inconclusive, one
// line. The bounds are lowered so that the answers stay small.
func TestAnswerBounds(t *testing.T) {
	defer extern.Shutdown()
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	saved := extern.Bounds
	defer func() { extern.Bounds = saved }()
	p := load(t, "nullderef.jl")
	for mode, flag := range map[string]string{"deep": "-engine-max-depth", "many": "-engine-max-successors",
		"terms": "-engine-max-terms", "long": "-engine-max-line"} {
		t.Run(mode, func(t *testing.T) {
			extern.Bounds = extern.Limits{Line: 1 << 19, Depth: 4096, Successors: 100, Terms: 100}
			if mode == "deep" {
				extern.Bounds.Terms = extern.DefaultLimits.Terms
			}
			opt := checker.DefaultOptions()
			opt.Engine = fakeSpec(mode)
			rep, err := checker.Run(context.Background(), p, opt, solver)
			require.NoError(t, err)
			require.Equal(t, checker.Inconclusive, rep.Verdict.Status, rep.Text(false))
			require.Contains(t, rep.Verdict.Reason, "engine failure (bound)")
			require.Contains(t, rep.Verdict.Reason, flag)
			require.NotContains(t, rep.Verdict.Reason, "\n")
			require.Less(t, len(rep.Verdict.Reason), 1000)
		})
	}
}
