package javalite

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// The printer produces the canonical text of a program. The layout is a pure
// function of the tree (no positions, no comments), so printing is
// idempotent: Print(Parse(Print(p))) == Print(p), which is what lets
// `lockstep fmt` and the round-trip tests compare texts.
//
// Layout: an expression goes on one line when it fits in printWidth columns
// from where it starts; otherwise its subexpressions go on lines of their
// own, indented relative to the expression's opening parenthesis:
//
//	(if c                 (var T x := init in    (begin e1        (recv
//	    then                body)                       e2)        @ m arg1
//	 else other)                                                       arg2)
//
//	(left                 (assume cond)
//	 <= right)
//
// = and the binary operators + - < <= break alike. Every method body starts
// on the line after its header; integer literals print in decimal without
// leading zeros (-0 prints as 0).

// printWidth is the column budget for one-line expressions.
const printWidth = 80

// Print returns the canonical text of p, ending in a newline.
func Print(p *Program) string {
	pr := &printer{}
	pr.program(p)
	return pr.b.String()
}

// PrintExpr returns e on a single line, for traces and verdicts.
func PrintExpr(e Expr) string {
	b := limitBuilder{limit: math.MaxInt}
	flat(&b, e)
	return b.String()
}

type printer struct {
	b   strings.Builder
	col int // column of the next byte, from 0
}

func (pr *printer) write(s string) {
	pr.b.WriteString(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		pr.col = len(s) - i - 1
	} else {
		pr.col += len(s)
	}
}

// newline ends the line and indents the next one to column col.
func (pr *printer) newline(col int) {
	pr.write("\n" + strings.Repeat(" ", col))
}

func (pr *printer) program(p *Program) {
	pr.write("((")
	for i, cl := range p.Classes {
		if i > 0 {
			pr.newline(2)
		}
		pr.class(cl, i == len(p.Classes)-1)
	}
	pr.write(")")
	pr.newline(1)
	pr.write("(" + p.EntryClass + " " + p.EntryMethod + "))\n")
}

// class writes one class declaration; last says whether the class list's
// closing parenthesis follows it on the same line.
func (pr *printer) class(cl *Class, last bool) {
	var fs []string
	for _, f := range cl.Fields {
		fs = append(fs, "["+f.Type.Name+" "+f.Name+"]")
	}
	pr.write("(class " + cl.Name + " (" + strings.Join(fs, " ") + ")")
	if len(cl.Methods) == 0 {
		pr.write(" ())")
		return
	}
	pr.newline(4)
	pr.write("(")
	for i, m := range cl.Methods {
		if i > 0 {
			pr.newline(5)
		}
		col := pr.col
		head := "(" + m.Ret.Name + " " + m.Name
		for _, par := range m.Params {
			head += " [" + par.Type.Name + " " + par.Name + "]"
		}
		pr.write(head)
		pr.newline(col + 2)
		trail := len(")")
		if i == len(cl.Methods)-1 {
			trail += len("))")
			if last {
				trail += len(")")
			}
		}
		pr.expr(m.Body, trail)
		pr.write(")")
	}
	pr.write("))")
}

// expr writes e starting at the current column, breaking it over several
// lines when it does not fit. trail is the number of bytes that will follow
// e on its last line (closing parentheses, " in"), so they count against the
// width too.
func (pr *printer) expr(e Expr, trail int) {
	// Render at most one byte past the room left: every level of a deep
	// tree asks whether it fits, and answering with the whole subtree
	// would make printing quadratic in the depth.
	var b limitBuilder
	b.limit = max(printWidth-pr.col-trail, 0)
	flat(&b, e)
	if !b.over() {
		pr.write(b.String())
		return
	}
	col := pr.col
	switch e := e.(type) {
	case *FieldAccess:
		pr.write("(")
		pr.expr(e.X, len(" $ "+e.FieldName+")")+trail)
		pr.write(" $ " + e.FieldName + ")")
	case *FieldWrite:
		pr.write("(" + e.VarName + " $ " + e.FieldName + " := ")
		pr.expr(e.Value, trail+1)
		pr.write(")")
	case *Equals:
		pr.write("(")
		pr.expr(e.L, 0)
		pr.newline(col + 1)
		pr.write("= ")
		pr.expr(e.R, trail+1)
		pr.write(")")
	case *If:
		pr.write("(if ")
		pr.expr(e.Cond, 0)
		pr.newline(col + 4)
		pr.expr(e.Then, 0)
		pr.newline(col + 1)
		pr.write("else ")
		pr.expr(e.Else, trail+1)
		pr.write(")")
	case *VarDecl:
		pr.write("(var " + e.DeclType.Name + " " + e.Name + " := ")
		pr.expr(e.Init, len(" in"))
		pr.write(" in")
		pr.newline(col + 2)
		pr.expr(e.Body, trail+1)
		pr.write(")")
	case *Binary:
		pr.write("(")
		pr.expr(e.L, 0)
		pr.newline(col + 1)
		pr.write(e.Op.String() + " ")
		pr.expr(e.R, trail+1)
		pr.write(")")
	case *Assume:
		pr.write("(assume ")
		pr.expr(e.X, trail+1)
		pr.write(")")
	case *Call:
		pr.write("(")
		pr.expr(e.Recv, 0)
		pr.newline(col + 1)
		pr.write("@ " + e.MethodName)
		// Arguments after the first go on lines of their own, aligned
		// with the first.
		argCol := pr.col + 1
		for i, a := range e.Args {
			if i == 0 {
				pr.write(" ")
			} else {
				pr.newline(argCol)
			}
			t := 0
			if i == len(e.Args)-1 {
				t = trail + 1
			}
			pr.expr(a, t)
		}
		pr.write(")")
	case *Assign:
		pr.write("(" + e.VarName + " := ")
		pr.expr(e.Value, trail+1)
		pr.write(")")
	case *Begin:
		pr.write("(begin ")
		for i, x := range e.Exprs {
			if i > 0 {
				pr.newline(col + 7)
			}
			t := 0
			if i == len(e.Exprs)-1 {
				t = trail + 1
			}
			pr.expr(x, t)
		}
		pr.write(")")
	default:
		// Atoms and (new C) cannot be broken.
		pr.write(PrintExpr(e))
	}
}

