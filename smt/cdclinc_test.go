package smt

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The incremental route of clause learning (cdclinc.go) must answer every
// question as decide does from scratch: on growing and shrinking
// conjunctions (a path condition with guards, a search that backtracks),
// with decide's questions in between on the same instance, and on the
// questions satRefCases asked along bst_delete2 at k = 3.

// modelHolds reports whether the classes c.model recorded make f true.
func modelHolds(c *cdcl, f *Formula) bool {
	rep := map[Ref]Ref{}
	for i, r := range c.model.refs {
		rep[r] = c.model.rep[i]
	}
	class := func(r Ref) Ref {
		if x, ok := rep[r]; ok {
			return x
		}
		return r
	}
	return f.Eval(func(a, b Ref) bool { return class(a) == class(b) })
}

// TestIncCDCLBruteForce: one instance for every draw, so that each
// sequence starts from the trail and clauses the sequences before it
// left. A sequence is a path: conjuncts pushed and popped as a depth-first
// search does, each question the path with a guard or two; now and then a
// question goes through decide instead. Every answer is brute force's,
// and every model found satisfies its question.
func TestIncCDCLBruteForce(t *testing.T) {
	c := newCDCL()
	c.wantModel = true
	rapid.Check(t, func(t *rapid.T) {
		pool := rapid.SliceOfN(rawGen(4), 3, 8).Draw(t, "pool")
		pick := func(label string) *Formula {
			f := pool[rapid.IntRange(0, len(pool)-1).Draw(t, label)].build()
			if rapid.Bool().Draw(t, label+"-neg") {
				f = Not(f)
			}
			return f
		}
		var path []*Formula
		for range rapid.IntRange(1, 16).Draw(t, "questions") {
			switch rapid.IntRange(0, 3).Draw(t, "move") {
			case 0, 1:
				path = append(path, pick("push"))
			case 2:
				if len(path) > 0 {
					path = path[:rapid.IntRange(0, len(path)-1).Draw(t, "pop")]
				}
			}
			fs := append([]*Formula(nil), path...)
			for range rapid.IntRange(0, 2).Draw(t, "guards") {
				fs = append(fs, pick("guard"))
			}
			q := And(fs...)
			want := bruteSat(q)
			var sat, ok bool
			if rapid.IntRange(0, 5).Draw(t, "route") == 0 {
				sat, ok = c.decide(q)
			} else {
				sat, ok = c.decideInc(q)
			}
			if !ok {
				t.Fatalf("not decided: %v", q)
			}
			if sat != want {
				t.Fatalf("clause learning says sat=%v, brute force %v, on %v", sat, want, q)
			}
			if sat && !modelHolds(c, q) {
				t.Fatalf("the model found does not satisfy %v", q)
			}
		}
	})
}

// TestIncCDCLLongPaths: long sequences on one instance, as a run asks
// them: a depth-first search over a pool of conjuncts over 14 constants
// (new constants and new nodes arrive with the trail above level 0),
// each state asking its path with several guards, the guards often
// formulas built over the path's own nodes (so that a new node's operands
// are assigned on the kept levels). Every answer is that of decide on an
// instance of its own, every model satisfies its question.
func TestIncCDCLLongPaths(t *testing.T) {
	n := 1200
	switch {
	case os.Getenv("LOCKSTEP_SOAK") != "":
		n = 5000
	case testing.Short():
		n = 600
	}
	rng := rand.New(rand.NewPCG(34, 3))
	refs := []Ref{Null, 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37}
	atom := func() *Formula {
		a, b := refs[rng.IntN(len(refs))], refs[rng.IntN(len(refs))]
		if rng.IntN(3) == 0 {
			return Neq(a, b)
		}
		return Eq(a, b)
	}
	var nodes []*Formula
	var gen func(depth int) *Formula
	gen = func(depth int) *Formula {
		if depth == 0 || rng.IntN(4) == 0 {
			if len(nodes) > 0 && rng.IntN(3) == 0 {
				return nodes[rng.IntN(len(nodes))]
			}
			return atom()
		}
		kids := make([]*Formula, 2+rng.IntN(3))
		for i := range kids {
			kids[i] = gen(depth - 1)
		}
		var f *Formula
		switch rng.IntN(3) {
		case 0:
			f = And(kids...)
		case 1:
			f = Or(kids...)
		default:
			f = Not(Or(kids...))
		}
		nodes = append(nodes, f)
		return f
	}
	c, ref := newCDCL(), newCDCL()
	c.wantModel = true
	var path []*Formula
	sats, unsats, conflicts := 0, 0, 0
	for i := range n {
		switch m := rng.IntN(10); {
		case m < 5:
			path = append(path, gen(3))
		case m < 7 && len(path) > 0:
			path = path[:rng.IntN(len(path))]
		case m < 8 && len(path) > 0:
			path[len(path)-1] = Not(path[len(path)-1])
		}
		if len(path) > 24 {
			path = path[:8]
		}
		for range 1 + rng.IntN(4) {
			fs := append([]*Formula(nil), path...)
			for range rng.IntN(3) {
				fs = append(fs, gen(2))
			}
			q := And(fs...)
			var got, ok bool
			if rng.IntN(20) == 0 {
				got, ok = c.decide(q)
			} else {
				got, ok = c.decideInc(q)
				conflicts += c.conflicts
			}
			if !ok {
				t.Fatalf("step %d: not decided: %v", i, q)
			}
			want, ok := ref.decide(q)
			if !ok {
				t.Fatalf("step %d: decide: not decided: %v", i, q)
			}
			if got != want {
				t.Fatalf("step %d: incremental says sat=%v, decide %v, on %v", i, got, want, q)
			}
			if got {
				sats++
				if !modelHolds(c, q) {
					t.Fatalf("step %d: the model found does not satisfy %v", i, q)
				}
			} else {
				unsats++
			}
			if !got && len(path) > 0 && rng.IntN(2) == 0 {
				// An unsatisfiable path is left, as the search does.
				path = path[:len(path)-1]
			}
		}
		if len(nodes) > 400 {
			nodes = nodes[200:]
		}
	}
	if sats == 0 || unsats == 0 || conflicts == 0 {
		t.Fatalf("%d sat, %d unsat, %d conflicts: the sequence should have all three", sats, unsats, conflicts)
	}
}

