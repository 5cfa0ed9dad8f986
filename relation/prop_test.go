package relation

import (
	"errors"
	"slices"
	"testing"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"

	"pgregory.net/rapid"
)

// genGSEState draws a random GSE-like state of the LinkedList program:
// l0 plus up to five more locations (input or made by new), every field
// null, uninitialized or a location of its class, and a pop frame holding
// up to three more stack references (to locations of any class, or null).
func genGSEState(t *rapid.T, prog *javalite.Program) *machine.State {
	b := newBuilder(t, prog)
	n := rapid.IntRange(0, 5).Draw(t, "locs")
	for i := range n {
		class := rapid.SampledFrom([]string{"Node", "Data"}).Draw(t, "class")
		if rapid.Bool().Draw(t, "input") {
			b.input(class, nil)
		} else {
			b.newLoc(class)
		}
		_ = i
	}
	byClass := map[string][]machine.Loc{}
	for l, info := range b.s.Locs {
		byClass[info.Class.Name] = append(byClass[info.Class.Name], machine.Loc(l))
	}
	for l, info := range b.s.Locs {
		for _, f := range info.Class.Fields {
			choices := append([]machine.Loc{machine.LNull, machine.LUn}, byClass[f.Class.Name]...)
			b.to(machine.Loc(l), f.Name, rapid.SampledFrom(choices).Draw(t, "target"))
		}
	}
	var env []machine.Value
	for range rapid.IntRange(0, 3).Draw(t, "roots") {
		r := b.s.StackR()
		to := rapid.IntRange(-1, len(b.s.Locs)-1).Draw(t, "root")
		b.s.Set(r, machine.Single(machine.Loc(to)))
		env = append(env, machine.RefVal(r))
	}
	if len(env) > 0 {
		b.s.K = &machine.Kont{Kind: machine.KPop, Env: env}
	}
	return b.s
}

// rename returns p with its locations permuted and its input and fresh
// references permuted within their partitions. Stack references name the
// roots and stay fixed.
func rename(t *rapid.T, p *machine.State) *machine.State {
	n := len(p.Locs)
	perm := rapid.Permutation(intsUpTo(n)).Draw(t, "locPerm")
	mapLoc := func(l machine.Loc) machine.Loc {
		if l < 0 {
			return l
		}
		return machine.Loc(perm[l])
	}
	var byPart [3][]machine.Ref
	for i := range p.L {
		r := machine.Ref(i - 2)
		if r >= 0 && p.L[i] != nil && machine.PartitionOf(r) != machine.PartStack {
			byPart[machine.PartitionOf(r)] = append(byPart[machine.PartitionOf(r)], r)
		}
	}
	refMap := map[machine.Ref]machine.Ref{}
	for _, rs := range byPart {
		shuffled := rapid.Permutation(rs).Draw(t, "refPerm")
		for i, r := range rs {
			refMap[r] = shuffled[i]
		}
	}
	mapRef := func(r machine.Ref) machine.Ref {
		if x, ok := refMap[r]; ok {
			return x
		}
		return r
	}
	q := p.Clone()
	q.Locs = make([]machine.LocInfo, n)
	q.R = make([]machine.Ref, len(p.R))
	nf := p.NumFields()
	for l, info := range p.Locs {
		info.Identity = mapRef(info.Identity)
		q.Locs[perm[l]] = info
		for f := range nf {
			q.R[perm[l]*nf+f] = mapRef(p.R[l*nf+f])
		}
	}
	q.L = make([]machine.GVS, len(p.L))
	for i, g := range p.L {
		if g == nil {
			continue
		}
		var ng machine.GVS
		for _, e := range g {
			ng = append(ng, machine.Entry{Guard: e.Guard, Loc: mapLoc(e.Loc)})
		}
		q.Set(mapRef(machine.Ref(i-2)), ng)
	}
	q.Phi = smt.Neq(mapRef(1), machine.RNull)
	return q
}

