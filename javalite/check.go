package javalite

import (
	"fmt"
	"io"
	"os"
)

// Check resolves every name in p, assigns expression IDs and variable slots,
// computes static types, and fills in every field that ast.go marks as set by
// Check. It reports all errors it finds, sorted by position, as an
// ErrorList. The semantics has no run-time checks (RULES.md §1), so anything
// accepted here must be executable by the engines.
//
// Check may be called again on the same tree; it recomputes everything.
// After an error the tree is partly resolved and must not be executed.
func Check(p *Program) error {
	c := &checker{prog: p}
	c.declare()
	c.bodies()
	c.entry()
	return c.errs.err()
}

// ParseAndCheck parses and checks src; file names the source in positions.
func ParseAndCheck(file string, src []byte) (*Program, error) {
	p, err := Parse(file, src)
	if err != nil {
		return nil, err
	}
	if err := Check(p); err != nil {
		return nil, err
	}
	return p, nil
}

// LoadFile reads, parses and checks the program in the file at path. It
// reads at most MaxInputSize bytes and one more: a larger file (or an
// endless one such as /dev/zero) is refused with a position, never read
// into memory whole.
func LoadFile(path string) (*Program, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxInputSize+1))
	if err != nil {
		return nil, err
	}
	return ParseAndCheck(path, src)
}

type checker struct {
	errorSink
	prog   *Program
	nextID int

	// Per method being checked.
	method *Method
	scope  []binding // innermost last
}

// binding is one variable in scope.
type binding struct {
	name string
	slot int
	typ  Type
}

var (
	boolType    = Type{Kind: KindBool}
	intType     = Type{Kind: KindInt}
	nullType    = Type{Kind: KindNull}
	invalidType = Type{}
)

func classType(c *Class) Type { return Type{Kind: KindClass, Class: c} }

// declare resolves the class table: classes, fields and method signatures.
// It runs before any body is checked, so bodies may refer to classes and
// methods declared later in the file (recursion and mutual references are
// the only way to iterate in Javalite).
func (c *checker) declare() {
	p := c.prog
	p.ByName = make(map[string]*Class, len(p.Classes))
	p.Fields = nil
	for i, cl := range p.Classes {
		cl.Index = i
		if prev, dup := p.ByName[cl.Name]; dup {
			c.errorf(cl.Pos, "duplicate class `%s` (first declared at %s)", cl.Name, lineCol(prev.Pos))
			continue
		}
		p.ByName[cl.Name] = cl
	}
	for _, cl := range p.Classes {
		seen := make(map[string]*Field, len(cl.Fields))
		cl.RefFields, cl.PrimFields = nil, nil
		for i, f := range cl.Fields {
			f.Owner, f.Index, f.ID = cl, i, len(p.Fields)
			p.Fields = append(p.Fields, f)
			if prev, dup := seen[f.Name]; dup {
				c.errorf(f.Pos, "duplicate field `%s` in class %s (first declared at %s)", f.Name, cl.Name, lineCol(prev.Pos))
			} else {
				seen[f.Name] = f
			}
			f.T = c.resolveType(f.Type)
			f.Class = nil
			switch f.T.Kind {
			case KindClass:
				f.Class = f.T.Class
				cl.RefFields = append(cl.RefFields, f)
			case KindBool, KindInt:
				cl.PrimFields = append(cl.PrimFields, f)
			}
		}
		cl.fieldByName = seen
		seenM := make(map[string]*Method, len(cl.Methods))
		cl.methodByName = seenM
		for _, m := range cl.Methods {
			m.Owner = cl
			if prev, dup := seenM[m.Name]; dup {
				c.errorf(m.Pos, "duplicate method `%s` in class %s (first declared at %s)", m.Name, cl.Name, lineCol(prev.Pos))
			} else {
				seenM[m.Name] = m
			}
			m.RetT = c.resolveType(m.Ret)
			seenP := make(map[string]*Param, len(m.Params))
			for i, par := range m.Params {
				par.T = c.resolveType(par.Type)
				par.Slot = 1 + i
				switch prev, dup := seenP[par.Name]; {
				case par.Name == "this":
					c.errorf(par.Type.Pos, "parameter of method `%s` named `this`", m.Name)
				case dup:
					c.errorf(par.Pos, "duplicate parameter `%s` of method `%s` (first declared at %s)", par.Name, m.Name, lineCol(prev.Pos))
				default:
					seenP[par.Name] = par
				}
			}
		}
	}
}