// TestIncCDCLSearches: conjunctions that need conflicts under the
// assumptions (pigeons, whose clauses learned under assumptions send the
// search back below the assumption levels), grown a conjunct at a time and
// then asked again with a conjunct left out, against decide on an
// instance of its own.
func TestIncCDCLSearches(t *testing.T) {
	inc, ref := newCDCL(), newCDCL()
	ask := func(q *Formula) {
		t.Helper()
		got, ok := inc.decideInc(q)
		if !ok {
			t.Fatalf("incremental: not decided: %v", q)
		}
		want, ok := ref.decide(q)
		if !ok {
			t.Fatalf("decide: not decided: %v", q)
		}
		if got != want {
			t.Fatalf("incremental says sat=%v, decide %v, on %v", got, want, q)
		}
	}
	conflicts := 0
	for _, mh := range [][2]int{{5, 5}, {6, 5}, {5, 4}, {7, 6}} {
		kids := pigeons(mh[0], mh[1]).Kids()
		for i := 1; i <= len(kids); i++ {
			ask(And(kids[:i]...))
			conflicts += inc.conflicts
		}
		for i := range kids {
			rest := append(append([]*Formula(nil), kids[:i]...), kids[i+1:]...)
			ask(And(rest...))
			conflicts += inc.conflicts
		}
	}
	if conflicts == 0 {
		t.Fatal("no question took a conflict under its assumptions")
	}
}

// TestIncCDCLOnRefCaseQuestions: 200 consecutive questions that
// satRefCases gave clause learning on bst_delete2 at k = 3 (guards of up
// to 19,000 nodes over 29 constants, in the order asked): the incremental
// route on one instance answers each as decide does on another (its
// clauses kept, as in a run); a few are also Z3's.
func TestIncCDCLOnRefCaseQuestions(t *testing.T) {
	qs := loadQuestions(t, filepath.Join("testdata", "cdcl", "refcases-bst-delete2.q.gz"))
	if len(qs) == 0 {
		t.Fatal("no question")
	}
	var z *Solver
	if !testing.Short() {
		z = newSolver(t)
	}
	inc, ref := newCDCL(), newCDCL()
	inc.wantModel = true
	sats := 0
	for i, q := range qs {
		got, ok := inc.decideInc(q)
		if !ok {
			t.Fatalf("question %d: incremental: not decided", i)
		}
		want, ok := ref.decide(q)
		if !ok {
			t.Fatalf("question %d: decide: not decided", i)
		}
		if got != want {
			t.Fatalf("question %d: incremental says sat=%v, decide %v", i, got, want)
		}
		if got {
			sats++
			if !modelHolds(inc, q) {
				t.Fatalf("question %d: the model found does not satisfy it", i)
			}
		}
		if z != nil && i%40 == 0 {
			zr, err := z.Check(q)
			if err != nil {
				t.Fatal(err)
			}
			if got != (zr == Sat) {
				t.Fatalf("question %d: incremental says sat=%v, Z3 %v", i, got, zr)
			}
		}
	}
	if sats == 0 || sats == len(qs) {
		t.Fatalf("%d of %d satisfiable: the file should have both answers", sats, len(qs))
	}
}

// TestIncModelsCheck: refDecide takes a sat answer of the incremental
// route only with a model that makes the question true (modelChecks). On
// bst_delete2's questions every such model does (incModelMiss stays 0)
// and every answer is decide's; modelChecks itself accepts decide's model
// of each satisfiable question and rejects every model of an
// unsatisfiable one (the identity and the last satisfying model seen).
func TestIncModelsCheck(t *testing.T) {
	qs := loadQuestions(t, filepath.Join("testdata", "cdcl", "refcases-bst-delete2.q.gz"))
	s := newSolver(t)
	ref := newCDCL()
	ref.wantModel = true
	var last refModel
	sats, unsats := 0, 0
	for i, q := range qs {
		r, ok := s.refDecide(q)
		if !ok {
			t.Fatalf("question %d: not decided", i)
		}
		want, ok := ref.decide(q)
		if !ok {
			t.Fatalf("question %d: decide: not decided", i)
		}
		if (r == Sat) != want {
			t.Fatalf("question %d: refDecide says %v, decide sat=%v", i, r, want)
		}
		if want {
			sats++
			m := refModel{refs: slices.Clone(ref.model.refs), rep: slices.Clone(ref.model.rep)}
			if !s.modelChecks(q, m) {
				t.Fatalf("question %d: decide's model rejected", i)
			}
			last = m
			continue
		}
		unsats++
		if s.modelChecks(q, refModel{}) || (last.refs != nil && s.modelChecks(q, last)) {
			t.Fatalf("question %d is unsatisfiable, yet a model was accepted", i)
		}
	}
	if s.dec.incModelMiss != 0 {
		t.Fatalf("%d incremental sat answers without a model of their question", s.dec.incModelMiss)
	}
	if sats == 0 || unsats == 0 {
		t.Fatalf("%d sat, %d unsat: the file should have both answers", sats, unsats)
	}
}
