package jvm

import (
	"fmt"
	"strings"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// Outcome prints how lockstep's interpreter ended a run, in the form of
// the export's runCase: "value V | HEAP", "error | HEAP", "pruned | HEAP",
// "range | HEAP" or "cut"; an object result is followed by " | created
// oK", its number in creation order (concrete.Value.Obj). final is the heap the run left
// (concrete.InterpretFinal) and nInputs the number of input objects.
func Outcome(res concrete.Result, final *concrete.Heap, nInputs int) string {
	switch {
	case res.Pruned:
		return "pruned | " + Canonical(final, nInputs, concrete.Value{Obj: concrete.Null}, nil)
	case res.OutOfRange:
		return "range | " + Canonical(final, nInputs, concrete.Value{Obj: concrete.Null}, nil)
	case res.Kind == machine.EndCut:
		return "cut"
	case res.Kind == machine.EndError:
		return "error | " + Canonical(final, nInputs, concrete.Value{Obj: concrete.Null}, nil)
	}
	var v string
	heap := Canonical(final, nInputs, res.Value, &v)
	if !res.Value.IsInt && !res.Value.IsBool && res.Value.Obj != concrete.Null {
		return fmt.Sprintf("value %s | %s | created o%d", v, heap, res.Value.Obj)
	}
	return "value " + v + " | " + heap
}

// Canonical prints the part of h reachable from its first nInputs objects
// (the inputs) and from the result value, numbered as the export's $Canon
// numbers the JVM's heap: the inputs keep o0..on-1, then breadth-first
// (objects in number order, reference fields in declaration order) from
// the inputs, then from the result. When value is not nil it receives the
// printed result.
func Canonical(h *concrete.Heap, nInputs int, res concrete.Value, value *string) string {
	num := make(map[int]int, len(h.Objects))
	var order []int
	visit := func(o int) {
		if o == concrete.Null {
			return
		}
		if _, ok := num[o]; !ok {
			num[o] = len(order)
			order = append(order, o)
		}
	}
	done := 0
	closeAll := func() {
		for ; done < len(order); done++ {
			o := h.Objects[order[done]]
			for _, f := range o.Class.RefFields {
				visit(o.Fields[f.Index])
			}
		}
	}
	for i := range nInputs {
		visit(i)
	}
	closeAll()
	if value != nil {
		switch {
		case res.IsInt:
			*value = fmt.Sprint(res.Int)
		case res.IsBool:
			*value = fmt.Sprint(res.Bool)
		case res.Obj == concrete.Null:
			*value = "null"
		default:
			visit(res.Obj)
			closeAll()
			*value = fmt.Sprintf("o%d", num[res.Obj])
		}
	}
	ref := func(o int) string {
		if o == concrete.Null {
			return "null"
		}
		return fmt.Sprintf("o%d", num[o])
	}
	var b strings.Builder
	for i, oi := range order {
		if i > 0 {
			b.WriteByte(' ')
		}
		o := h.Objects[oi]
		fmt.Fprintf(&b, "o%d:%s{", i, o.Class.Name)
		for j, f := range o.Class.Fields {
			if j > 0 {
				b.WriteByte(' ')
			}
			switch f.T.Kind {
			case javalite.KindInt:
				fmt.Fprintf(&b, "%s:%d", f.Name, o.Prim[j])
			case javalite.KindBool:
				fmt.Fprintf(&b, "%s:%t", f.Name, o.Prim[j] != 0)
			default:
				fmt.Fprintf(&b, "%s:%s", f.Name, ref(o.Fields[j]))
			}
		}
		b.WriteByte('}')
	}
	return b.String()
}
