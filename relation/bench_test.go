package relation

import (
	"testing"
)

// benchPairs collects the lockstep pairs of LinkedList at k = 3 (every
// path ends within the bound).
func benchPairs(b *testing.B) []lockPair {
	sol := newSolver(b)
	prog := mustParse(b, linkedListSrc)
	var pairs []lockPair
	lockstepPairs(b, prog, 3, 400, sol, func(pr lockPair) { pairs = append(pairs, pr) })
	return pairs
}

// BenchmarkRepresents: one op is Represents(p, q) for every GSE state p of
// every lockstep pair (P, q) of LinkedList at k = 3.
func BenchmarkRepresents(b *testing.B) {
	pairs := benchPairs(b)
	sol := newSolver(b)
	n, held := 0, 0
	for _, pr := range pairs {
		n += len(pr.P)
	}
	b.ResetTimer()
	for b.Loop() {
		held = 0
		for _, pr := range pairs {
			for _, p := range pr.P {
				if Represents(p, pr.q, sol, DefaultBudget).Outcome == Holds {
					held++
				}
			}
		}
	}
	b.ReportMetric(float64(n), "checks/op")
	b.ReportMetric(float64(held), "held/op")
}

// BenchmarkConcretize: one op concretizes every summary state of the
// lockstep of LinkedList at k = 3.
func BenchmarkConcretize(b *testing.B) {
	pairs := benchPairs(b)
	sol := newSolver(b)
	heaps, witnesses := 0, 0
	b.ResetTimer()
	for b.Loop() {
		heaps, witnesses = 0, 0
		for _, pr := range pairs {
			hs, _, err := Concretize(pr.q, sol, DefaultBudget)
			if err != nil {
				witnesses++
			}
			heaps += len(hs)
		}
	}
	b.ReportMetric(float64(len(pairs)), "states/op")
	b.ReportMetric(float64(heaps), "heaps/op")
	b.ReportMetric(float64(witnesses), "witnesses/op")
}
