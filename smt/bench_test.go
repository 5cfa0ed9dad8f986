package smt

import "testing"

// BenchmarkSatUncached measures one push/assert/check/pop query per
// iteration over a pool of distinct path-condition-like formulas larger
// than the translation cache, so it includes translation and eviction.
func BenchmarkSatUncached(b *testing.B) {
	s := newSolver(b)
	pool := formulaPool(3 * defaultTransLimit)
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, err := s.Check(pool[i%len(pool)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkSatCached measures Sat answered from the per-solver cache, the
// common case when many paths share a path condition.
func BenchmarkSatCached(b *testing.B) {
	s := newSolver(b)
	pool := formulaPool(1024)
	for _, f := range pool {
		if _, err := s.Sat(f); err != nil {
			b.Fatal(err)
		}
	}
	i := 0
	for b.Loop() {
		if _, err := s.Sat(pool[i%len(pool)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkAllSAT enumerates, through Z3, the projections onto the 10
// pairwise equalities of four input refs and null of r1 ≠ null (the initial
// path condition): 37 models plus the final unsat check per iteration.
func BenchmarkAllSAT(b *testing.B) {
	s := newSolver(b)
	rs := []Ref{Null, 1, 4, 7, 10}
	var atoms []*Formula
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			atoms = append(atoms, Eq(rs[i], rs[j]))
		}
	}
	f := Neq(1, Null)
	for b.Loop() {
		models, complete, err := s.AllSAT(f, atoms, 0)
		if err != nil || !complete || len(models) != 37 {
			b.Fatalf("got %d models, complete=%v, err=%v", len(models), complete, err)
		}
	}
}

// BenchmarkConstruct measures building a conjunction through the intern
// table, as the engine does on every branch.
func BenchmarkConstruct(b *testing.B) {
	atoms := []*Formula{Neq(1, Null), Eq(4, Null), Neq(7, 1), Eq(10, 4)}
	for b.Loop() {
		And(atoms[0], atoms[1], atoms[2], atoms[3])
	}
}
