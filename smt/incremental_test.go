package smt

import (
	"errors"
	"testing"
)

// TestAssume: answers under assumptions are relative to them, never come
// from or go into the cache of context-free answers, and releasing every
// scope restores the empty context.
func TestAssume(t *testing.T) {
	s, err := NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q := Eq(1, 4)
	if ok, err := s.Sat(q); err != nil || !ok {
		t.Fatalf("Sat(r1 = r4) = %v, %v", ok, err)
	}
	if err := s.Assume(Neq(1, 4)); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Sat(q); err != nil || ok {
		t.Fatalf("under r1 ≠ r4, Sat(r1 = r4) = %v, %v", ok, err)
	}
	if err := s.Assume(Eq(4, 7)); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Sat(Eq(1, 7)); err != nil || ok {
		t.Fatalf("under r1 ≠ r4 ∧ r4 = r7, Sat(r1 = r7) = %v, %v", ok, err)
	}
	if _, _, err := s.AllSAT(True(), []*Formula{q}, 0); !errors.Is(err, ErrAssuming) {
		t.Fatalf("AllSAT under assumptions: %v", err)
	}
	for s.Assumptions() > 0 {
		if err := s.Release(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Release(); err == nil {
		t.Fatal("Release without Assume succeeded")
	}
	hits := s.Stats().CacheHits
	if ok, err := s.Sat(q); err != nil || !ok {
		t.Fatalf("after release, Sat(r1 = r4) = %v, %v", ok, err)
	}
	if s.Stats().CacheHits != hits+1 {
		t.Fatal("the context-free answer did not come from the cache")
	}
	if ok, err := s.Sat(Eq(1, 7)); err != nil || !ok {
		t.Fatalf("after release, Sat(r1 = r7) = %v, %v (an answer under assumptions was cached)", ok, err)
	}
}
