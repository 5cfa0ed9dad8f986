package summary

import (
	"context"
	"slices"
	"testing"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestAndMemoSameStates explores programs with the engine's memo of
// conjunctions (Engine.and) on and off and requires the same states, in
// the same order: the same control, path condition, locations, R and
// guarded value sets (formulas compared by pointer: they are hash-consed,
// and every state of both runs is kept, so a formula of the second run
// that the first made is the same pointer).
func TestAndMemoSameStates(t *testing.T) {
	for _, c := range []struct {
		file, variant string
		k, bound      int
	}{
		{"../testdata/bench/linkedlist_calls4.jl", "fixed", 3, 300},
		{"../testdata/bench/dll_remove.jl", "fixed", 2, 200},
		{"../testdata/bench/linkedlist_calls4.jl", "published", 2, 200},
	} {
		p, err := javalite.LoadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		run := func(memo bool) []*machine.State {
			defer func(old bool) { memoAnd = old }(memoAnd)
			memoAnd = memo
			sol, err := smt.NewSolver()
			if err != nil {
				t.Fatal(err)
			}
			defer sol.Close()
			var states []*machine.State
			st, err := machine.ExploreWith(context.Background(), machine.Initial(p), New(lookup(t, c.variant), c.k, sol), c.bound, struct{}{},
				func(_ struct{}, _ int, s machine.Succ) struct{} {
					states = append(states, s.S.Clone())
					return struct{}{}
				}, nil)
			if err != nil || !st.Complete {
				t.Fatalf("%s: %v (complete %v)", c.file, err, st.Complete)
			}
			return states
		}
		off := run(false)
		on := run(true)
		if len(on) != len(off) {
			t.Fatalf("%s %s k=%d: %d states with the memo, %d without", c.file, c.variant, c.k, len(on), len(off))
		}
		for i := range on {
			if why := sameState(on[i], off[i]); why != "" {
				t.Fatalf("%s %s k=%d: state %d differs (%s):\nwith the memo:\n%s\nwithout:\n%s", c.file, c.variant, c.k, i, why, on[i].Dump(), off[i].Dump())
			}
		}
		t.Logf("%s %s k=%d: %d states the same", c.file, c.variant, c.k, len(on))
	}
}

// sameState says how a and b differ, or "".
func sameState(a, b *machine.State) string {
	switch {
	case a.ControlKey() != b.ControlKey():
		return "control"
	case a.PathCondition() != b.PathCondition():
		return "path condition"
	case !slices.Equal(a.Locs, b.Locs):
		return "locations"
	case !slices.Equal(a.R, b.R):
		return "R"
	case !slices.Equal(a.Prim, b.Prim):
		return "primitive fields"
	case a.NextStack != b.NextStack || a.NextInput != b.NextInput || a.NextFresh != b.NextFresh:
		return "reference counters"
	case len(a.L) != len(b.L):
		return "L's length"
	}
	for i := range a.L {
		if !slices.Equal(a.L[i], b.L[i]) {
			return "L of " + machine.RefString(machine.Ref(i-2))
		}
	}
	return ""
}
