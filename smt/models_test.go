package smt

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestModelsMatchZ3: random Assume/Release/Check sequences whose questions
// come from a small pool, so that answers from kept models and searches
// restricted to the question's classes (models.go) are frequent, give Z3's
// answer every time; with a small decision budget some
// questions also go to Z3 in between. The run as a whole must have used
// the models, or it tested nothing.
func TestModelsMatchZ3(t *testing.T) {
	g, z := goSolver(t), newSolver(t)
	witnesses := 0
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
		// Formulas over one of two halves of the constants, so that
		// questions and assumptions are often independent.
		halves := [][]Ref{wideUniverse[:4], wideUniverse[4:], wideUniverse}
		var pool []*Formula
		for range rapid.IntRange(1, 6).Draw(t, "poolSize") {
			h := rapid.SampledFrom(halves[rapid.IntRange(0, 2).Draw(t, "half")])
			if rapid.Bool().Draw(t, "clause") {
				// A disjunction of atoms stays open under most states,
				// as the guards' disjunctions do.
				pool = append(pool, Or(Eq(h.Draw(t, "a"), h.Draw(t, "b")), Not(Eq(h.Draw(t, "c"), h.Draw(t, "d"))), Eq(h.Draw(t, "e"), h.Draw(t, "f"))))
			} else {
				pool = append(pool, drawRaw(t, h, 3).build())
			}
		}
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
				witnessed := g.Witnessed(f)
				gr, err := g.Check(f)
				require.NoError(t, err)
				zr, err := z.Check(f)
				require.NoError(t, err)
				require.Equal(t, zr, gr, "op %d, %d assumptions %v: query %v", i, g.Assumptions(), g.assumed, f)
				if witnessed {
					witnesses++
					require.Equal(t, Sat, zr, "Witnessed(%v) under %v, but Z3 says %v", f, g.assumed, zr)
				}
			}
		}
	})
	t.Logf("answered from models: %d; restricted searches: %d; witnessed: %d", g.Stats().FromModels, g.dec.restricted, witnesses)
	require.Positive(t, witnesses, "no question was witnessed by a kept model")
}

// TestWitnessedOnlyWithModels: Witnessed answers only from a model kept
// for the assumptions in force, never without assumptions, never with the
// Go procedure off or with fault injection on (then every question is
// asked), and never for an unsatisfiable formula.
func TestWitnessedOnlyWithModels(t *testing.T) {
	s := goSolver(t)
	require.False(t, s.Witnessed(Eq(1, 4)), "no assumptions")
	require.NoError(t, s.Assume(Or(Eq(1, 4), Eq(1, 7))))
	require.False(t, s.Witnessed(Eq(1, 4)), "no model kept yet")
	r, err := s.Check(True())
	require.NoError(t, err)
	require.Equal(t, Sat, r)
	m := s.dec.models[len(s.dec.models)-1][0]
	one := Eq(1, 4)
	if m.rep(s.dec.idx[1]) != m.rep(s.dec.idx[4]) {
		one = Eq(1, 7)
	}
	require.True(t, s.Witnessed(one), "the kept model makes %v true", one)
	require.False(t, s.Witnessed(And(Eq(1, 4), Eq(1, 7), Neq(4, 7))), "unsatisfiable")
	require.NoError(t, s.SetFaults(Faults{Unknown: 0.5, Seed: 1}))
	require.False(t, s.Witnessed(one), "fault injection on")
	require.NoError(t, s.SetFaults(Faults{}))
	s.SetGoDecide(false)
	require.False(t, s.Witnessed(one), "Go procedure off")
	s.SetGoDecide(true)
	require.NoError(t, s.Release())
	require.False(t, s.Witnessed(one), "released")
}

