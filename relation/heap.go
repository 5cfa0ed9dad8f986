package relation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Target is where a field or a root of a concrete Heap points: a location
// index of the heap (≥ 0), TNull or TUn.
type Target int32

const (
	TNull Target = -1
	TUn   Target = -2
)

func (t Target) String() string {
	switch t {
	case TNull:
		return "null"
	case TUn:
		return "un"
	}
	return fmt.Sprintf("h%d", int32(t))
}

// HeapLoc is one object of a concrete heap.
type HeapLoc struct {
	Class  *javalite.Class
	Input  bool
	Fields []Target    // by index in Class.Fields
	Orig   machine.Loc // the state's location it came from (diagnostics only)
}

// Root is a root edge: a stack reference of η, e or k (or r_null) and where
// it points.
type Root struct {
	Ref machine.Ref
	To  Target
}

// Heap is a small concrete heap graph: what a GSE state is, and what a
// summary state stands for under one assignment of its input references.
type Heap struct {
	Locs  []HeapLoc
	Roots []Root // sorted by Ref
	// Assignment is the assignment a concretization was built from: the
	// conjunction of the projected equality literals. Nil for HeapOf. A
	// concretization keeps its literals (lits) and builds the conjunction
	// only when printed (AssignmentFormula): thousands of heaps are built
	// per check, and interning a conjunction per heap was a tenth of a
	// large check's time.
	Assignment *smt.Formula
	lits       []*smt.Formula
	// canon is canonicalNames' answer, kept (when named): a heap is not
	// changed once built, and a GSE state's heap is named by several
	// questions. It is held in the heap, not behind a pointer of its own:
	// nearly every heap built is named.
	canon canonForm
	named bool
}

// HeapCache keeps HeapOf's answers for the states of one step (Budget.Heaps):
// a GSE state is not changed once it is in a group (the checker steps a
// clone), so its heap is built once. A nil *HeapCache builds every time.
type HeapCache struct {
	m map[*machine.State]heapAnswer
	// same holds, per state, a heap of an earlier state whose heap part
	// the state has (Same): its heap is built from it (HeapOfSame).
	same map[*machine.State]*Heap
}

// Same tells c that p's heap part (L of every reference but the stack
// references, R, the locations, φ and the facts) is that of the state h
// was built from by HeapOf: HeapOf(p) is then HeapOfSame(p, h). The
// caller vouches for it (the checker, by machine.State.HeapWrites).
func (c *HeapCache) Same(p *machine.State, h *Heap) {
	if c == nil || h == nil {
		return
	}
	if c.same == nil {
		c.same = map[*machine.State]*Heap{}
	}
	c.same[p] = h
}

// Built is the heap HeapOf built for p through c, or nil.
func (c *HeapCache) Built(p *machine.State) *Heap {
	if c == nil {
		return nil
	}
	return c.m[p].h
}

type heapAnswer struct {
	h   *Heap
	err error
}

// NewHeapCache returns an empty cache.
func NewHeapCache() *HeapCache { return &HeapCache{m: map[*machine.State]heapAnswer{}} }

// Reset empties c for the states of another step, as NewHeapCache would
// give it, keeping its maps' space (a cache per step was a fortieth of a
// check's bytes). Nothing of what c held is answered after it.
func (c *HeapCache) Reset() {
	clear(c.m)
	clear(c.same)
}

// HeapOf is HeapOf(p), built once per p.
func (c *HeapCache) HeapOf(p *machine.State) (*Heap, error) {
	if c == nil {
		return HeapOf(p)
	}
	if a, ok := c.m[p]; ok {
		return a.h, a.err
	}
	var (
		h   *Heap
		err error
	)
	if prev := c.same[p]; prev != nil {
		h, err = HeapOfSame(p, prev)
	} else {
		h, err = HeapOf(p)
	}
	c.m[p] = heapAnswer{h, err}
	return h, err
}

// AssignmentFormula is Assignment, built from the literals of a
// concretization when it was not built yet; nil for HeapOf.
func (h *Heap) AssignmentFormula() *smt.Formula {
	if h.Assignment == nil && h.lits != nil {
		h.Assignment = smt.And(h.lits...)
	}
	return h.Assignment
}

func (h *Heap) String() string {
	var b strings.Builder
	b.WriteString("roots{")
	for i, r := range h.Roots {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s→%v", machine.RefString(r.Ref), r.To)
	}
	b.WriteString("}")
	for i, l := range h.Locs {
		fmt.Fprintf(&b, " h%d=%s", i, l.Class.Name)
		if l.Input {
			b.WriteByte('*')
		}
		fmt.Fprintf(&b, "(from %v)[", l.Orig)
		for j, t := range l.Fields {
			if j > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%s:%v", l.Class.Fields[j].Name, t)
		}
		b.WriteByte(']')
	}
	if a := h.AssignmentFormula(); a != nil {
		b.WriteString(" under ")
		b.WriteString(smt.Short(a))
	}
	return b.String()
}

