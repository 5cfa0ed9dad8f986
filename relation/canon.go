package relation

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Canonical returns a string that two heaps share exactly when they are
// isomorphic: there is a bijection of their locations preserving class,
// input flag, every field edge and every root edge (roots are named by
// their stack reference, which both engines allocate identically, and field
// labels are fixed).
//
// The part reachable from the roots gets forced names from a breadth-first
// walk (roots in reference order, fields in declaration order). The
// locations no root reaches (input locations the stack no longer reaches,
// and garbage made by (new C)) are labeled by colour refinement followed by
// individualization of one member of the first non-singleton colour class
// at a time, keeping the least resulting string. Members that are
// interchangeable by an automorphism in the obvious way (same class, same
// field targets, nothing pointing to them: e.g. several unreachable input
// locations whose fields are all uninitialized) are tried once. What remains
// exponential is only a symmetric unreachable structure that refinement
// cannot split and that is not of that form, such as n identical
// unreachable cycles, at ∏ (cell size)! leaves; the unreachable parts of
// heaps from k-bounded runs have a handful of locations and are far from
// that.
func Canonical(h *Heap) string {
	c, _, _ := canonicalNames(h)
	return c
}

// canonicalNames is Canonical with the canonical name of every location of
// h (indexed like h.Locs) and the number of names the roots reach: two
// isomorphic heaps give the same string, and the isomorphism maps the
// location named i in one to the location named i in the other. On the
// reachable part that map is the only isomorphism (roots and field labels
// force it); among the unreachable locations another may exist.
func canonicalNames(h *Heap) (string, []int, int) {
	if !h.named {
		key, names, reach := canonicalForm(h)
		h.canon, h.named = canonForm{key, names, reach}, true
	}
	return h.canon.key, h.canon.names, h.canon.reach
}

// canonForm is canonicalNames' answer for one heap. names is shared by
// every caller: read it, do not change it.
type canonForm struct {
	key   string
	names []int
	reach int
}

func canonicalForm(h *Heap) (string, []int, int) {
	n := len(h.Locs)
	// name is kept with the heap; order and the string's bytes are
	// scratch, taken from a pool (every member and leaf is named: their
	// arrays were a seventh of a check's bytes).
	sc := canonScratch.Get().(*canonBufs)
	defer canonScratch.Put(sc)
	name := make([]int, n)
	order := sc.order[:0]
	defer func() { sc.order = order[:0] }()
	for i := range name {
		name[i] = -1
	}
	visit := func(t Target) {
		if t >= 0 && int(t) < n && name[t] < 0 {
			name[t] = len(order)
			order = append(order, int(t))
		}
	}
	// h.Roots is sorted by reference when HeapOf or the concretizer
	// built it; it is copied only when it is not.
	roots := h.Roots
	byRef := func(a, b Root) int { return int(a.Ref) - int(b.Ref) }
	if !slices.IsSortedFunc(roots, byRef) {
		roots = slices.Clone(roots)
		slices.SortFunc(roots, byRef)
	}
	for _, r := range roots {
		visit(r.To)
	}
	for i := 0; i < len(order); i++ {
		for _, t := range h.Locs[order[i]].Fields {
			visit(t)
		}
	}
	var un []int
	for i := range n {
		if name[i] < 0 {
			un = append(un, i)
		}
	}
	reach := len(order)
	if len(un) > 0 {
		rest := make([]int, len(un))
		for i, c := range labelUnreachable(h, name, un) {
			rest[c] = un[i]
		}
		for k, u := range rest {
			name[u] = reach + k
		}
		order = append(order, rest...)
	}

	// The string, appended to one buffer
	// (thousands of heaps are named per check; a string per target was
	// most of the naming's allocations).
	size := 1 + 6*len(roots)
	for _, l := range order {
		size += 4 + 3*len(h.Locs[l].Fields)
		if c := h.Locs[l].Class; c != nil {
			size += len(c.Name)
		}
	}
	b := slices.Grow(sc.b[:0], size)
	defer func() { sc.b = b[:0] }()
	b = append(b, 'R')
	for _, r := range roots {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(r.Ref), 10)
		b = append(b, ':')
		b = appendTarget(b, r.To, name)
	}
	for _, l := range order {
		b = appendLoc(b, h, l, name, nil)
	}
	return string(b), name, reach
}

// canonBufs is canonicalForm's scratch: the order of the locations and
// the string's bytes, neither kept past the call.
type canonBufs struct {
	order []int
	b     []byte
}

// canonScratch holds canonBufs for canonicalForm (checks of several
// programs run at once, so a scratch is not shared).
var canonScratch = sync.Pool{New: func() any { return new(canonBufs) }}

// appendTarget appends target t's name under name to b: n for null, u
// for l_un, its canonical number, or ?t for a target out of range.
func appendTarget(b []byte, t Target, name []int) []byte {
	switch {
	case t == TNull:
		return append(b, 'n')
	case t == TUn:
		return append(b, 'u')
	case t < 0 || int(t) >= len(name):
		return strconv.AppendInt(append(b, '?'), int64(t), 10)
	}
	return strconv.AppendInt(b, int64(name[t]), 10)
}

// appendLoc appends location l of h as the canonical string writes it,
// |Class*(t1,…) (* for an input location), each field's target by
// appendTarget under name, except a target that name leaves unnamed
// (name[t] < 0), which unnamed writes when it is not nil.
func appendLoc(b []byte, h *Heap, l int, name []int, unnamed func([]byte, Target) []byte) []byte {
	hl := h.Locs[l]
	b = append(b, '|')
	if hl.Class != nil {
		b = append(b, hl.Class.Name...)
	}
	if hl.Input {
		b = append(b, '*')
	}
	b = append(b, '(')
	for j, t := range hl.Fields {
		if j > 0 {
			b = append(b, ',')
		}
		if unnamed != nil && t >= 0 && int(t) < len(name) && name[t] < 0 {
			b = unnamed(b, t)
		} else {
			b = appendTarget(b, t, name)
		}
	}
	return append(b, ')')
}