// lineCol is a position without the file name, for "first declared at".
func lineCol(p Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// resolveType maps a written type to a resolved one, reporting unknown
// classes.
func (c *checker) resolveType(t TypeName) Type {
	if t.IsBool() {
		return boolType
	}
	if t.IsInt() {
		return intType
	}
	if cl := c.prog.ByName[t.Name]; cl != nil {
		return classType(cl)
	}
	c.errorf(t.Pos, "unknown class `%s`", t.Name)
	return invalidType
}

// findField looks a field up by name in one class. No inheritance exists,
// so the static class's own fields are all there is.
func findField(cl *Class, name string) *Field { return cl.fieldByName[name] }

// findMethod looks a method up by name in one class; the first declaration
// wins when there are duplicates (already reported).
func findMethod(cl *Class, name string) *Method { return cl.methodByName[name] }

// entry resolves (C m).
func (c *checker) entry() {
	p := c.prog
	p.Entry = nil
	cl := p.ByName[p.EntryClass]
	if cl == nil {
		c.errorf(p.EntryPos, "unknown entry class `%s`", p.EntryClass)
		return
	}
	if p.Entry = findMethod(cl, p.EntryMethod); p.Entry == nil {
		c.errorf(p.EntryPos, "unknown entry method `%s` in class %s", p.EntryMethod, cl.Name)
	}
}

// bodies checks every method body. IDs are handed out in one pre-order walk
// over classes, methods and expressions in source order, so they are dense
// and deterministic.
func (c *checker) bodies() {
	c.nextID = 0
	for _, cl := range c.prog.Classes {
		for _, m := range cl.Methods {
			c.method = m
			m.NumSlots = 1 + len(m.Params)
			c.scope = c.scope[:0]
			c.scope = append(c.scope, binding{"this", SlotThis, classType(cl)})
			for _, par := range m.Params {
				// The first of duplicate parameters is the one in scope,
				// as the first of duplicate methods is the one called;
				// the duplicate was already reported.
				if _, dup := c.lookup(par.Name); !dup {
					c.scope = append(c.scope, binding{par.Name, par.Slot, par.T})
				}
			}
			if m.Body == nil {
				c.errorf(m.Pos, "method `%s` has no body", m.Name)
				continue
			}
			t := c.expr(m.Body)
			if !assignable(t, m.RetT) {
				c.errorf(m.Body.Pos(), "method `%s` returns %s, but its body has type %s", m.Name, m.RetT, t)
			}
		}
	}
	c.prog.NumExpr = c.nextID
}

// lookup finds the innermost variable called name.
func (c *checker) lookup(name string) (binding, bool) {
	for i := len(c.scope) - 1; i >= 0; i-- {
		if c.scope[i].name == name {
			return c.scope[i], true
		}
	}
	return binding{}, false
}

// assignable reports whether a value of type from may be stored where to is
// expected. There is no subtyping: only null widens, to any class. Invalid
// types come from errors already reported and are accepted, so that one
// mistake yields one message.
func assignable(from, to Type) bool {
	switch {
	case from.Kind == KindInvalid || to.Kind == KindInvalid:
		return true
	case to.Kind == KindBool || to.Kind == KindInt:
		return from.Kind == to.Kind
	case to.Kind == KindClass:
		return from.Kind == KindNull || from.Kind == KindClass && from.Class == to.Class
	}
	return false // nothing is declared with the null type
}

// join is the type of (if c a else b): equal types, or a class and null.
func join(a, b Type) (Type, bool) {
	switch {
	case a.Kind == KindInvalid || b.Kind == KindInvalid:
		return invalidType, true
	case a == b:
		return a, true
	case a.Kind == KindClass && b.Kind == KindNull:
		return a, true
	case a.Kind == KindNull && b.Kind == KindClass:
		return b, true
	}
	return invalidType, false
}

// expr checks e, assigns its ID (before its children: pre-order) and sets
// and returns its static type.
func (c *checker) expr(e Expr) Type {
	if e == nil {
		// Only hand-built trees get here; Parse never leaves holes.
		return invalidType
	}
	base := exprBase(e)
	base.Id = c.nextID
	c.nextID++
	base.T = c.typeOf(e)
	return base.T
}

// exprBase returns the embedded ExprBase of any expression node.
func exprBase(e Expr) *ExprBase {
	switch e := e.(type) {
	case *Var:
		return &e.ExprBase
	case *Lit:
		return &e.ExprBase
	case *New:
		return &e.ExprBase
	case *FieldAccess:
		return &e.ExprBase
	case *FieldWrite:
		return &e.ExprBase
	case *Equals:
		return &e.ExprBase
	case *If:
		return &e.ExprBase
	case *VarDecl:
		return &e.ExprBase
	case *Call:
		return &e.ExprBase
	case *Assign:
		return &e.ExprBase
	case *Begin:
		return &e.ExprBase
	case *IntLit:
		return &e.ExprBase
	case *Binary:
		return &e.ExprBase
	case *Assume:
		return &e.ExprBase
	}
	panic(fmt.Sprintf("javalite: unknown expression type %T", e))
}

// receiverClass returns the static class of a receiver of type t, reporting
// why there is none. what describes the operation for the message.
func (c *checker) receiverClass(pos Pos, t Type, what string) *Class {
	switch t.Kind {
	case KindClass:
		return t.Class
	case KindBool:
		c.errorf(pos, "%s on a bool", what)
	case KindInt:
		c.errorf(pos, "%s on an int", what)
	case KindNull:
		c.errorf(pos, "%s on null, which has no class", what)
	}
	return nil
}

func (c *checker) typeOf(e Expr) Type {
	switch e := e.(type) {
	case *Var:
		b, ok := c.lookup(e.Name)
		if !ok {
			c.errorf(e.P, "unknown variable `%s`", e.Name)
			return invalidType
		}
		e.Slot = b.slot
		return b.typ

	case *Lit:
		if e.Kind == LitNull {
			return nullType
		}
		return boolType

	case *New:
		e.Class = c.prog.ByName[e.ClassName]
		if e.Class == nil {
			c.errorf(e.P, "unknown class `%s`", e.ClassName)
			return invalidType
		}
		return classType(e.Class)

	case *FieldAccess:
		e.Field = nil
		cl := c.receiverClass(e.P, c.expr(e.X), fmt.Sprintf("access to field `%s`", e.FieldName))
		if cl == nil {
			return invalidType
		}
		if e.Field = findField(cl, e.FieldName); e.Field == nil {
			c.errorf(e.P, "unknown field `%s` in class %s", e.FieldName, cl.Name)
			return invalidType
		}
		return c.fieldType(e.Field)

	case *FieldWrite:
		// The value is evaluated first (RULES.md §3), and its IDs come
		// after this node's in pre-order either way.
		e.Field = nil
		vt := c.expr(e.Value)
		b, ok := c.lookup(e.VarName)
		if !ok {
			c.errorf(e.VarPos, "unknown variable `%s`", e.VarName)
			return invalidType
		}
		e.Slot = b.slot
		cl := c.receiverClass(e.VarPos, b.typ, fmt.Sprintf("write to field `%s`", e.FieldName))
		if cl == nil {
			return invalidType
		}
		if e.Field = findField(cl, e.FieldName); e.Field == nil {
			c.errorf(e.P, "unknown field `%s` in class %s", e.FieldName, cl.Name)
			return invalidType
		}
		ft := c.fieldType(e.Field)
		if !assignable(vt, ft) {
			c.errorf(e.Value.Pos(), "cannot write %s to field `%s` of type %s", vt, e.FieldName, ft)
		}
		// Like an assignment in Java, the write has the field's type.
		return ft

	case *Equals:
		// Rule: Equals (E/E′ on references, Equals (prim) on data,
		// PRIMITIVES.md §1): two references of any classes or null, two
		// bools, or two ints.
		lt, rt := c.expr(e.L), c.expr(e.R)
		e.Refs = lt.IsRef() && rt.IsRef()
		if lt.Kind != KindInvalid && rt.Kind != KindInvalid && !e.Refs && lt.Kind != rt.Kind {
			c.errorf(e.P, "cannot compare %s with %s: `=` compares two ints, two bools or two references", lt, rt)
		}
		return boolType

	case *IntLit:
		if e.Val < MinInt || e.Val > MaxInt {
			// Parse reports this already; a hand-built tree gets here.
			c.errorf(e.P, "integer literal %d out of range [%d, %d]", e.Val, MinInt, MaxInt)
		}
		return intType

	case *Binary:
		lt, rt := c.expr(e.L), c.expr(e.R)
		if e.Op > OpLe {
			c.errorf(e.P, "unknown binary operator %d", e.Op)
			return invalidType
		}
		kind := "arithmetic"
		if e.Op == OpLt || e.Op == OpLe {
			kind = "comparison"
		}
		for _, o := range [...]struct {
			x Expr
			t Type
		}{{e.L, lt}, {e.R, rt}} {
			if o.t.Kind != KindInvalid && o.t.Kind != KindInt {
				c.errorf(o.x.Pos(), "%s `%s` on %s: its operands are ints", kind, e.Op, article(o.t))
			}
		}
		if kind == "arithmetic" {
			return intType
		}
		return boolType

	case *Assume:
		if xt := c.expr(e.X); xt.Kind != KindInvalid && xt.Kind != KindBool {
			c.errorf(e.X.Pos(), "condition of assume has type %s, not bool", xt)
		}
		return boolType

	case *If:
		if ct := c.expr(e.Cond); ct.Kind != KindInvalid && ct.Kind != KindBool {
			c.errorf(e.Cond.Pos(), "condition of if has type %s, not bool", ct)
		}
		tt, et := c.expr(e.Then), c.expr(e.Else)
		t, ok := join(tt, et)
		if !ok {
			c.errorf(e.P, "branches of if have incompatible types %s and %s", tt, et)
		}
		return t

	case *VarDecl:
		dt := c.resolveType(e.DeclType)
		it := c.expr(e.Init)
		if !assignable(it, dt) {
			c.errorf(e.Init.Pos(), "cannot initialize variable `%s` of type %s with %s", e.Name, dt, it)
		}
		e.Slot = c.method.NumSlots
		c.method.NumSlots++
		if e.Name == "this" {
			c.errorf(e.NamePos, "cannot declare a variable named `this`")
			return c.expr(e.Body)
		}
		c.scope = append(c.scope, binding{e.Name, e.Slot, dt})
		t := c.expr(e.Body)
		c.scope = c.scope[:len(c.scope)-1]
		return t

	case *Call:
		e.Method = nil
		rt := c.expr(e.Recv)
		ats := make([]Type, len(e.Args))
		for i, a := range e.Args {
			ats[i] = c.expr(a)
		}
		cl := c.receiverClass(e.P, rt, fmt.Sprintf("call of method `%s`", e.MethodName))
		if cl == nil {
			return invalidType
		}
		if e.Method = findMethod(cl, e.MethodName); e.Method == nil {
			c.errorf(e.P, "unknown method `%s` in class %s", e.MethodName, cl.Name)
			return invalidType
		}
		ps := e.Method.Params
		if len(e.Args) != len(ps) {
			c.errorf(e.P, "%s.%s takes %d argument%s, but the call passes %d", cl.Name, e.MethodName, len(ps), plural(len(ps)), len(e.Args))
			return e.Method.RetT
		}
		for i, a := range e.Args {
			if !assignable(ats[i], ps[i].T) {
				which := "argument"
				if len(ps) > 1 {
					which = fmt.Sprintf("argument %d", i+1)
				}
				c.errorf(a.Pos(), "%s of %s.%s has type %s, want %s", which, cl.Name, e.MethodName, ats[i], ps[i].T)
			}
		}
		return e.Method.RetT

	case *Assign:
		vt := c.expr(e.Value)
		if e.VarName == "this" {
			c.errorf(e.VarPos, "cannot assign to `this`")
			return invalidType
		}
		b, ok := c.lookup(e.VarName)
		if !ok {
			c.errorf(e.VarPos, "unknown variable `%s`", e.VarName)
			return invalidType
		}
		e.Slot = b.slot
		if !assignable(vt, b.typ) {
			c.errorf(e.Value.Pos(), "cannot assign %s to variable `%s` of type %s", vt, e.VarName, b.typ)
		}
		return b.typ

	case *Begin:
		if len(e.Exprs) == 0 {
			c.errorf(e.P, "`(begin)` needs at least one expression")
			return invalidType
		}
		var t Type
		for _, x := range e.Exprs {
			t = c.expr(x)
		}
		return t
	}
	panic(fmt.Sprintf("javalite: unknown expression type %T", e))
}

// article names a type with its article, for "arithmetic on a bool".
func article(t Type) string {
	switch t.Kind {
	case KindBool:
		return "a bool"
	case KindInt:
		return "an int"
	case KindNull:
		return "null"
	case KindClass:
		return "a reference of class " + t.Class.Name
	}
	return t.String()
}

// fieldType is the static type of reading a field: its declared class, or
// invalid when the declaration was erroneous (already reported).
func (c *checker) fieldType(f *Field) Type {
	return f.T
}
