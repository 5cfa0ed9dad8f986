package javalite

import (
	"strings"
	"testing"
)

// briefExample is the program shape the package was specified with; the
// parser must accept exactly this text.
const briefExample = `; LinkedList contains, seed 000 Fig. 1
(((class Data () ())
  (class Node ([Node next] [Data data])
    ((bool contains [Data d]
       (if (this = null) false
        else (if ((this $ data) = d) true
              else ((this $ next) @ contains d))))))
  (class Main ([Node head] [Data d0])
    ((bool main [bool unused]
       ((this $ head) @ contains (this $ d0))))))
 (Main main))
`

func mustParse(t *testing.T, src string) *Program {
	t.Helper()
	p, err := Parse("t.jl", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return p
}

func TestParseBriefExample(t *testing.T) {
	p := mustParse(t, briefExample)
	if len(p.Classes) != 3 || p.EntryClass != "Main" || p.EntryMethod != "main" {
		t.Fatalf("classes %d, entry %s.%s", len(p.Classes), p.EntryClass, p.EntryMethod)
	}
	node := p.Classes[1]
	if node.Name != "Node" || len(node.Fields) != 2 || node.Fields[0].Type.Name != "Node" || node.Fields[1].Name != "data" {
		t.Fatalf("Node parsed wrong: %+v", node)
	}
	m := node.Methods[0]
	if m.Name != "contains" || m.Ret.Name != "bool" || len(m.Params) != 1 || m.Params[0].Type.Name != "Data" || m.Params[0].Name != "d" {
		t.Fatalf("contains header wrong: %+v", m)
	}
	outer, ok := m.Body.(*If)
	if !ok {
		t.Fatalf("body is %T", m.Body)
	}
	inner := outer.Else.(*If)
	call := inner.Else.(*Call)
	if call.MethodName != "contains" || call.Recv.(*FieldAccess).FieldName != "next" || len(call.Args) != 1 || call.Args[0].(*Var).Name != "d" {
		t.Fatalf("recursive call wrong: %s", PrintExpr(call))
	}
	if got := PrintExpr(m.Body); got != "(if (this = null) false else (if ((this $ data) = d) true else ((this $ next) @ contains d)))" {
		t.Errorf("PrintExpr = %s", got)
	}
}

func TestParsePositions(t *testing.T) {
	src := "(((class A ([A f])\n" +
		"    ((A m [bool x]\n" +
		"\t(var A y := (new A) in (y $ f := (y $ f)))))))\n" +
		" (A m))"
	p := mustParse(t, src)
	at := func(line, col int) Pos { return Pos{File: "t.jl", Line: line, Col: col} }
	cl := p.Classes[0]
	m := cl.Methods[0]
	d := m.Body.(*VarDecl)
	w := d.Body.(*FieldWrite)
	checks := []struct {
		what      string
		got, want Pos
	}{
		{"class", cl.Pos, at(1, 3)},
		{"field", cl.Fields[0].Pos, at(1, 13)},
		{"field type", cl.Fields[0].Type.Pos, at(1, 14)},
		{"method", m.Pos, at(2, 6)},
		{"return type", m.Ret.Pos, at(2, 7)},
		{"param", m.Params[0].Pos, at(2, 11)},
		{"param type", m.Params[0].Type.Pos, at(2, 12)},
		{"var", d.Pos(), at(3, 2)},
		{"var type", d.DeclType.Pos, at(3, 7)},
		{"var name", d.NamePos, at(3, 9)},
		{"new", d.Init.Pos(), at(3, 14)},
		{"write", w.Pos(), at(3, 25)},
		{"write var", w.VarPos, at(3, 26)},
		{"write value", w.Value.Pos(), at(3, 35)},
		{"read receiver", w.Value.(*FieldAccess).X.Pos(), at(3, 36)},
		{"entry", p.EntryPos, at(4, 2)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s at %v, want %v", c.what, c.got, c.want)
		}
	}
}

func TestParseTokens(t *testing.T) {
	// Operators need no surrounding spaces, identifiers may use _ and
	// digits, and `this` is a variable wherever a variable may stand.
	src := "(((class _A1 ([_A1 f_2])((_A1 m [bool this](begin(this$f_2:=(this$f_2))(this:=this)(var _A1 this:=null in this)(this@m this))))))(_A1 m))"
	p := mustParse(t, src)
	body := p.Classes[0].Methods[0].Body.(*Begin)
	want := []string{
		"(this $ f_2 := (this $ f_2))",
		"(this := this)",
		"(var _A1 this := null in this)",
		"(this @ m this)",
	}
	for i, e := range body.Exprs {
		if got := PrintExpr(e); got != want[i] {
			t.Errorf("expr %d = %s, want %s", i, got, want[i])
		}
	}
}

func TestParseKeywordsAreNotNames(t *testing.T) {
	for kw := range keywords {
		srcs := map[string]string{
			"class":  "(((class " + kw + " () ())) (A m))",
			"field":  "(((class A ([A " + kw + "]) ())) (A m))",
			"method": "(((class A () ((bool " + kw + " [bool x] x)))) (A m))",
			"new":    "(((class A () ((A m [bool x] (new " + kw + "))))) (A m))",
			"access": "(((class A () ((A m [bool x] (this $ " + kw + "))))) (A m))",
			"call":   "(((class A () ((A m [bool x] (this @ " + kw + " x))))) (A m))",
			"entry":  "(((class A () ())) (A " + kw + "))",
		}
		for where, src := range srcs {
			if _, err := Parse("t.jl", []byte(src)); err == nil {
				t.Errorf("keyword %q accepted as a %s name", kw, where)
			}
		}
		// `this` may name a variable; Check decides which uses are legal.
		_, err := Parse("t.jl", []byte("(((class A () ((bool m [bool x] (var bool "+kw+" := x in x))))) (A m))"))
		if (err == nil) != (kw == "this") {
			t.Errorf("keyword %q as a var name: err %v", kw, err)
		}
	}
}

func TestParseEmpty(t *testing.T) {
	for _, src := range []string{"", "  \n", "; only a comment\n"} {
		_, err := Parse("e.jl", []byte(src))
		errs := errorList(t, err)
		if len(errs) != 1 || !strings.Contains(errs[0].Msg, "empty input") || errs[0].Pos.Line != 1 {
			t.Errorf("Parse(%q) = %v", src, err)
		}
	}
}

func TestParseUnclosedReportsOnce(t *testing.T) {
	// A truncated file leaves many brackets open; one message is enough.
	_, err := Parse("t.jl", []byte("(((class A () ((bool m [bool x]\n (if x"))
	errs := errorList(t, err)
	if len(errs) != 1 || errs[0].Pos != (Pos{"t.jl", 2, 2}) || !strings.Contains(errs[0].Msg, "unclosed `(`") {
		t.Fatalf("got %v", err)
	}
}

func TestParseDeepNesting(t *testing.T) {
	// Deep nesting is rejected instead of recursing without bound.
	src := strings.Repeat("(", 3*maxNesting) + strings.Repeat(")", 3*maxNesting)
	_, err := Parse("t.jl", []byte(src))
	errs := errorList(t, err)
	if len(errs) != 1 || !strings.Contains(errs[0].Msg, "nested more than") {
		t.Fatalf("got %v", err)
	}
	// The bound leaves plenty of room for real programs.
	expr := strings.Repeat("(begin ", maxNesting-10) + "x" + strings.Repeat(")", maxNesting-10)
	mustParse(t, "(((class A () ((bool m [bool x] "+expr+")))) (A m))")
}

func TestParseRecoversPerMethod(t *testing.T) {
	// Four independent mistakes in four methods of two classes: all four
	// are reported, each once, in position order.
	src := `(((class A ()
    ((bool m1 [bool x] (if x x))
     (bool m2 [bool x] (begin))
     (bool m3 [bool x] x)))
  (class B ()
    ((bool m4 [bool x] (x @))
     (bool m5 [bool x] (new)))))
 (A m1))`
	_, err := Parse("t.jl", []byte(src))
	errs := errorList(t, err)
	lines := []int{2, 3, 6, 7}
	if len(errs) != len(lines) {
		t.Fatalf("got %d errors, want %d:\n%v", len(errs), len(lines), err)
	}
	for i, e := range errs {
		if e.Pos.Line != lines[i] {
			t.Errorf("error %d at line %d, want %d: %v", i, e.Pos.Line, lines[i], e)
		}
	}
}

func TestParseGarbageDoesNotPanic(t *testing.T) {
	// A grab bag of broken inputs; the fuzzer covers the rest.
	for _, src := range []string{
		")", "]", "(", "[", "(]", "[)", "()", "[]", "x", "(x)", "((x))", "(() ())",
		"(() (A))", "(() (A m n))", "(() [A m])", "((()) (A m))", "(((class)) (A m))",
		"(((class A)) (A m))", "(((class A () () ())) (A m))", "(((class A [] [])) (A m))",
		"(((class A () (x))) (A m))", "(((class A () (()))) (A m))", "(((class A () ([bool x]))) (A m))",
		"(((class A () ((bool m [] x)))) (A m))", "(((class A () ((bool m [bool] x)))) (A m))",
		"(((class A () ((bool m x x x)))) (A m))", ":", ":=", "$", "@", "=", "\x00\xff", "é",
		"(((class A () ((bool m [bool x] (x $))))) (A m))",
		"(((class A () ((bool m [bool x] ($ $ $))))) (A m))",
		"(((class A () ((bool m [bool x] (x $ f := ))))) (A m))",
		"(((class A () ((bool m [bool x] (var bool := x in x))))) (A m))",
		"(((class A () ((bool m [bool x] (var bool bool := x in x))))) (A m))",
		"(((class A () ((bool m [bool x] (if x x else))))) (A m))",
		"(((class A () ((bool m [bool x] (else x x))))) (A m))",
	} {
		if _, err := Parse("t.jl", []byte(src)); err == nil {
			t.Errorf("Parse(%q) succeeded", src)
		} else if errs := errorList(t, err); len(errs) == 0 || errs[0].Pos.Line < 1 || errs[0].Pos.Col < 1 {
			t.Errorf("Parse(%q): bad error %v", src, err)
		}
	}
}

func TestErrorListFormat(t *testing.T) {
	want := "f.jl:1:33: `(begin)` needs at least one expression"
	_, err := Parse("f.jl", []byte("(((class A () ((bool m [bool x] (begin))))) (A m))"))
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	_, err = Parse("", []byte("(((class A () ((bool m [bool x] #)))) (A 1m))"))
	if got := err.Error(); got != "<input>:1:33: unexpected character \"#\"\n<input>:1:42: invalid identifier `1m`: an identifier starts with a letter or _" {
		t.Fatalf("got %q", got)
	}
}

func TestParseBadCharacters(t *testing.T) {
	// A run of characters that start no token is one error; identifiers
	// are ASCII.
	_, err := Parse("t.jl", []byte("(((class A () ((bool m [bool x] #{}é x)))) (A m))"))
	errs := errorList(t, err)
	if len(errs) != 1 || errs[0].Msg != `unexpected characters "#{}é"` || errs[0].Pos.Col != 33 {
		t.Errorf("got %v", err)
	}
	_, err = Parse("t.jl", []byte("(((class A () ((bool m [bool x] é x)))) (A m))"))
	if errs := errorList(t, err); len(errs) != 1 || errs[0].Msg != `unexpected character "é"` {
		t.Errorf("got %v", err)
	}
}

func TestParseDataTokens(t *testing.T) {
	// The operators of PRIMITIVES.md §1 need no spaces either, except that
	// a - against a digit is a sign.
	src := "(((class A ([int k])((bool m [int x][bool b](begin(x+1)(x- 1)(x<=-2)(x<x)(assume(b=(x=-0)))(this@n)(this@o x b)))(bool n b)(bool o[int y][bool c]c))))(A m))"
	p := mustParse(t, src)
	body := p.Classes[0].Methods[0].Body.(*Begin)
	want := []string{"(x + 1)", "(x - 1)", "(x <= -2)", "(x < x)", "(assume (b = (x = 0)))", "(this @ n)", "(this @ o x b)"}
	for i, e := range body.Exprs {
		if got := PrintExpr(e); got != want[i] {
			t.Errorf("expr %d = %s, want %s", i, got, want[i])
		}
	}
	m := p.Classes[0].Methods
	if len(m[0].Params) != 2 || len(m[1].Params) != 0 || len(m[2].Params) != 2 || m[2].Params[1].Name != "c" {
		t.Errorf("parameters: %d %d %d", len(m[0].Params), len(m[1].Params), len(m[2].Params))
	}
	at := func(col int) Pos { return Pos{File: "t.jl", Line: 1, Col: col} }
	add := body.Exprs[0].(*Binary)
	if add.Pos() != at(51) || add.L.Pos() != at(52) || add.R.Pos() != at(54) {
		t.Errorf("positions %v %v %v", add.Pos(), add.L.Pos(), add.R.Pos())
	}
	if lit := body.Exprs[2].(*Binary).R.(*IntLit); lit.Val != -2 || lit.Pos() != at(66) {
		t.Errorf("literal %d at %v", lit.Val, lit.Pos())
	}
	if par := m[0].Params[1]; par.Pos != at(37) || par.Type.Pos != at(38) {
		t.Errorf("second parameter at %v, type at %v", par.Pos, par.Type.Pos)
	}
}
