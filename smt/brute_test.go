package smt

import (
	"slices"

	"pgregory.net/rapid"
)

// The test universe: four input references (n mod 3 = 1, as the machine
// numbers them) plus r_null. Its 52 set partitions (Bell(5)) are all the
// ways an uninterpreted sort can interpret the five constants, so a formula
// over them is satisfiable iff it evaluates to true under one of them.
var universe = []Ref{Null, 1, 4, 7, 10}

// partition assigns each element of universe a class number.
type partition map[Ref]int

func (p partition) same(a, b Ref) bool {
	ca, oka := p[a]
	cb, okb := p[b]
	if !oka || !okb {
		panic("brute force: ref outside the universe")
	}
	return ca == cb
}

// allPartitions enumerates the set partitions of elems as restricted growth
// strings.
func allPartitions(elems []Ref) []partition {
	var out []partition
	cls := make([]int, len(elems))
	var rec func(i, max int)
	rec = func(i, max int) {
		if i == len(elems) {
			p := make(partition, len(elems))
			for j, e := range elems {
				p[e] = cls[j]
			}
			out = append(out, p)
			return
		}
		for c := 0; c <= max+1; c++ {
			cls[i] = c
			next := max
			if c > max {
				next = c
			}
			rec(i+1, next)
		}
	}
	rec(0, -1)
	return out
}

var universePartitions = allPartitions(universe)

// bruteSat decides f by evaluation under every partition of the universe.
func bruteSat(f *Formula) bool {
	for _, p := range universePartitions {
		if f.Eval(p.same) {
			return true
		}
	}
	return false
}

// raw is an unsimplified formula tree: the reference semantics the
// constructors' simplifications are checked against.
type raw struct {
	op   Op // OpTrue..OpOr, plus rawImplies
	a, b Ref
	kids []*raw
}

const rawImplies Op = 100

func (r *raw) eval(same func(a, b Ref) bool) bool {
	switch r.op {
	case OpTrue:
		return true
	case OpFalse:
		return false
	case OpEq:
		return same(r.a, r.b)
	case OpNot:
		return !r.kids[0].eval(same)
	case OpAnd:
		v := true
		for _, k := range r.kids {
			v = v && k.eval(same)
		}
		return v
	case OpOr:
		v := false
		for _, k := range r.kids {
			v = v || k.eval(same)
		}
		return v
	case rawImplies:
		return !r.kids[0].eval(same) || r.kids[1].eval(same)
	}
	panic("bad raw op")
}

// build constructs the Formula for r through the public constructors.
func (r *raw) build() *Formula {
	kids := make([]*Formula, len(r.kids))
	for i, k := range r.kids {
		kids[i] = k.build()
	}
	switch r.op {
	case OpTrue:
		return True()
	case OpFalse:
		return False()
	case OpEq:
		return Eq(r.a, r.b)
	case OpNot:
		if r.kids[0].op == OpEq {
			return Neq(r.kids[0].a, r.kids[0].b)
		}
		return Not(kids[0])
	case OpAnd:
		return And(kids...)
	case OpOr:
		return Or(kids...)
	case rawImplies:
		return Implies(kids[0], kids[1])
	}
	panic("bad raw op")
}

// rawGen draws formula trees of bounded depth over universe. Small
// universes and frequent repetition of atoms make the simplifications
// (duplicates, complementary pairs, absorption of constants) fire often.
func rawGen(depth int) *rapid.Generator[*raw] {
	ref := rapid.SampledFrom(universe)
	return rapid.Custom(func(t *rapid.T) *raw {
		return drawRaw(t, ref, depth)
	})
}

func drawRaw(t *rapid.T, ref *rapid.Generator[Ref], depth int) *raw {
	leaf := depth == 0 || rapid.IntRange(0, 3).Draw(t, "leaf") == 0
	if leaf {
		switch rapid.IntRange(0, 9).Draw(t, "leafKind") {
		case 0:
			return &raw{op: OpTrue}
		case 1:
			return &raw{op: OpFalse}
		default:
			return &raw{op: OpEq, a: ref.Draw(t, "a"), b: ref.Draw(t, "b")}
		}
	}
	switch rapid.IntRange(0, 3).Draw(t, "kind") {
	case 0:
		return &raw{op: OpNot, kids: []*raw{drawRaw(t, ref, depth-1)}}
	case 1:
		return &raw{op: rawImplies, kids: []*raw{drawRaw(t, ref, depth-1), drawRaw(t, ref, depth-1)}}
	default:
		op := OpAnd
		if rapid.Bool().Draw(t, "or") {
			op = OpOr
		}
		n := rapid.IntRange(0, 4).Draw(t, "n")
		kids := make([]*raw, n)
		for i := range kids {
			kids[i] = drawRaw(t, ref, depth-1)
		}
		return &raw{op: op, kids: kids}
	}
}

// rawRefs collects the refs mentioned in non-trivial atoms of r.
func (r *raw) refs(into map[Ref]bool) {
	if r.op == OpEq && r.a != r.b {
		into[r.a], into[r.b] = true, true
	}
	for _, k := range r.kids {
		k.refs(into)
	}
}

// projectKey canonicalises a partition restricted to elems (sorted, Null
// first) as the representative of each element: the first element of its
// class.
func projectKey(same func(a, b Ref) bool, elems []Ref) []Ref {
	key := make([]Ref, len(elems))
	for j, e := range elems {
		key[j] = e
		for i := 0; i < j; i++ {
			if same(elems[i], e) {
				key[j] = elems[i]
				break
			}
		}
	}
	return key
}

func sortedKeys(keys [][]Ref) [][]Ref {
	slices.SortFunc(keys, slices.Compare)
	return slices.CompactFunc(keys, slices.Equal)
}
