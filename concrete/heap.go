// Package concrete is the oracle for GSE itself: a concrete interpreter of
// Javalite on a fully built input heap, and an enumerator of every input
// heap up to a size and depth bound.
//
// GSE claims that its paths are exactly the control-flow sequences of the
// program over all input heaps (within the k-bound). The oracle checks that
// claim from the other side: build every small heap, run the program on it,
// and compare the control-flow sequence each concrete run follows with the
// sequences of the GSE paths.
//
// There are two interpreters, on purpose:
//
//   - Run is a third engine on the shared machine (package machine): its heap
//     rules read the fixed concrete input heap instead of branching. When a
//     field of an input location is read for the first time, the concrete
//     target decides which of GSE's initialization choices is "the" choice
//     (null, a location already mapped to that object = alias, or a new input
//     location = new), and Run makes exactly that choice with the same
//     reference allocation as GSE. Controls (η e k), stack references
//     included, are therefore comparable literally with GSE's, and a run's
//     control-flow sequence is a digest of the rule names and ControlKeys it
//     passes through.
//   - Interpret is a plain recursive interpreter with its own heap and
//     environment that shares no code with the machine. It emits the rule
//     name of every step it would take (RULES.md §3, §5), so comparing its
//     rule sequence, outcome and value with Run's checks the machine's common
//     rules independently; Run alone would inherit any bug they have.
//
// Depth. GSE's k-bound limits a "new" initialization by the depth of the
// location whose field is read, and that depth is the length of the access
// path along which the program first reached the object, not the shortest
// path in the heap. Heaps are enumerated by shortest-path (BFS) depth ≤ k;
// Run reports BeyondK when the program first reaches an object along a
// longer path than k allows. Completeness (every GSE path has a concrete
// heap) needs no filter: a GSE path's input locations, with uninitialized
// fields set to null, form a heap of BFS depth ≤ k that follows the path.
// Soundness (every concrete run is a GSE path) holds for runs that are not
// BeyondK.
//
// Data (PRIMITIVES.md §6). An object holds a number or a boolean in every
// primitive field (Object.Prim). Integers are Go int64 with mathematical
// semantics checked for overflow: a computation that leaves int64 aborts
// the run as out of range (Result.OutOfRange), never wraps. Inputs draws
// the primitive fields of the input objects from a small domain (Domain:
// every literal of the program, its neighbours ±1, and 0; false and true
// for bool fields). A run whose (assume e) finds e false ends as pruned
// (Result.Pruned): not a result, as no engine counts it as a path. On the
// machine (Run) an input object's primitive fields hold their
// initial-value symbols α(l, f), as in GSE, and the concrete engine
// decides If (sym) and Assume by evaluating the term under the heap's
// values; Interpret computes with the numbers themselves.
package concrete

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep-dev/lockstep/javalite"
)

// Null is the field value of a null field in a Heap.
const Null = -1

// Object is one object of a concrete heap.
type Object struct {
	Class *javalite.Class
	// Fields holds, per field of Class in declaration order (Field.Index),
	// the number of the object a reference field points to, or Null (and
	// Null for a primitive field).
	Fields []int
	// Prim holds, per field (Field.Index), the value of a primitive field:
	// the number of an int field, 0 or 1 for a bool field (0 for a
	// reference field). Nil when the class has no primitive field.
	Prim []int64
}

// Heap is a concrete input heap. Object 0 is the entry receiver `this`.
type Heap struct {
	Objects []Object
}

// String prints the heap as o0:Main{head:o1 d0:null} o1:Node{…}.
func (h *Heap) String() string {
	var b strings.Builder
	for i, o := range h.Objects {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "o%d:%s{", i, o.Class.Name)
		for j, f := range o.Class.Fields {
			if j > 0 {
				b.WriteByte(' ')
			}
			switch {
			case f.T.Kind == javalite.KindInt:
				fmt.Fprintf(&b, "%s:%d", f.Name, o.Prim[j])
			case f.T.Kind == javalite.KindBool:
				fmt.Fprintf(&b, "%s:%t", f.Name, o.Prim[j] != 0)
			case o.Fields[j] == Null:
				fmt.Fprintf(&b, "%s:null", f.Name)
			default:
				fmt.Fprintf(&b, "%s:o%d", f.Name, o.Fields[j])
			}
		}
		b.WriteByte('}')
	}
	return b.String()
}

