package smt

import (
	"fmt"
	"math/rand/v2"
)

// Fault injection. The checker must never turn a solver that could not
// answer into a verdict. To test that, a Solver can be told to make a
// seeded fraction of its queries answer unknown, fail with an error, or be
// canceled, as a real Z3 does under a timeout, a resource limit, an API
// error or a Ctrl-C. A faulty query never reaches Z3, so the faults are
// exactly the ones drawn, and a run with the same seed and the same queries
// draws the same faults.

// Faults configures fault injection: each query (a check or an all-SAT step
// that would reach Z3) independently answers unknown with probability
// Unknown, fails with probability Fail, and is canceled with probability
// Cancel. Queries answered without Z3 (constants, the Sat cache, direct
// partition enumeration) are not affected.
type Faults struct {
	Unknown, Fail, Cancel float64
	Seed                  uint64
}

// FaultStats counts injected faults.
type FaultStats struct {
	Queries, Unknown, Fail, Cancel int64
	// Retried counts the attempts repeated after an unknown answer or an
	// injected failure (interrupt.go, retry).
	Retried int64
}

// Total is the number of injected faults.
func (f FaultStats) Total() int64 { return f.Unknown + f.Fail + f.Cancel }

// errInjectedCancel is an injected cancellation of one query: it wraps
// ErrCanceled (and so context.Canceled), but the solver's context is alive.
var errInjectedCancel = fmt.Errorf("%w (injected fault)", ErrCanceled)

// ErrInjected is wrapped by the errors of injected failures.
var ErrInjected = &Z3Error{Code: -2, Msg: "injected fault", Op: "fault injection"}

type injector struct {
	f     Faults
	rng   *rand.Rand
	stats FaultStats
	// retriedBefore is the solver's retry count when injection started.
	retriedBefore int64
}

// SetFaults turns fault injection on (with a fresh random stream from
// f.Seed) or, with the zero Faults, off. Counters restart from zero.
func (s *Solver) SetFaults(f Faults) error {
	if s.z == nil {
		return ErrClosed
	}
	for _, p := range []float64{f.Unknown, f.Fail, f.Cancel} {
		if p < 0 || p > 1 {
			return fmt.Errorf("smt: fault probability %v is not in [0, 1]", p)
		}
	}
	if f.Unknown+f.Fail+f.Cancel > 1 {
		return fmt.Errorf("smt: fault probabilities sum to %v > 1", f.Unknown+f.Fail+f.Cancel)
	}
	if f == (Faults{}) {
		s.z.gate.faults = nil
		return nil
	}
	s.z.gate.faults = &injector{f: f, rng: rand.New(rand.NewPCG(f.Seed, 0x6c6f636b73746570)), retriedBefore: s.z.gate.retried}
	return nil
}

// FaultStats returns the faults injected since the last SetFaults.
func (s *Solver) FaultStats() FaultStats {
	if s.z == nil || s.z.gate.faults == nil {
		return FaultStats{}
	}
	st := s.z.gate.faults.stats
	st.Retried = s.z.gate.retried - s.z.gate.faults.retriedBefore
	return st
}

func (in *injector) draw(g *gate, op string) (int, error, bool) {
	in.stats.Queries++
	x := in.rng.Float64()
	switch {
	case x < in.f.Unknown:
		in.stats.Unknown++
		g.reason = "injected fault (unknown)"
		return lUndef, nil, true
	case x < in.f.Unknown+in.f.Fail:
		in.stats.Fail++
		return lUndef, fmt.Errorf("smt: %s: %w", op, ErrInjected), true
	case x < in.f.Unknown+in.f.Fail+in.f.Cancel:
		in.stats.Cancel++
		return lUndef, errInjectedCancel, true
	}
	return 0, nil, false
}
