package smt

import (
	"errors"
	"testing"
)

func TestModel(t *testing.T) {
	s, err := NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	x, y := Sym(Ref(1), 0, SortInt), Sym(Ref(2), 0, SortInt)
	b := Sym(Ref(1), 1, SortBool)
	f := And(Lt(x, y), Lt(y, Int(-3)), Not(b))
	r, vals, err := s.Model(f, []*Formula{x, y, b, Sub(y, x)})
	if err != nil || r != Sat {
		t.Fatalf("Model = %v, %v", r, err)
	}
	if !(vals[0] < vals[1] && vals[1] < -3 && vals[2] == 0 && vals[3] == vals[1]-vals[0]) {
		t.Fatalf("values %v are no model of %s", vals, f)
	}
	// The values satisfy f under EvalData.
	v, ok := f.EvalData(func(a, b Ref) bool { return a == b }, func(sym *Formula) int64 {
		switch sym {
		case x:
			return vals[0]
		case y:
			return vals[1]
		}
		return vals[2]
	})
	if !ok || v != 1 {
		t.Fatalf("EvalData of the model = %d, %v", v, ok)
	}
	r, vals, err = s.Model(And(Lt(x, y), Lt(y, x)), []*Formula{x})
	if err != nil || r != Unsat || vals != nil {
		t.Fatalf("unsat Model = %v, %v, %v", r, vals, err)
	}
	// A symbol f does not mention still gets a value (model completion).
	z := Sym(Ref(3), 0, SortInt)
	if r, vals, err = s.Model(Lt(x, Int(0)), []*Formula{z}); err != nil || r != Sat || len(vals) != 1 {
		t.Fatalf("completion: %v, %v, %v", r, vals, err)
	}
	if err := s.Assume(Lt(x, y)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Model(True(), nil); !errors.Is(err, ErrAssuming) {
		t.Fatalf("under an assumption: %v", err)
	}
}