// Validate reports whether h is a well-typed heap for p: object 0 is of the
// entry class, every reference field points to null or an object of the
// field's class, and every primitive field holds a value of its type (a
// bool 0 or 1; any int64: input symbols are mathematical integers).
func (h *Heap) Validate(p *javalite.Program) error {
	if len(h.Objects) == 0 {
		return fmt.Errorf("concrete: empty heap (object 0 is the entry receiver)")
	}
	if h.Objects[0].Class != p.Entry.Owner {
		return fmt.Errorf("concrete: object 0 is a %s, the entry method is in %s", h.Objects[0].Class.Name, p.Entry.Owner.Name)
	}
	for i, o := range h.Objects {
		if len(o.Fields) != len(o.Class.Fields) {
			return fmt.Errorf("concrete: o%d has %d field values, class %s has %d fields", i, len(o.Fields), o.Class.Name, len(o.Class.Fields))
		}
		if len(o.Class.PrimFields) > 0 && len(o.Prim) != len(o.Fields) {
			return fmt.Errorf("concrete: o%d has %d primitive values, class %s has %d fields", i, len(o.Prim), o.Class.Name, len(o.Class.Fields))
		}
		for j, t := range o.Fields {
			if f := o.Class.Fields[j]; f.IsPrim() {
				v := o.Prim[j]
				if t != Null {
					return fmt.Errorf("concrete: o%d.%s is primitive, points to o%d", i, f.Name, t)
				}
				if f.T.Kind == javalite.KindBool && v != 0 && v != 1 {
					return fmt.Errorf("concrete: o%d.%s is a bool, holds %d", i, f.Name, v)
				}
				continue
			}
			if t == Null {
				continue
			}
			if t < 0 || t >= len(h.Objects) {
				return fmt.Errorf("concrete: o%d.%s points to o%d, which does not exist", i, o.Class.Fields[j].Name, t)
			}
			if h.Objects[t].Class != o.Class.Fields[j].Class {
				return fmt.Errorf("concrete: o%d.%s is a %s, points to o%d of class %s", i, o.Class.Fields[j].Name, o.Class.Fields[j].Class.Name, t, h.Objects[t].Class.Name)
			}
		}
	}
	return nil
}

// Heaps calls visit on every input heap of p whose objects are all
// reachable from object 0, with at most maxObjects objects and every object
// at BFS depth ≤ maxDepth (object 0 has depth 0). Each heap is produced once
// up to isomorphism: objects are numbered in BFS order from object 0,
// visiting fields in declaration order, and only that numbering is built.
// The heap passed to visit is reused afterwards; Clone it to keep it.
// Returning false from visit stops the enumeration; Heaps reports whether it
// ran to the end.
func Heaps(p *javalite.Program, maxObjects, maxDepth int, visit func(*Heap) bool) bool {
	if maxObjects < 1 {
		return true
	}
	e := &enum{maxObjects: maxObjects, maxDepth: maxDepth, visit: visit}
	e.add(p.Entry.Owner, 0)
	return e.fill(0, 0)
}

type enum struct {
	h          Heap
	depth      []int
	maxObjects int
	maxDepth   int
	visit      func(*Heap) bool
}

func (e *enum) add(c *javalite.Class, depth int) int {
	e.h.Objects = append(e.h.Objects, newObject(c))
	e.depth = append(e.depth, depth)
	return len(e.h.Objects) - 1
}

// fill chooses field fi of object oi and everything after it in BFS order.
// Objects are created in the order their first pointer is chosen and are
// processed in creation order, so the numbering is BFS order by
// construction: a new object is always the next number, which is what makes
// each shape appear exactly once.
func (e *enum) fill(oi, fi int) bool {
	for oi < len(e.h.Objects) && fi >= len(e.h.Objects[oi].Fields) {
		oi, fi = oi+1, 0
	}
	if oi == len(e.h.Objects) {
		return e.visit(&e.h)
	}
	o := e.h.Objects[oi]
	if o.Class.Fields[fi].IsPrim() {
		// Primitive fields are not part of the shape: Inputs draws them.
		return e.fill(oi, fi+1)
	}
	c := o.Class.Fields[fi].Class
	// null
	o.Fields[fi] = Null
	if !e.fill(oi, fi+1) {
		return false
	}
	// an object that already exists (alias, including o itself and object 0)
	n := len(e.h.Objects)
	for t := 0; t < n; t++ {
		if e.h.Objects[t].Class != c {
			continue
		}
		o.Fields[fi] = t
		if !e.fill(oi, fi+1) {
			return false
		}
	}
	// a new object, if the bounds allow it
	if n < e.maxObjects && e.depth[oi]+1 <= e.maxDepth {
		t := e.add(c, e.depth[oi]+1)
		o.Fields[fi] = t
		ok := e.fill(oi, fi+1)
		e.h.Objects = e.h.Objects[:n]
		e.depth = e.depth[:n]
		if !ok {
			return false
		}
	}
	o.Fields[fi] = Null
	return true
}

