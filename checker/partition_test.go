package checker

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
)

// The Partition driver is tested without a Partition engine in the
// registry: GSE itself is one, if its path conditions record its
// initialization choices. factGSE is GSE whose Field access adds, to each
// branch of the initialization machine, the resolution facts Kiasan's
// lazier would (ENGINES.md §3.2): a fresh input reference r_u names "the
// object the field holds", and the branch says r_u = null, r_u = r_a
// (alias), or r_u ≠ null ∧ r_u ≠ r_a for every candidate (new, where r_u is
// the new location's identity), with the candidates pairwise distinct and
// not null. Each state then represents exactly the GSE states isomorphic to
// it, the states at a control are pairwise exclusive, and partition
// exactness must hold on every program. Without the facts (facts false) the
// branches' path conditions overlap: P1 must fail.
type factGSE struct {
	*gse.Engine
	facts bool
}

func (e factGSE) Name() string                                  { return "gse-facts" }
func (e factGSE) Shape() engine.Shape                           { return engine.Partition }
func (e factGSE) View(s *machine.State) (*machine.State, error) { return s, nil }
func (e factGSE) IdentityView()                                 {}
func newFactGSE(facts bool) func(engine.Config) (engine.UnderTest, error) {
	return func(cfg engine.Config) (engine.UnderTest, error) {
		return factGSE{Engine: &gse.Engine{K: cfg.K, Opt: cfg.Machine}, facts: facts}, nil
	}
}

func (e factGSE) FieldAccess(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
	l := s.Get(r)[0].Loc
	f := fa.Field
	uninit := l != machine.LNull && s.Get(s.Field(l, f))[0].Loc == machine.LUn
	before := len(s.Locs)
	succ, err := e.Engine.FieldAccess(s, r, fa, k)
	if err != nil || !uninit || !e.facts {
		return succ, err
	}
	for _, sc := range succ {
		t := sc.S
		got := t.Get(t.Field(l, f))[0].Loc
		var cands []machine.Entry2
		for _, a := range t.InputLocs(f.Class) {
			if int(a.Loc) < before {
				cands = append(cands, a)
			}
		}
		var facts []*smt.Formula
		for i, a := range cands {
			facts = append(facts, smt.Neq(a.Ref, machine.RNull))
			for _, b := range cands[:i] {
				facts = append(facts, smt.Neq(a.Ref, b.Ref))
			}
		}
		switch {
		case got == machine.LNull:
			facts = append(facts, smt.Eq(t.InitR(), machine.RNull))
		case int(got) >= before: // new: its identity is r_u
			ru := t.Locs[got].Identity
			facts = append(facts, smt.Neq(ru, machine.RNull))
			for _, a := range cands {
				facts = append(facts, smt.Neq(ru, a.Ref))
			}
		default: // alias of an earlier input location
			ru := t.InitR()
			facts = append(facts, smt.Neq(ru, machine.RNull), smt.Eq(ru, t.Locs[got].Identity))
		}
		t.AddFact(smt.And(facts...))
	}
	return succ, nil
}

func partitionOpt(facts bool) Options {
	opt := DefaultOptions()
	opt.Engine, opt.Build = "gse-facts", newFactGSE(facts)
	opt.Steps = 80
	return opt
}

