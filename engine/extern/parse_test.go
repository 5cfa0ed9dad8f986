package extern

import (
	"bufio"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// answerJSON is answer as encoding/json reads it.
type answerJSON struct {
	ID         *int64     `json:"id"`
	Error      *errAnswer `json:"error"`
	Successors *[]jSucc   `json:"successors"`
	State      *jState    `json:"state"`
}

// TestParserAgreesWithEncodingJSON: parse.go reads what encoding/json
// reads, on states of a real exploration and on hand-written corner cases
// (escapes, unknown fields, whitespace, data nodes).
func TestParserAgreesWithEncodingJSON(t *testing.T) {
	p, err := javalite.LoadFile("../../testdata/programs/swap.jl")
	require.NoError(t, err)
	var lines []string
	s := machine.Initial(p)
	eng := gseLike{}
	for i := 0; i < 40 && !s.Terminal(); i++ {
		succ, err := machine.Step(s.Clone(), eng, machine.Options{})
		require.NoError(t, err)
		var list []jSucc
		for _, sc := range succ {
			list = append(list, jSucc{Rule: sc.Rule, State: encState(sc.S)})
		}
		b, err := json.Marshal(map[string]any{"id": i, "successors": list, "state": encState(s)})
		require.NoError(t, err)
		lines = append(lines, string(b))
		s = succ[len(succ)-1].S
	}
	lines = append(lines,
		`{"id":1,"successors":[{"rule":"Field access (A\u2032) / \ud83d\ude00 \"x\"\n","state":null,"enter":true,"extra":[1,2.5e3,{"a":null}]}]}`,
		` { "id" : 2 , "error" : { "kind" : "rule" , "message" : "a\\b\/c\t" , "x" : false } } `,
		`{"id":3,"state":{"locs":[],"L":[],"R":[],"prim":[[null,{"op":"sym","ref":1,"field":0,"sort":"int"}]],"formulas":[{"op":"ite","args":[{"op":"true"},{"op":"int","n":-7},{"op":"int","n":2}]}],"phi":{"op":"formula","i":0},"env":[{"term":{"op":"int","n":1}},{"undef":true}],"mode":"error","k":[],"next":{"stack":0,"input":1,"fresh":2},"steps":0}}`,
	)
	for _, l := range lines {
		a, err := parseAnswer([]byte(l))
		require.NoError(t, err, l)
		var want answerJSON
		require.NoError(t, json.Unmarshal([]byte(l), &want))
		require.Equal(t, want.ID, a.ID)
		require.Equal(t, want.Error, a.Error)
		require.Equal(t, want.State, a.State)
		if want.Successors == nil {
			require.Nil(t, a.Successors)
		} else {
			require.Equal(t, len(*want.Successors), len(*a.Successors))
			for i := range *want.Successors {
				require.Equal(t, (*want.Successors)[i], (*a.Successors)[i])
			}
		}
	}
	for _, bad := range []string{``, `{`, `{"id":1,}`, `{"id":1.5}`, `{"id":1} x`, `{"id":"1"}`, `{"state":{"R":[[1,]]}}`, "{\"a\":\"\x01\"}", `{"a":"\x"}`, `[1]`} {
		_, err := parseAnswer([]byte(bad))
		require.Error(t, err, bad)
	}
}

// gseLike steps the machine with GSE's rules without importing gse (an
// import cycle through engine/builtin in this internal test): the
// trivial engine whose every value set is a singleton and that reads an
// uninitialized field as null.
type gseLike struct{}

func (gseLike) Name() string             { return "g" }
func (gseLike) Options() machine.Options { return machine.Options{} }
func (gseLike) FieldAccess(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
	l := s.Get(r)[0].Loc
	if l == machine.LNull {
		s.SetError()
		return []machine.Succ{{S: s, Rule: machine.RuleFieldANull}}, nil
	}
	if s.Get(s.Field(l, fa.Field))[0].Loc == machine.LUn {
		rn := s.FreshR()
		s.Set(rn, machine.Single(machine.LNull))
		s.SetField(l, fa.Field, rn)
	}
	r2 := s.StackR()
	s.Set(r2, s.Get(s.Field(l, fa.Field)))
	s.SetValue(machine.RefVal(r2), k)
	return []machine.Succ{{S: s, Rule: machine.RuleFieldA}}, nil
}
func (gseLike) FieldWrite(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont) ([]machine.Succ, error) {
	s.SetValue(machine.RefVal(r), k)
	return []machine.Succ{{S: s, Rule: machine.RuleWriteW}}, nil
}
func (gseLike) EqualsRef(s *machine.State, r0, r1 machine.Ref, eq *javalite.Equals, k *machine.Kont) ([]machine.Succ, error) {
	s.SetValue(machine.BoolVal(s.Get(r0)[0].Loc == s.Get(r1)[0].Loc), k)
	return []machine.Succ{{S: s, Rule: machine.RuleEqualsE}}, nil
}
func (gseLike) Invoke(s *machine.State, r machine.Ref, args []machine.Value, c *javalite.Call, k *machine.Kont) ([]machine.Succ, error) {
	return []machine.Succ{machine.EnterMethod(s, r, args, c, k, machine.Options{})}, nil
}

// FuzzParseAnswer: the answer reader (readLine, then the parser) never
// panics nor overflows its stack, what it accepts encoding/json accepts
// too, and what it accepts is within the bounds: checked with the default
// Limits and with small ones, which the seeds exceed in every way (a
// nesting of 10^4 objects, a formula of 5,000 terms, long lines, many
// successors; TestAnswerBounds has a process send such answers). `go test
// -fuzz FuzzParseAnswer -fuzzminimizetime 1s ./engine/extern` runs it;
// make test runs the seeds.
func FuzzParseAnswer(f *testing.F) {
	f.Add(`{"id":1,"successors":[{"rule":"A","state":{"locs":[],"L":[],"R":[[1]],"phi":{"op":"true"},"env":[],"mode":"error","k":[],"next":{"stack":0,"input":1,"fresh":2},"steps":0}}]}`)
	f.Add(`{"id":2,"error":{"kind":"rule","message":"\u00e9"}}`)
	deep := func(n int) string {
		return `{"id":3,"successors":[{"rule":"A","state":{"phi":` + strings.Repeat(`{"op":"not","args":[`, n) + `{"op":"true"}` + strings.Repeat(`]}`, n) + `}}]}`
	}
	f.Add(deep(3))
	f.Add(deep(5000)) // 10,004 levels, past DefaultLimits.Depth
	f.Add(`{"id":4,"x":` + strings.Repeat(`[`, 10000) + strings.Repeat(`]`, 10000) + `}`)
	f.Add(`{"id":5,"x":` + strings.Repeat(`[`, 10000)) // never closed
	f.Add(`{"id":6,"successors":[{"rule":"A","state":{"phi":{"op":"and","args":[` + strings.Repeat(`{"op":"true"},`, 5000) + `{"op":"true"}]}}}]}`)
	f.Add(`{"id":7,"successors":[` + strings.Repeat(`{"rule":"A","state":null},`, 2000) + `{"rule":"A"}]}`)
	f.Add(`{"id":8,"pad":"` + strings.Repeat("x", 1<<16) + `"}`)
	small := Limits{Line: 256, Depth: 8, Successors: 2, Terms: 16}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lim := range []Limits{DefaultLimits, small} {
			line, err := readLine(bufio.NewReaderSize(strings.NewReader(s+"\n"), 16), lim.Line)
			if err != nil {
				var be *BoundError
				if !errors.As(err, &be) || len(s)+1 <= lim.Line {
					t.Fatalf("readLine: %v", err)
				}
				continue
			}
			if len(line) > lim.Line {
				t.Fatalf("a line of %d bytes read within %d", len(line), lim.Line)
			}
			a, err := parseAnswerWithin(line, &lim)
			if err != nil {
				continue
			}
			if !json.Valid(line) {
				t.Fatalf("parser accepts invalid JSON %q", s)
			}
			if d := jsonDepth(line); d > lim.Depth {
				t.Fatalf("an answer nested %d deep accepted within %d", d, lim.Depth)
			}
			if a.Successors != nil && len(*a.Successors) > lim.Successors {
				t.Fatalf("%d successors accepted within %d", len(*a.Successors), lim.Successors)
			}
		}
	})
}