func intsUpTo(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func TestPropGSEStateRepresentsItself(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	rapid.Check(t, func(t *rapid.T) {
		p := genGSEState(t, prog)
		if r := Represents(p, p, sol, DefaultBudget); r.Outcome != Holds {
			t.Fatalf("Represents(p, p) = %v (%s)", r.Outcome, r.Reason)
		}
		hp, err := HeapOf(p)
		if err != nil {
			t.Fatal(err)
		}
		heaps, complete, err := Concretize(p, sol, DefaultBudget)
		if err != nil || !complete || len(heaps) != 1 || !Isomorphic(heaps[0], hp) {
			t.Fatalf("Concretize(p) = %v, %v, %v; want exactly %v", heaps, complete, err, hp)
		}
	})
}

func TestPropCanonicalInvariantUnderRenaming(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	rapid.Check(t, func(t *rapid.T) {
		p := genGSEState(t, prog)
		q := rename(t, p)
		hp, err := HeapOf(p)
		if err != nil {
			t.Fatal(err)
		}
		hq, err := HeapOf(q)
		if err != nil {
			t.Fatal(err)
		}
		if cp, cq := Canonical(hp), Canonical(hq); cp != cq {
			t.Fatalf("canonical forms differ:\n%s\n%s\nheaps\n%v\n%v", cp, cq, hp, hq)
		}
		if r := Represents(p, q, sol, DefaultBudget); r.Outcome != Holds {
			t.Fatalf("Represents(p, renamed p) = %v (%s)", r.Outcome, r.Reason)
		}
		if r := Represents(q, p, sol, DefaultBudget); r.Outcome != Holds {
			t.Fatalf("Represents(renamed p, p) = %v (%s)", r.Outcome, r.Reason)
		}
	})
}

// genHeap draws a small heap directly: up to five locations of the
// LinkedList classes, few roots, so that unreachable parts are common.
func genHeap(t *rapid.T, prog *javalite.Program, n int) *Heap {
	classes := []*javalite.Class{prog.ByName["Node"], prog.ByName["Data"], prog.ByName["Main"]}
	h := &Heap{}
	for range n {
		c := rapid.SampledFrom(classes).Draw(t, "class")
		h.Locs = append(h.Locs, HeapLoc{Class: c, Input: rapid.Bool().Draw(t, "input"), Fields: make([]Target, len(c.Fields))})
	}
	target := func(c *javalite.Class) Target {
		choices := []Target{TNull, TUn}
		for i, l := range h.Locs {
			if c == nil || l.Class == c {
				choices = append(choices, Target(i))
			}
		}
		return rapid.SampledFrom(choices).Draw(t, "target")
	}
	for i := range h.Locs {
		for j, f := range h.Locs[i].Class.Fields {
			h.Locs[i].Fields[j] = target(f.Class)
		}
	}
	for i := range rapid.IntRange(0, 2).Draw(t, "roots") {
		h.Roots = append(h.Roots, Root{Ref: machine.Ref(3 * i), To: target(nil)})
	}
	return h
}

// permuteHeap renames the locations of h by perm.
func permuteHeap(h *Heap, perm []int) *Heap {
	out := &Heap{Locs: make([]HeapLoc, len(h.Locs))}
	m := func(t Target) Target {
		if t < 0 {
			return t
		}
		return Target(perm[t])
	}
	for i, l := range h.Locs {
		nl := l
		nl.Fields = make([]Target, len(l.Fields))
		for j, t := range l.Fields {
			nl.Fields[j] = m(t)
		}
		out.Locs[perm[i]] = nl
	}
	for _, r := range h.Roots {
		out.Roots = append(out.Roots, Root{Ref: r.Ref, To: m(r.To)})
	}
	return out
}

// bruteIsomorphic tries every bijection.
func bruteIsomorphic(a, b *Heap) bool {
	n := len(a.Locs)
	if n != len(b.Locs) || len(a.Roots) != len(b.Roots) {
		return false
	}
	perm := intsUpTo(n)
	m := func(t Target) Target {
		if t < 0 {
			return t
		}
		return Target(perm[t])
	}
	ok := func() bool {
		for i, l := range a.Locs {
			o := b.Locs[perm[i]]
			if l.Class.Name != o.Class.Name || l.Input != o.Input {
				return false
			}
			for j, t := range l.Fields {
				if m(t) != o.Fields[j] {
					return false
				}
			}
		}
		rb := map[machine.Ref]Target{}
		for _, r := range b.Roots {
			rb[r.Ref] = r.To
		}
		for _, r := range a.Roots {
			if x, found := rb[r.Ref]; !found || x != m(r.To) {
				return false
			}
		}
		return true
	}
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == n {
			return ok()
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			if rec(k + 1) {
				return true
			}
			perm[k], perm[i] = perm[i], perm[k]
		}
		return false
	}
	return rec(0)
}

