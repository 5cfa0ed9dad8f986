package extern

// parse.go reads the messages that carry states (heap-rule and view
// answers, and in Serve the requests) without encoding/json: reflection
// made decoding two thirds of what the protocol cost lockstep per message
// (docs/PERFORMANCE.md). It fills the same types as wire.go's JSON tags
// describe; unknown fields are skipped, as encoding/json skips them.
// Rare messages (hello, load) still go through encoding/json.

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

type parser struct {
	b []byte
	i int
	// lim bounds an answer (nil: a request, from lockstep itself, is not
	// bounded); depth and terms count against it.
	lim          *Limits
	depth, terms int
}

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

// enter counts one level of nesting: the bound keeps the recursion of
// object, array and formula (and the decoder's after them) shallow.
func (p *parser) enter() error {
	p.depth++
	if p.lim != nil && p.depth > p.lim.Depth {
		return &BoundError{Flag: "-engine-max-depth", What: "nesting of JSON objects and arrays", Limit: p.lim.Depth}
	}
	return nil
}

func (p *parser) fail(format string, a ...any) error {
	return fmt.Errorf("at byte %d: %s", p.i, fmt.Sprintf(format, a...))
}

func (p *parser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) peek() byte {
	p.ws()
	if p.i >= len(p.b) {
		return 0
	}
	return p.b[p.i]
}

func (p *parser) expect(c byte) error {
	if p.peek() != c {
		return p.fail("want %q", c)
	}
	p.i++
	return nil
}

// lit consumes a literal (true, false, null).
func (p *parser) lit(s string) bool {
	p.ws()
	if len(p.b)-p.i >= len(s) && string(p.b[p.i:p.i+len(s)]) == s {
		p.i += len(s)
		return true
	}
	return false
}

func (p *parser) null() bool { return p.lit("null") }

func (p *parser) boolean() (bool, error) {
	switch {
	case p.lit("true"):
		return true, nil
	case p.lit("false"):
		return false, nil
	}
	return false, p.fail("want a boolean")
}

// number scans a JSON number and says whether it is an integer.
func (p *parser) number() (text []byte, integer bool, err error) {
	p.ws()
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.b) && p.b[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, false, p.fail("want a number")
	}
	integer = true
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		integer = false
		if digits() == 0 {
			return nil, false, p.fail("want digits after .")
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		integer = false
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, false, p.fail("want an exponent")
		}
	}
	return p.b[start:p.i], integer, nil
}

func (p *parser) int() (int64, error) {
	text, integer, err := p.number()
	if err != nil {
		return 0, err
	}
	if !integer {
		return 0, p.fail("want an integer")
	}
	n, err := strconv.ParseInt(string(text), 10, 64)
	if err != nil {
		return 0, p.fail("integer %s out of range", text)
	}
	return n, nil
}

func (p *parser) int32() (int32, error) {
	n, err := p.int()
	if err != nil {
		return 0, err
	}
	if n != int64(int32(n)) {
		return 0, p.fail("integer %d out of range", n)
	}
	return int32(n), nil
}

func (p *parser) intv() (int, error) {
	n, err := p.int32()
	return int(n), err
}

func (p *parser) str() (string, error) {
	if err := p.expect('"'); err != nil {
		return "", err
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			s := string(p.b[start:p.i])
			p.i++
			return s, nil
		}
		if c == '\\' {
			p.i = start
			return p.escaped()
		}
		if c < 0x20 {
			return "", p.fail("control character in a string")
		}
		p.i++
	}
	return "", p.fail("unterminated string")
}