// Isomorphic reports whether two heaps are isomorphic (see Canonical).
func Isomorphic(a, b *Heap) bool { return Canonical(a) == Canonical(b) }

// labeler canonically orders the unreachable locations un of h, given the
// names of the reachable ones.
type labeler struct {
	h     *Heap
	name  []int       // names of reachable locations, -1 for un
	un    []int       // heap indices of the unreachable locations
	local map[int]int // heap index → index in un
	base  []string    // colour-independent part of each node's key
	out   [][]int     // by local node: field targets as local indices, -1 if not local
	in    [][][2]int  // by local node: (local source, field) of edges into it
	twin  []string    // twin signature, "" if the node has in-edges
	best  string
	bestO []int
}

func labelUnreachable(h *Heap, name []int, un []int) []int {
	lb := &labeler{h: h, name: name, un: un, local: map[int]int{}}
	for i, u := range un {
		lb.local[u] = i
	}
	m := len(un)
	lb.base = make([]string, m)
	lb.out = make([][]int, m)
	lb.in = make([][][2]int, m)
	lb.twin = make([]string, m)
	for i, u := range un {
		hl := h.Locs[u]
		lb.base[i] = string(appendLoc(nil, h, u, name, func(b []byte, _ Target) []byte { return append(b, '?') }))
		lb.out[i] = make([]int, len(hl.Fields))
		for j, t := range hl.Fields {
			lb.out[i][j] = -1
			if t >= 0 && int(t) < len(name) && name[t] < 0 {
				k := lb.local[int(t)]
				lb.out[i][j] = k
				lb.in[k] = append(lb.in[k], [2]int{i, j})
			}
		}
	}
	for i := range m {
		if len(lb.in[i]) > 0 {
			continue
		}
		var tb strings.Builder
		tb.WriteString(lb.base[i])
		for _, k := range lb.out[i] {
			if k == i {
				tb.WriteString(" self")
			} else {
				tb.WriteString(" " + strconv.Itoa(k))
			}
		}
		lb.twin[i] = tb.String()
	}
	colour := lb.rank(lb.base)
	lb.search(lb.refine(colour))
	return lb.bestO
}

// rank maps keys to colours 0..c-1 in key order, which depends on the keys
// only, never on node numbering.
func (lb *labeler) rank(keys []string) []int {
	sorted := slices.Clone(keys)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	out := make([]int, len(keys))
	for i, k := range keys {
		out[i], _ = slices.BinarySearch(sorted, k)
	}
	return out
}

func distinct(c []int) int {
	s := slices.Clone(c)
	slices.Sort(s)
	return len(slices.Compact(s))
}

// refine splits colour classes by the colours of field targets and of the
// sources of in-edges until nothing splits.
func (lb *labeler) refine(colour []int) []int {
	m := len(colour)
	keys := make([]string, m)
	for {
		before := distinct(colour)
		for i := range m {
			var kb strings.Builder
			kb.WriteString(strconv.Itoa(colour[i]))
			kb.WriteString("|")
			for _, k := range lb.out[i] {
				if k >= 0 {
					kb.WriteString(strconv.Itoa(colour[k]))
				}
				kb.WriteByte(',')
			}
			ins := make([]string, len(lb.in[i]))
			for j, e := range lb.in[i] {
				ins[j] = fmt.Sprintf("%d.%d", colour[e[0]], e[1])
			}
			slices.Sort(ins)
			kb.WriteString("|")
			kb.WriteString(strings.Join(ins, ","))
			keys[i] = kb.String()
		}
		colour = lb.rank(keys)
		if distinct(colour) == before {
			return colour
		}
	}
}

func (lb *labeler) search(colour []int) {
	m := len(colour)
	count := make([]int, m)
	for _, c := range colour {
		count[c]++
	}
	target := -1
	for c := range m {
		if count[c] > 1 {
			target = c
			break
		}
	}
	if target < 0 {
		lb.leaf(colour)
		return
	}
	tried := map[string]bool{}
	for v := range m {
		if colour[v] != target {
			continue
		}
		if t := lb.twin[v]; t != "" {
			if tried[t] {
				continue
			}
			tried[t] = true
		}
		next := make([]int, m)
		for u := range m {
			next[u] = 2 * colour[u]
			if colour[u] == target && u != v {
				next[u]++
			}
		}
		lb.search(lb.refine(lb.rank(intKeys(next))))
	}
}

func intKeys(c []int) []string {
	out := make([]string, len(c))
	for i, x := range c {
		out[i] = fmt.Sprintf("%09d", x)
	}
	return out
}

// leaf renders the unreachable part under a discrete colouring and keeps
// the least rendering.
func (lb *labeler) leaf(colour []int) {
	m := len(colour)
	reach := 0
	for _, x := range lb.name {
		if x >= 0 {
			reach++
		}
	}
	byColour := make([]int, m)
	for i, c := range colour {
		byColour[c] = i
	}
	var b []byte
	for _, i := range byColour {
		b = appendLoc(b, lb.h, lb.un[i], lb.name, func(b []byte, t Target) []byte {
			return strconv.AppendInt(b, int64(reach+colour[lb.local[int(t)]]), 10)
		})
	}
	if s := string(b); lb.bestO == nil || s < lb.best {
		lb.best = s
		lb.bestO = slices.Clone(colour)
	}
}
