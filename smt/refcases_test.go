package smt

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestRefCasesBruteForce: satRefCases (the data's reference cases asked
// first, then one question without data, R ∧ ⋁σ) agrees with brute force
// on random questions R ∧ D, and the models it keeps for the questions
// without data only ever witness satisfiable ones (refModelSat never says
// true of an unsatisfiable question).
func TestRefCasesBruteForce(t *testing.T) {
	s, err := NewSolver()
	require.NoError(t, err)
	defer s.Close()
	answered, witnessed := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 4).Draw(t, "n")
		rs := make([]*rawD, n)
		fs := []*Formula{bounds()}
		for i := range rs {
			rs[i] = drawBoolD(t, 3)
			fs = append(fs, rs[i].build())
		}
		f := And(fs...)
		kids := []*Formula{f}
		if f.op == OpAnd {
			kids = f.kids
		}
		ref, data := byData(kids)
		want := false
		worlds(func(p partition, val valuation) {
			if want {
				return
			}
			for _, r := range rs {
				if r.eval(p.same, val) == 0 {
					return
				}
			}
			want = true
		})
		got, done, err := s.satRefCases(ref, data)
		require.NoError(t, err)
		if done {
			answered++
			require.Equal(t, want, got, "satRefCases(%v, %v)", ref, data)
		}
		// A question without data over the constants of the models kept.
		q := rawGen(3).Draw(t, "q").build()
		if s.refModelSat(q) {
			witnessed++
			require.True(t, bruteSat(q), "refModelSat(%v)", q)
		}
	})
	require.Positive(t, answered)
	t.Logf("%d answered, %d witnessed by a kept model, %d models kept", answered, witnessed, len(s.refModels))
}
