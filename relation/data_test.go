package relation

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestDecideAtoms: the worlds decideAtoms gives for some formulas under
// an assumed formula are those formulas under each of the assumed
// formula's models projected onto their atoms (all-SAT, the plain
// reading), each substituted, and no others, with data both
// independent of and mixed with the references, and with an atom that
// only a shadowed ite branch shows.
func TestDecideAtoms(t *testing.T) {
	solver := newSolver(t)
	a, b, c := smt.Ref(1), smt.Ref(4), smt.Ref(7)
	x := smt.Sym(a, 0, smt.SortInt)
	y := smt.Sym(b, 0, smt.SortInt)
	ref := smt.And(smt.Neq(a, smt.Null), smt.Or(smt.Eq(a, b), smt.Eq(b, c)))
	atoms := []*smt.Formula{smt.Eq(a, b), smt.Eq(a, c), smt.Eq(b, c), smt.Eq(c, smt.Null)}
	fs := []*smt.Formula{
		smt.Ite(smt.Eq(a, b), x, smt.Ite(smt.Eq(b, c), y, smt.Int(0))),
		smt.Ite(smt.Eq(c, smt.Null), smt.Int(1), smt.Ite(smt.Eq(a, c), x, smt.Int(2))),
		smt.Or(smt.Eq(a, c), smt.Lt(x, y)),
	}
	for _, phi := range []*smt.Formula{
		smt.And(ref, smt.Lt(x, y)),                                     // independent, satisfiable
		smt.And(ref, smt.Lt(x, y), smt.Lt(y, x)),                       // independent, unsatisfiable data
		smt.And(ref, smt.Or(smt.Eq(a, c), smt.Lt(x, smt.Int(0)))),      // mixed
		smt.And(ref, smt.Lt(x, y), smt.Or(smt.Eq(a, c), smt.Lt(y, x))), // mixed, data constrains the references
	} {
		models, complete, err := solver.AllSAT(phi, atoms, 1000)
		require.NoError(t, err)
		require.True(t, complete)
		world := func(gs []*smt.Formula) string {
			return fmt.Sprint(gs)
		}
		want := map[string]bool{}
		for _, m := range models {
			gs := slices.Clone(fs)
			val := map[[2]smt.Ref]bool{}
			for i, at := range atoms {
				p, q := at.Atom()
				val[[2]smt.Ref{p, q}] = m[i]
			}
			gs = smt.SubstAtoms(gs, val)
			for _, g := range gs {
				require.Empty(t, g.Refs(), "%s", g)
			}
			want[world(gs)] = true
		}
		// With the solver alone, with the closure of phi's literals
		// deciding what it can first, and with a memo of the atoms'
		// values: empty, then (the same question again) holding every
		// answer, so that the second run asks the solver nothing.
		memo := &atomMemo{}
		memo.reset()
		for k, run := range []struct {
			closure *leafEval
			memo    *atomMemo
		}{{nil, nil}, {newLeafEval([]*smt.Formula{phi}), nil}, {nil, memo}, {nil, memo}} {
			again := k == 3 // the memo's second run: every atom known
			got := map[string]bool{}
			ok, err := solver.Sat(phi)
			require.NoError(t, err)
			if ok {
				before := solver.Stats()
				rc := &refineCtx{solver: solver, refPhi: smt.True(), leaf: &Heap{lits: []*smt.Formula{phi}}, closure: run.closure, closureMade: true}
				err = decideAtoms(rc, run.memo, run.memo.leafContext(smt.True(), rc.leaf.lits), slices.Clone(fs), func(gs []*smt.Formula) error {
					for _, g := range gs {
						require.Empty(t, g.Refs(), "%s", g)
					}
					got[world(gs)] = true
					return nil
				})
				require.NoError(t, err)
				if again {
					after := solver.Stats()
					require.Equal(t, before.Queries+before.Decided+before.CacheHits, after.Queries+after.Decided+after.CacheHits, "the memo knew every atom, and the solver was asked")
				}
				require.NoError(t, rc.releaseAll())
				require.Zero(t, solver.Assumptions())
			}
			require.Equal(t, want, got, "%s", phi)
		}
	}
}

