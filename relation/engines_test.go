package relation

import (
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

// TestGSEStatesRepresentThemselves: every state of a GSE exploration of
// LinkedList is well formed, represents itself, has itself as its only
// concretization, and is exact for {itself}.
func TestGSEStatesRepresentThemselves(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	k, bound := 2, 40
	if os.Getenv("LOCKSTEP_SOAK") != "" {
		k, bound = 3, 80
	}
	states := allStates(t, prog, gse.New(k), bound)
	if len(states) < 100 {
		t.Fatalf("only %d states: the exploration did not get anywhere", len(states))
	}
	for i, p := range states {
		if v, err := WellFormed(p, sol); v != nil || err != nil {
			t.Fatalf("state %d: not well formed: %v %v", i, v, err)
		}
		if r := Represents(p, p, sol, DefaultBudget); r.Outcome != Holds {
			t.Fatalf("state %d does not represent itself: %v (%s)", i, r.Outcome, r.Reason)
		}
		hp, err := HeapOf(p)
		if err != nil {
			t.Fatal(err)
		}
		heaps, complete, err := Concretize(p, sol, DefaultBudget)
		if err != nil || !complete || len(heaps) != 1 || !Isomorphic(heaps[0], hp) {
			t.Fatalf("state %d: concretization %v (complete %v, err %v), want exactly %v", i, heaps, complete, err, hp)
		}
		if r := Exact([]*machine.State{p}, p, sol, DefaultBudget); r.Outcome != Holds {
			t.Fatalf("state %d: Exact({p}, p) = %v (%s)", i, r.Outcome, r.Reason)
		}
	}
	t.Logf("%d GSE states checked", len(states))
}

// pairStep is one step of the bisimulation of RULES.md §7 (Def. 18): the
// GSE successors of P grouped by control, matched with the summary
// successors of q.
type lockPair struct {
	P []*machine.State
	q *machine.State
}

func lockstepPairs(tb testing.TB, prog *javalite.Program, k, bound int, sol *smt.Solver, visit func(lockPair)) {
	tb.Helper()
	g := gse.New(k)
	v, err := summary.Lookup("published")
	if err != nil {
		tb.Fatal(err)
	}
	sum := summary.New(v, k, sol)
	work := []lockPair{{P: []*machine.State{machine.Initial(prog)}, q: machine.Initial(prog)}}
	for len(work) > 0 {
		pr := work[len(work)-1]
		work = work[:len(work)-1]
		visit(pr)
		if pr.q.Terminal() || pr.q.Steps >= bound {
			continue
		}
		groups := map[string][]*machine.State{}
		for _, p := range pr.P {
			succ, err := machine.Step(p.Clone(), g, g.Options())
			if err != nil {
				tb.Fatalf("gse step: %v", err)
			}
			for _, s := range succ {
				key := s.S.ControlKey()
				groups[key] = append(groups[key], s.S)
			}
		}
		succ, err := machine.Step(pr.q.Clone(), sum, sum.Options())
		if err != nil {
			tb.Fatalf("summary step: %v", err)
		}
		if len(succ) != len(groups) {
			tb.Fatalf("step %d: %d summary successors, %d GSE control groups", pr.q.Steps, len(succ), len(groups))
		}
		for _, s := range succ {
			P, ok := groups[s.S.ControlKey()]
			if !ok {
				tb.Fatalf("step %d: summary successor by %s has no GSE group", pr.q.Steps, s.Rule)
			}
			work = append(work, lockPair{P: P, q: s.S})
		}
	}
}

// TestSummaryStatesExact runs GSE and the summary engine in lockstep on
// LinkedList and checks that every summary state is well formed and exact
// for its group of GSE states. The published rules are exact on this
// read-only program (no field write, so V7 cannot arise), so a failure here
// is a bug in this package or in the engines.
func TestSummaryStatesExact(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	k, bound := -1, 60
	if os.Getenv("LOCKSTEP_SOAK") != "" {
		bound = 100
	}
	if b, err := strconv.Atoi(os.Getenv("RELATION_BOUND")); err == nil {
		bound = b
	}
	pairs, maxHeaps := 0, 0
	lockstepPairs(t, prog, k, bound, sol, func(pr lockPair) {
		pairs++
		if v, err := WellFormed(pr.q, sol); v != nil || err != nil {
			t.Fatalf("summary state at step %d not well formed: %v %v\n%s", pr.q.Steps, v, err, dumpState(pr.q))
		}
		r := Exact(pr.P, pr.q, sol, DefaultBudget)
		if r.Outcome != Holds {
			t.Fatalf("step %d: Exact = %v (%s)\n%s", pr.q.Steps, r.Outcome, r.Reason, dumpState(pr.q))
		}
		// Distinct GSE heaps and distinct concretizations correspond one to
		// one when the summary is exact.
		distinct := map[string]bool{}
		for _, p := range pr.P {
			h, _ := HeapOf(p)
			distinct[Canonical(h)] = true
		}
		if r.Heaps != len(distinct) {
			t.Fatalf("step %d: %d concretizations, %d distinct GSE heaps", pr.q.Steps, r.Heaps, len(distinct))
		}
		maxHeaps = max(maxHeaps, r.Heaps)
		if r.Heaps <= 64 {
			sameConcretizations(t, pr.q, sol)
		}
	})
	if pairs < 50 || maxHeaps < 3 {
		t.Fatalf("only %d pairs, at most %d heaps: the lockstep did not get anywhere", pairs, maxHeaps)
	}
	t.Logf("%d pairs, up to %d concretizations", pairs, maxHeaps)
}

// TestRepresentsCatchesDroppedCase removes one entry from a summary value
// set and checks that the GSE state it stood for is no longer represented.
func TestRepresentsCatchesDroppedCase(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	found := false
	lockstepPairs(t, prog, -1, 60, sol, func(pr lockPair) {
		if found || len(pr.P) < 3 {
			return
		}
		// Find a root of q with an aliasing entry and drop it.
		for _, r := range pr.q.Roots() {
			g := pr.q.Get(r)
			if len(g) < 3 {
				continue
			}
			for drop := range g {
				q := pr.q.Clone()
				var ng machine.GVS
				for i, e := range g {
					if i != drop {
						ng = append(ng, e)
					}
				}
				// Keep q total: move the dropped guard onto the next entry.
				ng[drop%len(ng)].Guard = smt.Or(ng[drop%len(ng)].Guard, g[drop].Guard)
				q.Set(r, ng)
				res := Exact(pr.P, q, sol, DefaultBudget)
				if res.Outcome != Fails {
					t.Fatalf("dropping %v from L(%s) went unnoticed: %v (%s)", g[drop], machine.RefString(r), res.Outcome, res.Reason)
				}
				found = true
			}
			return
		}
	})
	if !found {
		t.Fatal("no summary state with a three-way root value set")
	}
}

// sameConcretizations checks Concretize against the all-SAT oracle.
func sameConcretizations(t *testing.T, q *machine.State, sol *smt.Solver) {
	t.Helper()
	got, c1, err1 := Concretize(q, sol, DefaultBudget)
	want, c2, err2 := concretizeAllSAT(q, sol, DefaultBudget)
	if (err1 == nil) != (err2 == nil) || !c1 || !c2 {
		t.Fatalf("Concretize: complete %v err %v; oracle: complete %v err %v", c1, err1, c2, err2)
	}
	if err1 != nil {
		return
	}
	if g, w := canonicalSet(got), canonicalSet(want); !slices.Equal(g, w) {
		t.Fatalf("Concretize gives %d heaps, the all-SAT oracle %d:\n%v\n%v", len(g), len(w), g, w)
	}
}

// TestDischargeAgreesWithSearch: exact counts a member of P as represented
// without a search when its heap is a concretization of q; on every pair
// of the LinkedList lockstep, each such member is represented by the
// search too (and the members that are not met are searched as before).
func TestDischargeAgreesWithSearch(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	discharged := 0
	lockstepPairs(t, prog, 2, 60, sol, func(pr lockPair) {
		heaps, _, err := Concretize(pr.q, sol, DefaultBudget)
		if err != nil {
			return // published at k = 2 is not total everywhere: nothing is discharged then
		}
		met := map[string]bool{}
		for _, h := range heaps {
			met[Canonical(h)] = true
		}
		for i, p := range pr.P {
			h, err := HeapOf(p)
			if err != nil || !met[Canonical(h)] {
				continue
			}
			require.Equal(t, Holds, RepresentedByHeap(p, pr.q, sol).Outcome)
			r := RepresentsWellFormed(p, pr.q, sol, DefaultBudget)
			require.Equal(t, Holds, r.Outcome, "step %d, P[%d]: discharged by its heap, but the search says %s", pr.q.Steps, i, r.Reason)
			discharged++
		}
	})
	require.Greater(t, discharged, 100)
	t.Logf("%d members discharged by their heap, each confirmed by the search", discharged)
}

// TestConcretizationCacheSameHeaps: along the lockstep of the LinkedList
// program, every summary state concretized with one cache for the whole
// run (its leaves reused by states that differ only in their roots) has
// the heaps, completeness and errors of a search without the cache, and
// the cache was used.
func TestConcretizationCacheSameHeaps(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, linkedListSrc)
	cache := NewConcretizationCache()
	cached := DefaultBudget
	cached.Cache = cache
	pairs := 0
	lockstepPairs(t, prog, -1, 60, sol, func(pr lockPair) {
		if v, err := WellFormed(pr.q, sol); v != nil || err != nil {
			t.Fatalf("summary state at step %d not well formed: %v %v", pr.q.Steps, v, err)
		}
		got, c1, err1 := concretizeState(pr.q, sol, cached, true, nil)
		want, c2, err2 := concretizeState(pr.q, sol, DefaultBudget, true, nil)
		if c1 != c2 || (err1 == nil) != (err2 == nil) {
			t.Fatalf("step %d: with the cache complete %v err %v, without %v %v", pr.q.Steps, c1, err1, c2, err2)
		}
		if g, w := canonicalSet(got), canonicalSet(want); !slices.Equal(g, w) {
			t.Fatalf("step %d: with the cache %d heaps, without %d:\n%v\n%v\n%s", pr.q.Steps, len(g), len(w), g, w, dumpState(pr.q))
		}
		pairs++
	})
	t.Logf("%d states, %d concretizations from cached leaves, %d of them under a stronger path condition, %d leaf replays decided by the leaf's closure, %d by the leaves a search built below them before", pairs, cache.Reused(), cache.Extended(), cache.ByEval(), cache.Below())
	if cache.Reused() == 0 || cache.Extended() == 0 || cache.ByEval() == 0 {
		t.Fatal("no state reused the leaves of another, or none under a stronger path condition, or no replay was decided by the closure")
	}
}
