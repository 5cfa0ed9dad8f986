package gen

import (
	"sort"
	"testing"

	"github.com/lockstep-dev/lockstep/javalite"
)

// features are the aliasing situations a program exercises; the generator's
// weights are tuned so that most programs show several of them.
type features struct {
	readsThis  bool // the entry body reads a field of this
	chain      bool // a read of length ≥ 2
	aliasWrite bool // a write through a local variable
	writeRead  bool // a write, then a read of the same field through another receiver
	newWritten bool // (x $ f := (new C))
	eqNull     bool // (e = null) or (null = e)
	eqRefs     bool // (e1 = e2) on two non-null references
	call       bool // a call of another method
	selfCall   bool // a guarded recursive call

	// Data (PRIMITIVES.md §6).
	intField  bool // an int field is read or written
	boolIf    bool // (if (e $ f) …) on a bool field f
	arith     bool // (e + e) or (e - e)
	cmp       bool // (e < e), (e <= e) or (e = e) on ints
	bst       bool // (if ((e $ key) < e) …): the BST idiom
	intGuard  bool // a recursive call under an integer guard, passing (x + 1)
	params    bool // a method with two or more parameters
	assume    bool // (assume e) at the entry
	dataInput bool // the entry reads a primitive field of the input
}

func featuresOf(p *javalite.Program) features {
	var ft features
	for _, cl := range p.Classes {
		for _, m := range cl.Methods {
			if len(m.Params) >= 2 {
				ft.params = true
			}
			javalite.Walk(m.Body, func(e javalite.Expr) {
				switch e := e.(type) {
				case *javalite.FieldAccess:
					if v, ok := e.X.(*javalite.Var); ok && v.Name == "this" && m == p.Entry {
						ft.readsThis = true
						if e.Field.IsPrim() {
							ft.dataInput = true
						}
					}
					if e.Field.T.Kind == javalite.KindInt {
						ft.intField = true
					}
					if _, ok := e.X.(*javalite.FieldAccess); ok {
						ft.chain = true
					}
				case *javalite.FieldWrite:
					if e.Field.T.Kind == javalite.KindInt {
						ft.intField = true
					}
					if e.VarName != "this" && e.VarName != paramName {
						ft.aliasWrite = true
					}
					if _, ok := e.Value.(*javalite.New); ok {
						ft.newWritten = true
					}
				case *javalite.Binary:
					switch e.Op {
					case javalite.OpAdd, javalite.OpSub:
						ft.arith = true
					default:
						ft.cmp = true
					}
				case *javalite.If:
					if fa, ok := e.Cond.(*javalite.FieldAccess); ok && fa.Field.T.Kind == javalite.KindBool {
						ft.boolIf = true
					}
					if bin, ok := e.Cond.(*javalite.Binary); ok && (bin.Op == javalite.OpLt || bin.Op == javalite.OpLe) {
						if fa, ok := bin.L.(*javalite.FieldAccess); ok && fa.Field.T.Kind == javalite.KindInt {
							ft.bst = true
						}
					}
				case *javalite.Assume:
					ft.assume = true
				case *javalite.Equals:
					if !e.Refs && e.L.Type().Kind == javalite.KindInt {
						ft.cmp = true
					}
					if e.Refs {
						if isNull(e.L) || isNull(e.R) {
							ft.eqNull = true
						} else {
							ft.eqRefs = true
						}
					}
				case *javalite.Call:
					if e.Method == m {
						ft.selfCall = true
						if len(e.Args) > 0 {
							if _, ok := e.Args[0].(*javalite.Binary); ok {
								ft.intGuard = true
							}
						}
					} else {
						ft.call = true
					}
				case *javalite.Begin:
					if writeThenOtherRead(e, false) {
						ft.writeRead = true
					}
				}
			})
		}
	}
	return ft
}

func isNull(e javalite.Expr) bool {
	l, ok := e.(*javalite.Lit)
	return ok && l.Kind == javalite.LitNull
}

