package javalite

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Parsing runs in two passes. The reader turns the text into a tree of
// S-expressions (atoms and bracketed lists), reporting bad tokens and
// unbalanced brackets. Only when that succeeds does the second pass map the
// tree onto the grammar of RULES.md §1. The split gives cheap, cascade-free
// error recovery: once the bracket structure is known, a malformed class,
// method or expression is a single subtree that can be reported and skipped
// while its siblings are still checked. When the brackets themselves are
// wrong, the structure is unknown and any further message would be a guess,
// so parsing stops there.

// The limits on input (see the package doc). MaxNesting bounds the bracket
// depth: the later passes recurse over the tree, so the bound keeps hostile
// input (a fuzzer's million open parentheses) from exhausting the stack;
// real programs stay far below it. MaxInputSize bounds the text: Parse
// refuses more, and LoadFile never reads more.
const (
	MaxNesting   = 1000
	MaxInputSize = 16 << 20 // 16 MiB
)

// maxNesting is the bound the reader applies.
const maxNesting = MaxNesting

// keywords cannot be used as names; `this` is allowed where a variable is.
var keywords = map[string]bool{
	"class": true, "new": true, "if": true, "else": true, "var": true, "in": true,
	"begin": true, "null": true, "true": true, "false": true, "bool": true, "this": true,
	"int": true, "assume": true,
}

// tokKind is the kind of an atom or list delimiter.
type tokKind uint8

const (
	tIdent  tokKind = iota // identifiers and keywords
	tDollar                // $
	tAt                    // @
	tAssign                // :=
	tEq                    // =
	tInt                   // integer literal -?[0-9]+ (PRIMITIVES.md §1)
	tPlus                  // +
	tMinus                 // -
	tLt                    // <
	tLe                    // <=
	tLParen
	tRParen
	tLBrack
	tRBrack
)

var tokText = [...]string{tIdent: "identifier", tDollar: "$", tAt: "@", tAssign: ":=", tEq: "=",
	tInt: "integer", tPlus: "+", tMinus: "-", tLt: "<", tLe: "<=",
	tLParen: "(", tRParen: ")", tLBrack: "[", tRBrack: "]"}

// sexp is a node of the reader's tree: an atom, or a list delimited by
// parentheses or, where the grammar allows it, square brackets.
type sexp struct {
	pos     Pos
	list    bool
	bracket bool    // list delimited by [ ]
	tok     tokKind // for atoms
	text    string  // for atoms
	items   []*sexp // for lists
}

func (s *sexp) isIdent() bool { return !s.list && s.tok == tIdent }

// isKeyword reports whether s is the atom kw.
func (s *sexp) isKeyword(kw string) bool { return s.isIdent() && s.text == kw }

// isSym reports whether s is the operator atom t.
func (s *sexp) isSym(t tokKind) bool { return !s.list && s.tok == t }

// describe names s for an error message.
func (s *sexp) describe() string {
	switch {
	case s.bracket:
		return "`[...]`"
	case s.list && len(s.items) == 0:
		return "`()`"
	case s.list:
		return "`(...)`"
	case s.tok == tIdent && keywords[s.text]:
		return "keyword `" + s.text + "`"
	case s.tok == tIdent || s.tok == tInt:
		return "`" + s.text + "`"
	}
	return "`" + tokText[s.tok] + "`"
}