// TestExactDataLeavesSame: the leaves a check of the reference half that
// held returns (ExactResult.Leaves) are, heap by heap, literal by literal
// and in order, those the data half's own search gives after it (through
// the same concretization cache), and the data half gives the same answer
// with them as without, along the lockstep of a program with data.
func TestExactDataLeavesSame(t *testing.T) {
	sol := newSolver(t)
	prog := mustParse(t, testutil.Source("../testdata/data/bst_contains.jl"))
	budget := DefaultBudget
	budget.Cache = NewConcretizationCache()
	given := 0
	lockstepPairs(t, prog, 2, 200, sol, func(pr lockPair) {
		if v, err := WellFormed(pr.q, sol); v != nil || err != nil {
			return
		}
		res := ExactWellFormed(pr.P, pr.q, sol, budget, true)
		if res.Outcome != Holds {
			require.Nil(t, res.Leaves)
			return
		}
		own, complete, err := ConcretizeLeavesWellFormed(pr.q, sol, Budget{Models: dataLimit(budget), Cache: budget.Cache})
		require.NoError(t, err)
		require.True(t, complete)
		require.Equal(t, len(own), len(res.Leaves), "step %d", pr.q.Steps)
		for i := range own {
			require.Equal(t, Canonical(own[i]), Canonical(res.Leaves[i]), "step %d leaf %d", pr.q.Steps, i)
			require.Equal(t, own[i].lits, res.Leaves[i].lits, "step %d leaf %d", pr.q.Steps, i)
		}
		with := ExactDataLeaves(pr.P, pr.q, res.Leaves, sol, budget)
		without := ExactData(pr.P, pr.q, sol, budget)
		require.Equal(t, without.Outcome, with.Outcome, "step %d", pr.q.Steps)
		require.Equal(t, without.Reason, with.Reason, "step %d", pr.q.Steps)
		require.Equal(t, without.PIndex, with.PIndex, "step %d", pr.q.Steps)
		given++
	})
	require.Greater(t, given, 20)
	t.Logf("%d pairs whose data half took the reference half's leaves", given)
}

// TestDataMemosSame: the data half's sides and worlds (heaps, renamed data
// and facts, data conditions) are the same formulas, in the same order,
// with decideAtoms' substitutions remembered (atomMemo.substAll), the
// formulas' atom lists remembered (atomsOf) and the renamings kept across
// pairs (renamers) as with every substitution, walk and renaming made
// again, along the lockstep of programs with data, one cache per side kept
// for the whole lockstep (so what is remembered is found).
func TestDataMemosSame(t *testing.T) {
	sol := newSolver(t)
	for _, file := range []string{"../trees/bst_insert_parent.jl", "bst_contains.jl", "pose_prim_ite.jl", "write_alias.jl"} {
		prog := mustParse(t, testutil.Source("../testdata/data/"+file))
		on, off := DefaultBudget, DefaultBudget
		on.Cache, off.Cache = NewConcretizationCache(), NewConcretizationCache()
		compared := 0
		lockstepPairs(t, prog, 2, 200, sol, func(pr lockPair) {
			if v, err := WellFormed(pr.q, sol); v != nil || err != nil {
				return
			}
			dOn, rOn := prepareData(pr.P, pr.q, sol, on, nil)
			substMemoOff, renameMemoOff, atomsMemoOff = true, true, true
			dOff, rOff := prepareData(pr.P, pr.q, sol, off, nil)
			substMemoOff, renameMemoOff, atomsMemoOff = false, false, false
			require.Equal(t, rOff, rOn, "%s step %d", file, pr.q.Steps)
			if dOff == nil {
				return
			}
			require.Equal(t, len(dOff.heaps), len(dOn.heaps), "%s step %d", file, pr.q.Steps)
			for i := range dOff.ps {
				require.Same(t, dOff.facts[i], dOn.facts[i], "%s step %d P[%d] facts", file, pr.q.Steps, i)
				require.Equal(t, dOff.ps[i].data, dOn.ps[i].data, "%s step %d P[%d] data", file, pr.q.Steps, i)
			}
			for j := range dOff.heaps {
				require.Equal(t, Canonical(dOff.heaps[j]), Canonical(dOn.heaps[j]))
				require.Same(t, dOff.worlds[j], dOn.worlds[j], "%s step %d world %d", file, pr.q.Steps, j)
				require.Equal(t, len(dOff.ws[j].data), len(dOn.ws[j].data))
				for i := range dOff.ws[j].data {
					require.Same(t, dOff.ws[j].data[i], dOn.ws[j].data[i], "%s step %d world %d datum %d", file, pr.q.Steps, j, i)
				}
			}
			compared++
		})
		require.Greater(t, compared, 5, file)
		require.Zero(t, off.Cache.atomMemo().substHits, file)
		require.Zero(t, off.Cache.atomMemo().rename.renamed, file)
		require.Positive(t, on.Cache.atomMemo().substHits, file)
		require.Positive(t, on.Cache.atomMemo().rename.renamed, file)
		t.Logf("%s: %d pairs, %d substitutions remembered, %d renamings kept", file, compared, on.Cache.atomMemo().substHits, on.Cache.atomMemo().rename.renamed)
	}
}