// writeThenOtherRead reports whether a begin writes a field through a
// variable and a later expression of it reads the same field through a
// different receiver expression; with compared, only reads that are an
// operand of a reference comparison count.
func writeThenOtherRead(bg *javalite.Begin, compared bool) bool {
	for i, s := range bg.Exprs {
		w, ok := s.(*javalite.FieldWrite)
		if !ok {
			continue
		}
		for _, later := range bg.Exprs[i+1:] {
			found := false
			check := func(e javalite.Expr) {
				if fa, ok := e.(*javalite.FieldAccess); ok && fa.Field == w.Field {
					if v, ok := fa.X.(*javalite.Var); !ok || v.Name != w.VarName {
						found = true
					}
				}
			}
			javalite.Walk(later, func(e javalite.Expr) {
				if !compared {
					check(e)
				} else if eq, ok := e.(*javalite.Equals); ok && eq.Refs {
					check(eq.L)
					check(eq.R)
				}
			})
			if found {
				return true
			}
		}
	}
	return false
}

// TestFeatureRates measures, on a fixed batch, how often generated programs
// show each aliasing situation, and their printed size. The floors are well
// below the measured rates (logged); a failure means a change to the
// weights made the programs much less interesting.
type featureFloor struct {
	name  string
	has   func(features) bool
	floor float64
}

// TestFeatureRates: the reference-only stream (NoData) keeps the rates it
// always had; the default stream keeps the reference idioms common (lower
// floors: data takes part of every program) and shows every data idiom.
func TestFeatureRates(t *testing.T) {
	t.Run("none", func(t *testing.T) { featureRates(t, NoData, referenceFloors(1)) })
	t.Run("mixed", func(t *testing.T) {
		floors := append(referenceFloors(0.75), []featureFloor{
			{"an int field read or written", func(f features) bool { return f.intField }, 0.35},
			{"the entry reads input data", func(f features) bool { return f.dataInput }, 0.30},
			{"(if (e $ bool field) …)", func(f features) bool { return f.boolIf }, 0.03},
			{"arithmetic", func(f features) bool { return f.arith }, 0.15},
			{"int comparison", func(f features) bool { return f.cmp }, 0.35},
			{"the BST idiom", func(f features) bool { return f.bst }, 0.10},
			{"integer-guarded recursion", func(f features) bool { return f.intGuard }, 0.01},
			{"several parameters", func(f features) bool { return f.params }, 0.25},
			{"assume at the entry", func(f features) bool { return f.assume }, 0.20},
		}...)
		featureRates(t, Default.WithData(DataMixed), floors)
	})
}

// referenceFloors are the floors of the reference idioms, scaled.
func referenceFloors(scale float64) []featureFloor {
	fs := []featureFloor{
		{"entry reads a field of this", func(f features) bool { return f.readsThis }, 0.80},
		{"read chain of length ≥ 2", func(f features) bool { return f.chain }, 0.60},
		{"write through a local", func(f features) bool { return f.aliasWrite }, 0.25},
		{"write, then read via another receiver", func(f features) bool { return f.writeRead }, 0.20},
		{"(new C) written to a field", func(f features) bool { return f.newWritten }, 0.25},
		{"comparison with null", func(f features) bool { return f.eqNull }, 0.20},
		{"comparison of two references", func(f features) bool { return f.eqRefs }, 0.30},
		{"call of another method", func(f features) bool { return f.call }, 0.12},
		{"guarded recursive call", func(f features) bool { return f.selfCall }, 0.05},
	}
	for i := range fs {
		fs[i].floor *= scale
	}
	return fs
}

func featureRates(t *testing.T, cfg Config, floors []featureFloor) {
	n := 1000
	if soak() {
		n = 20000
	}
	ps := Programs(7, n, cfg)
	counts := make([]int, len(floors))
	var lines []int
	for _, p := range ps {
		checkRoundTrip(t, p)
		ft := featuresOf(p)
		for i, fl := range floors {
			if fl.has(ft) {
				counts[i]++
			}
		}
		lines = append(lines, Lines(p))
	}
	for i, fl := range floors {
		rate := float64(counts[i]) / float64(n)
		t.Logf("%-40s %5.1f%%", fl.name, 100*rate)
		if rate < fl.floor {
			t.Errorf("%s in %.1f%% of programs, want at least %.0f%%", fl.name, 100*rate, 100*fl.floor)
		}
	}
	sort.Ints(lines)
	med, p90 := lines[n/2], lines[9*n/10]
	t.Logf("printed lines: min %d, p10 %d, median %d, p90 %d, max %d", lines[0], lines[n/10], med, p90, lines[n-1])
	if med < 5 || med > 15 || p90 > 25 {
		t.Errorf("printed size median %d, p90 %d: want a median in 5..15 and p90 ≤ 25", med, p90)
	}
}
