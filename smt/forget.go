package smt

// Forget drops what the solver keeps about the formulas it was asked
// about: the Go decider's compiled formulas (decide.go: an arena that
// points at every formula it compiled, and so keeps them and their
// subformulas alive), clause learning's encoding (cdcl.go, keyed by the
// formulas the same way), the formulas remembered by Built, and the
// answers cached by formula. A solver lives as
// long as a worker, across the programs of a stream; the checker calls
// Forget when a run ends, so that nothing a run built outlives it (the
// formulas of one program seldom recur in the next, and when they do they
// are new formulas). The Z3 ASTs stay: they are Z3's memory, bounded by
// the solver's own limits, and the constants among them serve every
// program. Forget does nothing while an assumption is in force.
func (s *Solver) Forget() {
	// A run's Model questions end with it (the next run's oracle starts
	// with ResetModels): the model context goes now, to a parked Solver
	// context or away (modelctx.go), not at the next program's oracle.
	s.ResetModels()
	if s.depth > 0 {
		return
	}
	if s.dec != nil && len(s.dec.levels) == 0 {
		s.dec.reset()
	}
	clear(s.sat)
	clear(s.pairs)
	s.built = nil
	// Clause learning's kept encoding points at every formula it encoded.
	s.learn = nil
}
