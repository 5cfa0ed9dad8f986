package relation

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/machine"
)

// TestRepresentedByBuiltHeap: along GSE's exploration of LinkedList×4 at
// k = 2 (the first 3,000 states), a state whose heap HeapOf builds gets
// from representedByBuiltHeap (well-formedness read from the built heap,
// the controls vouched for or compared) RepresentedByHeap's answer, and
// so does the same state with a root that is not a stack reference (not
// well formed: StackOnlyRoots); exactness of {s} against s is the same
// with the shortcut off.
func TestRepresentedByBuiltHeap(t *testing.T) {
	defer func() { wellFormedFromHeap = true }()
	s := testutil.Solver(t)
	prog := testutil.Program(t, "../testdata/bench/linkedlist_calls4.jl")
	eng := &gse.Engine{K: 2}
	work := []*machine.State{machine.Initial(prog)}
	states, broken, exactHeld := 0, 0, 0
	outcomes := map[Outcome]int{}
	same := func(p, q *machine.State) Result {
		wellFormedFromHeap = false
		want := RepresentedByHeap(p, q, s)
		wellFormedFromHeap = true
		for _, vouched := range []bool{false, true} {
			got := representedByBuiltHeap(p, q, s, vouched)
			require.Equal(t, want.Outcome, got.Outcome, p.ControlString())
			require.Equal(t, want.Reason, got.Reason, p.ControlString())
		}
		return want
	}
	exactSame := func(st *machine.State) ExactResult {
		var res [2]ExactResult
		for i, on := range []bool{false, true} {
			wellFormedFromHeap = on
			res[i] = ExactWellFormed([]*machine.State{st}, st, s, Budget{ControlsEqual: on}, true)
		}
		require.Equal(t, res[0].Outcome, res[1].Outcome, st.ControlString())
		require.Equal(t, res[0].Reason, res[1].Reason, st.ControlString())
		return res[1]
	}
	for len(work) > 0 && states < 3000 {
		st := work[len(work)-1]
		work = work[:len(work)-1]
		if st.Terminal() || st.Steps >= 200 {
			continue
		}
		states++
		_, err := HeapOf(st)
		require.NoError(t, err)
		outcomes[same(st, st).Outcome]++
		if exactSame(st).Outcome == Holds {
			exactHeld++
		}
		// A root that is not a stack reference: the heap is still built
		// (its value set is {(true l)}), but the state is not well formed.
		if len(st.Env) > 0 {
			if i := slices.IndexFunc(st.R, func(r machine.Ref) bool { return r >= 0 && machine.PartitionOf(r) != machine.PartStack }); i >= 0 {
				bad := st.Clone()
				bad.Env = slices.Clone(st.Env) // a clone shares its original's slots
				bad.Env[0] = machine.RefVal(st.R[i])
				if _, err := HeapOf(bad); err == nil {
					require.Equal(t, Fails, same(bad, bad).Outcome)
					require.Equal(t, Fails, exactSame(bad).Outcome)
					broken++
				}
			}
		}
		succ, err := machine.Step(st.Clone(), eng, eng.Opt)
		require.NoError(t, err)
		for _, n := range slices.Backward(succ) {
			work = append(work, n.S)
		}
	}
	t.Logf("%d states (p ⊏ p: %v; exactness of {p} against p held on %d), %d with a root that is not a stack reference", states, outcomes, exactHeld, broken)
	require.Equal(t, 3000, states)
	require.Positive(t, outcomes[Holds])
	require.Positive(t, broken)
	require.Positive(t, exactHeld)
}
