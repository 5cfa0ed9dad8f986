package smt

import (
	"path/filepath"
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
// sequence starts from the trail, clauses and units the sequences before
// it left. A sequence is a path: conjuncts pushed and popped as a depth-
// first search does, each question the path with a guard or two; now and
// then a question goes through decide instead. Every answer is brute
// force's, and every model found satisfies its question.
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
		for range rapid.IntRange(1, 12).Draw(t, "questions") {
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

// TestIncCDCLSearches: conjunctions that need conflicts under the
// assumptions (pigeons, whose clauses learned under assumptions send the
// search back to the assumption levels), grown a conjunct at a time and
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

// TestIncCDCLUnits: level-0 facts met above level 0. A conjunct that is
// unsatisfiable alone is learned as a clause of one literal under the
// assumptions before it; a node encoded later over it has a definition
// clause that the fact cuts to one literal, with the trail above level 0
// again; both are asserted at level 0 when the trail is there. Every
// answer is decide's on an instance of its own. The constants are this
// test's, so that its formulas are made here, in this order, and a
// conjunction has its conjuncts in it (by ID).
func TestIncCDCLUnits(t *testing.T) {
	c, ref := newCDCL(), newCDCL()
	a, b, cc, d, e := Ref(9001), Ref(9004), Ref(9007), Ref(9010), Null
	p1, p2, p3 := Or(Eq(a, d), Eq(b, e)), Or(Neq(cc, d), Eq(a, e)), Or(Eq(d, e), Neq(a, b))
	notTransitive := Not(Or(Neq(a, b), Neq(b, cc), Eq(a, cc))) // a = b = c ≠ a
	over := Or(And(notTransitive, Eq(d, e)), Eq(cc, e))
	over2 := Or(And(notTransitive, Eq(a, d)), Eq(b, e))
	for i, tc := range []struct {
		q     *Formula
		units int // level-0 facts above level 0 after it
	}{
		{And(p1, p2, notTransitive), 1}, // learned under p1, p2
		{And(p1, p2, Eq(cc, d)), 1},
		{And(p3, Neq(b, d)), 0}, // asserted at level 0
		{And(p3, over), 1},      // over's definition, under p3
		{And(p3, over, Neq(cc, e)), 1},
		{And(p3, over, over2), 2}, // over2's definition, under p3 and over
		{And(p3, Eq(a, e)), 2},    // over2's fact undone, assigned again under p3
		{And(p2, Eq(a, cc)), 0},
		{And(p2, over, Neq(a, d)), 0},
	} {
		want, ok := ref.decide(tc.q)
		if !ok {
			t.Fatalf("question %d: decide: not decided", i)
		}
		got, ok := c.decideInc(tc.q)
		if !ok || got != want {
			t.Fatalf("question %d: sat=%v decided=%v, decide %v: %v", i, got, ok, want, tc.q)
		}
		if len(c.units) != tc.units {
			t.Fatalf("question %d: %d level-0 facts above level 0, want %d", i, len(c.units), tc.units)
		}
	}
}

// BenchmarkIncCDCL: the 200 questions of refcases-bst-delete2.q.gz in
// order, on a new instance per iteration, by decide and by the
// incremental route (docs/PERFORMANCE.md, "Clause learning along a path").
func BenchmarkIncCDCL(b *testing.B) {
	qs := loadQuestions(b, filepath.Join("testdata", "cdcl", "refcases-bst-delete2.q.gz"))
	for _, route := range []string{"decide", "incremental"} {
		b.Run(route, func(b *testing.B) {
			for b.Loop() {
				c := newCDCL()
				for _, q := range qs {
					var ok bool
					if route == "decide" {
						_, ok = c.decide(q)
					} else {
						_, ok = c.decideInc(q)
					}
					if !ok {
						b.Fatal("not decided")
					}
				}
			}
		})
	}
}
