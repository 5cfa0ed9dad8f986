package extern_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
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
