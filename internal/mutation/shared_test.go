package mutation

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/internal/testutil"
)

// TestSharedKilledOnProgram: each mutation of a shared layer (shared.go)
// is killed under the summary engine on a small program (the shrunk
// counterexample of its hunt, docs/MUTANTS.md, or a hand-written one where
// the hunt's 300 programs never reach it) by the lemma the hunt reported,
// and the base holds there.
func TestSharedKilledOnProgram(t *testing.T) {
	cases := []struct {
		mutation string
		lemma    checker.Lemma
		src      string
	}{
		{"common-binary-le-as-lt", checker.ORC, `(((class A ([int f])
    ((bool main [bool x] [bool i] [bool j]
       ((this $ f) <= 0)))))
 (A main))`},
		{"common-if-sym-then-only", checker.ORC, `(((class A ([bool f])
    ((bool main [bool x]
       (if (this $ f) true else true)))))
 (A main))`},
		{"common-new-prim-symbolic", checker.L10, `(((class A ([A f] [bool g])
    ((bool main [int x]
       (begin (if ((this $ f) = (new A))
                  (if false (this $ g := ((this $ f) $ g)) else false)
               else false)
              true)))))
 (A main))`},
		{"gse-assume-no-strengthen", checker.L12, `(((class A ([bool f] [int h])
    ((bool main [bool x]
       (begin (assume ((this $ h) < 0)) (this $ f))))))
 (A main))`},
		{"gse-feasible-ignores-phi", checker.L12, `(((class A ([bool f])
    ((A main [bool x]
       (var bool y := (this $ f) in
         (if (this $ f) (if (this $ f) this else this) else this))))))
 (A main))`},
		{"smt-le-as-lt", checker.ORC, `(((class A ([int g] [C h])
    ((C main
       (begin (assume ((this $ h) = (this $ h)))
              (begin (this $ h := null)
                     (begin (this $ h := (new C))
                            (if ((this $ g) <= -1) (new C) else (new C))))))))
  (class C () ()))
 (A main))`},
		{"smt-lt-self-true", checker.ORC, `(((class A ([int v])
    ((int main
       (if ((this $ v) < (this $ v)) 1 else 2)))))
 (A main))`},
	}
	solver := testutil.Solver(t)
	opt := Options{Check: checker.DefaultOptions()}
	for _, c := range cases {
		t.Run(c.mutation, func(t *testing.T) {
			m, err := LookupShared("summary", c.mutation)
			require.NoError(t, err)
			p := testutil.Parse(t, c.src)
			copt := opt.checkOptions(m)
			// A solver of its own: a knob of the term layer changes what
			// the solver translates and caches.
			msolver := testutil.Solver(t)
			if m.Shared.Knob != nil {
				m.Shared.Knob.Store(true)
			}
			rep, err := checker.Run(context.Background(), p, copt, msolver)
			if m.Shared.Knob != nil {
				m.Shared.Knob.Store(false)
			}
			require.NoError(t, err)
			require.Equal(t, checker.Violated, rep.Verdict.Status, "%s survives: %s", m.Name, rep.Text(false))
			require.Equal(t, c.lemma, rep.Verdict.Lemma, rep.Verdict.Reason)
			copt = opt.Check
			copt.Engine, copt.K, copt.Steps = m.Base, m.K, m.Steps
			base, err := checker.Run(context.Background(), p, copt, solver)
			require.NoError(t, err)
			require.Equal(t, checker.Holds, base.Verdict.Status, base.Text(false))
			t.Logf("%s: %s at %s: %s", m.Name, rep.Verdict.Lemma, rep.Verdict.Rule, rep.Verdict.Reason)
		})
	}
}