// TestPartitionGSEHolds: GSE with resolution facts is partition exact on
// the example programs and a stream of generated ones, and every lemma of a
// Partition engine is really checked somewhere.
func TestPartitionGSEHolds(t *testing.T) {
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	opt := partitionOpt(true)
	checked := map[Lemma]int{}
	for _, f := range []string{"alias_two_fields.jl", "alias_write_read.jl", "selfref.jl", "nullderef.jl", "newobj.jl"} {
		rep, err := Run(context.Background(), load(t, "../testdata/programs/"+f), opt, solver)
		require.NoError(t, err, f)
		require.Equal(t, Holds, rep.Verdict.Status, "%s:\n%s", f, rep.Text(false))
		require.NotContains(t, rep.Lemmas, C13)
		require.Contains(t, rep.Lemmas, P1)
		for l, n := range rep.Checked {
			checked[l] += n
		}
	}
	holds := 0
	for i := 0; i < 25; i++ {
		p := gen.ProgramWith(gen.NoData).Example(i)
		rep, err := Run(context.Background(), p, opt, solver)
		require.NoError(t, err)
		require.NotEqual(t, Violated, rep.Verdict.Status, "program %d:\n%s", i, rep.Text(false))
		if rep.Verdict.Status == Holds {
			holds++
		}
		for l, n := range rep.Checked {
			checked[l] += n
		}
	}
	t.Logf("%d of 25 generated programs hold (the others are undecided), checks %v", holds, checked)
	require.GreaterOrEqual(t, holds, 20)
	for _, l := range []Lemma{P1, P2, P3, FEAS, L2, T11, C12, WF} {
		require.Positive(t, checked[l], "%s never checked", l)
	}
	require.Zero(t, checked[C13], "C13 is not a claim about Partition engines")
	require.Zero(t, checked[L1], "L1 needs an Initializer")
}

// TestPartitionWithoutFactsP1: without the resolution facts the branches
// of one initialization have overlapping path conditions.
func TestPartitionWithoutFactsP1(t *testing.T) {
	p, err := javalite.ParseAndCheck("read.jl", []byte(`(((class A ([A f]) ((A main [bool x] (this $ f))))) (A main))`))
	require.NoError(t, err)
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	opt := partitionOpt(false)
	opt.K = -1 // no KB rerun: the verdict is P1 itself
	rep, err := Run(context.Background(), p, opt, solver)
	require.NoError(t, err)
	require.Equal(t, Violated, rep.Verdict.Status, rep.Text(false))
	require.Equal(t, P1, rep.Verdict.Lemma, rep.Text(false))
	require.NotNil(t, rep.Verdict.Sibling)
	require.Contains(t, rep.Text(false), "sibling state")
	// The engine side is named after the engine under test.
	require.Contains(t, rep.Text(false), "gse-facts state:")
	require.NotContains(t, rep.Text(false), "summary state")
}

// handRun is a run of the Partition driver for hand-built states.
func handRun(t *testing.T, solver *smt.Solver) *run {
	t.Helper()
	opt := partitionOpt(true)
	eut, err := opt.newEngine(solver)
	require.NoError(t, err)
	r := &run{ctx: context.Background(), opt: opt, solver: solver, eut: eut, mopt: eut.Options(),
		partition: true, identity: true, rep: &Report{Checked: map[Lemma]int{}}}
	r.gse = gseEngine(opt, r.mopt, nil)
	return r
}

// readGroup steps the initial state of `(this $ f)` by GSE: a group of
// three GSE states at one control (f is null, l0 itself, a new object).
func readGroup(t *testing.T) (*machine.State, *group, []machine.Succ) {
	t.Helper()
	p, err := javalite.ParseAndCheck("read.jl", []byte(`(((class A ([A f]) ((A main [bool x] (this $ f))))) (A main))`))
	require.NoError(t, err)
	s0 := machine.Initial(p)
	s := s0.Clone()
	var succ []machine.Succ
	for len(succ) != 3 { // the common rules up to the field access
		out, err := machine.Step(s, &gse.Engine{K: 2}, machine.Options{})
		require.NoError(t, err)
		if len(out) == 1 {
			s = out[0].S
			continue
		}
		succ = out
	}
	g := &group{rule: succ[0].Rule}
	for i, sc := range succ {
		g.states = append(g.states, sc.S)
		g.ids = append(g.ids, pathID(0, i))
	}
	return s0, g, succ
}

// withFact is s with one more fact in its path condition.
func withFact(s *machine.State, f *smt.Formula) *machine.State {
	c := s.Clone()
	c.AddFact(f)
	return c
}

