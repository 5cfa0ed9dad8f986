package concrete_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// A tiny generator of well-typed Javalite programs for the oracle's tests.
// It stays beside package gen (which these tests use too: gen.Programs in
// TestOracleGenPrograms) because it draws the programs gen is built never to
// draw: gen guards every recursion so that each path terminates (gen.go,
// "Termination"), while this one allows unguarded recursion, so some paths
// loop and are cut by the step bound, and the oracle must agree with GSE
// on cut paths too. Folding it into gen would mean a gen option whose
// only purpose is to break gen's own termination guarantee. It is
// type-directed: every expression is drawn for a wanted type in a scope of
// typed variables. Programs are small (few fields) so that every input heap
// of depth ≤ 2 can be enumerated.

type gclass struct {
	name   string
	fields []gfield
	meths  []gmeth
}

type gfield struct{ name, typ string }

type gmeth struct {
	ret, name, ptype, pname string
}

type gvar struct{ name, typ string }

type progGen struct {
	r       *rand.Rand
	classes []*gclass
	budget  int
}

func genProgram(seed uint64) string {
	g := &progGen{r: rand.New(rand.NewPCG(seed, 0x6c6f636b))}
	nc := 1 + g.r.IntN(2)
	for i := 0; i < nc; i++ {
		g.classes = append(g.classes, &gclass{name: fmt.Sprintf("C%d", i)})
	}
	for i, c := range g.classes {
		nf := g.r.IntN(3)
		if i == 0 {
			nf = 1 + g.r.IntN(2)
		}
		for j := 0; j < nf; j++ {
			c.fields = append(c.fields, gfield{fmt.Sprintf("f%d%d", i, j), g.classes[g.r.IntN(nc)].name})
		}
		nm := g.r.IntN(2)
		if i == 0 {
			nm = 1 + g.r.IntN(2)
		}
		for j := 0; j < nm; j++ {
			m := gmeth{ret: g.typ(), name: fmt.Sprintf("m%d", j), ptype: g.typ(), pname: "p"}
			if i == 0 && j == 0 {
				// The entry's parameter is true (RULES.md §2); a bool keeps
				// it useful instead of a null that ends most paths early.
				m.name, m.ptype = "main", "bool"
			}
			c.meths = append(c.meths, m)
		}
	}
	var b strings.Builder
	b.WriteString("((")
	for _, c := range g.classes {
		fmt.Fprintf(&b, "(class %s (", c.name)
		for _, f := range c.fields {
			fmt.Fprintf(&b, "[%s %s] ", f.typ, f.name)
		}
		b.WriteString(") (")
		for _, m := range c.meths {
			g.budget = 12
			scope := []gvar{{"this", c.name}, {m.pname, m.ptype}}
			body := g.expr(m.ret, scope, 0)
			if m.name == "main" {
				// Input enters through fields of this: start with a few
				// reads and comparisons so that most programs branch.
				body = fmt.Sprintf("(begin %s %s %s)", g.expr("bool", scope, 1), g.expr(g.typ(), scope, 1), body)
			}
			fmt.Fprintf(&b, "(%s %s [%s %s] %s)\n", m.ret, m.name, m.ptype, m.pname, body)
		}
		b.WriteString("))\n")
	}
	b.WriteString(") (C0 main))\n")
	return b.String()
}

func (g *progGen) typ() string {
	if g.r.IntN(3) == 0 {
		return "bool"
	}
	return g.classes[g.r.IntN(len(g.classes))].name
}

func (g *progGen) class(name string) *gclass {
	for _, c := range g.classes {
		if c.name == name {
			return c
		}
	}
	return nil
}

// recv draws an expression of a class type that has a field or method
// (strict: never the literal null), or "" if there is none.
func (g *progGen) recv(scope []gvar, depth int, want func(*gclass) bool) (string, *gclass) {
	var opts []gvar
	for _, v := range scope {
		if c := g.class(v.typ); c != nil && want(c) {
			opts = append(opts, v)
		}
	}
	if len(opts) == 0 {
		return "", nil
	}
	v := opts[g.r.IntN(len(opts))]
	c := g.class(v.typ)
	if depth < 3 && g.r.IntN(3) == 0 && len(c.fields) > 0 {
		// a chain (v $ f) when it still leads to a wanted class
		f := c.fields[g.r.IntN(len(c.fields))]
		if fc := g.class(f.typ); want(fc) {
			return fmt.Sprintf("(%s $ %s)", v.name, f.name), fc
		}
	}
	return v.name, c
}

func (g *progGen) vars(scope []gvar, typ string) []gvar {
	var out []gvar
	for _, v := range scope {
		if v.typ == typ {
			out = append(out, v)
		}
	}
	return out
}

