package javalite

import (
	"fmt"

	"pgregory.net/rapid"
)

// genProgram draws a random well-typed program. It exists to test the
// parser, printer and checker together: everything it builds must print,
// parse back to the same tree and check. It builds unchecked trees (no
// positions, IDs or resolved pointers), exactly what Parse would return.
func genProgram(t *rapid.T) *Program {
	g := &gen{t: t}
	nc := rapid.IntRange(1, 3).Draw(t, "classes")
	for i := range nc {
		g.classes = append(g.classes, &Class{Name: fmt.Sprintf("C%d", i)})
	}
	for _, cl := range g.classes {
		for i := range rapid.IntRange(0, 3).Draw(t, "fields") {
			cl.Fields = append(cl.Fields, &Field{Name: fmt.Sprintf("f%d", i), Type: g.typeName(true)})
		}
		for i := range rapid.IntRange(1, 2).Draw(t, "methods") {
			m := &Method{Name: fmt.Sprintf("m%d", i), Ret: g.typeName(true)}
			// Zero to three parameters (PRIMITIVES.md §1), one the
			// common case; names distinct within the method.
			np := rapid.SampledFrom([]int{1, 1, 0, 2, 3}).Draw(t, "params")
			names := rapid.Permutation([]string{"x", "p", "q"}).Draw(t, "param names")
			for j := range np {
				m.Params = append(m.Params, &Param{Type: g.typeName(true), Name: names[j]})
			}
			cl.Methods = append(cl.Methods, m)
		}
	}
	// Bodies come last, so that calls may go to any method.
	for _, cl := range g.classes {
		for _, m := range cl.Methods {
			g.scope = []genVar{{"this", TypeName{Name: cl.Name}}}
			for _, par := range m.Params {
				g.scope = append(g.scope, genVar{par.Name, par.Type})
			}
			g.vars = 0
			m.Body = g.expr(m.Ret, false, rapid.IntRange(0, 4).Draw(t, "depth"))
		}
	}
	return &Program{
		File:        "gen.jl",
		Classes:     g.classes,
		EntryClass:  g.classes[0].Name,
		EntryMethod: g.classes[0].Methods[0].Name,
	}
}

type gen struct {
	t       *rapid.T
	classes []*Class
	scope   []genVar // innermost last
	vars    int      // var declarations so far in the method, for names
}

type genVar struct {
	name string
	typ  TypeName
}

// typeName draws a class, or with allowPrim also bool or int.
func (g *gen) typeName(allowPrim bool) TypeName {
	n := len(g.classes)
	if allowPrim {
		n += 2
	}
	switch i := rapid.IntRange(0, n-1).Draw(g.t, "type"); i - len(g.classes) {
	case 0:
		return TypeName{Name: "bool"}
	case 1:
		return TypeName{Name: "int"}
	default:
		return TypeName{Name: g.classes[i].Name}
	}
}

func (g *gen) class(name string) *Class {
	for _, c := range g.classes {
		if c.Name == name {
			return c
		}
	}
	panic("gen: no class " + name)
}

// visible returns the variables of type want that are in scope and not
// shadowed, so that a use resolves to the intended declaration.
func (g *gen) visible(want TypeName) []string {
	var out []string
	seen := map[string]bool{}
	for i := len(g.scope) - 1; i >= 0; i-- {
		v := g.scope[i]
		if seen[v.name] {
			continue
		}
		seen[v.name] = true
		if v.typ == want {
			out = append(out, v.name)
		}
	}
	return out
}

