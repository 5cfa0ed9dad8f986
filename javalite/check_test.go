package javalite

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func mustCheck(t *testing.T, src string) *Program {
	t.Helper()
	p, err := ParseAndCheck("t.jl", []byte(src))
	if err != nil {
		t.Fatalf("ParseAndCheck: %v", err)
	}
	return p
}

// TestCheckPrograms loads every test program: they must all be well typed,
// and Check must fill in everything ast.go promises.
func TestCheckPrograms(t *testing.T) {
	for _, path := range append(programFiles(t), dataFiles(t)...) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			p, err := LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if msg := checkResolved(p); msg != "" {
				t.Fatal(msg)
			}
			// Every program says where it comes from.
			src, _ := os.ReadFile(path)
			if !strings.HasPrefix(string(src), ";") {
				t.Errorf("no header comment")
			}
			// Symbolic input enters only through fields of this (RULES.md
			// §2): the entry's parameters are fixed, so they must not be needed.
			for _, par := range p.Entry.Params {
				if par.T.Kind != KindBool && par.T.Kind != KindInt && par.T.Kind != KindClass {
					t.Errorf("entry parameter type %v", par.T)
				}
			}
		})
	}
}

func TestCheckLinkedList(t *testing.T) {
	p := mustCheck(t, briefExample)
	data, node, main := p.ByName["Data"], p.ByName["Node"], p.ByName["Main"]
	if data.Index != 0 || node.Index != 1 || main.Index != 2 {
		t.Fatalf("class indexes %d %d %d", data.Index, node.Index, main.Index)
	}
	// Global field IDs follow declaration order across classes.
	var names []string
	for i, f := range p.Fields {
		if f.ID != i {
			t.Errorf("field %s has ID %d at %d", f.Name, f.ID, i)
		}
		names = append(names, f.Owner.Name+"."+f.Name+":"+f.Class.Name)
	}
	if want := []string{"Node.next:Node", "Node.data:Data", "Main.head:Node", "Main.d0:Data"}; !slices.Equal(names, want) {
		t.Errorf("fields %v, want %v", names, want)
	}
	contains := node.Methods[0]
	if p.Entry != main.Methods[0] || contains.NumSlots != 2 || len(contains.Params) != 1 || contains.Params[0].T.Class != data || contains.Params[0].Slot != 1 || contains.RetT.Kind != KindBool {
		t.Errorf("methods not resolved: entry %v, contains %+v", p.Entry, contains)
	}
	// The bodies have 15 and 5 expressions, numbered in pre-order.
	if p.NumExpr != 20 {
		t.Errorf("NumExpr = %d, want 20", p.NumExpr)
	}
	outer := contains.Body.(*If)
	cmp := outer.Cond.(*Equals)
	if outer.Id != 0 || cmp.Id != 1 || cmp.L.ID() != 2 || cmp.R.ID() != 3 || outer.Then.ID() != 4 || outer.Else.ID() != 5 {
		t.Errorf("IDs not in pre-order: %d %d %d %d %d %d", outer.Id, cmp.Id, cmp.L.ID(), cmp.R.ID(), outer.Then.ID(), outer.Else.ID())
	}
	if !cmp.Refs || cmp.L.Type().Class != node || cmp.R.Type().Kind != KindNull {
		t.Errorf("this = null: Refs %v, types %v %v", cmp.Refs, cmp.L.Type(), cmp.R.Type())
	}
	call := outer.Else.(*If).Else.(*Call)
	if call.Method != contains || call.Recv.(*FieldAccess).Field != node.Fields[0] || len(call.Args) != 1 || call.Args[0].(*Var).Slot != 1 {
		t.Errorf("recursive call not resolved")
	}
	entryCall := p.Entry.Body.(*Call)
	if entryCall.Method != contains || entryCall.Args[0].(*FieldAccess).Field != main.Fields[1] || entryCall.Recv.(*FieldAccess).X.(*Var).Slot != SlotThis {
		t.Errorf("entry call not resolved")
	}
}

func TestCheckSlotsAndShadowing(t *testing.T) {
	p := mustCheck(t, `(((class A ()
    ((A m [A p]
       (var A x := p in
         (begin (var A y := x in y)
                (var A x := x in (x := p))
                x))))))
 (A m))`)
	m := p.Entry
	if m.NumSlots != 5 {
		t.Fatalf("NumSlots = %d, want 5", m.NumSlots)
	}
	outer := m.Body.(*VarDecl)
	b := outer.Body.(*Begin)
	y := b.Exprs[0].(*VarDecl)
	inner := b.Exprs[1].(*VarDecl)
	slots := []int{
		outer.Slot, outer.Init.(*Var).Slot,
		y.Slot, y.Init.(*Var).Slot, y.Body.(*Var).Slot,
		inner.Slot, inner.Init.(*Var).Slot, inner.Body.(*Assign).Slot, inner.Body.(*Assign).Value.(*Var).Slot,
		b.Exprs[2].(*Var).Slot,
	}
	// The inner x's initializer still sees the outer x; its body sees the
	// inner one; after it ends, x is the outer one again.
	if want := []int{2, 1, 3, 2, 3, 4, 2, 4, 1, 2}; !slices.Equal(slots, want) {
		t.Errorf("slots %v, want %v", slots, want)
	}
}

