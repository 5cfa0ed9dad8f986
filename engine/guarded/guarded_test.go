package guarded

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// maybeNull is a state whose stack reference r holds the input symbol y:
// L(r) = {(y = null, l_null), (y ≠ null, l_0)}.
func maybeNull() (*machine.State, machine.Ref, *smt.Formula) {
	s := &machine.State{Phi: smt.True()}
	y := s.InitR()
	isNull := smt.Eq(y, machine.RNull)
	r := s.StackR()
	s.Set(r, machine.GVS{{Guard: isNull, Loc: machine.LNull}, {Guard: smt.Not(isNull), Loc: 0}})
	return s, r, isNull
}

func asker(t *testing.T) Asker {
	sol, err := smt.NewSolver()
	require.NoError(t, err)
	t.Cleanup(sol.Close)
	return Asker{Name: "test", Sat: sol.Sat}
}

func TestNullGuards(t *testing.T) {
	a := asker(t)
	s, r, isNull := maybeNull()

	theta0, nonNull, err := NullGuards(a, s, r, smt.True())
	require.NoError(t, err)
	assert.True(t, nonNull)
	require.Len(t, theta0, 1)
	assert.Equal(t, isNull.String(), theta0[0].String())

	theta0, nonNull, err = NullGuards(a, s, r, isNull)
	require.NoError(t, err)
	assert.False(t, nonNull, "under y = null no non-null entry is satisfiable")
	assert.Len(t, theta0, 1)

	theta0, nonNull, err = NullGuards(a, s, r, smt.Not(isNull))
	require.NoError(t, err)
	assert.True(t, nonNull)
	assert.Empty(t, theta0, "under y ≠ null θ_0 is empty")
}

func TestNullGuardsRejectsIllFormed(t *testing.T) {
	a := asker(t)
	s, r, isNull := maybeNull()

	_, _, err := NullGuards(a, s, s.StackR(), smt.True())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "test: L(")
	assert.Contains(t, err.Error(), "is empty")

	s.Set(r, machine.GVS{{Guard: isNull, Loc: machine.LUn}})
	_, _, err = NullGuards(a, s, r, smt.True())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not well formed")
	_, _, err = NullGuards(a, s, r, smt.Not(isNull))
	require.NoError(t, err, "an unsatisfiable l_un entry is no evidence of an ill-formed state")

	s, r, _ = maybeNull()
	a.Check = func(*machine.State, machine.Ref, machine.Loc) error { return errors.New("checked") }
	_, _, err = NullGuards(a, s, r, smt.True())
	require.EqualError(t, err, "checked")

	a.Check = nil
	a.Sat = func(*smt.Formula) (bool, error) { return false, errors.New("unknown") }
	_, _, err = NullGuards(a, s, r, smt.True())
	require.EqualError(t, err, "unknown", "an undecided question is an error, never a guess")
}

func TestErrorEnd(t *testing.T) {
	s, _, isNull := maybeNull()
	phiG := smt.Eq(machine.RNull, machine.RNull)
	phi := ErrorEnd(s, phiG, []*smt.Formula{isNull}, false)
	assert.Equal(t, smt.And(phiG, isNull).String(), phi.String())
	assert.Equal(t, phi, s.Phi)
	assert.Nil(t, s.Facts)
	assert.Equal(t, machine.ModeError, s.Mode)

	s, _, _ = maybeNull()
	s.AddFact(isNull)
	phi = ErrorEnd(s, phiG, []*smt.Formula{isNull}, true)
	assert.Equal(t, phiG, phi, "V8's published reading keeps φ_g")
	assert.Nil(t, s.Facts)
}

func TestPhiPrime(t *testing.T) {
	a, b := smt.Eq(1, machine.RNull), smt.Eq(4, machine.RNull)
	phiG := smt.Eq(1, 4)
	assert.Equal(t, smt.And(phiG, smt.Not(a), smt.Not(b)).String(), PhiPrime(phiG, []*smt.Formula{a, b}).String())
	assert.Equal(t, smt.And(phiG).String(), PhiPrime(phiG, nil).String())
}

