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
package concrete

import (
	"fmt"
	"strings"

	"github.com/lockstep-dev/lockstep/javalite"
)

// Null is the field value of a null field in a Heap.
const Null = -1

// Object is one object of a concrete heap.
type Object struct {
	Class *javalite.Class
	// Fields holds, per field of Class in declaration order (Field.Index),
	// the number of the object it points to, or Null.
	Fields []int
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
			if o.Fields[j] == Null {
				fmt.Fprintf(&b, "%s:null", f.Name)
			} else {
				fmt.Fprintf(&b, "%s:o%d", f.Name, o.Fields[j])
			}
		}
		b.WriteByte('}')
	}
	return b.String()
}

// Validate reports whether h is a well-typed heap for p: object 0 is of the
// entry class and every field points to null or an object of the field's
// class.
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
		for j, t := range o.Fields {
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
	fs := make([]int, len(c.Fields))
	for i := range fs {
		fs[i] = Null
	}
	e.h.Objects = append(e.h.Objects, Object{Class: c, Fields: fs})
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

// Clone returns a deep copy of h.
func (h *Heap) Clone() *Heap {
	c := &Heap{Objects: make([]Object, len(h.Objects))}
	for i, o := range h.Objects {
		c.Objects[i] = Object{Class: o.Class, Fields: append([]int(nil), o.Fields...)}
	}
	return c
}