func TestCheckTypes(t *testing.T) {
	p := mustCheck(t, `(((class B () ())
  (class A ([B f])
    ((B m [bool c]
       (begin (if c null else (new B))
              (if c null else null)
              (this $ f := null)
              (var B b := null in (b := null))
              (c = (null = this))
              (this $ f))))))
 (A m))`)
	b := p.Entry.Body.(*Begin)
	var got []string
	for _, e := range b.Exprs {
		got = append(got, e.Type().String())
	}
	// A class and null join to the class; a write and an assignment have
	// the type of their target; begin has the type of its last expression.
	if want := []string{"B", "null", "B", "B", "bool", "B"}; !slices.Equal(got, want) {
		t.Errorf("types %v, want %v", got, want)
	}
	if b.Type().String() != "B" {
		t.Errorf("begin type %v", b.Type())
	}
	eq := b.Exprs[4].(*Equals)
	if eq.Refs || !eq.R.(*Equals).Refs {
		t.Errorf("Refs: outer %v (want false), inner %v (want true)", eq.Refs, eq.R.(*Equals).Refs)
	}
}

func TestCheckForwardReferences(t *testing.T) {
	// Classes and methods may be used before they are declared: recursion
	// is Javalite's only loop.
	mustCheck(t, `(((class A ([B f]) ((bool m [B b] (b @ n this))))
  (class B () ((bool n [A a] (a @ m (new B))))))
 (A m))`)
}

func TestCheckIsRepeatable(t *testing.T) {
	p := mustCheck(t, briefExample)
	var before []int
	walkExprs(p, func(_ *Method, e Expr) { before = append(before, e.ID()) })
	if err := Check(p); err != nil {
		t.Fatal(err)
	}
	var after []int
	walkExprs(p, func(_ *Method, e Expr) { after = append(after, e.ID()) })
	if !slices.Equal(before, after) || len(p.Fields) != 4 || checkResolved(p) != "" {
		t.Errorf("second Check changed the result")
	}
}

func TestCheckErrorsSorted(t *testing.T) {
	// Errors are found in passes (declarations, bodies, entry) but are
	// reported by position.
	_, err := ParseAndCheck("t.jl", []byte(`(((class A () ((bool m [bool x] y)))
  (class A () ((bool n [bool x] z))))
 (B m))`))
	errs := errorList(t, err)
	var lines []int
	for _, e := range errs {
		lines = append(lines, e.Pos.Line)
	}
	if !slices.IsSorted(lines) || len(errs) != 4 {
		t.Errorf("errors not sorted or missing: %v", err)
	}
}

func TestCheckHandBuiltTrees(t *testing.T) {
	// Parse never produces these, but generators build trees directly and
	// Check must still reject what the engines cannot run.
	a := &Class{Name: "A"}
	a.Fields = []*Field{{Name: "f", Type: TypeName{Name: "B"}}}
	x := func() []*Param { return []*Param{{Type: TypeName{Name: "bool"}, Name: "x"}} }
	a.Methods = []*Method{
		{Name: "m", Ret: TypeName{Name: "bool"}, Params: x()},
		{Name: "n", Ret: TypeName{Name: "bool"}, Params: x(), Body: &Begin{}},
	}
	p := &Program{Classes: []*Class{a}, EntryClass: "A", EntryMethod: "m"}
	errs := errorList(t, Check(p))
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Msg)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"unknown class `B`", "has no body", "`(begin)` needs"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
}