// escaped reads the rest of a string that has escapes.
func (p *parser) escaped() (string, error) {
	var out []byte
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			if !utf8.Valid(out) {
				return "", p.fail("invalid UTF-8")
			}
			return string(out), nil
		case c == '\\':
			if p.i+1 >= len(p.b) {
				return "", p.fail("unterminated escape")
			}
			e := p.b[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) && p.i+1 < len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
					p.i += 2
					r2, err := p.hex4()
					if err != nil {
						return "", err
					}
					r = utf16.DecodeRune(r, r2)
				}
				out = utf8.AppendRune(out, r)
			default:
				return "", p.fail("bad escape \\%c", e)
			}
		case c < 0x20:
			return "", p.fail("control character in a string")
		default:
			out = append(out, c)
			p.i++
		}
	}
	return "", p.fail("unterminated string")
}

func (p *parser) hex4() (rune, error) {
	if p.i+4 > len(p.b) {
		return 0, p.fail("short \\u escape")
	}
	n, err := strconv.ParseUint(string(p.b[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, p.fail("bad \\u escape")
	}
	p.i += 4
	return rune(n), nil
}

// object calls field for each key; field reads the value.
func (p *parser) object(field func(key string) error) error {
	if err := p.expect('{'); err != nil {
		return err
	}
	if err := p.enter(); err != nil {
		return err
	}
	defer func() { p.depth-- }()
	if p.peek() == '}' {
		p.i++
		return nil
	}
	for {
		k, err := p.str()
		if err != nil {
			return err
		}
		if err := p.expect(':'); err != nil {
			return err
		}
		if err := field(k); err != nil {
			if be, ok := err.(*BoundError); ok {
				return be // one line, not a path as deep as the answer
			}
			if p.depth > 16 {
				return err // the path of keys so far is long enough
			}
			return fmt.Errorf("%s: %w", k, err)
		}
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			return nil
		default:
			return p.fail("want , or }")
		}
	}
}

func (p *parser) array(item func() error) error {
	if err := p.expect('['); err != nil {
		return err
	}
	if err := p.enter(); err != nil {
		return err
	}
	defer func() { p.depth-- }()
	if p.peek() == ']' {
		p.i++
		return nil
	}
	for {
		if err := item(); err != nil {
			return err
		}
		switch p.peek() {
		case ',':
			p.i++
		case ']':
			p.i++
			return nil
		default:
			return p.fail("want , or ]")
		}
	}
}

// skip reads any value.
func (p *parser) skip() error {
	switch c := p.peek(); {
	case c == '{':
		return p.object(func(string) error { return p.skip() })
	case c == '[':
		return p.array(p.skip)
	case c == '"':
		_, err := p.str()
		return err
	case c == 't' || c == 'f':
		_, err := p.boolean()
		return err
	case c == 'n':
		if p.null() {
			return nil
		}
	case c == '-' || (c >= '0' && c <= '9'):
		_, _, err := p.number()
		return err
	}
	return p.fail("want a value")
}

func (p *parser) end() error {
	p.ws()
	if p.i != len(p.b) {
		return p.fail("data after the message")
	}
	return nil
}

// ---- the protocol's types ----

func (p *parser) formula() (*jFormula, error) {
	if p.null() {
		return nil, nil
	}
	p.terms++
	if p.lim != nil && p.terms > p.lim.Terms {
		return nil, &BoundError{Flag: "-engine-max-terms", What: "formulas in one answer", Limit: p.lim.Terms}
	}
	f := &jFormula{}
	err := p.object(func(k string) error {
		var err error
		switch k {
		case "op":
			f.Op, err = p.str()
		case "refs":
			f.Refs = []int32{}
			err = p.array(func() error {
				r, err := p.int32()
				f.Refs = append(f.Refs, r)
				return err
			})
		case "args":
			f.Args = []*jFormula{}
			err = p.array(func() error {
				a, err := p.formula()
				f.Args = append(f.Args, a)
				return err
			})
		case "n":
			var n int64
			n, err = p.int()
			f.N = &n
		case "ref":
			var r int32
			r, err = p.int32()
			f.Ref = &r
		case "field":
			var n int
			n, err = p.intv()
			f.Field = &n
		case "sort":
			f.Sort, err = p.str()
		case "i":
			var n int
			n, err = p.intv()
			f.I = &n
		default:
			err = p.skip()
		}
		return err
	})
	return f, err
}

func (p *parser) value() (*jValue, error) {
	if p.null() {
		return nil, nil
	}
	v := &jValue{}
	err := p.object(func(k string) error {
		var err error
		switch k {
		case "ref":
			var r int32
			r, err = p.int32()
			v.Ref = &r
		case "bool":
			var b bool
			b, err = p.boolean()
			v.Bool = &b
		case "undef":
			v.Undef, err = p.boolean()
		case "term":
			v.Term, err = p.formula()
		default:
			err = p.skip()
		}
		return err
	})
	return v, err
}

func (p *parser) values() ([]jValue, error) {
	out := []jValue{}
	err := p.array(func() error {
		v, err := p.value()
		if err == nil && v == nil {
			err = p.fail("null value")
		}
		if err == nil {
			out = append(out, *v)
		}
		return err
	})
	return out, err
}

func (p *parser) state() (*jState, error) {
	if p.null() {
		return nil, nil
	}
	s := &jState{}
	err := p.object(func(k string) error {
		var err error
		switch k {
		case "locs":
			s.Locs = []jLoc{}
			err = p.array(func() error {
				var l jLoc
				err := p.object(func(k string) error {
					var err error
					switch k {
					case "class":
						l.Class, err = p.str()
					case "input":
						l.Input, err = p.boolean()
					case "depth":
						l.Depth, err = p.intv()
					case "identity":
						l.Identity, err = p.int32()
					case "exists":
						l.Exists, err = p.formula()
					case "unresolved":
						l.Unresolved, err = p.boolean()
					case "may_be_null":
						l.MayBeNull, err = p.boolean()
					case "symbolic":
						l.Symbolic, err = p.boolean()
					default:
						err = p.skip()
					}
					return err
				})
				s.Locs = append(s.Locs, l)
				return err
			})
		case "L":
			s.L = []jBinding{}
			err = p.array(func() error {
				var b jBinding
				err := p.object(func(k string) error {
					switch k {
					case "ref":
						var err error
						b.Ref, err = p.int32()
						return err
					case "gvs":
						b.GVS = []jEntry{}
						return p.array(func() error {
							var e jEntry
							err := p.object(func(k string) error {
								var err error
								switch k {
								case "guard":
									e.Guard, err = p.formula()
								case "loc":
									e.Loc, err = p.int32()
								default:
									err = p.skip()
								}
								return err
							})
							b.GVS = append(b.GVS, e)
							return err
						})
					}
					return p.skip()
				})
				s.L = append(s.L, b)
				return err
			})
		case "R":
			s.R = [][]int32{}
			err = p.array(func() error {
				row := []int32{}
				err := p.array(func() error {
					r, err := p.int32()
					row = append(row, r)
					return err
				})
				s.R = append(s.R, row)
				return err
			})
		case "prim":
			s.Prim = [][]*jFormula{}
			err = p.array(func() error {
				row := []*jFormula{}
				err := p.array(func() error {
					f, err := p.formula()
					row = append(row, f)
					return err
				})
				s.Prim = append(s.Prim, row)
				return err
			})
		case "formulas":
			s.Formulas = []*jFormula{}
			err = p.array(func() error {
				f, err := p.formula()
				s.Formulas = append(s.Formulas, f)
				return err
			})
		case "phi":
			s.Phi, err = p.formula()
		case "env":
			s.Env, err = p.values()
		case "mode":
			s.Mode, err = p.str()
		case "expr":
			var n int
			n, err = p.intv()
			s.Expr = &n
		case "val":
			s.Val, err = p.value()
		case "k":
			s.K = []jFrame{}
			err = p.array(func() error {
				var f jFrame
				err := p.object(func(k string) error {
					var err error
					switch k {
					case "kind":
						f.Kind, err = p.str()
					case "expr":
						var n int
						n, err = p.intv()
						f.Expr = &n
					case "idx":
						f.Idx, err = p.intv()
					case "val":
						f.Val, err = p.value()
					case "env":
						f.Env, err = p.values()
					default:
						err = p.skip()
					}
					return err
				})
				s.K = append(s.K, f)
				return err
			})
		case "next":
			err = p.object(func(k string) error {
				var err error
				switch k {
				case "stack":
					s.Next.Stack, err = p.int32()
				case "input":
					s.Next.Input, err = p.int32()
				case "fresh":
					s.Next.Fresh, err = p.int32()
				default:
					err = p.skip()
				}
				return err
			})
		case "steps":
			s.Steps, err = p.intv()
		default:
			err = p.skip()
		}
		return err
	})
	return s, err
}

// answer is an engine's answer to a request that carries a state.
type answer struct {
	ID         *int64
	Error      *errAnswer
	Successors *[]jSucc
	State      *jState
}

func parseAnswer(b []byte) (*answer, error) {
	return parseAnswerWithin(b, &Bounds)
}

// parseAnswerWithin reads an answer within lim.
func parseAnswerWithin(b []byte, lim *Limits) (*answer, error) {
	p := &parser{b: b, lim: lim}
	a := &answer{}
	err := p.object(func(k string) error {
		var err error
		switch k {
		case "id":
			if p.null() {
				return nil
			}
			var n int64
			n, err = p.int()
			a.ID = &n
		case "error":
			if p.null() {
				return nil
			}
			a.Error = &errAnswer{}
			err = p.object(func(k string) error {
				var err error
				switch k {
				case "kind":
					a.Error.Kind, err = p.str()
				case "message":
					a.Error.Message, err = p.str()
				default:
					err = p.skip()
				}
				return err
			})
		case "successors":
			if p.null() {
				return nil
			}
			list := []jSucc{}
			err = p.array(func() error {
				if p.lim != nil && len(list) >= p.lim.Successors {
					return &BoundError{Flag: "-engine-max-successors", What: "successors in one answer", Limit: p.lim.Successors}
				}
				var sc jSucc
				err := p.object(func(k string) error {
					var err error
					switch k {
					case "rule":
						sc.Rule, err = p.str()
					case "state":
						sc.State, err = p.state()
					case "enter":
						sc.Enter, err = p.boolean()
					default:
						err = p.skip()
					}
					return err
				})
				list = append(list, sc)
				return err
			})
			a.Successors = &list
		case "state":
			a.State, err = p.state()
		default:
			err = p.skip()
		}
		return err
	})
	if err == nil {
		err = p.end()
	}
	return a, err
}

// parseRequest reads a request (Serve); full is false when it has fields
// this parser leaves to encoding/json (the program and semantics of a
// load).
func parseRequest(b []byte) (req *request, full bool, err error) {
	p := &parser{b: b}
	r := &request{}
	full = true
	err = p.object(func(k string) error {
		var err error
		switch k {
		case "id":
			if p.null() {
				return nil
			}
			var n int64
			n, err = p.int()
			r.ID = &n
		case "op":
			r.Op, err = p.str()
		case "protocol":
			r.Protocol, err = p.intv()
		case "variant":
			r.Variant, err = p.str()
		case "k":
			r.K, err = p.intv()
		case "state":
			r.State, err = p.state()
		case "ref":
			r.Ref, err = p.int32()
		case "var":
			r.Var, err = p.intv()
		case "left":
			r.Left, err = p.int32()
		case "right":
			r.Right, err = p.int32()
		case "receiver":
			r.Receiver, err = p.int32()
		case "args":
			r.Args, err = p.values()
		default:
			full = false
			err = p.skip()
		}
		return err
	})
	if err == nil {
		err = p.end()
	}
	return r, full, err
}
