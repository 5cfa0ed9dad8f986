package checker

import "github.com/lockstep-dev/lockstep/smt"

// applyFaults arms fault injection for program i of a stream: the seed is
// f.Seed + i, and the Sat cache is emptied first, so program i meets the
// same faults whichever worker checks it and whatever that worker checked
// before.
func applyFaults(s *smt.Solver, f *smt.Faults, i int) error {
	if f == nil {
		return nil
	}
	s.ResetCache()
	g := *f
	g.Seed += uint64(i)
	return s.SetFaults(g)
}
