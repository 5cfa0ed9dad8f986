package uber

import (
	"testing"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Hand-derived states. Reference numbering (machine.Initial): r_in0 = i1,
// this = s0; stack references s3, s6, … in order of Field access (A);
// input references i4, i7, … in order of deferred reads and resolutions.
const (
	s0, s3, s6   = machine.Ref(0), machine.Ref(3), machine.Ref(6)
	i1, i4, i7   = machine.Ref(1), machine.Ref(4), machine.Ref(7)
	i10          = machine.Ref(10)
	l0, l1, l2   = machine.Loc(0), machine.Loc(1), machine.Loc(2)
	lnull, lunin = machine.LNull, machine.LUn
)

// heapSteps steps the one path of p until the n-th heap-rule step (Field
// access, Field write, Equals or Invoke′/Invoke by the engine; 1-based)
// and returns that step's successors.
func heapSteps(t *testing.T, e *Engine, p *javalite.Program, n int) []machine.Succ {
	t.Helper()
	s := machine.Initial(p)
	for i := 0; i < 200; i++ {
		heap := s.Mode == machine.ModeValue && s.K != nil && isHeapKont(s.K)
		succ, err := machine.Step(s, e, e.Options())
		require.NoError(t, err)
		if heap {
			n--
			if n == 0 {
				return succ
			}
		}
		require.Len(t, succ, 1, "step %d: the path branches before the heap step asked for", i)
		s = succ[0].S
	}
	t.Fatal("no such heap step")
	return nil
}

func isHeapKont(k *machine.Kont) bool {
	switch k.Kind {
	case machine.KField, machine.KWrite, machine.KEqR, machine.KCallArg:
		return true
	}
	return false
}

// equiv asserts that two formulas are equivalent.
func equiv(t *testing.T, solver *smt.Solver, want, got *smt.Formula, msg string) {
	t.Helper()
	diff, err := solver.Sat(smt.Or(smt.And(want, smt.Not(got)), smt.And(smt.Not(want), got)))
	require.NoError(t, err)
	assert.False(t, diff, "%s: want %v, got %v", msg, want, got)
}

// gvs asserts L(r) = want, guards up to equivalence, in any order.
func gvs(t *testing.T, solver *smt.Solver, s *machine.State, r machine.Ref, want machine.GVS) {
	t.Helper()
	got := s.Get(r)
	require.Len(t, got, len(want), "L(%s) = %v", machine.RefString(r), got)
	for _, w := range want {
		found := false
		for _, g := range got {
			if g.Loc == w.Loc {
				found = true
				equiv(t, solver, w.Guard, g.Guard, "L("+machine.RefString(r)+") at "+w.Loc.String())
			}
		}
		assert.True(t, found, "L(%s) lacks %v", machine.RefString(r), w.Loc)
	}
}

const selfSrc = `(((class A ([A f] [A g])
    ((A read2 [bool x] ((this $ f) $ f))
     (bool cmp [bool x] ((this $ f) = this))
     (A copy [bool x] (this $ g := (this $ f)))
     (bool call [bool x] ((this $ f) @ m true))
     (bool m [bool x] true))))
 (A ENTRY))`

func program(t *testing.T, entry string) *javalite.Program {
	t.Helper()
	src := []byte(selfSrc)
	src = []byte(string(src[:len(src)-len("ENTRY))")]) + entry + "))")
	p, err := javalite.ParseAndCheck("self.jl", src)
	require.NoError(t, err)
	return p
}

var (
	null7  = smt.Eq(i7, machine.RNull)
	new7   = smt.And(smt.Neq(i7, machine.RNull), smt.Neq(i7, i1))
	alias7 = smt.And(smt.Neq(i7, machine.RNull), smt.Eq(i7, i1))
)

// ((this $ f) $ f): the first Field access (A) defers: l_1 unresolved,
// read guard true, no branching; the second resolves l_1 (θ over
// ρ(A) = {(i1 l0)} with identity i7) and then A/A′ as summary:fixed.
func TestReadThenDeref(t *testing.T) {
	solver := newSolver(t)
	e := mustNew(t, "defer", -1, solver)
	p := program(t, "read2")

	succ := heapSteps(t, e, p, 1)
	require.Len(t, succ, 1)
	assert.Equal(t, machine.RuleFieldA, succ[0].Rule)
	s := succ[0].S
	require.Len(t, s.Locs, 2)
	assert.True(t, s.Locs[l1].Unresolved && s.Locs[l1].MayBeNull && !s.Locs[l1].Input)
	assert.Equal(t, 1, s.Locs[l1].Depth)
	assert.True(t, s.Locs[l1].Exists.IsTrue(), "read guard ψ = φ_x ∧ φ_un = true")
	assert.Equal(t, i4, s.Field(l0, p.Fields[0]))
	gvs(t, solver, s, i4, machine.GVS{{Guard: smt.True(), Loc: l1}}) // (¬ψ, l_un) pruned
	gvs(t, solver, s, s3, machine.GVS{{Guard: smt.True(), Loc: l1}})
	equiv(t, solver, smt.Neq(i1, machine.RNull), s.PathCondition(), "φ unchanged")

	succ = heapSteps(t, e, p, 2)
	require.Len(t, succ, 2)
	a, aNull := succ[0], succ[1]
	assert.Equal(t, machine.RuleFieldA, a.Rule)
	assert.Equal(t, machine.RuleFieldANull, aNull.Rule)
	phi := smt.Neq(i1, machine.RNull)

	// A′: the null case of the resolution.
	assert.Equal(t, machine.ModeError, aNull.S.Mode)
	equiv(t, solver, smt.And(phi, null7), aNull.S.PathCondition(), "A′ φ")

	// A: l_1 resolved everywhere (L(i4) and L(s3)), input with identity
	// i7; l_1.f deferred in turn (l_2, read guard θ_new), l_0.f not (it
	// holds i4 already).
	s = a.S
	equiv(t, solver, smt.And(phi, smt.Not(null7)), s.PathCondition(), "A φ'_g")
	theta := machine.GVS{{Guard: null7, Loc: lnull}, {Guard: new7, Loc: l1}, {Guard: alias7, Loc: l0}}
	gvs(t, solver, s, i4, theta)
	gvs(t, solver, s, s3, theta)
	assert.True(t, s.Locs[l1].Input && !s.Locs[l1].Unresolved)
	assert.Equal(t, i7, s.Locs[l1].Identity)
	equiv(t, solver, new7, s.Locs[l1].Exists, "Exists(l1) = θ_new")
	require.Len(t, s.Locs, 3)
	assert.True(t, s.Locs[l2].Unresolved)
	assert.Equal(t, 2, s.Locs[l2].Depth)
	equiv(t, solver, new7, s.Locs[l2].Exists, "read guard of l1.f")
	assert.Equal(t, i10, s.Field(l1, p.Fields[0]))
	gvs(t, solver, s, i10, machine.GVS{{Guard: new7, Loc: l2}, {Guard: smt.Not(new7), Loc: lunin}})
	// VS: (this.f).f is this where this.f = this, l_2 where this.f is new.
	gvs(t, solver, s, s6, machine.GVS{{Guard: alias7, Loc: l0}, {Guard: new7, Loc: l2}})
}

// ((this $ f) = this): Equals resolves its operand, then E/E′ over the
// guarded sets: E where this.f = this, E′ where it is null or new.
func TestCompareResolves(t *testing.T) {
	solver := newSolver(t)
	e := mustNew(t, "defer", -1, solver)
	succ := heapSteps(t, e, program(t, "cmp"), 2)
	require.Len(t, succ, 2)
	phi := smt.Neq(i1, machine.RNull)
	assert.Equal(t, machine.RuleEqualsE, succ[0].Rule)
	assert.Equal(t, machine.VTrue, succ[0].S.Val)
	equiv(t, solver, smt.And(phi, smt.Eq(i7, i1)), succ[0].S.PathCondition(), "E")
	assert.Equal(t, machine.RuleEqualsENot, succ[1].Rule)
	equiv(t, solver, smt.And(phi, smt.Neq(i7, i1)), succ[1].S.PathCondition(), "E′")
	for _, sc := range succ {
		assert.False(t, sc.S.Locs[l1].Unresolved)
		gvs(t, solver, sc.S, s3, machine.GVS{{Guard: null7, Loc: lnull}, {Guard: new7, Loc: l1}, {Guard: alias7, Loc: l0}})
	}

	// u-noalias: θ = null / fresh only, so E cannot fire.
	e = mustNew(t, "defer+u-noalias", -1, solver)
	succ = heapSteps(t, e, program(t, "cmp"), 2)
	require.Len(t, succ, 1)
	assert.Equal(t, machine.RuleEqualsENot, succ[0].Rule)
	gvs(t, solver, succ[0].S, s3, machine.GVS{{Guard: null7, Loc: lnull}, {Guard: smt.Neq(i7, machine.RNull), Loc: l1}})
}

// (this $ g := (this $ f)): the written value is copied, not resolved
// (nothing dereferences it); the receiver this is resolved (nothing to do).
func TestWriteKeepsValueUnresolved(t *testing.T) {
	solver := newSolver(t)
	e := mustNew(t, "defer", -1, solver)
	p := program(t, "copy")
	succ := heapSteps(t, e, p, 2)
	require.Len(t, succ, 1)
	assert.Equal(t, machine.RuleWriteW, succ[0].Rule)
	s := succ[0].S
	assert.True(t, s.Locs[l1].Unresolved)
	rg := s.Field(l0, p.Fields[1])
	assert.Equal(t, machine.PartFresh, machine.PartitionOf(rg))
	gvs(t, solver, s, rg, machine.GVS{{Guard: smt.True(), Loc: l1}})
	gvs(t, solver, s, i4, machine.GVS{{Guard: smt.True(), Loc: l1}})
}

// ((this $ f) @ m true), V11 Java reading: the receiver is resolved (a
// use), then θ_0 = {i7 = null}: Invoke′ to error, Invoke under i7 ≠ null.
func TestInvokeResolvesReceiver(t *testing.T) {
	solver := newSolver(t)
	e := mustNew(t, "defer", -1, solver)
	succ := heapSteps(t, e, program(t, "call"), 2)
	require.Len(t, succ, 2)
	phi := smt.Neq(i1, machine.RNull)
	assert.Equal(t, machine.RuleInvoke, succ[0].Rule)
	equiv(t, solver, smt.And(phi, smt.Not(null7)), succ[0].S.PathCondition(), "Invoke")
	assert.Equal(t, s3, succ[0].S.Env[javalite.SlotThis].Ref())
	assert.Equal(t, machine.RuleInvokeNull, succ[1].Rule)
	assert.Equal(t, machine.ModeError, succ[1].S.Mode)
	equiv(t, solver, smt.And(phi, null7), succ[1].S.PathCondition(), "Invoke′")
	assert.False(t, succ[0].S.Locs[l1].Unresolved)
}
