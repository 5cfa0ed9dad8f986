package relation

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/machine"
)

// TestHeapOfSame: along GSE's exploration of LinkedList×4 at k = 2 (200
// steps), every successor whose count of writes is its predecessor's
// (machine.State.HeapWrites: the heap part as it was) has from
// HeapOfSame of the predecessor's heap the heap HeapOf builds: the same
// locations, fields and roots, the same canonical name, and the
// predecessor's heap itself when the roots are its too.
func TestHeapOfSame(t *testing.T) {
	prog := testutil.Program(t, "../testdata/bench/linkedlist_calls4.jl")
	eng := &gse.Engine{K: 2}
	work := []*machine.State{machine.Initial(prog)}
	same, whole, shared := 0, 0, 0
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if s.Terminal() || s.Steps >= 200 {
			continue
		}
		prev, err := HeapOf(s)
		require.NoError(t, err)
		succ, err := machine.Step(s.Clone(), eng, eng.Opt)
		require.NoError(t, err)
		for _, n := range slices.Backward(succ) {
			work = append(work, n.S)
			if n.S.HeapWrites() != s.HeapWrites() {
				whole++
				continue
			}
			same++
			want, err := HeapOf(n.S)
			require.NoError(t, err)
			got, err := HeapOfSame(n.S, prev)
			require.NoError(t, err)
			require.Equal(t, want.Roots, got.Roots, n.Rule)
			require.Equal(t, len(want.Locs), len(got.Locs), n.Rule)
			for i := range want.Locs {
				require.Equal(t, want.Locs[i].Class, got.Locs[i].Class)
				require.Equal(t, want.Locs[i].Input, got.Locs[i].Input)
				require.Equal(t, want.Locs[i].Fields, got.Locs[i].Fields)
				require.Equal(t, want.Locs[i].Orig, got.Locs[i].Orig)
			}
			require.Equal(t, Canonical(want), Canonical(got), n.Rule)
			if got == prev {
				shared++
			}
		}
	}
	t.Logf("%d successors with their predecessor's heap part (%d of them its heap), %d without", same, shared, whole)
	require.Positive(t, same)
	require.Positive(t, shared)
	require.Positive(t, whole)
}
