package smt

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestModelsMatchZ3: random Assume/Release/Check sequences whose questions
// come from a small pool, so that answers from kept models (models.go) are
// frequent, give Z3's answer every time; with a small decision budget some
// questions also go to Z3 in between. The run as a whole must have used
// the models, or it tested nothing.
func TestModelsMatchZ3(t *testing.T) {
	g, z := goSolver(t), newSolver(t)
	rapid.Check(t, func(t *rapid.T) {
		defer func() {
			for g.Assumptions() > 0 {
				_ = g.Release()
			}
			for z.Assumptions() > 0 {
				_ = z.Release()
			}
		}()
		if rapid.IntRange(0, 3).Draw(t, "smallBudget") == 0 {
			old := decideBudget
			decideBudget = rapid.IntRange(1, 40).Draw(t, "budget")
			defer func() { decideBudget = old }()
		}
		pool := rapid.SliceOfN(wideGen(3), 1, 6).Draw(t, "pool")
		pool = append(pool, True())
		n := rapid.IntRange(1, 40).Draw(t, "ops")
		for i := range n {
			switch op := rapid.IntRange(0, 5).Draw(t, "op"); {
			case op == 0:
				f := rapid.SampledFrom(pool).Draw(t, "assume")
				require.NoError(t, g.Assume(f))
				require.NoError(t, z.Assume(f))
			case op == 1 && g.Assumptions() > 0:
				require.NoError(t, g.Release())
				require.NoError(t, z.Release())
			default:
				f := rapid.SampledFrom(pool).Draw(t, "query")
				gr, err := g.Check(f)
				require.NoError(t, err)
				zr, err := z.Check(f)
				require.NoError(t, err)
				require.Equal(t, zr, gr, "op %d, %d assumptions %v: query %v", i, g.Assumptions(), g.assumed, f)
			}
		}
	})
	require.Positive(t, g.Stats().FromModels, "no question was answered from a kept model")
}

// TestModelsNeverAnswerUnsat: a model only ever witnesses sat. Under
// r1 ≠ r4, a model found for r4 = r7 does not make r1 = r7 unsat, and a
// question no kept model satisfies is searched.
func TestModelsNeverAnswerUnsat(t *testing.T) {
	s := goSolver(t)
	require.NoError(t, s.Assume(Neq(1, 4)))
	r, err := s.Check(Eq(4, 7))
	require.NoError(t, err)
	require.Equal(t, Sat, r)
	r, err = s.Check(Eq(4, 7)) // answered by the model just found
	require.NoError(t, err)
	require.Equal(t, Sat, r)
	require.Equal(t, int64(1), s.Stats().FromModels)
	r, err = s.Check(Eq(1, 7)) // the model has r1 ≠ r7: searched, sat
	require.NoError(t, err)
	require.Equal(t, Sat, r)
	r, err = s.Check(And(Eq(1, 7), Eq(4, 7))) // unsat: never from a model
	require.NoError(t, err)
	require.Equal(t, Unsat, r)
	require.NoError(t, s.Release())
	r, err = s.Check(And(Eq(1, 7), Eq(4, 7))) // no assumptions: no models
	require.NoError(t, err)
	require.Equal(t, Sat, r)
}
