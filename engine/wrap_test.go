package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// embedded is the decoration Wrap replaces: a struct embedding the
// interface has only the interface's methods.
type embedded struct{ engine.UnderTest }

func (embedded) Name() string { return "embedded" }

// TestWrapKeepsOptionalInterfaces: a wrapped engine has exactly the
// optional interfaces of the engine it wraps (and of its overrides), an
// embedding does not.
func TestWrapKeepsOptionalInterfaces(t *testing.T) {
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	cfg := engine.Config{K: 2, Solver: solver}
	sum, err := engine.New("summary:fixed", cfg)
	require.NoError(t, err)
	w := engine.Wrap(sum, engine.Overrides{Name: func() string { return "mine" }})
	require.Equal(t, "mine", w.Name())
	require.Implements(t, (*engine.Initializer)(nil), w)
	require.Implements(t, (*engine.IdentityView)(nil), w)
	require.NotImplements(t, (*engine.Invariant)(nil), w)
	require.Implements(t, (*machine.PathCond)(nil), w, "the data rules' path condition is kept")
	require.Same(t, sum, engine.Unwrap(w))
	require.NotImplements(t, (*machine.PathCond)(nil), embedded{sum}, "an embedding loses the data rules")
	require.NotImplements(t, (*engine.Initializer)(nil), embedded{sum}, "the pitfall Wrap exists for")

	// A View override drops IdentityView: the new View must be checked.
	v := engine.Wrap(sum, engine.Overrides{View: func(s *machine.State) (*machine.State, error) { return s, nil }})
	require.NotImplements(t, (*engine.IdentityView)(nil), v)
	require.Implements(t, (*engine.Initializer)(nil), v)

	pose, err := engine.New("pose", cfg)
	require.NoError(t, err)
	p := engine.Wrap(pose, engine.Overrides{})
	require.Implements(t, (*engine.Invariant)(nil), p)
	require.NotImplements(t, (*engine.Initializer)(nil), p)
	require.NotImplements(t, (*engine.IdentityView)(nil), p)
	require.Implements(t, (*machine.PathCond)(nil), p)
	require.Equal(t, pose.(engine.Invariant).InvariantName(), p.(engine.Invariant).InvariantName())
}

// TestWrappedSummaryChecksL1L4: the checker still checks L1 and L4 (the
// lemmas of engine.Initializer) on a wrapped summary engine, and not on
// the same engine embedded in a struct.
func TestWrappedSummaryChecksL1L4(t *testing.T) {
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	p, err := javalite.LoadFile("../testdata/programs/alias_two_fields.jl")
	require.NoError(t, err)
	run := func(wrap func(engine.UnderTest) engine.UnderTest) *checker.Report {
		opt := checker.DefaultOptions()
		opt.Engine = "mine"
		opt.Build = func(cfg engine.Config) (engine.UnderTest, error) {
			inner, err := engine.New("summary:fixed", cfg)
			if err != nil {
				return nil, err
			}
			return wrap(inner), nil
		}
		rep, err := checker.Run(context.Background(), p, opt, solver)
		require.NoError(t, err)
		require.Equal(t, checker.Holds, rep.Verdict.Status, rep.Text(false))
		return rep
	}
	rep := run(func(e engine.UnderTest) engine.UnderTest {
		return engine.Wrap(e, engine.Overrides{Name: func() string { return "mine" }})
	})
	require.Positive(t, rep.Checked[checker.L1], "L1 checked on the wrapped engine")
	require.Positive(t, rep.Checked[checker.L4], "L4 checked on the wrapped engine")
	rep = run(func(e engine.UnderTest) engine.UnderTest { return embedded{e} })
	require.Zero(t, rep.Checked[checker.L1], "an embedding hides the Initializer")
}
