package smt

import "errors"

// Incremental use. A depth-first search over constraints (concretization
// is one) asks many questions that share a growing prefix: φ, then φ ∧ g1,
// then φ ∧ g1 ∧ g2, … Asking each as one fresh conjunction makes Z3 parse
// and solve the prefix every time. Assume asserts a formula in a new Z3
// scope instead, so that later questions are relative to it and Z3 keeps
// what it learned; Release drops the newest scope.
//
// While any assumption is in force, answers depend on the assumptions, so
// Sat does not read or write its cache (which holds answers for the empty
// context), and AllSAT and Partitions, which manage scopes of their own,
// refuse to run.

// ErrAssuming is returned by AllSAT and Partitions while assumptions are in
// force.
var ErrAssuming = errors.New("smt: assumptions in force")

// Assume opens a scope and asserts f in it.
func (s *Solver) Assume(f *Formula) error {
	if s.z == nil {
		return ErrClosed
	}
	s.bound()
	a, err := s.translate(f)
	if err != nil {
		return err
	}
	if err := s.z.push(); err != nil {
		return err
	}
	if err := s.z.assert(a); err != nil {
		_ = s.z.pop()
		return err
	}
	s.depth++
	return nil
}

// Release drops the newest scope opened by Assume.
func (s *Solver) Release() error {
	if s.z == nil {
		return ErrClosed
	}
	if s.depth == 0 {
		return errors.New("smt: Release without Assume")
	}
	s.depth--
	return s.z.pop()
}

// Assumptions is the number of scopes in force.
func (s *Solver) Assumptions() int { return s.depth }
