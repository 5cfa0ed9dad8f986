package jvm

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/lockstep-dev/lockstep/javalite"
)

// ClassName is the name of the Java class Export makes for a program file:
// the base name without its extension, every character that is not a
// letter, digit or underscore replaced by an underscore, the first letter
// upper-cased, and a leading J when it would not start with a letter.
func ClassName(file string) string {
	base := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	b := []byte(base)
	for i, c := range b {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '_'
		}
	}
	s := string(b)
	if s == "" || !unicode.IsLetter(rune(s[0])) || strings.HasPrefix(s, "C_") {
		s = "J" + s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Export writes p as one Java source file declaring the public class name:
// a static nested class per Javalite class, the driver (runCase, main) and
// its runtime support. The export is of the Java semantics (RULES.md §3,
// V10 and V11 Java), the only one the JVM has; the caller refuses the
// others. It fails only on a program it cannot export faithfully (one
// Check did not resolve).
func Export(p *javalite.Program, name string) (string, error) {
	if p.Entry == nil {
		return "", fmt.Errorf("jvm: %s is not checked (no entry method)", p.File)
	}
	x := &exporter{p: p}
	x.linef("// %s.java: the Javalite program %s exported to Java by `lockstep java`.", name, filepath.Base(p.File))
	x.linef("// Java semantics (docs/SEMANTICS.md §3, V10 and V11 Java); docs/JVM.md explains the translation.")
	x.linef("// Run it with cases on stdin, one per line: `java %s < cases` (format in runCase).", name)
	x.linef("public final class %s {", name)
	x.in++
	for _, c := range p.Classes {
		if err := x.class(c); err != nil {
			return "", err
		}
	}
	x.driver()
	x.in--
	x.linef("}")
	return x.b.String(), nil
}

type exporter struct {
	p  *javalite.Program
	b  strings.Builder
	in int
	// per method
	m     *javalite.Method
	ntemp int
	slots []javalite.Type
}

func (x *exporter) linef(format string, args ...any) {
	for range x.in {
		x.b.WriteString("    ")
	}
	fmt.Fprintf(&x.b, format, args...)
	x.b.WriteByte('\n')
}

func className(c *javalite.Class) string { return "C_" + c.Name }
func fieldName(f *javalite.Field) string { return "f_" + f.Name }
func methodName(m *javalite.Method) string {
	return "m_" + m.Name
}
func slotName(slot int) string { return fmt.Sprintf("v%d", slot) }

// javaType is the Java type of a Javalite type: int is long (the values
// are mathematical integers kept within int64 by addExact/subtractExact),
// bool is boolean, class C is C_C, and the type of the literal null is the
// common base class $Obj.
func javaType(t javalite.Type) string {
	switch t.Kind {
	case javalite.KindInt:
		return "long"
	case javalite.KindBool:
		return "boolean"
	case javalite.KindClass:
		return className(t.Class)
	}
	return "$Obj"
}

func (x *exporter) class(c *javalite.Class) error {
	x.linef("static final class %s extends $Obj {", className(c))
	x.in++
	for _, f := range c.Fields {
		x.linef("%s %s;", javaType(f.T), fieldName(f))
	}
	x.linef("String $name() { return %q; }", c.Name)
	// $set stores one input value: a reference as the index of its
	// object in objs (-1 for null), a bool as 0 or 1, an int as is.
	x.linef("void $set(int f, long v, $Obj[] objs) {")
	x.in++
	x.linef("switch (f) {")
	for _, f := range c.Fields {
		switch f.T.Kind {
		case javalite.KindInt:
			x.linef("case %d: %s = v; return;", f.Index, fieldName(f))
		case javalite.KindBool:
			x.linef("case %d: %s = v != 0; return;", f.Index, fieldName(f))
		default:
			x.linef("case %d: %s = v < 0 ? null : (%s) objs[(int) v]; return;", f.Index, fieldName(f), className(f.Class))
		}
	}
	x.linef("default: throw new IllegalArgumentException(\"no field \" + f + \" in %s\");", c.Name)
	x.linef("}")
	x.in--
	x.linef("}")
	x.linef("void $dump(StringBuilder b, $Canon c) {")
	x.in++
	x.linef("b.append(%q);", c.Name+"{")
	for i, f := range c.Fields {
		sep := " "
		if i == 0 {
			sep = ""
		}
		switch f.T.Kind {
		case javalite.KindInt, javalite.KindBool:
			x.linef("b.append(%q).append(%s);", sep+f.Name+":", fieldName(f))
		default:
			x.linef("b.append(%q).append(c.ref(%s));", sep+f.Name+":", fieldName(f))
		}
	}
	x.linef("b.append('}');")
	x.in--
	x.linef("}")
	x.linef("void $refs($Canon c) {")
	x.in++
	for _, f := range c.RefFields {
		x.linef("c.visit(%s);", fieldName(f))
	}
	x.in--
	x.linef("}")
	for _, m := range c.Methods {
		if err := x.method(m); err != nil {
			return err
		}
	}
	x.in--
	x.linef("}")
	return nil
}

// method writes m as an instance method. Every variable slot is a local
// (this is copied into v0, as Javalite may not assign it but a uniform
// name keeps the translation simple; parameters are v1..vn), and the body
// is flattened into statements that compute each subexpression into a
// fresh final temporary, in the order of RULES.md §3: so the export states
// the evaluation order explicitly, and the JVM decides everything else
// (arithmetic, comparisons, null checks, field storage, calls, recursion).
func (x *exporter) method(m *javalite.Method) error {
	x.m, x.ntemp = m, 0
	x.slots = make([]javalite.Type, m.NumSlots)
	x.slots[javalite.SlotThis] = javalite.Type{Kind: javalite.KindClass, Class: m.Owner}
	var params []string
	for _, prm := range m.Params {
		x.slots[prm.Slot] = prm.T
		params = append(params, javaType(prm.T)+" "+slotName(prm.Slot))
	}
	javalite.Walk(m.Body, func(e javalite.Expr) {
		if d, ok := e.(*javalite.VarDecl); ok {
			x.slots[d.Slot] = d.Init.Type()
			if t := declType(x.p, d); t.Kind != javalite.KindInvalid {
				x.slots[d.Slot] = t
			}
		}
	})
	x.linef("%s %s(%s) {", javaType(m.RetT), methodName(m), strings.Join(params, ", "))
	x.in++
	// The guard against divergence: every call spends one unit of fuel.
	x.linef("if (--$fuel < 0) throw $CUT;")
	x.linef("%s v0 = this;", className(m.Owner))
	for slot := len(m.Params) + 1; slot < m.NumSlots; slot++ {
		t := x.slots[slot]
		x.linef("%s %s = %s;", javaType(t), slotName(slot), zero(t))
	}
	a, err := x.expr(m.Body)
	if err != nil {
		return err
	}
	x.linef("return %s;", conv(a, m.Body.Type(), m.RetT))
	x.in--
	x.linef("}")
	return nil
}

// declType resolves the declared type of a var.
func declType(p *javalite.Program, d *javalite.VarDecl) javalite.Type {
	switch {
	case d.DeclType.IsInt():
		return javalite.Type{Kind: javalite.KindInt}
	case d.DeclType.IsBool():
		return javalite.Type{Kind: javalite.KindBool}
	}
	if c := p.ByName[d.DeclType.Name]; c != nil {
		return javalite.Type{Kind: javalite.KindClass, Class: c}
	}
	return javalite.Type{}
}

func zero(t javalite.Type) string {
	switch t.Kind {
	case javalite.KindInt:
		return "0L"
	case javalite.KindBool:
		return "false"
	}
	return "null"
}

// conv is atom a of static type from used where type to is wanted: a
// value of the null type (held as $Obj) gets a cast to the class, which
// always succeeds as the value is null.
func conv(a string, from, to javalite.Type) string {
	if to.Kind == javalite.KindClass && from.Kind != javalite.KindClass && a != "null" {
		return "(" + className(to.Class) + ") " + a
	}
	return a
}

// receiver is atom a as the receiver of a field access or a call: the
// literal null (the value of an assignment or a field write of null, whose
// static type is a class) needs a cast for javac to accept `.f` or `.m()`
// on it; at run time it throws NullPointerException like any null.
func receiver(a string, t javalite.Type) string {
	if a == "null" {
		return "((" + javaType(t) + ") null)"
	}
	return a
}

func (x *exporter) temp(t javalite.Type, init string) string {
	x.ntemp++
	n := fmt.Sprintf("t%d", x.ntemp)
	x.linef("final %s %s = %s;", javaType(t), n, init)
	return n
}

// operands exports two operands, left to right (the order of every binary
// rule), and returns the Java expression of each.
func (x *exporter) operands(l, r javalite.Expr) (string, string, error) {
	a, err := x.expr(l)
	if err != nil {
		return "", "", err
	}
	b, err := x.expr(r)
	if err != nil {
		return "", "", err
	}
	return a, b, nil
}

// expr writes the statements that evaluate e and returns an atom for its
// value: a literal or a final temporary, which later statements cannot
// change.
func (x *exporter) expr(e javalite.Expr) (string, error) {
	switch e := e.(type) {
	case *javalite.Lit:
		return e.Kind.String(), nil
	case *javalite.IntLit:
		return fmt.Sprintf("%dL", e.Val), nil
	case *javalite.Var:
		return x.temp(x.slots[e.Slot], slotName(e.Slot)), nil
	case *javalite.Binary:
		l, r, err := x.operands(e.L, e.R)
		if err != nil {
			return "", err
		}
		var v string
		switch e.Op {
		case javalite.OpAdd:
			v = fmt.Sprintf("Math.addExact(%s, %s)", l, r)
		case javalite.OpSub:
			v = fmt.Sprintf("Math.subtractExact(%s, %s)", l, r)
		case javalite.OpLt:
			v = fmt.Sprintf("%s < %s", l, r)
		case javalite.OpLe:
			v = fmt.Sprintf("%s <= %s", l, r)
		default:
			return "", fmt.Errorf("%s: cannot export operator %s", e.Pos(), e.Op)
		}
		return x.temp(e.Type(), v), nil
	case *javalite.Assume:
		c, err := x.expr(e.X)
		if err != nil {
			return "", err
		}
		x.linef("if (!%s) throw $PRUNED;", c)
		return "true", nil
	case *javalite.New:
		return x.temp(e.Type(), "new "+className(e.Class)+"()"), nil
	case *javalite.FieldAccess:
		r, err := x.expr(e.X)
		if err != nil {
			return "", err
		}
		// The receiver has a class type (Check refuses null's): a null
		// value throws NullPointerException, rule A′.
		return x.temp(e.Field.T, receiver(r, e.X.Type())+"."+fieldName(e.Field)), nil
	case *javalite.FieldWrite:
		// The value first, then the variable is read and dereferenced
		// (Field write (eval), W, W′): `x.f = t` after t is computed.
		v, err := x.expr(e.Value)
		if err != nil {
			return "", err
		}
		x.linef("%s.%s = %s;", slotName(e.Slot), fieldName(e.Field), conv(v, e.Value.Type(), e.Field.T))
		return v, nil
	case *javalite.Equals:
		l, r, err := x.operands(e.L, e.R)
		if err != nil {
			return "", err
		}
		if e.Refs {
			return x.temp(e.Type(), fmt.Sprintf("(Object) %s == (Object) %s", l, r)), nil
		}
		return x.temp(e.Type(), fmt.Sprintf("%s == %s", l, r)), nil
	case *javalite.If:
		c, err := x.expr(e.Cond)
		if err != nil {
			return "", err
		}
		x.ntemp++
		res := fmt.Sprintf("t%d", x.ntemp)
		x.linef("final %s %s;", javaType(e.Type()), res)
		x.linef("if (%s) {", c)
		for i, br := range []javalite.Expr{e.Then, e.Else} {
			if i == 1 {
				x.linef("} else {")
			}
			x.in++
			a, err := x.expr(br)
			if err != nil {
				return "", err
			}
			x.linef("%s = %s;", res, conv(a, br.Type(), e.Type()))
			x.in--
		}
		x.linef("}")
		return res, nil
	case *javalite.VarDecl:
		v, err := x.expr(e.Init)
		if err != nil {
			return "", err
		}
		x.linef("%s = %s;", slotName(e.Slot), conv(v, e.Init.Type(), x.slots[e.Slot]))
		// Leaving the scope restores nothing observable (V10 Java): the
		// slot is this declaration's own and is read nowhere after it.
		return x.expr(e.Body)
	case *javalite.Call:
		r, err := x.expr(e.Recv)
		if err != nil {
			return "", err
		}
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			v, err := x.expr(a)
			if err != nil {
				return "", err
			}
			args[i] = conv(v, a.Type(), e.Method.Params[i].T)
		}
		// A null receiver throws NullPointerException after the arguments
		// are evaluated (JLS 15.12.4), rule Invoke′.
		return x.temp(e.Method.RetT, fmt.Sprintf("%s.%s(%s)", receiver(r, e.Recv.Type()), methodName(e.Method), strings.Join(args, ", "))), nil
	case *javalite.Assign:
		v, err := x.expr(e.Value)
		if err != nil {
			return "", err
		}
		x.linef("%s = %s;", slotName(e.Slot), conv(v, e.Value.Type(), x.slots[e.Slot]))
		return v, nil
	case *javalite.Begin:
		var a string
		for _, s := range e.Exprs {
			v, err := x.expr(s)
			if err != nil {
				return "", err
			}
			a = v
		}
		return a, nil
	}
	return "", fmt.Errorf("%s: cannot export expression %T", e.Pos(), e)
}

// ValidClassName reports whether name can be the class of an export: a
// Java identifier of letters, digits and underscores starting with a
// letter, not a keyword, and not of the C_ form of the nested classes.
func ValidClassName(name string) bool {
	if name == "" || !('a' <= name[0] && name[0] <= 'z' || 'A' <= name[0] && name[0] <= 'Z') || strings.HasPrefix(name, "C_") {
		return false
	}
	for _, c := range []byte(name) {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return !javaKeywords[name]
}

var javaKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`abstract assert boolean break byte case catch char class const continue
		default do double else enum extends final finally float for goto if implements import instanceof
		int interface long native new package private protected public return short static strictfp super
		switch synchronized this throw throws transient try void volatile while true false null var record
		yield sealed permits`) {
		javaKeywords[k] = true
	}
}
