package relation

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/machine"
)

func fingerprintOf(s *machine.State) [2]uint64 { return FingerprintSum(s, false) }

// TestFingerprint: equal for a clone and for a state whose control moved
// without touching a reference; different after any change the relations
// can see (φ, a fact, a guard, a field, an existence guard, a root).
func TestFingerprint(t *testing.T) {
	base, l1, l2 := gseListState(t)
	fp := fingerprintOf(base.s)
	require.Equal(t, fp, fingerprintOf(base.s.Clone()))

	moved := base.s.Clone()
	moved.SetValue(machine.VTrue, nil)
	require.NotEqual(t, base.s.ControlKey(), moved.ControlKey())
	require.Equal(t, fp, fingerprintOf(moved), "a control change alone is invisible")

	changes := map[string]func(b *builder){
		"φ":    func(b *builder) { b.and(neq(i4, machine.RNull)) },
		"fact": func(b *builder) { b.s.AddFact(eq(i4, i7)) },
		"guard": func(b *builder) {
			b.set(0, "head", gvs(eq(i4, i7), l1, neq(i4, i7), machine.LNull))
		},
		"field":  func(b *builder) { b.to(0, "d0", l1) },
		"target": func(b *builder) { b.to(0, "head", l2) },
		"exists": func(b *builder) { b.s.Locs[l1].Exists = neq(i4, machine.RNull) },
		"new":    func(b *builder) { b.newLoc("Node") },
		"class":  func(b *builder) { b.s.Locs[l2].Class = b.s.Prog.ByName["Node"] },
		// A cell of a field that l2's class (Data) does not have: never
		// set by a rule, but a state that has it is another state.
		"foreign cell": func(b *builder) {
			b.s.R[int(l2)*b.s.NumFields()+b.s.Prog.ByName["Node"].Fields[0].ID] = b.s.Env[0].Ref()
		},
		"root": func(b *builder) {
			r := b.s.StackR()
			b.s.Set(r, machine.Single(l1))
			b.s.SetValue(machine.RefVal(r), nil)
		},
		"root value": func(b *builder) {
			r := b.s.Env[0].Ref()
			b.s.Set(r, gvs(eq(i4, i7), machine.Loc(0), neq(i4, i7), l1))
		},
	}
	seen := map[[2]uint64]string{fp: "unchanged"}
	heaps := map[[2]uint64]string{HeapSum(base.s): "unchanged"}
	for name, change := range changes {
		b, _, _ := gseListState(t)
		b.s = b.s.Clone()
		change(b)
		got := fingerprintOf(b.s)
		require.NotContains(t, seen, got, "%s: same fingerprint as %s", name, seen[got])
		seen[got] = name
		// The fingerprint from the heap's sum is the fingerprint; the
		// heap's sum tells apart every change but those of the roots.
		require.Equal(t, got, FingerprintSumHeap(b.s, HeapSum(b.s), false), name)
		require.Equal(t, FingerprintSum(b.s, true), FingerprintSumHeap(b.s, HeapSum(b.s), true), name)
		if name == "root" || name == "root value" {
			require.Equal(t, HeapSum(base.s), HeapSum(b.s), name)
			continue
		}
		hs := HeapSum(b.s)
		require.NotContains(t, heaps, hs, "%s: same heap sum as %s", name, heaps[hs])
		heaps[hs] = name
	}
}

// TestBudgetDone: a closed Budget.Done stops the searches: inconclusive,
// never a verdict.
func TestBudgetDone(t *testing.T) {
	sol := newSolver(t)
	p, _, _ := gseListState(t)
	q, _, _ := gseListState(t)
	done := make(chan struct{})
	b := DefaultBudget
	b.Done = done
	require.Equal(t, Holds, Exact([]*machine.State{p.s}, q.s, sol, b).Outcome)
	close(done)
	r := Represents(p.s, q.s, sol, b)
	require.Equal(t, Inconclusive, r.Outcome, r.Reason)
	_, _, err := Concretize(q.s, sol, b)
	require.ErrorIs(t, err, ErrStopped)
	require.ErrorIs(t, err, ErrBudget)
	require.Equal(t, Inconclusive, Exact([]*machine.State{p.s}, q.s, sol, b).Outcome)
}