func TestSplit(t *testing.T) {
	theta0 := []*smt.Formula{smt.Eq(1, machine.RNull)}
	rules := func(seen *[]*machine.State, withhold bool) (func(*machine.State) ([]machine.Succ, error), func(*machine.State) ([]machine.Succ, error)) {
		return func(sn *machine.State) ([]machine.Succ, error) {
				*seen = append(*seen, sn)
				if withhold {
					return nil, nil
				}
				return []machine.Succ{{S: sn, Rule: "A"}}, nil
			}, func(s *machine.State) ([]machine.Succ, error) {
				*seen = append(*seen, s)
				return []machine.Succ{{S: s, Rule: "A′"}}, nil
			}
	}
	for _, tc := range []struct {
		name     string
		theta0   []*smt.Formula
		nonNull  bool
		withhold bool
		rules    []string
		clone    bool
	}{
		{"both", theta0, true, false, []string{"A", "A′"}, true},
		{"non-null only", nil, true, false, []string{"A"}, false},
		{"null only", theta0, false, false, []string{"A′"}, false},
		{"non-null withheld", theta0, true, true, []string{"A′"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _, _ := maybeNull()
			var seen []*machine.State
			rule, nullRule := rules(&seen, tc.withhold)
			out, err := Split(s, tc.theta0, tc.nonNull, rule, nullRule)
			require.NoError(t, err)
			var names []string
			for _, sc := range out {
				names = append(names, sc.Rule)
			}
			assert.Equal(t, tc.rules, names)
			if tc.nonNull {
				assert.Equal(t, tc.clone, seen[0] != s, "the non-null rule works on a copy exactly when the null rule also fires")
			}
			if len(tc.theta0) > 0 {
				assert.Same(t, s, seen[len(seen)-1], "the null rule gets the state itself")
			}
		})
	}

	s, _, _ := maybeNull()
	boom := errors.New("boom")
	_, err := Split(s, theta0, true,
		func(*machine.State) ([]machine.Succ, error) { return nil, boom },
		func(*machine.State) ([]machine.Succ, error) { t.Fatal("null rule ran after an error"); return nil, nil })
	require.ErrorIs(t, err, boom)
	out, err := Split(s, theta0, true,
		func(sn *machine.State) ([]machine.Succ, error) { return []machine.Succ{{S: sn, Rule: "A"}}, nil },
		func(*machine.State) ([]machine.Succ, error) { return nil, boom })
	require.ErrorIs(t, err, boom)
	assert.Len(t, out, 1, "a null-rule error comes with the non-null successors")
}

func TestPair(t *testing.T) {
	a := asker(t)
	s, r, isNull := maybeNull()
	s.AddFact(smt.Eq(7, machine.RNull))
	phiG := s.PathCondition()
	guards := func(s *machine.State, r machine.Ref, phi *smt.Formula) ([]*smt.Formula, bool, error) {
		return NullGuards(a, s, r, phi)
	}
	var got []Premises
	out, err := Pair(s, r, guards, func(sn *machine.State, p Premises) ([]machine.Succ, error) {
		got = append(got, p)
		SetPhi(sn, p.PhiPrime())
		return []machine.Succ{{S: sn, Rule: "A"}}, nil
	}, func(s *machine.State, p Premises) ([]machine.Succ, error) {
		got = append(got, p)
		ErrorEnd(s, p.PhiG, p.Theta0, false)
		return []machine.Succ{{S: s, Rule: "A′"}}, nil
	})
	require.NoError(t, err)
	require.Len(t, out, 2)
	require.Len(t, got, 2)
	assert.Equal(t, got[0], got[1], "both rules read the same premises")
	assert.Equal(t, phiG.String(), got[0].PhiG.String(), "φ_g is the whole path condition, facts included")
	assert.True(t, got[0].NonNull)
	assert.Equal(t, smt.And(phiG, smt.Not(isNull)).String(), out[0].S.Phi.String())
	assert.Equal(t, smt.And(phiG, isNull).String(), out[1].S.Phi.String())
	assert.Equal(t, machine.ModeError, out[1].S.Mode)
	assert.NotEqual(t, machine.ModeError, out[0].S.Mode)

	boom := errors.New("boom")
	_, err = Pair(s, r, func(*machine.State, machine.Ref, *smt.Formula) ([]*smt.Formula, bool, error) { return nil, false, boom },
		func(*machine.State, Premises) ([]machine.Succ, error) {
			t.Fatal("rule ran after a guards error")
			return nil, nil
		},
		func(*machine.State, Premises) ([]machine.Succ, error) {
			t.Fatal("rule ran after a guards error")
			return nil, nil
		})
	require.ErrorIs(t, err, boom)
}

func TestWriteReceiver(t *testing.T) {
	s := &machine.State{Env: []machine.Value{machine.VTrue, machine.RefVal(machine.Ref(4))}}
	rx, err := WriteReceiver("test", s, &javalite.FieldWrite{VarName: "x", Slot: 1})
	require.NoError(t, err)
	assert.Equal(t, machine.Ref(4), rx)
	_, err = WriteReceiver("test", s, &javalite.FieldWrite{VarName: "b", Slot: 0})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "test: ")
	assert.Contains(t, err.Error(), "b is not bound to a reference")
}
