package javalite

import (
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

const (
	programsDir = "../testdata/programs"
	errorsDir   = "../testdata/errors"
	dataDir     = "../testdata/data"
)

// dataFiles lists testdata/data/*.jl: programs with primitive data
// (PRIMITIVES.md §1), kept apart from testdata/programs, which every engine's
// tests run, until the engines execute data.
func dataFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dataDir, "*.jl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs in %s (err %v)", dataDir, err)
	}
	return files
}

// programFiles lists testdata/programs/*.jl; the test fails if there are none,
// so a moved directory cannot make the round-trip test pass vacuously.
func programFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(programsDir, "*.jl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs in %s (err %v)", programsDir, err)
	}
	return files
}

// errorList converts the error of Parse or Check to its list of diagnostics.
func errorList(t testing.TB, err error) ErrorList {
	t.Helper()
	if err == nil {
		return nil
	}
	var l ErrorList
	if !errors.As(err, &l) {
		t.Fatalf("error is %T, not ErrorList: %v", err, err)
	}
	return l
}

// stripPositions zeroes every Pos in the tree under v (a pointer), so that two
// parses of differently laid out texts compare equal with reflect.DeepEqual.
// It must run before Check: checked trees have back pointers (Owner), and the
// walk does not track visited nodes.
func stripPositions(v any) {
	var walk func(reflect.Value)
	posType := reflect.TypeFor[Pos]()
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			if v.Type() == posType {
				v.Set(reflect.Zero(posType))
				return
			}
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(v))
}

// sameTree reports whether two unchecked programs are equal up to positions.
// It strips the positions of both.
func sameTree(a, b *Program) bool {
	stripPositions(a)
	stripPositions(b)
	return reflect.DeepEqual(a, b)
}

// walkExprs calls f on every expression of p in the pre-order Check numbers
// them in.
func walkExprs(p *Program, f func(m *Method, e Expr)) {
	for _, cl := range p.Classes {
		for _, m := range cl.Methods {
			var rec func(Expr)
			rec = func(e Expr) {
				f(m, e)
				for _, c := range Children(e) {
					rec(c)
				}
			}
			rec(m.Body)
		}
	}
}

// checkResolved asserts the promises ast.go makes about a checked program:
// every "set by Check" field is filled in and consistent. It returns the
// first violation, or "" when there is none.
func checkResolved(p *Program) string {
	if p.Entry == nil || p.Entry.Owner == nil || p.Entry.Owner.Name != p.EntryClass || p.Entry.Name != p.EntryMethod {
		return "entry not resolved"
	}
	for i, cl := range p.Classes {
		if cl.Index != i || p.ByName[cl.Name] != cl {
			return "class " + cl.Name + " not indexed"
		}
		var refs, prims []*Field
		for _, f := range cl.Fields {
			if f.IsPrim() {
				prims = append(prims, f)
			} else {
				refs = append(refs, f)
			}
		}
		if !slices.Equal(refs, cl.RefFields) || !slices.Equal(prims, cl.PrimFields) {
			return "class " + cl.Name + ": RefFields/PrimFields do not split Fields"
		}
		for j, f := range cl.Fields {
			if f.Owner != cl || f.Index != j || f.ID < 0 || f.ID >= len(p.Fields) || p.Fields[f.ID] != f || f.T.Kind == KindInvalid ||
				f.T.IsPrim() != (f.Class == nil) || f.Class != nil && f.Class.Name != f.Type.Name || f.T.String() != f.Type.Name {
				return "field " + f.Name + " not resolved"
			}
		}
		for _, m := range cl.Methods {
			if m.Owner != cl || m.RetT.Kind == KindInvalid || m.NumSlots < 1+len(m.Params) {
				return "method " + m.Name + " not resolved"
			}
			for i, par := range m.Params {
				if par.T.Kind == KindInvalid || par.Slot != 1+i || par.T.String() != par.Type.Name {
					return "parameter " + par.Name + " of " + m.Name + " not resolved"
				}
			}
		}
	}
	next := 0
	msg := ""
	slots := map[*Method]map[int]bool{}
	walkExprs(p, func(m *Method, e Expr) {
		if msg != "" {
			return
		}
		fail := func(s string) { msg = PrintExpr(e) + ": " + s }
		if e.ID() != next {
			fail("ID out of pre-order")
			return
		}
		next++
		t := e.Type()
		if t.Kind == KindInvalid || t.Kind == KindClass && t.Class == nil {
			fail("no static type")
			return
		}
		slotOK := func(s int) bool { return s >= 0 && s < m.NumSlots }
		switch e := e.(type) {
		case *Var:
			if !slotOK(e.Slot) || e.Name == "this" && e.Slot != SlotThis {
				fail("bad slot")
			}
		case *New:
			if e.Class == nil || t.Class != e.Class {
				fail("class not resolved")
			}
		case *FieldAccess:
			xt := e.X.Type()
			if e.Field == nil || xt.Kind != KindClass || e.Field.Owner != xt.Class || t != e.Field.T || xt.Class.FieldNamed(e.FieldName) != e.Field {
				fail("field not resolved in the static class")
			}
		case *FieldWrite:
			if e.Field == nil || !slotOK(e.Slot) || e.Field.Name != e.FieldName {
				fail("field write not resolved")
			}
		case *Equals:
			lt, rt := e.L.Type(), e.R.Type()
			if e.Refs != lt.IsRef() || e.Refs != rt.IsRef() || t.Kind != KindBool || !e.Refs && lt.Kind != rt.Kind {
				fail("Refs wrong")
			}
		case *IntLit:
			if t.Kind != KindInt || e.Val < MinInt || e.Val > MaxInt {
				fail("int literal wrong")
			}
		case *Binary:
			want := KindBool
			if e.Op == OpAdd || e.Op == OpSub {
				want = KindInt
			}
			if t.Kind != want || e.L.Type().Kind != KindInt || e.R.Type().Kind != KindInt {
				fail("binary operation mistyped")
			}
		case *Assume:
			if t.Kind != KindBool || e.X.Type().Kind != KindBool {
				fail("assume mistyped")
			}
		case *If:
			if e.Cond.Type().Kind != KindBool {
				fail("if on a non-bool")
			}
		case *VarDecl:
			if slots[m] == nil {
				slots[m] = map[int]bool{}
			}
			if e.Slot < 1+len(m.Params) || !slotOK(e.Slot) || slots[m][e.Slot] {
				fail("var slot not fresh")
			}
			slots[m][e.Slot] = true
		case *Call:
			rt := e.Recv.Type()
			if e.Method == nil || rt.Kind != KindClass || e.Method.Owner != rt.Class || t != e.Method.RetT || len(e.Args) != len(e.Method.Params) || rt.Class.MethodNamed(e.MethodName) != e.Method {
				fail("method not resolved in the static class")
				return
			}
			for i, a := range e.Args {
				if at, pt := a.Type(), e.Method.Params[i].T; at != pt && !(at.Kind == KindNull && pt.Kind == KindClass) {
					fail("argument mistyped")
				}
			}
		case *Assign:
			if !slotOK(e.Slot) || e.Slot == SlotThis {
				fail("bad assignment slot")
			}
		}
	})
	if msg == "" && next != p.NumExpr {
		msg = "NumExpr does not match the number of expressions"
	}
	return msg
}
