package summary

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// U-ST (seed 004): E and E′ strengthen every guard with their condition
// instead of conjoining it to φ; the state's φ is the §5.3 φ_view, which
// on this program describes the same worlds as published's path condition
// (ENGINES.md §6.2 predicts U-ST equivalent to published).
func TestUSTStrengthensGuards(t *testing.T) {
	sol := newSolver(t)
	p := parse(t, progTwoReads)
	run := func(name string) []machine.Succ {
		eng := New(lookup(t, name), 1, sol)
		s := heapStep(t, machine.Initial(p), eng, machine.RuleFieldA)[0].S
		s = heapStep(t, s, eng, machine.RuleFieldA)[0].S
		return heapStep(t, s, eng, machine.RuleEqualsE, machine.RuleEqualsENot)
	}
	pub, ust := run("published"), run("u-st")

	a := map[machine.Loc]*smt.Formula{
		machine.LNull: eq(i4, null),
		1:             and(neq(i4, null), neq(i4, i1)),
		0:             and(neq(i4, null), eq(i4, i1)),
	}
	b := map[machine.Loc]*smt.Formula{
		machine.LNull: eq(i7, null),
		2:             and(neq(i7, null), neq(i7, i1), neq(i7, i4)),
		0:             and(neq(i7, null), eq(i7, i1)),
		1:             and(neq(i7, null), eq(i7, i4), neq(i7, i1)),
	}
	alpha := or(and(a[machine.LNull], b[machine.LNull]), and(a[0], b[0]), and(a[1], b[1]))
	for i, c := range []*smt.Formula{and(alpha, not(b[2])), not(alpha)} {
		q := ust[i].S
		// Same worlds as published.
		assertEquiv(t, sol, "φ_view vs published φ", smt.True(), q.PathCondition(), pub[i].S.PathCondition())
		// s0's one entry carries the condition; every entry is strengthened by it.
		assertGVS(t, sol, "L(s0)", smt.True(), q.Get(s0), map[machine.Loc]*smt.Formula{0: c})
		strengthen := func(m map[machine.Loc]*smt.Formula) map[machine.Loc]*smt.Formula {
			out := map[machine.Loc]*smt.Formula{}
			for l, g := range m {
				if sat(t, sol, g, c) {
					out[l] = and(g, c)
				}
			}
			return out
		}
		assertGVS(t, sol, "L(s3)", smt.True(), q.Get(s3), strengthen(a))
		assertGVS(t, sol, "L(s6)", smt.True(), q.Get(s6), strengthen(b))
	}
	// E strengthens b's new location l2 away (Φ_1 = {b[2]} is excluded).
	for _, en := range ust[0].S.Get(s6) {
		require.NotEqual(t, machine.Loc(2), en.Loc, "E kept l2 in L(s6)")
	}
}

// Under U-ST a rule fires iff C = 1: `this = null` empties L(s0) under E's
// condition (Φ_α = ∅), so only E′ fires, as published decides by S(φ ∧ φ_g).
func TestUSTConsistency(t *testing.T) {
	sol := newSolver(t)
	p := parse(t, `
(((class Node ([Node a])
   ((bool m [bool u] (this = null)))))
 (Node m))`)
	eng := New(lookup(t, "u-st"), 1, sol)
	succ := heapStep(t, machine.Initial(p), eng, machine.RuleEqualsENot)
	require.Equal(t, machine.VFalse, succ[0].S.Val)
	require.EqualValues(t, 1, eng.Stats().Inconsistent)
}