func (g *progGen) expr(typ string, scope []gvar, depth int) string {
	g.budget--
	leaf := depth >= 4 || g.budget <= 0
	for tries := 0; ; tries++ {
		alt := g.r.IntN(11)
		if alt == 10 {
			alt = 1 // field reads weigh more
		}
		if leaf || tries > 20 {
			alt = 0
		}
		switch alt {
		case 0: // a variable or a literal
			vs := g.vars(scope, typ)
			if len(vs) > 0 && g.r.IntN(3) > 0 {
				return vs[g.r.IntN(len(vs))].name
			}
			if typ == "bool" {
				return []string{"true", "false"}[g.r.IntN(2)]
			}
			if g.r.IntN(2) == 0 {
				for _, v := range scope {
					if c := g.class(v.typ); c != nil {
						for _, f := range c.fields {
							if f.typ == typ && g.r.IntN(2) == 0 {
								return fmt.Sprintf("(%s $ %s)", v.name, f.name)
							}
						}
					}
				}
			}
			if g.r.IntN(4) == 0 {
				return fmt.Sprintf("(new %s)", typ)
			}
			return "null"
		case 1, 2: // field read
			if typ == "bool" {
				continue
			}
			x, c := g.recv(scope, depth, func(c *gclass) bool {
				for _, f := range c.fields {
					if f.typ == typ {
						return true
					}
				}
				return false
			})
			if c == nil {
				continue
			}
			var fs []gfield
			for _, f := range c.fields {
				if f.typ == typ {
					fs = append(fs, f)
				}
			}
			return fmt.Sprintf("(%s $ %s)", x, fs[g.r.IntN(len(fs))].name)
		case 3: // comparison
			if typ != "bool" {
				continue
			}
			ct := g.classes[g.r.IntN(len(g.classes))].name
			if g.r.IntN(4) == 0 {
				ct = "bool"
			}
			return fmt.Sprintf("(%s = %s)", g.expr(ct, scope, depth+1), g.expr(ct, scope, depth+1))
		case 4: // if
			return fmt.Sprintf("(if %s %s else %s)", g.expr("bool", scope, depth+1), g.expr(typ, scope, depth+1), g.expr(typ, scope, depth+1))
		case 5: // var
			vt := g.typ()
			name := fmt.Sprintf("v%d", len(scope))
			init := g.expr(vt, scope, depth+1)
			body := g.expr(typ, append(append([]gvar(nil), scope...), gvar{name, vt}), depth+1)
			return fmt.Sprintf("(var %s %s := %s in %s)", vt, name, init, body)
		case 6: // call
			type cand struct {
				c *gclass
				m gmeth
			}
			var cs []cand
			for _, c := range g.classes {
				for _, m := range c.meths {
					if m.ret == typ {
						cs = append(cs, cand{c, m})
					}
				}
			}
			if len(cs) == 0 {
				continue
			}
			ch := cs[g.r.IntN(len(cs))]
			vs := g.vars(scope, ch.c.name)
			if len(vs) == 0 {
				continue
			}
			recv := vs[g.r.IntN(len(vs))].name
			if len(ch.c.fields) > 0 && g.r.IntN(2) == 0 {
				// call on a field of the right class, if one is in scope
				for _, v := range scope {
					if vc := g.class(v.typ); vc != nil {
						for _, f := range vc.fields {
							if f.typ == ch.c.name {
								recv = fmt.Sprintf("(%s $ %s)", v.name, f.name)
							}
						}
					}
				}
			}
			return fmt.Sprintf("(%s @ %s %s)", recv, ch.m.name, g.expr(ch.m.ptype, scope, depth+1))
		case 7: // field write, value of the field's class
			var ws []string
			for _, v := range scope {
				if c := g.class(v.typ); c != nil && v.name != "" {
					for _, f := range c.fields {
						if f.typ == typ {
							ws = append(ws, v.name+" "+f.name)
						}
					}
				}
			}
			if len(ws) == 0 {
				continue
			}
			w := strings.Fields(ws[g.r.IntN(len(ws))])
			return fmt.Sprintf("(%s $ %s := %s)", w[0], w[1], g.expr(typ, scope, depth+1))
		case 8: // assignment to a local or the parameter
			var vs []gvar
			for _, v := range g.vars(scope, typ) {
				if v.name != "this" {
					vs = append(vs, v)
				}
			}
			if len(vs) == 0 {
				continue
			}
			return fmt.Sprintf("(%s := %s)", vs[g.r.IntN(len(vs))].name, g.expr(typ, scope, depth+1))
		case 9: // begin
			n := 1 + g.r.IntN(2)
			parts := make([]string, 0, n+1)
			for i := 0; i < n; i++ {
				parts = append(parts, g.expr(g.typ(), scope, depth+1))
			}
			parts = append(parts, g.expr(typ, scope, depth+1))
			return "(begin " + strings.Join(parts, " ") + ")"
		}
	}
}