func TestPropCanonicalMatchesBruteForce(t *testing.T) {
	prog := mustParse(t, linkedListSrc)
	var same, differ int
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 5).Draw(t, "n")
		a := genHeap(t, prog, n)
		var b *Heap
		switch rapid.IntRange(0, 2).Draw(t, "how") {
		case 0: // independent
			b = genHeap(t, prog, n)
		case 1: // a renamed
			b = permuteHeap(a, rapid.Permutation(intsUpTo(n)).Draw(t, "perm"))
		case 2: // a renamed, then one field redirected
			b = permuteHeap(a, rapid.Permutation(intsUpTo(n)).Draw(t, "perm"))
			if n > 0 && len(b.Locs[0].Fields) > 0 {
				i := rapid.IntRange(0, n-1).Draw(t, "loc")
				if fs := b.Locs[i].Fields; len(fs) > 0 {
					j := rapid.IntRange(0, len(fs)-1).Draw(t, "field")
					fs[j] = Target(rapid.IntRange(-2, n-1).Draw(t, "to"))
				}
			}
		}
		want := bruteIsomorphic(a, b)
		if got := Canonical(a) == Canonical(b); got != want {
			t.Fatalf("Canonical equal = %v, brute force %v\na: %v\n   %s\nb: %v\n   %s", got, want, a, Canonical(a), b, Canonical(b))
		}
		if want {
			same++
		} else {
			differ++
		}
	})
	if same == 0 || differ == 0 {
		t.Fatalf("property never exercised both sides: %d isomorphic, %d not", same, differ)
	}
}

// TestCanonicalSymmetricUnreachable: unreachable structures that colour
// refinement cannot split (identical cycles, identical uninitialized input
// locations) still get one canonical form.
func TestCanonicalSymmetricUnreachable(t *testing.T) {
	prog := mustParse(t, linkedListSrc)
	node := prog.ByName["Node"]
	mk := func(next []Target) *Heap {
		h := &Heap{Roots: []Root{{Ref: 0, To: TNull}}}
		for _, t := range next {
			h.Locs = append(h.Locs, HeapLoc{Class: node, Input: true, Fields: []Target{t, TUn}})
		}
		return h
	}
	// Two 2-cycles and a 4-cycle are not isomorphic; 2-cycles in any
	// numbering are.
	twoTwo := mk([]Target{1, 0, 3, 2})
	twoTwoB := mk([]Target{2, 3, 0, 1})
	four := mk([]Target{1, 2, 3, 0})
	if !Isomorphic(twoTwo, twoTwoB) || !bruteIsomorphic(twoTwo, twoTwoB) {
		t.Fatal("two numberings of two 2-cycles differ")
	}
	if Isomorphic(twoTwo, four) {
		t.Fatal("two 2-cycles isomorphic to a 4-cycle")
	}
	// Eight identical uninitialized input locations: twins, tried once.
	eight := mk([]Target{TUn, TUn, TUn, TUn, TUn, TUn, TUn, TUn})
	if c := Canonical(eight); c != Canonical(permuteHeap(eight, []int{7, 6, 5, 4, 3, 2, 1, 0})) {
		t.Fatal("twins not canonical")
	}
}