// TestRenamersByMapping: the renamers table gives the Renamer made for a
// name again, a new one for another name, and each renames as RenameSyms
// by its own mapping.
func TestRenamersByMapping(t *testing.T) {
	var rs renamers
	f := smt.Lt(smt.Sym(1, 0, smt.SortInt), smt.Add(smt.Sym(2, 0, smt.SortInt), smt.Sym(3, 1, smt.SortInt)))
	to := func(base smt.Ref) func(smt.Ref) (smt.Ref, bool) {
		return func(r smt.Ref) (smt.Ref, bool) {
			if r == 3 {
				return r, false
			}
			return base + r, true
		}
	}
	a := rs.get([]byte("a"), to(10))
	b := rs.get([]byte("b"), to(20))
	require.NotSame(t, a, b)
	require.Same(t, a, rs.get([]byte("a"), to(10)))
	require.Equal(t, 1, rs.renamed)
	require.Same(t, smt.RenameSyms(f, to(10)), a.Rename(f))
	require.Same(t, smt.RenameSyms(f, to(20)), b.Rename(f))
	require.Same(t, a.Rename(f), a.Rename(f))
}

// TestAtomsOfOrder: atomsOf gives visibleAtoms' atoms in its order, for
// formulas that share atoms and subformulas, in every order, from a memo
// empty and then holding their lists.
func TestAtomsOfOrder(t *testing.T) {
	a, b, c := smt.Ref(1), smt.Ref(4), smt.Ref(7)
	x := smt.Sym(a, 0, smt.SortInt)
	shared := smt.Ite(smt.Eq(b, c), x, smt.Int(3))
	fs := []*smt.Formula{
		smt.Ite(smt.Eq(a, b), x, shared),
		smt.Lt(x, smt.Int(0)),
		smt.Or(smt.Eq(a, c), smt.Lt(shared, x)),
		smt.Ite(smt.Eq(c, smt.Null), smt.Int(1), smt.Ite(smt.Eq(a, b), x, smt.Int(2))),
		nil,
	}
	memo := &atomMemo{}
	memo.reset()
	for round := 0; round < 2; round++ {
		for i := range fs {
			for j := range fs {
				gs := []*smt.Formula{fs[i], fs[j], fs[(i+j)%len(fs)]}
				var want []*smt.Formula
				visibleAtoms(gs, func(at *smt.Formula) bool { want = append(want, at); return true })
				require.Equal(t, want, memo.atomsOf(gs), "round %d: %v", round, gs)
			}
		}
	}
}
