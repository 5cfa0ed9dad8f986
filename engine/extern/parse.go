package extern

// parse.go reads the messages that carry states (heap-rule and view
// answers, and in Serve the requests) into wire.go's types with
// github.com/goccy/go-json, within the Limits. encoding/json's reflection
// made decoding two thirds of what the protocol cost lockstep per
// message, and a hand-written reader replaced it; on version 2's messages
// (4,938 answers of the Python GSE and the served summary engine on
// testdata/trees and testdata/data) go-json with the bounds' prescan
// takes 31 µs of CPU per answer, the hand-written reader 33 µs and
// encoding/json 77 µs (docs/PROTOCOL.md §11), so the well-kept library
// reads them. Unknown fields are skipped, as encoding/json skips them.

import (
	"fmt"

	gojson "github.com/goccy/go-json"
)

// Limits bound what lockstep reads from an engine process, so that an
// answer can cost neither a crash (a Go stack overflow on a formula nested
// ten million deep) nor unbounded memory or time (a line of gigabytes, a
// million successors). Past a bound the answer is an engine failure of
// kind "bound" naming the bound: inconclusive, never a verdict.
// docs/PROTOCOL.md §3 gives the defaults and their flags.
type Limits struct {
	Line       int // bytes of one answer line (-engine-max-line)
	Depth      int // nesting of JSON objects and arrays in one answer (-engine-max-depth)
	Successors int // successors in one answer (-engine-max-successors)
	Terms      int // formula objects in one answer (-engine-max-terms)
}

// DefaultLimits are far above what an answer of the engines in examples/
// needs (about 25 KB, nesting 12, 7 successors at k = 3 on
// testdata/programs) and far below what exhausts a machine: a formula
// nested as deep as a program may nest (1,000 levels, two JSON levels
// each) fits.
var DefaultLimits = Limits{Line: 32 << 20, Depth: 4096, Successors: 10000, Terms: 1000000}

// Bounds are the limits in force; the CLI sets them from its flags
// before any engine runs.
var Bounds = DefaultLimits

// BoundError is an answer past one of the Limits.
type BoundError struct {
	Flag  string // the flag that sets the bound, "-engine-max-depth"
	What  string // what is bounded, "nesting of objects and arrays"
	Limit int
}

func (e *BoundError) Error() string {
	return fmt.Sprintf("the answer exceeds %s %d (%s)", e.Flag, e.Limit, e.What)
}

// prescan checks an answer against lim before the decoder sees it, in one
// pass over its bytes: the nesting of objects and arrays (so that the
// decoder never recurses deeper than lim.Depth: a formula nested ten
// million deep is a bound, not a Go stack overflow) and the formula
// objects (objects with an "op" key). Malformed JSON is the decoder's to
// report.
func prescan(b []byte, lim *Limits) error {
	depth, terms := 0, 0
	var stack []byte // the open containers, '{' or '['
	key := false     // the next string is an object key
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			start := i + 1
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if key && i-start == 2 && b[start] == 'o' && b[start+1] == 'p' {
				terms++
				if terms > lim.Terms {
					return &BoundError{Flag: "-engine-max-terms", What: "formulas in one answer", Limit: lim.Terms}
				}
			}
			key = false
		case '{', '[':
			depth++
			if depth > lim.Depth {
				return &BoundError{Flag: "-engine-max-depth", What: "nesting of JSON objects and arrays", Limit: lim.Depth}
			}
			stack = append(stack, c)
			key = c == '{'
		case '}', ']':
			depth--
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			key = false
		case ',':
			key = len(stack) > 0 && stack[len(stack)-1] == '{'
		}
	}
	return nil
}

// answer is an engine's answer to a request that carries a state.
type answer struct {
	ID         *int64     `json:"id"`
	Error      *errAnswer `json:"error"`
	Successors *[]jSucc   `json:"successors"`
	State      *jState    `json:"state"`
}

func parseAnswer(b []byte) (*answer, error) {
	return parseAnswerWithin(b, &Bounds)
}

// parseAnswerWithin reads an answer within lim.
func parseAnswerWithin(b []byte, lim *Limits) (*answer, error) {
	if err := prescan(b, lim); err != nil {
		return nil, err
	}
	a := &answer{}
	if err := gojson.Unmarshal(b, a); err != nil {
		return nil, err
	}
	if a.Successors != nil && len(*a.Successors) > lim.Successors {
		return nil, &BoundError{Flag: "-engine-max-successors", What: "successors in one answer", Limit: lim.Successors}
	}
	return a, nil
}

// parseRequest reads a request (Serve): lockstep's own, not bounded.
func parseRequest(b []byte) (*request, error) {
	r := &request{}
	if err := gojson.Unmarshal(b, r); err != nil {
		return nil, err
	}
	return r, nil
}