// genGuardedState draws a summary-like state: l0 and up to three input
// locations with random existence guards, and every value set in use split
// by a random decision tree over a few equality atoms (so mostly
// deterministic and total), with now and then one random extra entry
// (which may overlap or point to a location that may not exist).
func genGuardedState(t *rapid.T, prog *javalite.Program) *machine.State {
	b := newBuilder(t, prog)
	refs := []machine.Ref{machine.RNull, i4, i7, i10}
	atom := func() *smt.Formula {
		x := rapid.SampledFrom(refs).Draw(t, "a")
		y := rapid.SampledFrom(refs).Draw(t, "b")
		return smt.Eq(x, y)
	}
	lit := func() *smt.Formula {
		if rapid.Bool().Draw(t, "neg") {
			return smt.Not(atom())
		}
		return atom()
	}
	for range rapid.IntRange(0, 3).Draw(t, "locs") {
		ex := smt.True()
		if rapid.Bool().Draw(t, "cond") {
			ex = lit()
		}
		b.input(rapid.SampledFrom([]string{"Node", "Data"}).Draw(t, "class"), ex)
	}
	byClass := map[string][]machine.Loc{}
	for l, info := range b.s.Locs {
		byClass[info.Class.Name] = append(byClass[info.Class.Name], machine.Loc(l))
	}
	var tree func(class string, guard *smt.Formula, depth int) machine.GVS
	tree = func(class string, guard *smt.Formula, depth int) machine.GVS {
		if depth == 0 || rapid.Bool().Draw(t, "leaf") {
			to := rapid.SampledFrom(append([]machine.Loc{machine.LNull}, byClass[class]...)).Draw(t, "to")
			return machine.GVS{{Guard: guard, Loc: to}}
		}
		a := atom()
		var g machine.GVS
		for _, e := range append(tree(class, smt.And(guard, a), depth-1), tree(class, smt.And(guard, smt.Not(a)), depth-1)...) {
			g = g.Merge(e.Guard, e.Loc)
		}
		return g
	}
	for l, info := range b.s.Locs {
		for _, f := range info.Class.Fields {
			g := tree(f.Class.Name, smt.True(), 2)
			if rapid.IntRange(0, 9).Draw(t, "noise") == 0 {
				g = g.Merge(lit(), rapid.SampledFrom(append([]machine.Loc{machine.LNull}, byClass[f.Class.Name]...)).Draw(t, "extra"))
			}
			b.set(machine.Loc(l), f.Name, g)
		}
	}
	if rapid.Bool().Draw(t, "phi") {
		b.and(lit())
	}
	return b.s
}

// TestPropConcretizeMatchesAllSAT: the guided concretization finds exactly
// the heaps of the all-SAT oracle, and reports a witness exactly when the
// oracle meets an assignment that is not a heap.
func TestPropConcretizeMatchesAllSAT(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	var ok, bad, wellFormed int
	rapid.Check(t, func(t *rapid.T) {
		q := genGuardedState(t, prog)
		got, c1, err1 := Concretize(q, sol, DefaultBudget)
		want, c2, err2 := concretizeAllSAT(q, sol, DefaultBudget)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("Concretize err %v, oracle err %v\n%s", err1, err2, dumpState(q))
		}
		if err1 != nil {
			var w *WitnessError
			if !errors.As(err1, &w) {
				t.Fatalf("Concretize error is no witness: %v", err1)
			}
			if sat, _ := sol.Sat(smt.And(q.PathCondition(), w.Assignment)); !sat {
				t.Fatalf("witness assignment %v unsatisfiable", w.Assignment)
			}
			bad++
			return
		}
		if !c1 || !c2 {
			t.Fatalf("incomplete: %v %v", c1, c2)
		}
		if g, w := canonicalSet(got), canonicalSet(want); !slices.Equal(g, w) {
			t.Fatalf("Concretize %v\noracle %v\n%s", g, w, dumpState(q))
		}
		ok++
		// On a well-formed q the search trusts every reference without
		// asking (exact's path) and must find the same heaps.
		if v, err := WellFormed(q, sol); err == nil && v == nil {
			trusted, c3, err3 := concretizeState(q, sol, DefaultBudget, true, nil)
			if err3 != nil || !c3 {
				t.Fatalf("well-formed q: concretizeState = %v, %v\n%s", c3, err3, dumpState(q))
			}
			if g, w := canonicalSet(trusted), canonicalSet(want); !slices.Equal(g, w) {
				t.Fatalf("well-formed q: trusted concretization %v\noracle %v\n%s", g, w, dumpState(q))
			}
			wellFormed++
		}
	})
	if ok == 0 || bad == 0 || wellFormed == 0 {
		t.Fatalf("property exercised %d heaps cases (%d well formed) and %d witness cases; want all", ok, wellFormed, bad)
	}
}