func TestPartitionHandBuilt(t *testing.T) {
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	spare := machine.Ref(1000*3 + 1) // an input reference no state uses
	r1 := machine.Ref(1)             // r_in0, the identity of l0

	t.Run("a family that partitions", func(t *testing.T) {
		r := handRun(t, solver)
		before, g, succ := readGroup(t)
		// Each GSE state made exclusive by a fact over a spare reference.
		sibs := []machine.Succ{
			{S: withFact(succ[0].S, smt.Eq(spare, machine.RNull)), Rule: succ[0].Rule},
			{S: withFact(succ[1].S, smt.And(smt.Neq(spare, machine.RNull), smt.Eq(spare, r1))), Rule: succ[1].Rule},
			{S: withFact(succ[2].S, smt.And(smt.Neq(spare, machine.RNull), smt.Neq(spare, r1))), Rule: succ[2].Rule},
		}
		next, err := r.partitionAt(before, g, sibs)
		require.NoError(t, err)
		require.Len(t, next, 3)
		for _, pr := range next {
			require.Len(t, pr.P, 1, "each sibling represents exactly its own GSE state")
		}
		require.Equal(t, 1, r.rep.Checked[P1])
		require.Equal(t, 1, r.rep.Checked[P2])
		require.Equal(t, 3, r.rep.Checked[FEAS])
		require.Zero(t, r.rep.Overlaps)
	})

	t.Run("cover violated", func(t *testing.T) {
		r := handRun(t, solver)
		before, g, succ := readGroup(t)
		_, err := r.partitionAt(before, g, succ[:2])
		require.ErrorIs(t, err, errStop)
		require.Equal(t, P2, r.rep.Verdict.Lemma, r.rep.Verdict.Reason)
		require.Equal(t, []*machine.State{g.states[2]}, r.rep.Verdict.GSE)
	})

	t.Run("overlap counted, not a violation", func(t *testing.T) {
		r := handRun(t, solver)
		before, g, succ := readGroup(t)
		// The null state twice, in two exclusive worlds: both represent
		// GSE state 1.
		sibs := []machine.Succ{
			{S: withFact(succ[0].S, smt.Eq(spare, machine.RNull)), Rule: succ[0].Rule},
			{S: withFact(succ[0].S, smt.Neq(spare, machine.RNull)), Rule: succ[0].Rule},
			{S: withFact(succ[1].S, smt.Eq(spare+3, machine.RNull)), Rule: succ[1].Rule},
			{S: withFact(succ[2].S, smt.Neq(spare+3, machine.RNull)), Rule: succ[2].Rule},
		}
		// Siblings 3 and 4 are not exclusive of 1 and 2: make them so.
		for i := 2; i < 4; i++ {
			sibs[i].S.AddFact(smt.Eq(spare, r1))
		}
		for i := 0; i < 2; i++ {
			sibs[i].S.AddFact(smt.Neq(spare, r1))
		}
		_, err := r.partitionAt(before, g, sibs)
		require.NoError(t, err)
		require.Equal(t, int64(1), r.rep.Overlaps)
	})

	t.Run("infeasible sibling", func(t *testing.T) {
		r := handRun(t, solver)
		before, g, succ := readGroup(t)
		sibs := append([]machine.Succ(nil), succ...)
		sibs = append(sibs, machine.Succ{S: withFact(succ[0].S, smt.And(smt.Eq(spare, machine.RNull), smt.Neq(spare, machine.RNull))), Rule: succ[0].Rule})
		_, err := r.partitionAt(before, g, sibs)
		require.ErrorIs(t, err, errStop)
		require.Equal(t, FEAS, r.rep.Verdict.Lemma, r.rep.Verdict.Reason)
	})

	t.Run("overlapping worlds", func(t *testing.T) {
		r := handRun(t, solver)
		before, g, succ := readGroup(t)
		_, err := r.partitionAt(before, g, succ)
		require.ErrorIs(t, err, errStop)
		require.Equal(t, P1, r.rep.Verdict.Lemma, r.rep.Verdict.Reason)
	})

	t.Run("unsound sibling", func(t *testing.T) {
		r := handRun(t, solver)
		before, g, succ := readGroup(t)
		// The group without the new object, against all three siblings.
		small := &group{rule: g.rule, states: g.states[:2], ids: g.ids[:2]}
		sibs := []machine.Succ{
			{S: withFact(succ[0].S, smt.Eq(spare, machine.RNull)), Rule: succ[0].Rule},
			{S: withFact(succ[1].S, smt.And(smt.Neq(spare, machine.RNull), smt.Eq(spare, r1))), Rule: succ[1].Rule},
			{S: withFact(succ[2].S, smt.And(smt.Neq(spare, machine.RNull), smt.Neq(spare, r1))), Rule: succ[2].Rule},
		}
		_, err := r.partitionAt(before, small, sibs)
		require.ErrorIs(t, err, errStop)
		require.Equal(t, L2, r.rep.Verdict.Lemma, r.rep.Verdict.Reason)
		require.Contains(t, r.rep.Verdict.Witness, "matching no GSE state")
	})
}

