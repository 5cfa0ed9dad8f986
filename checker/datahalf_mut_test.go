package checker

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/internal/knobs"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
)

// TestDataHalfCheckerMutations mutates the checker itself: each part of
// the data half of exactness (PRIMITIVES.md §5) — direction (a), direction
// (b), (b)'s last world, the slots' terms in the data memo key — is broken
// by a test-only knob (internal/knobs), and some catalog mutant that the
// intact checker kills must survive the broken one, on states with one
// world and with several. So each part is needed by some engine error of
// the catalog, and breaking it cannot pass unnoticed: the two directions
// used to cover each other on every catalog mutant.
//
// And the solver-free cross-check: on the pairs the broken checker lets
// through, relation.ConcreteStates (every reference world and valuation
// over a small domain, no solver) finds the engine state and its GSE group
// standing for different (input, state) pairs.
func TestDataHalfCheckerMutations(t *testing.T) {
	solver := testutil.Solver(t)
	cases := []struct {
		knob   *atomic.Bool
		name   string
		mutant string
		file   string
		reason string // what the intact checker says
	}{
		{&knobs.DataSkipA, "skip (a)", "m-strengthen-tighter", "assume_lt3.jl", "(a) data"},
		{&knobs.DataSkipA, "skip (a)", "m-strengthen-tighter", "assume_worlds.jl", "(a) data"},
		{&knobs.DataSkipB, "skip (b)", "m-strengthen-none", "assume_lt3.jl", "(b) data"},
		{&knobs.DataSkipB, "skip (b)", "m-strengthen-none", "assume_worlds.jl", "(b) data"},
		{&knobs.DataSkipLastWorldB, "skip (b)'s last world", "m-strengthen-none", "assume_lt3.jl", "(b) data"},
		{&knobs.DataSkipLastWorldB, "skip (b)'s last world", "m-strengthen-first-entry", "assume_worlds.jl", "(b) data"},
		{&knobs.DataKeyNoSlots, "no slots in the data memo key", "m-prim-read-first", "read_worlds.jl", "data"},
	}
	for _, c := range cases {
		t.Run(c.name+"/"+c.mutant+"/"+c.file, func(t *testing.T) {
			p := testutil.Program(t, "../testdata/data/"+c.file)
			opt := dataOptions(2)
			opt.Engine = "summary:fixed+" + c.mutant
			rep, err := Run(context.Background(), p, opt, solver)
			require.NoError(t, err)
			require.Equal(t, Violated, rep.Verdict.Status, "the intact checker kills %s: %s", c.mutant, rep.Text(false))
			require.Contains(t, rep.Verdict.Reason, c.reason)

			dom := concrete.Domain(p)
			for _, v := range []int64{-1, 1, 2} {
				if !slices.Contains(dom, v) {
					dom = append(dom, v)
				}
			}
			differ := 0
			dataPairHook = func(P []*machine.State, q *machine.State, res relation.ExactResult) {
				if res.Outcome != relation.Holds {
					return
				}
				sq, ambQ, okQ, err := relation.ConcreteStates(q, nil, dom, 20000)
				require.NoError(t, err)
				sp := map[string]bool{}
				for _, p := range P {
					s, amb, ok, err := relation.ConcreteStates(p, relation.DataFacts(p), dom, 20000)
					require.NoError(t, err)
					okQ, ambQ = okQ && ok, ambQ || amb
					for k := range s {
						sp[k] = true
					}
				}
				if !okQ || ambQ {
					return
				}
				same := len(sq) == len(sp)
				for k := range sq {
					same = same && sp[k]
				}
				if !same {
					differ++
				}
			}
			c.knob.Store(true)
			rep, err = Run(context.Background(), p, opt, solver)
			c.knob.Store(false)
			dataPairHook = nil
			require.NoError(t, err)
			require.Equal(t, Holds, rep.Verdict.Status, "%s survives the checker with %s: %s", c.mutant, c.name, rep.Text(false))
			require.Positive(t, differ, "brute force sees a pair the broken checker passed")
		})
	}
}