func TestLoadFileErrors(t *testing.T) {
	if _, err := LoadFile(filepath.Join(t.TempDir(), "missing.jl")); err == nil {
		t.Error("LoadFile of a missing file succeeded")
	}
	path := filepath.Join(t.TempDir(), "bad.jl")
	if err := os.WriteFile(path, []byte("(((class A () ())) (A m))"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFile(path)
	errs := errorList(t, err)
	if len(errs) != 1 || errs[0].Pos.File != path {
		t.Errorf("got %v", err)
	}
}

func TestCheckData(t *testing.T) {
	// PRIMITIVES.md §1: primitive fields split from reference fields,
	// parameters in slots 1..n and vars after them, and the types of the
	// new forms.
	p := mustCheck(t, `(((class A ([A next] [int key] [bool red] [A prev])
    ((bool m [int k] [A a] [bool b]
       (var int s := (k + (this $ key)) in
         (begin (assume (s <= k))
                (this $ key := (s - 1))
                (this $ red := ((a = null) = b))
                (if ((this $ red) = b) (s < 0) else (k = (this $ key))))))
     (int zero 0))))
 (A m))`)
	a := p.ByName["A"]
	var ref, prim []string
	for _, f := range a.RefFields {
		ref = append(ref, f.Name)
	}
	for _, f := range a.PrimFields {
		prim = append(prim, f.Name+":"+f.T.String())
	}
	require.Equal(t, []string{"next", "prev"}, ref)
	require.Equal(t, []string{"key:int", "red:bool"}, prim)
	require.Equal(t, []int{0, 1, 2, 3}, []int{a.Fields[0].ID, a.Fields[1].ID, a.Fields[2].ID, a.Fields[3].ID}, "IDs stay global, in declaration order")
	require.Nil(t, a.Fields[1].Class)
	require.True(t, a.Fields[1].IsPrim() && !a.Fields[0].IsPrim())
	require.Same(t, a, a.Fields[3].Class)

	m := a.MethodNamed("m")
	require.Same(t, a.Methods[0], m)
	require.Same(t, a.Fields[2], a.FieldNamed("red"))
	require.Nil(t, a.MethodNamed("nothing"))
	require.Len(t, m.Params, 3)
	for i, par := range m.Params {
		require.Equal(t, 1+i, par.Slot)
	}
	require.Equal(t, KindInt, m.Params[0].T.Kind)
	require.Same(t, a, m.Params[1].T.Class)
	require.Equal(t, KindBool, m.Params[2].T.Kind)
	require.Equal(t, 5, m.NumSlots, "this, three parameters, one var")
	zero := a.MethodNamed("zero")
	require.Empty(t, zero.Params)
	require.Equal(t, 1, zero.NumSlots)
	require.Equal(t, int64(0), zero.Body.(*IntLit).Val)

	d := m.Body.(*VarDecl)
	require.Equal(t, 4, d.Slot)
	sum := d.Init.(*Binary)
	require.Equal(t, OpAdd, sum.Op)
	require.Equal(t, KindInt, sum.Type().Kind)
	b := d.Body.(*Begin)
	as := b.Exprs[0].(*Assume)
	require.Equal(t, KindBool, as.Type().Kind)
	require.Equal(t, OpLe, as.X.(*Binary).Op)
	require.Equal(t, KindBool, as.X.Type().Kind)
	eqs := b.Exprs[2].(*FieldWrite).Value.(*Equals)
	require.False(t, eqs.Refs, "bool = bool")
	require.True(t, eqs.L.(*Equals).Refs, "a = null")
	cond := b.Exprs[3].(*If)
	require.False(t, cond.Else.(*Equals).Refs, "int = int")
	require.Equal(t, KindBool, cond.Type().Kind)
	require.Equal(t, "", checkResolved(p))
}

func TestCheckHandBuiltData(t *testing.T) {
	// Generators build data trees directly: Check rejects a literal out of
	// range and an unknown operator, which Parse cannot produce.
	a := &Class{Name: "A"}
	a.Methods = []*Method{{Name: "m", Ret: TypeName{Name: "int"},
		Body: &Binary{Op: OpAdd, L: &IntLit{Val: MaxInt + 1}, R: &Binary{Op: OpLe + 1, L: &IntLit{Val: MinInt}, R: &IntLit{Val: 1}}}}}
	p := &Program{Classes: []*Class{a}, EntryClass: "A", EntryMethod: "m"}
	errs := errorList(t, Check(p))
	all := errs.Error()
	require.Contains(t, all, "integer literal 2147483648 out of range")
	require.Contains(t, all, "unknown binary operator 4")
	require.NotContains(t, all, "-2147483648 out of range")
	_ = PrintExpr(a.Methods[0].Body) // must not panic on the bad operator
}

func TestLoadFileLimits(t *testing.T) {
	// An endless input is refused after MaxInputSize bytes, with the
	// position where the limit is crossed.
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := LoadFile("/dev/zero")
		errs := errorList(t, err)
		require.Len(t, errs, 1)
		require.Equal(t, Pos{File: "/dev/zero", Line: 1, Col: MaxInputSize + 1}, errs[0].Pos)
		require.Contains(t, errs[0].Msg, "input larger than the limit of 16777216 bytes")
	}
	// Exactly MaxInputSize bytes is accepted (a program padded with a
	// comment line and blank lines).
	prog := "(((class A () ((bool m [bool x] x)))) (A m))\n"
	pad := MaxInputSize - len(prog)
	src := prog + ";" + strings.Repeat("x", pad/2) + strings.Repeat("\n", pad-pad/2-1)
	require.Len(t, src, MaxInputSize)
	path := filepath.Join(t.TempDir(), "big.jl")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	_, err := LoadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte(src+"\n"), 0o644))
	_, err = LoadFile(path)
	errs := errorList(t, err)
	require.Len(t, errs, 1)
	require.Equal(t, Pos{File: path, Line: 2 + pad - pad/2 - 1, Col: 1}, errs[0].Pos, "the first byte past the limit")
}

func TestErrorCap(t *testing.T) {
	// Garbage yields MaxErrors diagnostics and one saying the rest were
	// dropped, not one per bad token.
	_, err := Parse("g.jl", []byte(strings.Repeat("1x ", 10*MaxErrors)))
	errs := errorList(t, err)
	require.Len(t, errs, MaxErrors+1)
	require.Contains(t, errs[MaxErrors].Msg, "too many errors")
}