// reader is the first pass: lexing and bracket matching.
type reader struct {
	errorSink
	file      string
	src       []byte
	off       int
	line, col int
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// isDelim reports whether c ends a run of bad characters: the next token or
// whitespace starts there.
func isDelim(c byte) bool {
	return isSpace(c) || isLetter(c) || isDigit(c) || strings.IndexByte("()[]$@:=;+-<", c) >= 0
}

func (r *reader) pos() Pos { return Pos{File: r.file, Line: r.line, Col: r.col} }

// advance moves past one byte, keeping line and column current.
func (r *reader) advance() {
	if r.src[r.off] == '\n' {
		r.line++
		r.col = 1
	} else {
		r.col++
	}
	r.off++
}

// next returns the next token as an atom (delimiters are atoms too, with
// tok set), or nil at the end of input. Bad tokens are reported and skipped.
func (r *reader) next() *sexp {
	for r.off < len(r.src) {
		c := r.src[r.off]
		pos := r.pos()
		switch {
		case isSpace(c):
			r.advance()
		case c == ';':
			for r.off < len(r.src) && r.src[r.off] != '\n' {
				r.advance()
			}
		case isLetter(c) || isDigit(c) || c == '-' && r.off+1 < len(r.src) && isDigit(r.src[r.off+1]):
			// A - directly before a digit starts a negative literal; the
			// canonical form writes the operator with a space after it.
			start := r.off
			r.advance()
			for r.off < len(r.src) && (isLetter(r.src[r.off]) || isDigit(r.src[r.off])) {
				r.advance()
			}
			text := string(r.src[start:r.off])
			if !isLetter(c) {
				if strings.IndexFunc(text[1:], func(c rune) bool { return c < '0' || c > '9' }) < 0 {
					// The range is the parser's to check, so that an
					// out-of-range literal is one error in one subtree.
					return &sexp{pos: pos, tok: tInt, text: text}
				}
				if c == '-' {
					r.errorf(pos, "invalid integer literal `%s`: a literal is -?[0-9]+", text)
				} else {
					r.errorf(pos, "invalid identifier `%s`: an identifier starts with a letter or _", text)
				}
				continue
			}
			return &sexp{pos: pos, tok: tIdent, text: text}
		case c == '<':
			r.advance()
			if r.off < len(r.src) && r.src[r.off] == '=' {
				r.advance()
				return &sexp{pos: pos, tok: tLe}
			}
			return &sexp{pos: pos, tok: tLt}
		case c == ':':
			r.advance()
			if r.off < len(r.src) && r.src[r.off] == '=' {
				r.advance()
				return &sexp{pos: pos, tok: tAssign}
			}
			r.errorf(pos, "unexpected `:` (assignment is written `:=`)")
		default:
			if k := strings.IndexByte("()[]$@=+-", c); k >= 0 {
				r.advance()
				return &sexp{pos: pos, tok: [...]tokKind{tLParen, tRParen, tLBrack, tRBrack, tDollar, tAt, tEq, tPlus, tMinus}[k]}
			}
			// A run of characters that start no token is one error, not one
			// per byte.
			start := r.off
			for r.off < len(r.src) && !isDelim(r.src[r.off]) {
				r.advance()
			}
			bad := r.src[start:r.off]
			r.errorf(pos, "unexpected character%s %q", plural(utf8.RuneCount(bad)), bad)
		}
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// read builds the S-expression tree of the whole input: the top-level forms
// in order. It reports every bad token and bracket error it finds.
func (r *reader) read() []*sexp {
	// An explicit stack of open lists instead of recursion, so that input
	// nested beyond maxNesting can still be read to the end and checked
	// for further errors without growing the Go stack.
	root := &sexp{list: true}
	stack := []*sexp{root}
	tooDeep := false
	for {
		t := r.next()
		if t == nil {
			break
		}
		top := stack[len(stack)-1]
		switch t.tok {
		case tLParen, tLBrack:
			l := &sexp{pos: t.pos, list: true, bracket: t.tok == tLBrack}
			top.items = append(top.items, l)
			if len(stack) > maxNesting && !tooDeep {
				r.errorf(t.pos, "brackets nested more than %d deep", maxNesting)
				tooDeep = true
			}
			stack = append(stack, l)
		case tRParen, tRBrack:
			if len(stack) == 1 {
				r.errorf(t.pos, "unexpected `%s` with no matching opening bracket", tokText[t.tok])
				continue
			}
			if (t.tok == tRBrack) != top.bracket {
				open := "("
				if top.bracket {
					open = "["
				}
				r.errorf(t.pos, "`%s` does not match `%s` at %d:%d", tokText[t.tok], open, top.pos.Line, top.pos.Col)
			}
			stack = stack[:len(stack)-1]
		default:
			top.items = append(top.items, t)
		}
	}
	// At the end of input every bracket still on the stack is unclosed. One
	// message is enough, at the innermost one: in a truncated file that is
	// where the text stops making sense, and when a single ) was forgotten
	// it is the only one (the later )s shift outwards).
	if n := len(stack) - 1; n > 0 {
		l := stack[n]
		open, close := "(", ")"
		if l.bracket {
			open, close = "[", "]"
		}
		more := ""
		if n > 1 {
			more = fmt.Sprintf(" (and %d enclosing bracket%s)", n-1, plural(n-1))
		}
		r.errorf(l.pos, "unclosed `%s`: end of input reached before its `%s`%s", open, close, more)
	}
	return root.items
}

// parser is the second pass: grammar of RULES.md §1 over the reader's tree.
type parser struct {
	errorSink
	file string
}

// Parse reads a Javalite program in the S-expression syntax of RULES.md §1.
// file names the source in positions. The result carries positions only;
// Check resolves names and types. On any syntax error Parse returns nil and
// an ErrorList with every error it found.
func Parse(file string, src []byte) (*Program, error) {
	if len(src) > MaxInputSize {
		// Report where the limit is crossed; counting lines up to there
		// is the only pass over the oversized text.
		r := &reader{file: file, src: src[:MaxInputSize], line: 1, col: 1}
		for r.off < len(r.src) {
			r.advance()
		}
		r.errorf(r.pos(), "input larger than the limit of %d bytes (16 MiB)", MaxInputSize)
		return nil, r.errs.err()
	}
	r := &reader{file: file, src: src, line: 1, col: 1}
	forms := r.read()
	if len(r.errs) > 0 {
		return nil, r.errs.err()
	}
	p := &parser{file: file}
	var prog *Program
	switch {
	case len(forms) == 0:
		p.errorf(Pos{File: file, Line: 1, Col: 1}, "empty input: expected a program ((class ...) (C m))")
	default:
		prog = p.program(forms[0])
		for _, extra := range forms[1:] {
			p.errorf(extra.pos, "unexpected %s after the end of the program", extra.describe())
		}
	}
	if len(p.errs) > 0 {
		return nil, p.errs.err()
	}
	return prog, nil
}

// program parses P ::= (μ (C m)).
func (p *parser) program(s *sexp) *Program {
	if !s.list || s.bracket || len(s.items) != 2 || !s.items[0].list || s.items[0].bracket {
		p.errorf(s.pos, "a program has the form ((class ...) (C m)), found %s", s.describe())
		return nil
	}
	prog := &Program{File: p.file}
	for _, c := range s.items[0].items {
		if cl := p.class(c); cl != nil {
			prog.Classes = append(prog.Classes, cl)
		}
	}
	e := s.items[1]
	prog.EntryPos = e.pos
	if !e.list || e.bracket || len(e.items) != 2 {
		p.errorf(e.pos, "the entry point has the form (C m), found %s", e.describe())
		return prog
	}
	prog.EntryClass, _ = p.name(e.items[0], "an entry class name")
	prog.EntryMethod, _ = p.name(e.items[1], "an entry method name")
	return prog
}

// class parses CL ::= (class C ([T f] ...) (M ...)).
func (p *parser) class(s *sexp) *Class {
	const form = "(class C ([T f] ...) (M ...))"
	if !s.list || s.bracket || len(s.items) == 0 || !s.items[0].isKeyword("class") {
		p.errorf(s.pos, "expected a class declaration %s, found %s", form, s.describe())
		return nil
	}
	if len(s.items) != 4 {
		p.errorf(s.pos, "a class declaration has the form %s", form)
		return nil
	}
	cl := &Class{Pos: s.pos}
	cl.Name, _ = p.name(s.items[1], "a class name")
	if fs := s.items[2]; !fs.list || fs.bracket {
		p.errorf(fs.pos, "expected the field list ([T f] ...), found %s", fs.describe())
	} else {
		for _, f := range fs.items {
			if fd := p.field(f); fd != nil {
				cl.Fields = append(cl.Fields, fd)
			}
		}
	}
	if ms := s.items[3]; !ms.list || ms.bracket {
		p.errorf(ms.pos, "expected the method list (M ...), found %s", ms.describe())
	} else {
		for _, m := range ms.items {
			if md := p.method(m); md != nil {
				cl.Methods = append(cl.Methods, md)
			}
		}
	}
	return cl
}

// field parses [T f]: fields of any type, bool and int included
// (PRIMITIVES.md §1).
func (p *parser) field(s *sexp) *Field {
	if !s.bracket || len(s.items) != 2 {
		p.errorf(s.pos, "a field declaration has the form [T f], found %s", s.describe())
		return nil
	}
	f := &Field{Pos: s.pos, Type: p.typeName(s.items[0])}
	f.Name, _ = p.name(s.items[1], "a field name")
	return f
}

// method parses M ::= (T m [T x] ... e): zero or more parameters
// (PRIMITIVES.md §1).
func (p *parser) method(s *sexp) *Method {
	const form = "(T m [T x] ... e)"
	if !s.list || s.bracket {
		p.errorf(s.pos, "expected a method declaration %s, found %s", form, s.describe())
		return nil
	}
	n := len(s.items)
	if n < 3 {
		p.errorf(s.pos, "a method declaration has the form %s", form)
		return nil
	}
	params := s.items[2 : n-1]
	for _, par := range params {
		if !par.bracket {
			p.errorf(s.pos, "a method declaration has the form %s", form)
			return nil
		}
	}
	if s.items[n-1].bracket {
		p.errorf(s.pos, "method has no body: %s", form)
		return nil
	}
	m := &Method{Pos: s.pos}
	m.Ret = p.typeName(s.items[0])
	m.Name, _ = p.name(s.items[1], "a method name")
	for _, par := range params {
		if len(par.items) != 2 {
			p.errorf(par.pos, "a parameter has the form [T x]")
			continue
		}
		// `this` is syntactically a variable; Check rejects it as a
		// parameter name with a clearer message.
		name, _ := p.varName(par.items[1], "a parameter name")
		m.Params = append(m.Params, &Param{Pos: par.pos, Type: p.typeName(par.items[0]), Name: name})
	}
	m.Body = p.expr(s.items[n-1])
	return m
}

// typeName parses T ::= bool | int | C.
func (p *parser) typeName(s *sexp) TypeName {
	if s.isKeyword("bool") || s.isKeyword("int") {
		return TypeName{Pos: s.pos, Name: s.text}
	}
	name, _ := p.name(s, "a type (bool, int or a class name)")
	return TypeName{Pos: s.pos, Name: name}
}

// name parses an identifier that is not a keyword.
func (p *parser) name(s *sexp, what string) (string, bool) {
	if !s.isIdent() || keywords[s.text] {
		p.errorf(s.pos, "expected %s, found %s", what, s.describe())
		return "", false
	}
	return s.text, true
}

// varName parses x ::= this | id.
func (p *parser) varName(s *sexp, what string) (string, bool) {
	if s.isKeyword("this") {
		return "this", true
	}
	return p.name(s, what)
}

// expr parses one expression. On error it reports and returns nil; the
// caller keeps going, so errors in sibling subexpressions are all reported.
func (p *parser) expr(s *sexp) Expr {
	base := ExprBase{P: s.pos}
	if !s.list {
		switch {
		case s.isKeyword("this"):
			return &Var{ExprBase: base, Name: "this"}
		case s.isKeyword("null"):
			return &Lit{ExprBase: base, Kind: LitNull}
		case s.isKeyword("true"):
			return &Lit{ExprBase: base, Kind: LitTrue}
		case s.isKeyword("false"):
			return &Lit{ExprBase: base, Kind: LitFalse}
		case s.isIdent() && !keywords[s.text]:
			return &Var{ExprBase: base, Name: s.text}
		case s.tok == tInt:
			v, err := strconv.ParseInt(s.text, 10, 64)
			if err != nil || v < MinInt || v > MaxInt {
				p.errorf(s.pos, "integer literal %s out of range [%d, %d]", s.text, MinInt, MaxInt)
				return nil
			}
			return &IntLit{ExprBase: base, Val: v}
		}
		p.errorf(s.pos, "expected an expression, found %s", s.describe())
		return nil
	}
	if s.bracket {
		p.errorf(s.pos, "unexpected `[`: square brackets only enclose field and parameter declarations")
		return nil
	}
	it := s.items
	n := len(it)
	if n == 0 {
		p.errorf(s.pos, "empty expression `()`")
		return nil
	}
	switch head := it[0]; {
	case head.isKeyword("new"):
		if n != 2 {
			p.errorf(s.pos, "object creation has the form (new C)")
			return nil
		}
		name, ok := p.name(it[1], "a class name")
		if !ok {
			return nil
		}
		return &New{ExprBase: base, ClassName: name}

	case head.isKeyword("if"):
		if n == 5 && it[3].isKeyword("else") {
			c, t, e := p.expr(it[1]), p.expr(it[2]), p.expr(it[4])
			if c == nil || t == nil || e == nil {
				return nil
			}
			return &If{ExprBase: base, Cond: c, Then: t, Else: e}
		}
		hasElse := false
		for _, x := range it {
			hasElse = hasElse || x.isKeyword("else")
		}
		if !hasElse {
			p.errorf(s.pos, "missing `else` in if: the form is (if e e else e)")
		} else {
			p.errorf(s.pos, "a conditional has the form (if e e else e)")
		}
		return nil

	case head.isKeyword("var"):
		if n != 7 || !it[3].isSym(tAssign) || !it[5].isKeyword("in") {
			p.errorf(s.pos, "a variable declaration has the form (var T x := e in e)")
			return nil
		}
		d := &VarDecl{ExprBase: base, DeclType: p.typeName(it[1]), NamePos: it[2].pos}
		var ok bool
		d.Name, ok = p.varName(it[2], "a variable name")
		d.Init, d.Body = p.expr(it[4]), p.expr(it[6])
		if !ok || d.Init == nil || d.Body == nil {
			return nil
		}
		return d

	case head.isKeyword("assume"):
		if n != 2 {
			p.errorf(s.pos, "an assumption has the form (assume e)")
			return nil
		}
		x := p.expr(it[1])
		if x == nil {
			return nil
		}
		return &Assume{ExprBase: base, X: x}

	case head.isKeyword("begin"):
		if n == 1 {
			p.errorf(s.pos, "`(begin)` needs at least one expression")
			return nil
		}
		b := &Begin{ExprBase: base}
		ok := true
		for _, x := range it[1:] {
			e := p.expr(x)
			ok = ok && e != nil
			b.Exprs = append(b.Exprs, e)
		}
		if !ok {
			return nil
		}
		return b
	}

	// The remaining forms are infix: the operator is the second item.
	if n >= 2 && !it[1].list {
		switch it[1].tok {
		case tDollar:
			if n == 3 {
				x := p.expr(it[0])
				f, ok := p.name(it[2], "a field name")
				if x == nil || !ok {
					return nil
				}
				return &FieldAccess{ExprBase: base, X: x, FieldName: f}
			}
			if n == 5 && it[3].isSym(tAssign) {
				w := &FieldWrite{ExprBase: base, VarPos: it[0].pos}
				var ok1, ok2 bool
				w.VarName, ok1 = p.varName(it[0], "a variable (the target of a field write is a variable)")
				w.FieldName, ok2 = p.name(it[2], "a field name")
				w.Value = p.expr(it[4])
				if !ok1 || !ok2 || w.Value == nil {
					return nil
				}
				return w
			}
			p.errorf(s.pos, "a field expression has the form (e $ f) or (x $ f := e)")
			return nil
		case tEq:
			if n != 3 {
				p.errorf(s.pos, "a comparison has the form (e = e)")
				return nil
			}
			l, r := p.expr(it[0]), p.expr(it[2])
			if l == nil || r == nil {
				return nil
			}
			return &Equals{ExprBase: base, L: l, R: r}
		case tPlus, tMinus, tLt, tLe:
			op := map[tokKind]BinOp{tPlus: OpAdd, tMinus: OpSub, tLt: OpLt, tLe: OpLe}[it[1].tok]
			if n != 3 {
				p.errorf(s.pos, "a binary operation has the form (e %s e)", op)
				return nil
			}
			l, r := p.expr(it[0]), p.expr(it[2])
			if l == nil || r == nil {
				return nil
			}
			return &Binary{ExprBase: base, Op: op, L: l, R: r}
		case tAt:
			if n < 3 {
				p.errorf(s.pos, "a call has the form (e @ m e ...)")
				return nil
			}
			recv := p.expr(it[0])
			m, ok := p.name(it[2], "a method name")
			var args []Expr
			for _, x := range it[3:] {
				a := p.expr(x)
				ok = ok && a != nil
				args = append(args, a)
			}
			if recv == nil || !ok {
				return nil
			}
			return &Call{ExprBase: base, Recv: recv, MethodName: m, Args: args}
		case tAssign:
			if n != 3 {
				p.errorf(s.pos, "an assignment has the form (x := e)")
				return nil
			}
			a := &Assign{ExprBase: base, VarPos: it[0].pos}
			var ok bool
			a.VarName, ok = p.varName(it[0], "a variable (the target of := is a variable)")
			a.Value = p.expr(it[2])
			if !ok || a.Value == nil {
				return nil
			}
			return a
		}
	}
	if n == 2 && it[1].isSym(tInt) && strings.HasPrefix(it[1].text, "-") {
		// (x -1) and (x-1): the - against a digit is the literal's sign.
		p.errorf(s.pos, "malformed expression %s (a subtraction is written with a space after the -: (e - %s))", p.shape(s), it[1].text[1:])
		return nil
	}
	p.errorf(s.pos, "malformed expression %s", p.shape(s))
	return nil
}

// shape renders a list's top level compactly, so a malformed-expression
// message shows what was written without dumping nested subtrees.
func (p *parser) shape(s *sexp) string {
	parts := make([]string, len(s.items))
	for i, x := range s.items {
		switch {
		case x.list && x.bracket:
			parts[i] = "[...]"
		case x.list:
			parts[i] = "(...)"
		case x.tok == tIdent || x.tok == tInt:
			parts[i] = x.text
		default:
			parts[i] = tokText[x.tok]
		}
	}
	return fmt.Sprintf("`(%s)`", strings.Join(parts, " "))
}