// TestAssumePropagatesUnits: a disjunction of the assumptions left with one
// open operand forces it at the level (push), so questions under the level
// start from it; Release undoes it with the level.
func TestAssumePropagatesUnits(t *testing.T) {
	s := goSolver(t)
	d := s.dec
	require.NoError(t, s.Assume(And(Or(Eq(1, 4), Eq(7, 10)), Or(Neq(7, 10), Eq(13, 16)))))
	require.NoError(t, s.Assume(Neq(1, 4)))
	// 7 = 10 is forced, and then 13 = 16.
	require.Equal(t, d.find(d.idx[7]), d.find(d.idx[10]))
	require.Equal(t, d.find(d.idx[13]), d.find(d.idx[16]))
	r, err := s.Check(Neq(13, 16))
	require.NoError(t, err)
	require.Equal(t, Unsat, r)
	require.NoError(t, s.Release())
	require.NotEqual(t, d.find(d.idx[7]), d.find(d.idx[10]), "Release undoes the propagation")
	r, err = s.Check(Neq(13, 16))
	require.NoError(t, err)
	require.Equal(t, Sat, r)
	// A conflict found by propagation makes the level unsatisfiable:
	// 13 ≠ 16 forces 7 ≠ 10, and 1 ≠ 4 forces 7 = 10.
	require.NoError(t, s.Assume(And(Neq(13, 16), Neq(1, 4))))
	r, err = s.Check(True())
	require.NoError(t, err)
	require.Equal(t, Unsat, r)
	require.NoError(t, s.Release())
	require.NoError(t, s.Release())
	r, err = s.Check(Neq(13, 16))
	require.NoError(t, err)
	require.Equal(t, Sat, r)
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

// TestIndependenceMatchesZ3: assumptions with open disjunctions over two
// halves of the constants, a first question that gives the level a model,
// then questions over one half, the other or both: every answer is Z3's,
// and most searches are restricted to the question's classes.
func TestIndependenceMatchesZ3(t *testing.T) {
	g, z := goSolver(t), newSolver(t)
	clause := func(t *rapid.T, h *rapid.Generator[Ref]) *Formula {
		return Or(Eq(h.Draw(t, "a"), h.Draw(t, "b")), Not(Eq(h.Draw(t, "c"), h.Draw(t, "d"))), Eq(h.Draw(t, "e"), h.Draw(t, "f")))
	}
	rapid.Check(t, func(t *rapid.T) {
		defer func() {
			for g.Assumptions() > 0 {
				_ = g.Release()
			}
			for z.Assumptions() > 0 {
				_ = z.Release()
			}
		}()
		halves := []*rapid.Generator[Ref]{rapid.SampledFrom(wideUniverse[:4]), rapid.SampledFrom(wideUniverse[4:]), rapid.SampledFrom(wideUniverse)}
		for range rapid.IntRange(1, 3).Draw(t, "levels") {
			var parts []*Formula
			for range rapid.IntRange(1, 4).Draw(t, "clauses") {
				parts = append(parts, clause(t, halves[rapid.IntRange(0, 1).Draw(t, "half")]))
			}
			a := And(parts...)
			require.NoError(t, g.Assume(a))
			require.NoError(t, z.Assume(a))
			for range rapid.IntRange(1, 4).Draw(t, "questions") {
				f := drawRaw(t, halves[rapid.IntRange(0, 2).Draw(t, "qhalf")], 3).build()
				if rapid.Bool().Draw(t, "qclause") {
					f = clause(t, halves[rapid.IntRange(0, 1).Draw(t, "chalf")])
				}
				gr, err := g.Check(f)
				require.NoError(t, err)
				zr, err := z.Check(f)
				require.NoError(t, err)
				require.Equal(t, zr, gr, "assumptions %v: query %v", g.assumed, f)
			}
		}
	})
	t.Logf("restricted searches: %d", g.dec.restricted)
}

// TestIndependenceRestricts: a question on constants no open disjunction
// of the assumptions touches is searched on its own (and answered right);
// one that touches them is not restricted away from them.
func TestIndependenceRestricts(t *testing.T) {
	s := goSolver(t)
	require.NoError(t, s.Assume(And(Or(Eq(1, 4), Eq(1, 7)), Or(Eq(10, 13), Eq(10, 16)))))
	r, err := s.Check(True()) // gives the level a model
	require.NoError(t, err)
	require.Equal(t, Sat, r)
	before := s.dec.restricted
	r, err = s.Check(And(Eq(19, 22), Not(Eq(19, 25))))
	require.NoError(t, err)
	require.Equal(t, Sat, r)
	require.Equal(t, before+1, s.dec.restricted, "the question shares no class with the assumptions")
	// Touches the first disjunction only: the second is set aside, and
	// the first still decides the answer.
	r, err = s.Check(And(Not(Eq(1, 4)), Not(Eq(1, 7))))
	require.NoError(t, err)
	require.Equal(t, Unsat, r)
	require.Equal(t, before+2, s.dec.restricted)
	// Through 4 = 10 the question reaches both disjunctions.
	r, err = s.Check(And(Eq(4, 10), Not(Eq(1, 4)), Not(Eq(10, 16))))
	require.NoError(t, err)
	require.Equal(t, Sat, r) // 1 = 7, 10 = 13, 4 = 10
	r, err = s.Check(And(Eq(4, 10), Not(Eq(1, 4)), Not(Eq(1, 7)), Not(Eq(10, 16))))
	require.NoError(t, err)
	require.Equal(t, Unsat, r)
}