// fieldArrays gives every location of locs its Fields, one target per
// field of its class, all cut from one array (a heap is built for every
// GSE state of every pair, and for every concretization leaf).
func fieldArrays(locs []HeapLoc) {
	n := 0
	for i := range locs {
		n += len(locs[i].Class.Fields)
	}
	fields := make([]Target, n)
	for i := range locs {
		k := len(locs[i].Class.Fields)
		locs[i].Fields, fields = fields[:k:k], fields[k:]
	}
}

// buildHeap makes the concrete heap of st in which every guard is decided by
// holds. It returns a *WitnessError if a reference in use takes zero or
// several locations, or points to a location that does not exist.
func buildHeap(st *machine.State, holds func(*smt.Formula) bool, assign *smt.Formula) (*Heap, error) {
	h := &Heap{Assignment: assign, Locs: make([]HeapLoc, 0, len(st.Locs))}
	index := make([]Target, len(st.Locs))
	for l, info := range st.Locs {
		// Locations made by (new C) always exist; an input location exists
		// when its existence guard holds (l_0 and GSE locations: true).
		if info.Input && !holds(info.Exists) {
			index[l] = TUn
			continue
		}
		index[l] = Target(len(h.Locs))
		h.Locs = append(h.Locs, HeapLoc{Class: info.Class, Input: info.Input, Orig: machine.Loc(l)})
	}
	witness := func(r machine.Ref, es []machine.Entry, why string) error {
		return &WitnessError{Assignment: assign, Violation: Violation{Check: CheckConcretization, Ref: r, Entries: es, Reason: why}}
	}
	// where names the reference for a witness; it is only formatted when
	// one is made (a heap is built for every GSE state of every pair).
	resolve := func(r machine.Ref, whereOf func() string) (Target, error) {
		// The one entry that holds, without a slice: a heap is built for
		// every GSE state of every pair. The entries are collected only
		// for a witness (holds is a function of the guard).
		es := st.Get(r)
		n, first := 0, machine.Entry{}
		for _, e := range es {
			if holds(e.Guard) {
				if n == 0 {
					first = e
				}
				n++
			}
		}
		switch {
		case n == 0:
			return 0, witness(r, append([]machine.Entry(nil), es...), whereOf()+": no guard holds")
		case n > 1:
			var hit []machine.Entry
			for _, e := range es {
				if holds(e.Guard) {
					hit = append(hit, e)
				}
			}
			return 0, witness(r, hit, whereOf()+": several guards hold")
		}
		l := first.Loc
		switch {
		case l == machine.LNull:
			return TNull, nil
		case l == machine.LUn:
			return TUn, nil
		case l < 0 || int(l) >= len(st.Locs):
			return 0, witness(r, []machine.Entry{first}, fmt.Sprintf("%s: location %v does not exist", whereOf(), l))
		case index[l] < 0:
			return 0, witness(r, []machine.Entry{first}, fmt.Sprintf("%s: points to %v, whose existence guard %s does not hold", whereOf(), l, smt.Short(st.Locs[l].Exists)))
		}
		return index[l], nil
	}
	fieldArrays(h.Locs)
	for i := range h.Locs {
		hl := &h.Locs[i]
		for j, f := range hl.Class.Fields {
			t, err := resolve(st.Field(hl.Orig, f), func() string { return fmt.Sprintf("%v.%s", hl.Orig, f.Name) })
			if err != nil {
				return nil, err
			}
			hl.Fields[j] = t
		}
	}
	var rootBuf [rootsOnStack]machine.Ref
	roots := st.AppendRoots(rootBuf[:0])
	slices.Sort(roots)
	h.Roots = make([]Root, 0, len(roots))
	for _, r := range roots {
		t, err := resolve(r, func() string { return "root " + machine.RefString(r) })
		if err != nil {
			return nil, err
		}
		h.Roots = append(h.Roots, Root{Ref: r, To: t})
	}
	return h, nil
}

// WitnessError is a well-formedness violation found while concretizing:
// under Assignment, the reference of Violation takes zero or several
// locations (or a location that does not exist under it).
type WitnessError struct {
	Assignment *smt.Formula
	Violation  Violation
}

func (w *WitnessError) Error() string {
	s := w.Violation.Error()
	if w.Assignment != nil {
		s += " under " + smt.Short(w.Assignment)
	}
	return s
}