// limitBuilder is a strings.Builder that stops growing once it holds more
// than limit bytes, so that flat can stop early.
type limitBuilder struct {
	strings.Builder
	limit int
}

func (b *limitBuilder) over() bool { return b.Len() > b.limit }

func (b *limitBuilder) WriteString(s string) {
	if !b.over() {
		b.Builder.WriteString(s)
	}
}

// flat writes e on one line; it stops early once b is over its limit.
func flat(b *limitBuilder, e Expr) {
	if b.over() {
		return
	}
	switch e := e.(type) {
	case nil:
		// Only hand-built trees have holes; show them rather than crash
		// while printing a diagnostic.
		b.WriteString("<nil>")
	case *Var:
		b.WriteString(e.Name)
	case *Lit:
		b.WriteString(e.Kind.String())
	case *IntLit:
		b.WriteString(strconv.FormatInt(e.Val, 10))
	case *Binary:
		b.WriteString("(")
		flat(b, e.L)
		b.WriteString(" " + e.Op.String() + " ")
		flat(b, e.R)
		b.WriteString(")")
	case *Assume:
		b.WriteString("(assume ")
		flat(b, e.X)
		b.WriteString(")")
	case *New:
		b.WriteString("(new " + e.ClassName + ")")
	case *FieldAccess:
		b.WriteString("(")
		flat(b, e.X)
		b.WriteString(" $ " + e.FieldName + ")")
	case *FieldWrite:
		b.WriteString("(" + e.VarName + " $ " + e.FieldName + " := ")
		flat(b, e.Value)
		b.WriteString(")")
	case *Equals:
		b.WriteString("(")
		flat(b, e.L)
		b.WriteString(" = ")
		flat(b, e.R)
		b.WriteString(")")
	case *If:
		b.WriteString("(if ")
		flat(b, e.Cond)
		b.WriteString(" ")
		flat(b, e.Then)
		b.WriteString(" else ")
		flat(b, e.Else)
		b.WriteString(")")
	case *VarDecl:
		b.WriteString("(var " + e.DeclType.Name + " " + e.Name + " := ")
		flat(b, e.Init)
		b.WriteString(" in ")
		flat(b, e.Body)
		b.WriteString(")")
	case *Call:
		b.WriteString("(")
		flat(b, e.Recv)
		b.WriteString(" @ " + e.MethodName)
		for _, a := range e.Args {
			b.WriteString(" ")
			flat(b, a)
		}
		b.WriteString(")")
	case *Assign:
		b.WriteString("(" + e.VarName + " := ")
		flat(b, e.Value)
		b.WriteString(")")
	case *Begin:
		b.WriteString("(begin")
		for _, x := range e.Exprs {
			b.WriteString(" ")
			flat(b, x)
		}
		b.WriteString(")")
	default:
		b.WriteString("<?>")
	}
}

// GoString is the program's canonical text, so that %#v of a program (rapid
// logs every value it draws that way: "[rapid] draw program: …") shows the
// program instead of a dump of its syntax tree's pointers.
func (p *Program) GoString() string { return "javalite program:\n" + Print(p) }

// CommentLines counts the lines of src that hold a comment (from ';' to the
// end of the line): the text Print does not keep.
func CommentLines(src []byte) int {
	n := 0
	for _, line := range bytes.Split(src, []byte("\n")) {
		if bytes.IndexByte(line, ';') >= 0 {
			n++
		}
	}
	return n
}
