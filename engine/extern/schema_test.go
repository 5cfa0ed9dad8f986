package extern_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine/extern"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// schema is the JSON Schema block of docs/PROTOCOL.md §9.
func schema(t *testing.T) map[string]any {
	t.Helper()
	doc, err := os.ReadFile("../../docs/PROTOCOL.md")
	require.NoError(t, err)
	sec := string(doc)[strings.Index(string(doc), "## 9. JSON Schema"):]
	m := regexp.MustCompile("(?s)```json\n(.*?)\n```").FindStringSubmatch(sec)
	require.NotNil(t, m, "no JSON block in PROTOCOL.md §9")
	var s map[string]any
	require.NoError(t, decode([]byte(m[1]), &s))
	return s
}

func decode(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}

// validate checks v against the schema node s: the subset of JSON Schema
// the protocol's schema uses ($ref, type, properties, required,
// additionalProperties, items, minItems, maxItems, enum, const, oneOf,
// minimum, minLength).
func validate(root, s map[string]any, v any, path string) error {
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/$defs/")
		def, ok := root["$defs"].(map[string]any)[name].(map[string]any)
		if !ok {
			return fmt.Errorf("%s: unknown $ref %s", path, ref)
		}
		return validate(root, def, v, path)
	}
	if any_, ok := s["anyOf"].([]any); ok {
		n := 0
		for _, o := range any_ {
			if validate(root, o.(map[string]any), v, path) == nil {
				n++
			}
		}
		if n == 0 {
			return fmt.Errorf("%s: matches none of anyOf", path)
		}
	}
	if one, ok := s["oneOf"].([]any); ok {
		n := 0
		var errs []string
		for _, o := range one {
			if err := validate(root, o.(map[string]any), v, path); err == nil {
				n++
			} else {
				errs = append(errs, err.Error())
			}
		}
		if n != 1 {
			return fmt.Errorf("%s: matches %d of oneOf (want 1): %s", path, n, strings.Join(errs, " | "))
		}
	}
	if c, ok := s["const"]; ok && !same(c, v) {
		return fmt.Errorf("%s: %v is not %v", path, v, c)
	}
	if e, ok := s["enum"].([]any); ok {
		found := false
		for _, x := range e {
			found = found || same(x, v)
		}
		if !found {
			return fmt.Errorf("%s: %v not in %v", path, v, e)
		}
	}
	if ty, ok := s["type"].(string); ok {
		if !hasType(ty, v) {
			return fmt.Errorf("%s: %v is not of type %s", path, v, ty)
		}
	}
	if m, ok := s["minimum"].(json.Number); ok {
		if n, isNum := v.(json.Number); isNum {
			a, _ := n.Float64()
			b, _ := m.Float64()
			if a < b {
				return fmt.Errorf("%s: %v < minimum %v", path, n, m)
			}
		}
	}
	if m, ok := s["minLength"].(json.Number); ok {
		if str, isStr := v.(string); isStr {
			if n, _ := m.Int64(); int64(len(str)) < n {
				return fmt.Errorf("%s: shorter than %d", path, n)
			}
		}
	}
	if obj, ok := v.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		for _, r := range asList(s["required"]) {
			if _, ok := obj[r.(string)]; !ok {
				return fmt.Errorf("%s: missing %s", path, r)
			}
		}
		for k, x := range obj {
			p, ok := props[k].(map[string]any)
			if !ok {
				if ap, set := s["additionalProperties"].(bool); set && !ap {
					return fmt.Errorf("%s: property %s not allowed", path, k)
				}
				continue
			}
			if err := validate(root, p, x, path+"."+k); err != nil {
				return err
			}
		}
	}
	if arr, ok := v.([]any); ok {
		if m, ok := s["minItems"].(json.Number); ok {
			if n, _ := m.Int64(); int64(len(arr)) < n {
				return fmt.Errorf("%s: fewer than %d items", path, n)
			}
		}
		if m, ok := s["maxItems"].(json.Number); ok {
			if n, _ := m.Int64(); int64(len(arr)) > n {
				return fmt.Errorf("%s: more than %d items", path, n)
			}
		}
		if it, ok := s["items"].(map[string]any); ok {
			for i, x := range arr {
				if err := validate(root, it, x, fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func asList(v any) []any { l, _ := v.([]any); return l }

func same(a, b any) bool {
	if x, ok := a.(json.Number); ok {
		y, ok := b.(json.Number)
		return ok && x.String() == y.String()
	}
	return reflect.DeepEqual(a, b)
}

func hasType(ty string, v any) bool {
	switch ty {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		_, err := n.Int64()
		return err == nil
	}
	return false
}

// TestSchemaValidatesASession: every message of a check of the reference
// engine (the requests lockstep writes, the answers the Python GSE
// writes: hello, load, every heap rule including invoke) is valid against
// the schema of PROTOCOL.md, and the schema rejects what it must.
func TestSchemaValidatesASession(t *testing.T) {
	spec := pythonGSE(t)
	root := schema(t)
	var mu sync.Mutex
	type msg struct {
		request bool
		b       []byte
	}
	var msgs []msg
	extern.Trace = func(request bool, b []byte) {
		mu.Lock()
		msgs = append(msgs, msg{request, append([]byte(nil), b...)})
		mu.Unlock()
	}
	defer func() { extern.Trace = nil }()
	extern.Shutdown() // a fresh pool: the session starts with hello
	defer extern.Shutdown()
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	opt := checker.DefaultOptions()
	opt.Engine, opt.K = spec, 2
	for _, f := range []string{"hasnull.jl", "swap.jl"} { // calls, writes, comparisons, null
		rep, err := checker.Run(context.Background(), load(t, f), opt, solver)
		require.NoError(t, err)
		require.Equal(t, checker.Holds, rep.Verdict.Status)
	}
	// Version 2's data: terms, primitive fields read and written, If
	// (sym) and Assume of the engine's own.
	for _, f := range []string{"write_alias.jl", "alias_constrained.jl"} {
		p, err := javalite.LoadFile("../../testdata/data/" + f)
		require.NoError(t, err)
		rep, err := checker.Run(context.Background(), p, opt, solver)
		require.NoError(t, err)
		require.Equal(t, checker.Holds, rep.Verdict.Status, rep.Text(false))
	}
	ops := map[string]int{}
	defs := root["$defs"].(map[string]any)
	for i, m := range msgs {
		var v any
		require.NoError(t, decode(m.b, &v))
		def := defs["answer"].(map[string]any)
		if m.request {
			def = defs["request"].(map[string]any)
		}
		require.NoError(t, validate(root, def, v, fmt.Sprintf("message %d", i)), "%.300s", m.b)
		if op, ok := v.(map[string]any)["op"].(string); ok {
			ops[op]++
		}
	}
	for _, op := range []string{"hello", "load", "field_access", "field_write", "equals_ref", "invoke", "if_sym", "assume"} {
		require.Positive(t, ops[op], "the session has a %s request", op)
	}

	bad := []string{
		`{"id":1,"op":"hello","protocol":2}`,
		`{"id":1,"protocol":2,"name":"x","version":"1","shape":"partition","data_rules":["if_true"]}`,
		`{"id":1,"successors":[{"rule":"Field access (A)","state":{"locs":[]}}]}`,
		`{"id":1,"op":"view","state":{"locs":[],"L":[],"R":[],"phi":{"op":"eq","refs":[1]},"env":[],"mode":"error","k":[],"next":{"stack":0,"input":1,"fresh":2},"steps":0}}`,
		`{"id":1,"op":"view","state":{"locs":[],"L":[],"R":[],"phi":{"op":"true"},"env":[{"ref":1,"bool":true}],"mode":"error","k":[],"next":{"stack":0,"input":1,"fresh":2},"steps":0}}`,
	}
	for _, b := range bad {
		var v any
		require.NoError(t, decode([]byte(b), &v))
		require.Error(t, validate(root, root, v, "bad"), b)
	}
	// An if_sym request without its cond is no request.
	var noCond any
	require.NoError(t, decode([]byte(`{"id":1,"op":"if_sym","state":{"locs":[],"L":[],"R":[],"phi":{"op":"true"},"env":[],"mode":"error","k":[],"next":{"stack":0,"input":1,"fresh":2},"steps":0},"expr":3,"then_sat":true,"else_sat":true}`), &noCond))
	require.Error(t, validate(root, defs["request"].(map[string]any), noCond, "bad"))
	// A hand-made state with every data node.
	good := `{"id":1,"op":"view","state":{"locs":[],"L":[],"R":[],"prim":[[null,{"op":"sym","ref":1,"field":1,"sort":"int"}]],` +
		`"phi":{"op":"lt","args":[{"op":"int","n":0},{"op":"add","args":[{"op":"sym","ref":1,"field":1,"sort":"int"},{"op":"int","n":1}]}]},` +
		`"env":[{"term":{"op":"ite","args":[{"op":"true"},{"op":"int","n":1},{"op":"int","n":2}]}}],"mode":"error","k":[],"next":{"stack":0,"input":1,"fresh":2},"steps":0}}`
	var v any
	require.NoError(t, decode([]byte(good), &v))
	require.NoError(t, validate(root, root, v, "data"))
}
