package pose

import (
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The paper programs and lockstep's small aliasing programs: POSE-J's View
// is exact for GSE's group at every step, well formed, and INV-P holds.
func TestLockstepExact(t *testing.T) {
	for _, tc := range []struct {
		file  string
		steps int
		heavy bool
	}{
		{"testdata/programs/swap.jl", 100, false},
		{"testdata/programs/alias_write_read.jl", 100, false},
		{"testdata/programs/alias_two_fields.jl", 100, false},
		{"testdata/programs/selfref.jl", 100, false},
		{"testdata/programs/newobj.jl", 100, false},
		{"testdata/programs/nullderef.jl", 100, false},
		{"testdata/programs/hasnull.jl", 200, true},
		{"testdata/programs/sum.jl", 200, true},
		{"testdata/programs/linkedlist.jl", 60, false},
		{"testdata/programs/pose_merge.jl", -1, false},
		{"testdata/programs/pose_eq.jl", -1, false},
		{"testdata/programs/pose_ite_read.jl", -1, false},
		{"testdata/programs/pose_ite_write.jl", -1, false},
		{"testdata/bench/dll_removeFirst.jl", -1, false},
		{"testdata/bench/dll_removeLast.jl", -1, false},
		{"testdata/bench/dll_getFirst.jl", -1, false},
		{"testdata/bench/ncll_add.jl", -1, true},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			if testing.Short() && tc.heavy {
				t.Skip("more than five seconds")
			}
			p := load(t, tc.file)
			f, n := lockstep(t, p, Variant{}, tc.steps)
			require.Nil(t, f, "%v", f)
			require.Greater(t, n, 0)
		})
	}
}

// Every mutation of pose.Mutations is killed: on one of these programs,
// on which the unmutated engine holds (TestLockstepExact, TestDataExact),
// the lockstep comparison with GSE fails (the data mutants, prim-*, on the
// data programs; checker TestPoseDataMutantsKilled names their lemmas).
func TestMutantsKilled(t *testing.T) {
	programs := []string{
		"testdata/programs/swap.jl",
		"testdata/programs/alias_two_fields.jl",
		"testdata/programs/alias_write_read.jl",
		"testdata/programs/pose_ite_read.jl",
		"testdata/programs/pose_ite_write.jl",
		"testdata/data/pose_prim_update.jl",
		"testdata/data/pose_prim_ite.jl",
	}
	for _, m := range Mutations {
		t.Run(m.Name, func(t *testing.T) {
			var v Variant
			m.Set(&v.Mutation)
			for _, file := range programs {
				if f, _ := lockstep(t, load(t, file), v, -1); f != nil {
					t.Logf("killed by %s: %v", file, f)
					return
				}
			}
			t.Fatalf("mutation %s survives %v", m.Name, programs)
		})
	}
}

// INV-P on hand-built states: this.f and Y1.f are one field where
// r_Y1 = r_in0; values that differ there break it, equal ones do not.
func TestINVP(t *testing.T) {
	p := parse(t, `(((class A ([A f]) ((bool main [bool u] true)))) (A main))`)
	A := p.Classes[0]
	f := A.Fields[0]
	build := func(y1f machine.GVS) *machine.State {
		s := machine.Initial(p)
		y := s.InitR()
		l1 := s.NewLoc(machine.LocInfo{Class: A, Input: true, Symbolic: true, Identity: y, Exists: smt.Neq(y, machine.RNull)}, machine.RUn)
		s.Phi = smt.And(s.Phi, smt.Neq(y, machine.RNull))
		r0, r1 := s.FreshR(), s.FreshR()
		s.Set(r0, machine.Single(0))
		s.SetField(0, f, r0)
		if y1f == nil {
			y1f = machine.Single(l1)
		}
		s.Set(r1, y1f)
		s.SetField(l1, f, r1)
		return s
	}
	sol := newSolver(t)
	// Y1.f = l_Y1: the same object as this.f = this exactly where r_Y1 = r_in0.
	v, err := CheckINVP(build(nil), sol)
	require.NoError(t, err)
	require.Nil(t, v)
	// Y1.f = null: where r_Y1 = r_in0, this.f is both this and null.
	v, err = CheckINVP(build(machine.Single(machine.LNull)), sol)
	require.NoError(t, err)
	require.NotNil(t, v)
	require.Equal(t, "INV-P", v.Check)
	// ⊥ in one of them: nothing to compare.
	v, err = CheckINVP(build(machine.Single(machine.LUn)), sol)
	require.NoError(t, err)
	require.Nil(t, v)
}