// TestPartitionAccounting: P3 compares the distinct GSE paths at the
// engine's path ends with the GSE paths, by identity: a GSE path carried
// to the end by two siblings (an overlap) is one path, so Σ |P_end| over
// the count is no violation, and a path missing is one.
func TestPartitionAccounting(t *testing.T) {
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	r := handRun(t, solver)
	r.endPaths = map[uint64]bool{}
	for i := range 5 {
		r.endPaths[pathID(0, i)] = true
	}
	r.rep.EndGSE, r.rep.Overlaps = 6, 1 // path 0 reached the end twice
	require.NoError(t, r.accounting(5))
	require.Equal(t, 1, r.rep.Checked[P3])
	require.ErrorIs(t, r.accounting(6), errStop)
	require.Equal(t, P3, r.rep.Verdict.Lemma)
	require.Contains(t, r.rep.Verdict.Reason, "5 distinct GSE paths (Σ |P_end| = 6), GSE has 6 paths")
	require.NotEqual(t, pathID(0, 1), pathID(pathID(0, 0), 0), "distinct paths, distinct identities")
}

// TestPartitionKB: a Partition engine that breaks a lemma at a finite k
// only (here: a GSE that forgets its resolution facts when bounded) is
// reported as a finite-k divergence, KB, after the check at k = −1 holds;
// one that breaks it at k = −1 too keeps its lemma.
func TestPartitionKB(t *testing.T) {
	p, solver, opt := kbSetup(t, `(((class A ([A f]) ((A main [bool x] (this $ f))))) (A main))`)
	rep, err := Run(context.Background(), p, opt, solver)
	require.NoError(t, err)
	require.Equal(t, Violated, rep.Verdict.Status, rep.Text(false))
	require.Equal(t, KB, rep.Verdict.Lemma, rep.Text(false))
	require.Contains(t, rep.Verdict.Reason, "at k = 2 P1 fails")

	require.Contains(t, rep.Verdict.Reason, "on its control flow")

	opt = partitionOpt(false)
	opt.K = 2
	rep, err = Run(context.Background(), p, opt, solver)
	require.NoError(t, err)
	require.Equal(t, P1, rep.Verdict.Lemma, rep.Text(false))
}

// kbSetup parses src and returns it with a solver (closed when t ends)
// and the options of a check at k = 2 of a GSE that forgets its
// resolution facts when bounded: a Partition engine that breaks P1 at a
// finite k only.
func kbSetup(t *testing.T, src string) (*javalite.Program, *smt.Solver, Options) {
	p, err := javalite.ParseAndCheck("read.jl", []byte(src))
	require.NoError(t, err)
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	t.Cleanup(solver.Close)
	opt := partitionOpt(true)
	opt.K = 2
	opt.Build = func(cfg engine.Config) (engine.UnderTest, error) {
		return factGSE{Engine: &gse.Engine{K: cfg.K, Opt: cfg.Machine}, facts: cfg.K < 0}, nil
	}
	return p, solver, opt
}

