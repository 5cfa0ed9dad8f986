package machine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestHeapWrites: every write to R, to L of a reference that is not a
// stack reference, to the locations and to the facts counts; binding a
// stack reference does not; a clone starts from its original's count and
// the two count apart.
func TestHeapWrites(t *testing.T) {
	p := testutil.Parse(t, `(((class A ([A f]) ((A main [bool x] (this $ f))))) (A main))`)
	s := machine.Initial(p)
	f := p.ByName["A"].Fields[0]
	n := s.HeapWrites()
	s.Set(s.StackR(), machine.Single(0))
	require.Equal(t, n, s.HeapWrites(), "a stack reference's binding")
	steps := []func(s *machine.State){
		func(s *machine.State) { s.Set(s.FreshR(), machine.Single(machine.LNull)) },
		func(s *machine.State) { s.Set(s.InitR(), machine.Single(0)) },
		func(s *machine.State) { s.SetField(0, f, machine.RNull) },
		func(s *machine.State) { s.NewLoc(machine.LocInfo{Class: p.ByName["A"]}, machine.RNull) },
		func(s *machine.State) { s.AddFact(smt.Eq(1, 4)) },
	}
	for i, w := range steps {
		c := s.Clone()
		require.Equal(t, s.HeapWrites(), c.HeapWrites(), "a clone starts from its original's count")
		w(c)
		require.Greater(t, c.HeapWrites(), s.HeapWrites(), "write %d", i)
		w(s)
		require.Equal(t, c.HeapWrites(), s.HeapWrites())
	}
}