// expr draws an expression whose static type is assignable to want. With
// strict, a class type must be met exactly, never by the null type: a
// receiver needs a static class.
func (g *gen) expr(want TypeName, strict bool, depth int) Expr {
	t := g.t
	vars := g.visible(want)
	isBool, isInt := want.IsBool(), want.IsInt()
	// Leaves first: they are the only choice at depth 0.
	leaf := func() Expr {
		var opts []func() Expr
		if len(vars) > 0 {
			opts = append(opts, func() Expr { return &Var{Name: rapid.SampledFrom(vars).Draw(t, "var")} })
		}
		switch {
		case isBool:
			opts = append(opts, func() Expr { return &Lit{Kind: LitTrue} }, func() Expr { return &Lit{Kind: LitFalse} })
		case isInt:
			opts = append(opts, func() Expr {
				// Small numbers, and the ends of the range (whose printed
				// form is the longest and carries a sign).
				v := rapid.OneOf(rapid.Int64Range(-3, 3), rapid.SampledFrom([]int64{MinInt, MaxInt})).Draw(t, "int")
				return &IntLit{Val: v}
			})
		default:
			opts = append(opts, func() Expr { return &New{ClassName: want.Name} })
			if !strict {
				opts = append(opts, func() Expr { return &Lit{Kind: LitNull} })
			}
		}
		return opts[rapid.IntRange(0, len(opts)-1).Draw(t, "leaf")]()
	}
	if depth <= 0 {
		return leaf()
	}
	d := depth - 1
	kinds := []string{"leaf", "if", "begin", "var", "call", "read", "write"}
	switch {
	case isBool:
		kinds = append(kinds, "eq", "compare", "assume")
	case isInt:
		kinds = append(kinds, "arith")
	}
	if len(vars) > 0 && vars[0] != "this" {
		kinds = append(kinds, "assign")
	}
	switch rapid.SampledFrom(kinds).Draw(t, "kind") {
	case "if":
		return &If{
			Cond: g.expr(TypeName{Name: "bool"}, true, d),
			Then: g.expr(want, strict, d),
			Else: g.expr(want, false, d),
		}
	case "begin":
		b := &Begin{}
		for range rapid.IntRange(0, 2).Draw(t, "stmts") {
			b.Exprs = append(b.Exprs, g.expr(g.typeName(true), false, d))
		}
		b.Exprs = append(b.Exprs, g.expr(want, strict, d))
		return b
	case "var":
		g.vars++
		name := fmt.Sprintf("v%d", g.vars)
		if len(g.scope) > 1 && g.scope[len(g.scope)-1].name != "this" && rapid.Bool().Draw(t, "shadow") {
			name = g.scope[len(g.scope)-1].name // shadow the innermost variable
		}
		typ := g.typeName(true)
		init := g.expr(typ, false, d)
		g.scope = append(g.scope, genVar{name, typ})
		body := g.expr(want, strict, d)
		g.scope = g.scope[:len(g.scope)-1]
		return &VarDecl{DeclType: typ, Name: name, Init: init, Body: body}
	case "call":
		var cands []*Method
		for _, c := range g.classes {
			for _, m := range c.Methods {
				if m.Ret == want {
					cands = append(cands, m)
				}
			}
		}
		if len(cands) == 0 {
			return leaf()
		}
		m := rapid.SampledFrom(cands).Draw(t, "method")
		owner := g.ownerOf(m)
		call := &Call{Recv: g.expr(TypeName{Name: owner.Name}, true, d), MethodName: m.Name}
		for _, par := range m.Params {
			call.Args = append(call.Args, g.expr(par.Type, false, d))
		}
		return call
	case "read":
		var cands []*Field
		for _, c := range g.classes {
			for _, f := range c.Fields {
				if f.Type == want {
					cands = append(cands, f)
				}
			}
		}
		if len(cands) == 0 {
			return leaf()
		}
		f := rapid.SampledFrom(cands).Draw(t, "field")
		return &FieldAccess{X: g.expr(TypeName{Name: g.fieldOwner(f).Name}, true, d), FieldName: f.Name}
	case "write":
		// A write to a field of type want through a variable in scope.
		type target struct {
			v string
			f *Field
		}
		var cands []target
		for _, c := range g.classes {
			for _, v := range g.visible(TypeName{Name: c.Name}) {
				for _, f := range c.Fields {
					if f.Type == want {
						cands = append(cands, target{v, f})
					}
				}
			}
		}
		if len(cands) == 0 {
			return leaf()
		}
		tg := rapid.SampledFrom(cands).Draw(t, "target")
		return &FieldWrite{VarName: tg.v, FieldName: tg.f.Name, Value: g.expr(want, false, d)}
	case "eq":
		typ := g.typeName(true)
		return &Equals{L: g.expr(typ, false, d), R: g.expr(typ, false, d)}
	case "compare", "arith":
		ops := []BinOp{OpLt, OpLe}
		if isInt {
			ops = []BinOp{OpAdd, OpSub}
		}
		op := rapid.SampledFrom(ops).Draw(t, "op")
		i := TypeName{Name: "int"}
		return &Binary{Op: op, L: g.expr(i, false, d), R: g.expr(i, false, d)}
	case "assume":
		return &Assume{X: g.expr(want, false, d)}
	case "assign":
		v := rapid.SampledFrom(vars).Draw(t, "assignee")
		if v == "this" {
			return leaf()
		}
		return &Assign{VarName: v, Value: g.expr(want, false, d)}
	}
	return leaf()
}

func (g *gen) ownerOf(m *Method) *Class {
	for _, c := range g.classes {
		for _, x := range c.Methods {
			if x == m {
				return c
			}
		}
	}
	panic("gen: method without class")
}

func (g *gen) fieldOwner(f *Field) *Class {
	for _, c := range g.classes {
		for _, x := range c.Fields {
			if x == f {
				return c
			}
		}
	}
	panic("gen: field without class")
}