// TestFollowControlFlow: the re-check of a violation at k = −1 follows the
// control flow that led to it: it visits that flow's pairs and fewer than
// the whole exploration, and reaches the pair where the violation was
// found; a flow the program does not have is reached by no pair, which Run
// does not take for a pass (it then re-checks the whole exploration).
func TestFollowControlFlow(t *testing.T) {
	p, solver, opt := kbSetup(t, `(((class A ([A f]) ((A main [bool x] (if x ((this $ f) $ f) else (this $ f)))))) (A main))`)
	opt, err := opt.Resolved()
	require.NoError(t, err)
	rep, err := runOnce(context.Background(), p, opt, solver)
	require.NoError(t, err)
	require.Equal(t, Violated, rep.Verdict.Status, rep.Text(false))
	require.NotEmpty(t, rep.trail)

	unbounded := opt
	unbounded.K = -1
	whole, err := runOnce(context.Background(), p, unbounded, solver)
	require.NoError(t, err)
	require.Equal(t, Holds, whole.Verdict.Status, whole.Text(false))
	along := unbounded
	along.follow = rep.trail
	flow, err := runOnce(context.Background(), p, along, solver)
	require.NoError(t, err)
	require.Equal(t, Holds, flow.Verdict.Status, flow.Text(false))
	require.True(t, flow.followed)
	require.Less(t, flow.Pairs, whole.Pairs)
	require.GreaterOrEqual(t, flow.Pairs, len(rep.trail)+1)

	along.follow = []string{"no such control"}
	none, err := runOnce(context.Background(), p, along, solver)
	require.NoError(t, err)
	require.False(t, none.followed)
}

// TestWellFormedLemma: one mapping from a failed well-formedness check to
// its lemma, whichever path (checkPair, checkInit, the Partition driver)
// ran it; on a View that is not the identity, determinism and totality are
// the View's promise.
func TestWellFormedLemma(t *testing.T) {
	r := &run{identity: true}
	require.Equal(t, L5, r.wellFormedLemma(relation.CheckDeterministic, L5))
	require.Equal(t, L4, r.wellFormedLemma(relation.CheckDeterministic, L4))
	require.Equal(t, WF, r.wellFormedLemma(relation.CheckTotal, L5))
	require.Equal(t, WF, r.wellFormedLemma(relation.CheckTypeConsistent, L5))
	require.Equal(t, WF, r.wellFormedLemma(relation.CheckStackOnlyRoots, L4))
	r.identity = false
	require.Equal(t, VIEW, r.wellFormedLemma(relation.CheckDeterministic, L5))
	require.Equal(t, VIEW, r.wellFormedLemma(relation.CheckTotal, L5))
	require.Equal(t, WF, r.wellFormedLemma(relation.CheckTypeConsistent, L5))
}

// TestOverlapDecided: program 84 of seed 1's stream (docs/LEMMAS.md: P3
// undecided for every Kiasan column, "with 1 overlapping representation")
// is decided now that P3 counts GSE paths by identity: one GSE state
// represented by two lazier# states is one path at the end.
func TestOverlapDecided(t *testing.T) {
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	p := ProgramOf(ProgramSeed(1, 84))
	for _, e := range []string{"lazier", "lazier#"} {
		opt := DefaultOptions()
		opt.Engine, opt.K, opt.Steps = e, -1, 150
		rep, err := Run(context.Background(), p, opt, solver)
		require.NoError(t, err)
		require.Equal(t, Holds, rep.Verdict.Status, "%s:\n%s", e, rep.Text(false))
		require.Positive(t, rep.Overlaps, e)
		require.Greater(t, rep.EndGSE, rep.GSEPaths, e)
		require.Equal(t, 1, rep.Checked[P3], e)
	}
}