// HeapOf returns the concrete heap of a GSE state. It is an error for a
// guarded value set in use not to be a singleton {(true l)}, or for an
// input location not to exist unconditionally.
func HeapOf(p *machine.State) (*Heap, error) {
	if err := checkState(p); err != nil {
		return nil, err
	}
	// Without RefsInUse's set: a heap is built for every GSE state of
	// every pair, and a reference met twice is checked twice.
	if err := eachRefInUse(p, func(r machine.Ref) error {
		if g := p.Get(r); len(g) != 1 || !g[0].Guard.IsTrue() {
			return fmt.Errorf("relation: HeapOf: L(%s) = %v is not a GSE value set {(true l)}", machine.RefString(r), gvsString(g))
		}
		return nil
	}); err != nil {
		return nil, err
	}
	for l, info := range p.Locs {
		if info.Exists != nil && !info.Exists.IsTrue() {
			return nil, fmt.Errorf("relation: HeapOf: l%d exists only under %v, not in a GSE state", l, info.Exists)
		}
	}
	return buildHeap(p, func(f *smt.Formula) bool { return f == nil || f.IsTrue() }, nil)
}

// HeapOfSame is HeapOf(p) for a GSE state p whose heap part (φ, the
// facts, the locations, R, and L of every reference that is not a stack
// reference) is that of the state prev was built from by HeapOf (or
// HeapOfSame): prev's locations and fields are p's, and were found to be
// a GSE heap's (existence guards true, every R reference {(true l)}), so
// they are shared, not built and checked again; only the roots, which
// are stack references (and r_null), are checked as HeapOf checks them
// and resolved. When they are prev's too, the heap is prev itself (a
// heap is not changed once built), named already.
//
// Exact by construction: HeapOf(p) reads p's locations (class, input
// flag, existence guard), the fields' references in R and their value
// sets, which are prev's source's, and the roots (AppendRoots) and their
// value sets, which are read here. TestHeapOfSame compares it with HeapOf.
func HeapOfSame(p *machine.State, prev *Heap) (*Heap, error) {
	if err := checkState(p); err != nil {
		return nil, err
	}
	if len(p.Locs) != len(prev.Locs) {
		return HeapOf(p) // not prev's heap part after all
	}
	var rootBuf [rootsOnStack]machine.Ref
	roots := p.AppendRoots(rootBuf[:0])
	for _, r := range roots {
		if g := p.Get(r); len(g) != 1 || !g[0].Guard.IsTrue() {
			return nil, fmt.Errorf("relation: HeapOf: L(%s) = %v is not a GSE value set {(true l)}", machine.RefString(r), gvsString(g))
		}
	}
	slices.Sort(roots)
	// In a GSE state's heap every location exists, so the heap's
	// location i is the state's location i (prev.Locs[i].Orig == i).
	var toBuf [rootsOnStack]Target
	to := toBuf[:0]
	for _, r := range roots {
		l := p.Get(r)[0].Loc
		switch {
		case l == machine.LNull:
			to = append(to, TNull)
		case l == machine.LUn:
			to = append(to, TUn)
		case l >= 0 && int(l) < len(prev.Locs) && int(l) < len(p.Locs) && prev.Locs[l].Orig == l:
			to = append(to, Target(l))
		default:
			return HeapOf(p) // not one of prev's locations: built whole, as HeapOf reports it
		}
	}
	if len(roots) == len(prev.Roots) {
		same := true
		for i, r := range roots {
			if prev.Roots[i] != (Root{Ref: r, To: to[i]}) {
				same = false
				break
			}
		}
		if same {
			return prev, nil
		}
	}
	h := &Heap{Locs: prev.Locs, Roots: make([]Root, len(roots))}
	for i, r := range roots {
		h.Roots[i] = Root{Ref: r, To: to[i]}
	}
	return h, nil
}

func gvsString(g machine.GVS) string {
	var parts []string
	for _, e := range g {
		parts = append(parts, fmt.Sprintf("(%s %v)", smt.Short(e.Guard), e.Loc))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// ConcretizationAtoms returns the equality atoms that the heaps of q
// depend on: every atom of the guards of the value sets in use and of the
// existence guards of the input locations, ordered by their references.
func ConcretizationAtoms(q *machine.State) []*smt.Formula {
	var out []*smt.Formula
	walk := atomCollector(&out)
	for _, r := range RefsInUse(q) {
		for _, e := range q.Get(r) {
			walk(e.Guard)
		}
	}
	for _, info := range q.Locs {
		walk(info.Exists)
	}
	slices.SortFunc(out, func(x, y *smt.Formula) int {
		xa, xb := x.Atom()
		ya, yb := y.Atom()
		if xa != ya {
			return int(xa) - int(ya)
		}
		return int(xb) - int(yb)
	})
	return out
}