// INV-P compares two symbols only in the worlds where both exist (D15):
// Y1 exists only where it is not this, so its field (null) and this.f
// (this) are never one object's field, whatever r_Y1 = r_in0 allows.
func TestINVPOnlyWhereBothExist(t *testing.T) {
	p := parse(t, `(((class A ([A f]) ((bool main [bool u] true)))) (A main))`)
	A := p.Classes[0]
	f := A.Fields[0]
	s := machine.Initial(p)
	y := s.InitR()
	in0 := s.Locs[0].Identity
	l1 := s.NewLoc(machine.LocInfo{Class: A, Input: true, Symbolic: true, Identity: y,
		Exists: smt.And(smt.Neq(y, machine.RNull), smt.Neq(y, in0))}, machine.RUn)
	r0, r1 := s.FreshR(), s.FreshR()
	s.Set(r0, machine.Single(0))
	s.SetField(0, f, r0)
	s.Set(r1, machine.Single(machine.LNull))
	s.SetField(l1, f, r1)
	v, err := CheckINVP(s, newSolver(t))
	require.NoError(t, err)
	require.Nil(t, v)
	// Where Y1 may be this and exists, the same fields break it.
	s.Locs[l1].Exists = smt.Neq(y, machine.RNull)
	v, err = CheckINVP(s, newSolver(t))
	require.NoError(t, err)
	require.NotNil(t, v)
}

// The INV-P memo skips only a question answered unsat before: a state
// that asks the same questions again is answered from it, and a state
// whose value set or existence condition differs is asked anew and breaks
// INV-P as without the memo.
func TestINVPMemo(t *testing.T) {
	p := parse(t, `(((class A ([A f]) ((bool main [bool u] true)))) (A main))`)
	A := p.Classes[0]
	f := A.Fields[0]
	build := func(y1f machine.GVS, ex func(y, in0 machine.Ref) *smt.Formula) *machine.State {
		s := machine.Initial(p)
		y := s.InitR()
		l1 := s.NewLoc(machine.LocInfo{Class: A, Input: true, Symbolic: true, Identity: y, Exists: ex(y, s.Locs[0].Identity)}, machine.RUn)
		r0, r1 := s.FreshR(), s.FreshR()
		s.Set(r0, machine.Single(0))
		s.SetField(0, f, r0)
		s.Set(r1, y1f)
		s.SetField(l1, f, r1)
		return s
	}
	notNull := func(y, _ machine.Ref) *smt.Formula { return smt.Neq(y, machine.RNull) }
	notThis := func(y, in0 machine.Ref) *smt.Formula { return smt.And(smt.Neq(y, machine.RNull), smt.Neq(y, in0)) }
	sol := newSolver(t)
	var memo invpMemo
	check := func(s *machine.State) *relation.Violation {
		v, err := checkINVP(s, sol, &memo)
		require.NoError(t, err)
		return v
	}
	require.Nil(t, check(build(machine.Single(1), notNull))) // Y1.f = l_Y1 (location 1)
	require.Len(t, memo.held, 1)
	require.Nil(t, check(build(machine.Single(1), notNull)))
	require.Len(t, memo.held, 1, "the same question is answered from the memo")
	require.Zero(t, memo.reused)
	require.NotNil(t, check(build(machine.Single(machine.LNull), notNull)), "another value set is asked anew")
	require.Nil(t, check(build(machine.Single(machine.LNull), notThis)))
	require.Len(t, memo.held, 2)
	require.NotNil(t, check(build(machine.Single(machine.LNull), notNull)), "another existence condition is asked anew")
	// Under an assumption an answer is about the assumption too: not kept.
	require.NoError(t, sol.Assume(smt.True()))
	require.Nil(t, check(build(machine.Single(1), notThis)))
	require.NoError(t, sol.Release())
	require.Len(t, memo.held, 2, "nothing kept under an assumption")

	// φ is not in the key: a question kept under φ₀ is answered under a
	// φ with every conjunct of φ₀, and asked under another.
	memo = invpMemo{}
	under := func(fs ...func(s *machine.State) *smt.Formula) *machine.State {
		s := build(machine.Single(1), notNull)
		for _, f := range fs {
			s.Phi = smt.And(s.Phi, f(s))
		}
		return s
	}
	c1 := func(s *machine.State) *smt.Formula { return smt.Neq(s.Locs[1].Identity, 7) }
	c2 := func(s *machine.State) *smt.Formula { return smt.Neq(s.Locs[0].Identity, 8) }
	require.Nil(t, check(under(c1)))
	require.Nil(t, check(under(c1, c2)))
	require.Equal(t, 1, memo.reused, "a stronger φ is answered by the φ₀ kept")
	require.Nil(t, check(under(c2)))
	require.Equal(t, 1, memo.reused, "a φ without the conjuncts of a φ₀ kept is asked")
	require.Len(t, memo.held, 1)
	require.Len(t, memo.held[string(memo.key)], 2, "and kept beside it")
	require.Nil(t, check(under(c2, c1)))
	require.Equal(t, 2, memo.reused)
}