// newObject is an object of class c with every reference field null and
// every primitive field 0 (false): Java's defaults, what (new C) makes.
func newObject(c *javalite.Class) Object {
	fs := make([]int, len(c.Fields))
	for i := range fs {
		fs[i] = Null
	}
	o := Object{Class: c, Fields: fs}
	if len(c.PrimFields) > 0 {
		o.Prim = make([]int64, len(c.Fields))
	}
	return o
}

// Clone returns a deep copy of h.
func (h *Heap) Clone() *Heap {
	c := &Heap{Objects: make([]Object, len(h.Objects))}
	for i, o := range h.Objects {
		c.Objects[i] = Object{Class: o.Class, Fields: append([]int(nil), o.Fields...)}
		if o.Prim != nil {
			c.Objects[i].Prim = append([]int64(nil), o.Prim...)
		}
	}
	return c
}

// Domain is the small domain the input valuations of int fields are drawn
// from (PRIMITIVES.md §6): every integer literal n of p, n - 1 and n + 1,
// and 0, sorted, each once. A program's branches compare input data with
// its literals (and with other input data), so the values on both sides of
// every literal reach both outcomes of such a comparison.
func Domain(p *javalite.Program) []int64 {
	d := []int64{0}
	for _, n := range Literals(p) {
		d = append(d, n-1, n, n+1)
	}
	slices.Sort(d)
	return slices.Compact(d)
}

// Literals are the integer literals of p, sorted, each once.
func Literals(p *javalite.Program) []int64 {
	var d []int64
	for _, c := range p.Classes {
		for _, m := range c.Methods {
			javalite.Walk(m.Body, func(e javalite.Expr) {
				if n, ok := e.(*javalite.IntLit); ok {
					d = append(d, n.Val)
				}
			})
		}
	}
	slices.Sort(d)
	return slices.Compact(d)
}

// Inputs calls visit on every input of p: every heap shape of Heaps(p,
// maxObjects, maxDepth) with every valuation of its objects' primitive
// fields, the int fields over domain and the bool fields over false, true
// (the last field varies fastest). A program without primitive fields gets
// exactly the heaps of Heaps. The heap passed to visit is reused
// afterwards; Clone it to keep it. Returning false from visit stops the
// enumeration; Inputs reports whether it ran to the end.
func Inputs(p *javalite.Program, maxObjects, maxDepth int, domain []int64, visit func(*Heap) bool) bool {
	return Heaps(p, maxObjects, maxDepth, func(h *Heap) bool {
		return Valuations(h, domain, visit)
	})
}

// Valuations calls visit on h under every valuation of its primitive
// fields (ints over domain, bools over false and true), in odometer order,
// and leaves every primitive field of h at its first value afterwards. An
// int field with an empty domain has no valuation: visit is never called.
// It reports whether visit never said stop.
func Valuations(h *Heap, domain []int64, visit func(*Heap) bool) bool {
	type slot struct {
		o, f int
		vals []int64
	}
	bools := []int64{0, 1}
	var slots []slot
	for i, o := range h.Objects {
		for _, f := range o.Class.PrimFields {
			vals := domain
			if f.T.Kind == javalite.KindBool {
				vals = bools
			}
			if len(vals) == 0 {
				return true
			}
			slots = append(slots, slot{i, f.Index, vals})
		}
	}
	idx := make([]int, len(slots))
	set := func(j int) { h.Objects[slots[j].o].Prim[slots[j].f] = slots[j].vals[idx[j]] }
	for j := range slots {
		set(j)
	}
	defer func() {
		for j := range slots {
			idx[j] = 0
			set(j)
		}
	}()
	for {
		if !visit(h) {
			return false
		}
		j := len(slots) - 1
		for ; j >= 0; j-- {
			idx[j]++
			if idx[j] < len(slots[j].vals) {
				set(j)
				break
			}
			idx[j] = 0
			set(j)
		}
		if j < 0 {
			return true
		}
	}
}