// jsonDepth is the nesting of objects and arrays of valid JSON.
func jsonDepth(b []byte) int {
	d, max, in, esc := 0, 0, false, false
	for _, c := range b {
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case in:
		case c == '{' || c == '[':
			d++
			if d > max {
				max = d
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return max
}

// TestWriteDeadline: a process that stops reading its input cannot block
// lockstep on a request larger than the pipe's buffer: the write times
// out, as a read does.
func TestWriteDeadline(t *testing.T) {
	saved := Timeout
	Timeout = 300 * time.Millisecond
	defer func() { Timeout = saved }()
	p, err := start("sleep 30", []string{"sleep", "30"})
	require.NoError(t, err)
	big := strings.Repeat("x", 4<<20)
	_, _, err = p.call(nil, map[string]any{"op": "view", "pad": big})
	var f *Failure
	require.ErrorAs(t, err, &f)
	require.Equal(t, "timeout", f.Kind)
	require.Contains(t, f.Msg, "did not read")
}

// TestPrescanBounds: an answer past a bound is a BoundError naming its
// flag, found before the decoder recurses: nesting, formula objects (an
// "op" key, not an "op" inside a string), successors.
func TestPrescanBounds(t *testing.T) {
	lim := Limits{Line: 1 << 20, Depth: 8, Successors: 2, Terms: 3}
	var be *BoundError
	deep := `{"id":1,"state":{"phi":` + strings.Repeat(`{"op":"not","args":[`, 50) + `{"op":"true"}` + strings.Repeat(`]}`, 50) + `}}`
	_, err := parseAnswerWithin([]byte(deep), &lim)
	require.ErrorAs(t, err, &be)
	require.Equal(t, "-engine-max-depth", be.Flag)

	terms := `{"id":1,"state":{"formulas":[{"op":"true"},{"op":"true"},{"op":"true"},{"op":"false"}]}}`
	_, err = parseAnswerWithin([]byte(terms), &lim)
	require.ErrorAs(t, err, &be)
	require.Equal(t, "-engine-max-terms", be.Flag)
	inString := `{"id":1,"error":{"kind":"rule","message":"op op \"op\" op"},"x":["op","op","op","op"]}`
	_, err = parseAnswerWithin([]byte(inString), &lim)
	require.NoError(t, err, "an \"op\" that is no key is no formula")

	succ := `{"id":1,"successors":[{"rule":"A"},{"rule":"A"},{"rule":"A"}]}`
	_, err = parseAnswerWithin([]byte(succ), &lim)
	require.ErrorAs(t, err, &be)
	require.Equal(t, "-engine-max-successors", be.Flag)
	_, err = parseAnswerWithin([]byte(succ), &DefaultLimits)
	require.NoError(t, err)
}
