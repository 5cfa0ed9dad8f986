package gen

import (
	"context"
	"testing"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// terminationViolation checks the structural reason why generated programs
// terminate (see the package comment): calls go forward in declaration
// order, a method calls itself only with false inside (if x …) on its bool
// parameter x, or with (x + 1) inside (if (x < n) …) on its int parameter
// x, every other call of a method that recurses so passes a literal ≥ 0
// for x (x is a counted bound, never symbolic), and parameters are never
// assigned. It describes the first violation, or returns "".
func terminationViolation(p *javalite.Program) (violation string) {
	order := map[*javalite.Method]int{}
	for _, cl := range p.Classes {
		for _, m := range cl.Methods {
			order[m] = len(order)
		}
	}
	// counted: the methods whose int x guards a recursion.
	counted := map[*javalite.Method]bool{}
	for _, cl := range p.Classes {
		for _, m := range cl.Methods {
			javalite.Walk(m.Body, func(e javalite.Expr) {
				if c, ok := e.(*javalite.Call); ok && c.Method == m && len(m.Params) > 0 && m.Params[0].T.Kind == javalite.KindInt {
					counted[m] = true
				}
			})
		}
	}
	isParam := func(m *javalite.Method, slot int) bool { return slot >= 1 && slot <= len(m.Params) }
	isX := func(m *javalite.Method, e javalite.Expr) bool {
		v, ok := e.(*javalite.Var)
		return ok && len(m.Params) > 0 && v.Slot == m.Params[0].Slot
	}
	var visit func(m *javalite.Method, e javalite.Expr, guarded bool)
	fail := func(m *javalite.Method, e javalite.Expr, why string) {
		if violation == "" {
			violation = why + " in " + m.Name + ": " + javalite.PrintExpr(e)
		}
	}
	visit = func(m *javalite.Method, e javalite.Expr, guarded bool) {
		switch e := e.(type) {
		case *javalite.Call:
			switch {
			case e.Method == m:
				if !guarded {
					fail(m, e, "unguarded recursive call")
				}
				switch {
				case len(e.Args) == 0:
					fail(m, e, "recursive call without a guard parameter")
				case m.Params[0].T.Kind == javalite.KindBool:
					if l, ok := e.Args[0].(*javalite.Lit); !ok || l.Kind != javalite.LitFalse {
						fail(m, e, "recursive call with an argument other than false")
					}
				default:
					bin, ok := e.Args[0].(*javalite.Binary)
					if !ok || bin.Op != javalite.OpAdd || !isX(m, bin.L) {
						fail(m, e, "recursive call with an argument other than (x + 1)")
					} else if l, ok := bin.R.(*javalite.IntLit); !ok || l.Val != 1 {
						fail(m, e, "recursive call with an argument other than (x + 1)")
					}
				}
			case order[e.Method] <= order[m]:
				fail(m, e, "call backwards in declaration order")
			case counted[e.Method]:
				if l, ok := e.Args[0].(*javalite.IntLit); !ok || l.Val < 0 {
					fail(m, e, "call of a counted method with a bound that is not a literal ≥ 0")
				}
			}
			visit(m, e.Recv, guarded)
			for _, a := range e.Args {
				visit(m, a, guarded)
			}
			return
		case *javalite.Assign:
			if isParam(m, e.Slot) {
				fail(m, e, "assignment to a parameter")
			}
		case *javalite.If:
			guard := isX(m, e.Cond) && m.Params[0].T.Kind == javalite.KindBool
			if bin, ok := e.Cond.(*javalite.Binary); ok && bin.Op == javalite.OpLt && isX(m, bin.L) {
				_, lit := bin.R.(*javalite.IntLit)
				guard = lit
			}
			if guard {
				visit(m, e.Then, true)
				visit(m, e.Else, guarded)
				return
			}
		}
		for _, x := range javalite.Children(e) {
			visit(m, x, guarded)
		}
	}
	for _, cl := range p.Classes {
		for _, m := range cl.Methods {
			visit(m, m.Body, false)
		}
	}
	return violation
}

func TestTerminationStructure(t *testing.T) {
	for _, cfg := range []Config{Default, NoData} {
		for _, p := range Programs(3, 500, cfg) {
			if v := terminationViolation(p); v != "" {
				t.Fatalf("%s\n%s", v, javalite.Print(p))
			}
		}
	}
	// The check itself must catch each kind of violation.
	bad := map[string]string{
		"unguarded": "(((class A ([A f]) ((bool main [bool x] ((this $ f) @ main false))))) (A main))",
		"true arg":  "(((class A ([A f]) ((bool main [bool x] (if x ((this $ f) @ main true) else false))))) (A main))",
		"backwards": "(((class A () ((bool main [bool x] (this @ m1 x)) (bool m1 [bool x] (this @ main x))))) (A main))",
		"assign":    "(((class A () ((bool main [bool x] (begin (x := true) (if x (this @ main false) else x)))))) (A main))",
		"x - 1":     "(((class A ([A f]) ((bool main [int x] (if (x < 2) ((this $ f) @ main (x - 1)) else false))))) (A main))",
		"symbolic":  "(((class A ([A f] [int k]) ((bool main [int x] ((this $ f) @ m1 (this $ k))) (bool m1 [int x] (if (x < 2) ((this $ f) @ m1 (x + 1)) else false))))) (A main))",
		"no guard":  "(((class A ([A f]) ((bool main [int x] (if (0 < x) ((this $ f) @ main (x + 1)) else false))))) (A main))",
	}
	for name, src := range bad {
		p, err := javalite.ParseAndCheck(name, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if terminationViolation(p) == "" {
			t.Errorf("%s: no violation found in %s", name, src)
		}
	}
	for _, good := range []string{
		"(((class A ([A f]) ((bool main [bool x] (if x ((this $ f) @ main false) else x))))) (A main))",
		"(((class A ([A f] [int k]) ((bool main [int x] ((this $ f) @ m1 2 3)) (bool m1 [int x] [int i] (if (x < 2) ((this $ f) @ m1 (x + 1) (this $ k)) else false))))) (A main))",
	} {
		p, err := javalite.ParseAndCheck("good", []byte(good))
		if err != nil {
			t.Fatal(err)
		}
		if v := terminationViolation(p); v != "" {
			t.Errorf("guarded recursion rejected: %s", v)
		}
	}
}

// TestPathsEndByThemselves runs GSE on generated programs: every path must
// end in a value or an error within the step bound the checker uses,
// because recursion is guarded (the bound is a safety net, not how paths
// end); without data always, with data in all but rare programs, whose
// paths end within ten times the bound. Counts are logged; a program with very many paths is explored only
// up to a cap, which leaves its counts a lower bound but still shows cuts.
func TestPathsEndByThemselves(t *testing.T) {
	n, bound := 150, 200
	if soak() {
		n = 3000
	}
	const pathCap = 20000
	var ends [4]int64
	var paths, most int64
	long := 0
	ps := append(Programs(11, n, Default), Programs(11, n/3, NoData)...)
	for i, p := range ps {
		var seen int64
		st, err := machine.Explore(context.Background(), machine.Initial(p), gse.New(2), bound,
			func(*machine.State, machine.EndKind) bool { seen++; return seen < pathCap })
		if err != nil {
			t.Fatalf("program %d: GSE: %v\n%s", i, err, javalite.Print(p))
		}
		for k := range ends {
			ends[k] += st.Ends[k]
		}
		paths += st.Paths
		most = max(most, st.Paths)
		if st.Ends[machine.EndCut] > 0 {
			// A long path, not an endless one: with data, counted methods
			// nest (a self-call in an argument of another counted call),
			// which makes rare paths longer than the bound. It must end
			// under ten times the bound, and such programs stay rare.
			long++
			seen = 0
			st, err := machine.Explore(context.Background(), machine.Initial(p), gse.New(2), 10*bound,
				func(*machine.State, machine.EndKind) bool { seen++; return seen < pathCap })
			if err != nil || st.Ends[machine.EndCut] > 0 || i >= n {
				t.Errorf("program %d: GSE paths cut at %d steps (data: %v)\n%s", i, bound, i < n, javalite.Print(p))
			}
		}
	}
	if long > len(ps)/100 {
		t.Errorf("%d of %d programs have a GSE path longer than %d steps, want at most 1%%", long, len(ps), bound)
	}
	t.Logf("%d programs (%d with data): %d GSE paths (at most %d in one), ends: %d value, %d error, %d cut, %d stuck",
		len(ps), n, paths, most, ends[machine.EndValue], ends[machine.EndError], ends[machine.EndCut], ends[machine.EndStuck])
}
