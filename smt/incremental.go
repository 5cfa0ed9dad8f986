package smt

import (
	"errors"
	"fmt"
)

// Incremental use. A depth-first search over constraints (concretization
// is one) asks many questions that share a growing prefix: φ, then φ ∧ g1,
// then φ ∧ g1 ∧ g2, … Asking each as one fresh conjunction makes Z3 parse
// and solve the prefix every time. Assume asserts a formula in a new Z3
// scope instead, so that later questions are relative to it and Z3 keeps
// what it learned; Release drops the newest scope.
//
// While any assumption is in force, answers depend on the assumptions, so
// Sat does not read or write its cache (which holds answers for the empty
// context), and AllSAT, which manages scopes of its own,
// refuses to run.

// ErrAssuming is returned by AllSAT while assumptions are in
// force.
var ErrAssuming = errors.New("smt: assumptions in force")

// Assume opens a scope and asserts f in it. The Go decision procedure
// takes f in at once; Z3 is told only when a question under f reaches it.
// An assumption with data is Z3's alone: from its scope on, until it is
// released, every question goes to Z3's data solver, and the Go decision
// procedure gets an empty level (so that its levels stay the solver's).
func (s *Solver) Assume(f *Formula) error {
	if s.z == nil {
		return ErrClosed
	}
	s.assumed = append(s.assumed, assumption{f: f})
	switch {
	case f.data:
		s.pushData(f)
	case s.opaqueAt >= 0:
		s.pushRelaxed(f)
	default:
		s.dec.push(f)
	}
	s.depth++
	return nil
}

// pushData opens the decider's level of a scope whose assumption f has
// data: its reference projection (split.go) when it has one, so that the
// questions without data under it stay the Go decider's, else an empty
// level, and from then on every question goes to Z3.
func (s *Solver) pushData(f *Formula) {
	if s.dataAt < 0 {
		s.dataAt = s.depth
	}
	if s.opaqueAt < 0 {
		if p, ok := s.project(f); ok {
			s.dec.push(p)
			return
		}
		s.opaqueAt = s.depth
	}
	s.pushRelaxed(f)
}

// Relaxed levels. Under an opaque scope (an assumption with data and no
// reference projection) Z3 answered every question, though nearly all of
// them are questions without data that the reference conjuncts already
// refute: on testdata/bench/treemap_remove.jl at k = 3 under POSE-J the
// concretizer asked 253,000 such questions, 95 % unsatisfiable, a fifth
// of the check's CPU in Z3. The decider's level of such a scope holds the
// assumption's conjuncts without data (and the levels above it theirs),
// a relaxation of the assumptions: every model of the assumptions is a
// model of the level, so a question the decider finds unsatisfiable
// relative to the levels is unsatisfiable relative to the assumptions,
// and that answer is exact (relaxedUnsat). A sat answer of the decider
// says nothing there (the data conjuncts left out may contradict it), so
// it is not taken and the question goes to Z3 as before. The models the
// decider keeps for a relaxed level satisfy the levels below it, which
// are its parent's (pop hands them down), and are never used to answer
// under the opaque scope: Witnessed answers nothing while a scope with
// data is in force. With relaxOpaque off, or the decider off, or fault
// injection on, the level is empty as before and Z3 answers everything.
var relaxOpaque = true

// pushRelaxed opens the decider's level of a scope under an opaque one
// (or of the opaque one itself): f's conjuncts without data.
func (s *Solver) pushRelaxed(f *Formula) {
	if !s.relaxing() {
		s.dec.pushEmpty()
		return
	}
	kids := []*Formula{f}
	if f.op == OpAnd {
		kids = f.kids
	}
	ref, _ := byData(kids)
	s.dec.push(ref...)
}

// relaxing reports whether opaque scopes get relaxed levels.
func (s *Solver) relaxing() bool {
	return relaxOpaque && !s.dec.off && s.z.gate.faults == nil
}

// relaxedUnsat answers f, a question without data under an opaque scope,
// when the decider finds it unsatisfiable relative to the relaxed levels
// (see pushRelaxed): then it is unsatisfiable relative to the
// assumptions. ok is false otherwise (Z3 answers).
func (s *Solver) relaxedUnsat(f *Formula) (Result, bool, error) {
	if !s.relaxing() {
		return Unknown, false, nil
	}
	r, ok := s.goDecide(f)
	if !ok || r != Unsat {
		return Unknown, false, nil
	}
	s.stats.Decided++
	s.stats.Relaxed++
	if s.dec.cross {
		zr, err := s.z3Check(f)
		if err == nil {
			s.dec.crossChecked++
		}
		if err == nil && zr != Unsat {
			err := fmt.Errorf("smt: the Go decision procedure says unsat relative to the relaxed assumptions, Z3 says %v, on %v under assumptions %v", zr, f, s.assumptionList())
			s.dec.mismatches = append(s.dec.mismatches, err.Error())
			return Unknown, true, err
		}
	}
	lr, err := s.z.goAnswer(Unsat)
	if err != nil {
		return Unknown, true, err
	}
	r, err = s.result(lr, false)
	return r, true, err
}

// AssumeAll is Assume of the conjunction of fs, without building it: the
// Go decision procedure takes the formulas in one by one, and the
// conjunction is made only if a question under it reaches Z3. A caller
// that assumes many conjunctions once each (the concretizer assumes the
// literals of thousands of leaves) saves interning them. fs must not
// change while the scope is in force.
func (s *Solver) AssumeAll(fs []*Formula) error {
	if s.z == nil {
		return ErrClosed
	}
	s.assumed = append(s.assumed, assumption{fs: fs})
	data := false
	for _, f := range fs {
		data = data || f.data
	}
	switch {
	case data:
		s.pushData(s.assumption(len(s.assumed) - 1))
	case s.opaqueAt >= 0:
		if s.relaxing() {
			s.dec.push(fs...)
		} else {
			s.dec.pushEmpty()
		}
	default:
		s.dec.push(fs...)
	}
	s.depth++
	return nil
}

// assumption is the formula of one scope: f, or the conjunction of fs
// (AssumeAll), built when first needed.
type assumption struct {
	f  *Formula
	fs []*Formula
}

// assumption is the formula of scope i.
func (s *Solver) assumption(i int) *Formula {
	a := &s.assumed[i]
	if a.f == nil {
		a.f = And(a.fs...)
	}
	return a.f
}

// assumptionList is the formulas of the scopes, for messages.
func (s *Solver) assumptionList() []*Formula {
	out := make([]*Formula, len(s.assumed))
	for i := range s.assumed {
		out[i] = s.assumption(i)
	}
	return out
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
	n := len(s.assumed) - 1
	s.assumed[n] = assumption{} // the array would keep the formula alive
	s.assumed = s.assumed[:n]
	s.dec.pop()
	if s.dataAt == n {
		s.dataAt = -1
	}
	if s.opaqueAt == n {
		s.opaqueAt = -1
	}
	var err error
	if s.zdepth > n {
		s.zdepth = n
		err = s.z.pop(false)
	}
	if s.dzdepth > n {
		s.dzdepth = n
		if derr := s.z.pop(true); err == nil {
			err = derr
		}
	}
	return err
}

// Assumptions is the number of scopes in force.
func (s *Solver) Assumptions() int { return s.depth }
