package smt

import (
	"bufio"
	"compress/gzip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The clause-learning procedure (cdcl.go) must give brute force's and
// Z3's answer on every question it answers, learn and restart without
// losing exactness, and hand to Z3 what it cannot finish.

// TestCDCLMatchesBruteForceAndZ3 asks the procedure directly (not behind
// the DPLL, which would answer these first), one reused instance, so that
// every question also exercises the reset of the last one's state.
func TestCDCLMatchesBruteForceAndZ3(t *testing.T) {
	z := newSolver(t)
	c := newCDCL()
	rapid.Check(t, func(t *rapid.T) {
		var f *Formula
		if rapid.Bool().Draw(t, "wide") {
			f = wideGen(6).Draw(t, "f")
		} else {
			f = rawGen(6).Draw(t, "f").build()
		}
		sat, ok := c.decide(f)
		if !ok {
			t.Fatalf("a small formula was not decided: %v", f)
		}
		zr, err := z.Check(f)
		if err != nil {
			t.Fatal(err)
		}
		if sat != (zr == Sat) {
			t.Fatalf("clause learning says sat=%v, Z3 %v, on %v", sat, zr, f)
		}
		if refsWithin(f, universe) && sat != bruteSat(f) {
			t.Fatalf("clause learning says sat=%v, brute force %v, on %v", sat, !sat, f)
		}
	})
}

// pigeons says that m constants x_i, pairwise distinct, each equal one of
// h constants c_j, pairwise distinct: satisfiable iff m ≤ h, and for m = h+1
// a question that takes a search without learning exponential time.
func pigeons(m, h int) *Formula {
	x := func(i int) Ref { return Ref(100 + i) }
	c := func(j int) Ref { return Ref(200 + j) }
	var cs []*Formula
	for i := range m {
		var in []*Formula
		for j := range h {
			in = append(in, Eq(x(i), c(j)))
		}
		cs = append(cs, Or(in...))
		for k := i + 1; k < m; k++ {
			cs = append(cs, Neq(x(i), x(k)))
		}
	}
	for j := range h {
		for k := j + 1; k < h; k++ {
			cs = append(cs, Neq(c(j), c(k)))
		}
	}
	return And(cs...)
}

// TestCDCLPigeons: questions that need hundreds of conflicts, learned
// clauses and restarts; the answers are known.
func TestCDCLPigeons(t *testing.T) {
	c := newCDCL()
	for _, tc := range []struct {
		m, h int
		sat  bool
	}{{5, 5, true}, {6, 5, false}, {7, 6, false}, {7, 7, true}, {3, 2, false}} {
		sat, ok := c.decide(pigeons(tc.m, tc.h))
		if !ok || sat != tc.sat {
			t.Fatalf("%d pigeons in %d holes: sat=%v decided=%v, want sat=%v", tc.m, tc.h, sat, ok, tc.sat)
		}
		if tc.m == 7 && !tc.sat && c.conflicts < 100 {
			t.Fatalf("7 pigeons in 6 holes took %d conflicts: no restart exercised", c.conflicts)
		}
	}
}

// TestCDCLBehindDPLL: a question past the DPLL's budget, without
// assumptions, is answered by clause learning (counted in Learned) and
// agrees with Z3 (the cross-check); past the conflict budget, or with too
// many constants, it goes to Z3.
func TestCDCLBehindDPLL(t *testing.T) {
	old, oldC := decideBudget, cdclMaxConflicts
	defer func() { decideBudget, cdclMaxConflicts = old, oldC }()
	decideBudget = 10
	s := goSolver(t)
	s.SetCrossCheck(true)
	for _, f := range []*Formula{pigeons(6, 5), pigeons(5, 5), pigeons(4, 3)} {
		before := s.Stats()
		if _, err := s.Check(f); err != nil {
			t.Fatal(err)
		}
		after := s.Stats()
		if after.Learned != before.Learned+1 || after.Decided != before.Decided+1 {
			t.Fatalf("stats %+v → %+v: not answered by clause learning", before, after)
		}
	}
	if n, bad := s.CrossChecked(); n != 3 || len(bad) > 0 {
		t.Fatalf("cross-checked %d, mismatches %v", n, bad)
	}
	// Under an assumption the DPLL's give-up goes to Z3.
	if err := s.Assume(Neq(100, 101)); err != nil {
		t.Fatal(err)
	}
	before := s.Stats()
	if r, err := s.Check(pigeons(6, 5)); err != nil || r != Unsat {
		t.Fatalf("Check = %v, %v", r, err)
	}
	if after := s.Stats(); after.Learned != before.Learned {
		t.Fatalf("stats %+v → %+v: clause learning under an assumption", before, after)
	}
	if err := s.Release(); err != nil {
		t.Fatal(err)
	}
	cdclMaxConflicts = 5
	before = s.Stats()
	if r, err := s.Check(pigeons(7, 6)); err != nil || r != Unsat {
		t.Fatalf("Check = %v, %v", r, err)
	}
	if after := s.Stats(); after.Learned != before.Learned || after.Queries == before.Queries {
		t.Fatalf("stats %+v → %+v: past the conflict budget, not asked of Z3", before, after)
	}
	cdclMaxConflicts = oldC
	var wide []*Formula
	for r := Ref(1); r <= cdclMaxRefs+1; r++ {
		wide = append(wide, Or(Eq(r, Null), Eq(r, r+1000)))
	}
	before = s.Stats()
	if r, err := s.Check(And(wide...)); err != nil || r != Sat {
		t.Fatalf("Check = %v, %v", r, err)
	}
	if after := s.Stats(); after.Learned != before.Learned {
		t.Fatalf("stats %+v → %+v: clause learning past %d constants", before, after, cdclMaxRefs)
	}
}

// TestCDCLKeepsClauses: the clauses learned on a question stay true in
// later ones (an unsatisfiable question asked again needs no conflict),
// and questions over related and unrelated formulas, with the kept
// encoding dropped when it grows past its bounds, keep brute force's
// answers.
func TestCDCLKeepsClauses(t *testing.T) {
	c := newCDCL()
	hard := pigeons(7, 6)
	if sat, ok := c.decide(hard); !ok || sat {
		t.Fatalf("7 pigeons in 6 holes: sat=%v decided=%v", sat, ok)
	}
	if c.conflicts == 0 {
		t.Fatal("7 pigeons in 6 holes took no conflict")
	}
	if sat, ok := c.decide(hard); !ok || sat || c.conflicts != 0 {
		t.Fatalf("asked again: sat=%v decided=%v after %d conflicts, want unsat at once", sat, ok, c.conflicts)
	}
	// A satisfiable question over the same nodes after it.
	if sat, ok := c.decide(pigeons(6, 6)); !ok || !sat {
		t.Fatalf("6 pigeons in 6 holes: sat=%v decided=%v", sat, ok)
	}
	// Questions over 30 constants each, of two disjoint sets: their
	// union is past cdclMaxRefs, so the encoding is dropped in between.
	wide := func(base Ref, closed bool) *Formula {
		var cs []*Formula
		for r := base; r < base+29; r++ {
			cs = append(cs, Or(Eq(r, r+1), Neq(r, Null)))
		}
		if closed {
			cs = append(cs, Eq(base, Null), Neq(base+29, Null))
			for r := base; r < base+29; r++ {
				cs = append(cs, Or(Eq(r, r+1), Eq(r, Null)), Or(Neq(r, Null), Eq(r+1, Null)))
			}
		}
		return And(cs...)
	}
	before := c.resets
	for i, f := range []*Formula{wide(1000, false), wide(2000, true), wide(1000, true), wide(2000, false)} {
		want := i%3 == 0
		if sat, ok := c.decide(f); !ok || sat != want {
			t.Fatalf("question %d over 30 constants: sat=%v decided=%v, want %v", i, sat, ok, want)
		}
	}
	if c.resets < before+3 {
		t.Fatalf("%d resets over questions whose constants do not fit together", c.resets-before)
	}
	// Random questions built from a few shared formulas, as the checker
	// asks them (conjunctions of guards that recur), against brute force.
	rapid.Check(t, func(t *rapid.T) {
		pool := rapid.SliceOfN(rawGen(4), 2, 5).Draw(t, "pool")
		for range 4 {
			idx := rapid.SliceOfN(rapid.IntRange(0, len(pool)-1), 1, 3).Draw(t, "pick")
			var fs []*Formula
			for _, i := range idx {
				f := pool[i].build()
				if rapid.Bool().Draw(t, "neg") {
					f = Not(f)
				}
				fs = append(fs, f)
			}
			f := And(fs...)
			sat, ok := c.decide(f)
			if !ok {
				t.Fatalf("not decided: %v", f)
			}
			if sat != bruteSat(f) {
				t.Fatalf("clause learning says sat=%v, brute force %v, on %v", sat, !sat, f)
			}
		}
	})
}

// loadQuestions reads a file of testdata/cdcl (its README says the
// format) and rebuilds its questions through the constructors.
func loadQuestions(t testing.TB, path string) []*Formula {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	nodes := map[string]*Formula{}
	var qs []*Formula
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	num := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for sc.Scan() {
		p := strings.Fields(sc.Text())
		switch {
		case p[0] == "q":
			qs = append(qs, nodes[p[1]])
		case p[2] == "=":
			nodes[p[1]] = Eq(Ref(num(p[3])), Ref(num(p[4])))
		default:
			var ks []*Formula
			for _, k := range p[3:] {
				ks = append(ks, nodes[k])
			}
			switch Op(num(p[2])) {
			case OpNot:
				nodes[p[1]] = Not(ks[0])
			case OpAnd:
				nodes[p[1]] = And(ks...)
			case OpOr:
				nodes[p[1]] = Or(ks...)
			default:
				t.Fatalf("bad line %q", sc.Text())
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return qs
}

// TestCDCLOnCheckerQuestions: questions the checker asked that the DPLL
// gives up on (determinism of a View's value set, totality on the
// successor tree), in the order asked, with the clauses kept between them
// as in a run: every answer is Z3's.
func TestCDCLOnCheckerQuestions(t *testing.T) {
	z := newSolver(t)
	for _, file := range []string{"determinism-p78.q.gz", "total-successor.q.gz"} {
		c := newCDCL()
		qs := loadQuestions(t, filepath.Join("testdata", "cdcl", file))
		if len(qs) == 0 {
			t.Fatalf("%s: no question", file)
		}
		for i, q := range qs {
			sat, ok := c.decide(q)
			if !ok {
				t.Fatalf("%s: question %d not decided", file, i)
			}
			zr, err := z.Check(q)
			if err != nil {
				t.Fatal(err)
			}
			if sat != (zr == Sat) {
				t.Fatalf("%s: question %d: clause learning says sat=%v, Z3 %v", file, i, sat, zr)
			}
		}
	}
}
