package checker

import (
	"context"
	"slices"

	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// TB is the one test interface of the package: Check, Property,
// PropertyOf and the shrinker (Shrink) all take it. It is the part of
// testing.TB they use, so *testing.T, *testing.B, *testing.F and rapid's
// *rapid.T satisfy it, and so does the shrinker's own reporter outside
// tests (shrinkTB): like rapid's TB, one small interface instead of a
// shape per function.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
	Cleanup(func())
}

// Check runs the lockstep check on p from a Go test and fails t with the
// verdict when a lemma is violated or could not be decided. It is the
// entry point for other projects' tests:
//
//	func TestMyRules(t *testing.T) {
//		p, _ := javalite.ParseAndCheck("x.jl", src)
//		checker.Check(t, p, checker.DefaultOptions())
//	}
func Check(t TB, p *javalite.Program, opt Options) *Report {
	t.Helper()
	solver, err := smt.NewSolver()
	if err != nil {
		t.Fatalf("lockstep: %v", err)
		return nil
	}
	t.Cleanup(solver.Close)
	rep, err := Run(context.Background(), p, opt, solver)
	if err != nil {
		t.Fatalf("lockstep: %s: %v", p.File, err)
		return rep
	}
	if rep.Verdict.Status != Holds {
		t.Fatalf("lockstep: %s\n%s", rep.Verdict.Status, rep.Text(true))
	}
	return rep
}

// Property returns a rapid property that draws a program from gen.Program
// (with data, as `check -gen`; the reference-only stream for an engine
// without the data rules, StreamData) and checks it, so rapid generates
// programs and shrinks a failing one to a minimal counterexample:
//
//	rapid.Check(t, checker.Property(t, checker.DefaultOptions(), nil))
//
// The solver is created once and closed when t ends. onFail, if not nil,
// sees the report of every failing run; rapid's last failing run is the
// shrunk one.
func Property(t TB, opt Options, onFail func(*Report)) func(*rapid.T) {
	return PropertyOf(t, opt, gen.ProgramWith(gen.Default.WithData(StreamData(opt, gen.DataMixed))), onFail)
}

// PropertyOf is Property with a given program generator. With only, a
// violation of any other lemma is not a failure (rapid counts it as an
// invalid case), so that shrinking stays on one claim.
func PropertyOf(t TB, opt Options, g *rapid.Generator[*javalite.Program], onFail func(*Report), only ...Lemma) func(*rapid.T) {
	return propertyOf(context.Background(), t, opt, g, onFail, only...)
}

// propertyOf is PropertyOf under ctx: once ctx ends, every case is skipped
// (rapid counts it as invalid), and a check cut short by it is skipped too.
func propertyOf(ctx context.Context, t TB, opt Options, g *rapid.Generator[*javalite.Program], onFail func(*Report), only ...Lemma) func(*rapid.T) {
	var solver *smt.Solver
	t.Cleanup(func() {
		if solver != nil {
			solver.Close()
		}
	})
	return func(rt *rapid.T) {
		if solver == nil {
			var err error
			if solver, err = smt.NewSolver(); err != nil {
				rt.Fatalf("lockstep: %v", err)
			}
			solver.SetContext(ctx)
		}
		p := g.Draw(rt, "program")
		if ctx.Err() != nil {
			rt.Skipf("interrupted")
		}
		rep, err := Run(ctx, p, opt, solver)
		if ctx.Err() != nil && (err != nil || rep.Verdict.Status == Inconclusive) {
			rt.Skipf("interrupted")
		}
		if err != nil {
			rt.Fatalf("lockstep: internal error: %v\n%s", err, javalite.Print(p))
		}
		if rep.Verdict.Status == Violated && len(only) > 0 && !slices.Contains(only, rep.Verdict.Lemma) {
			rt.Skipf("violates %s, not %v", rep.Verdict.Lemma, only)
		}
		if rep.Verdict.Status == Violated {
			if onFail != nil {
				onFail(rep)
			}
			rt.Fatalf("%s", rep.Text(false))
		}
		if rep.Verdict.Status == Inconclusive {
			// Not a pass: rapid counts it as an invalid case, and fails the
			// property if too many cases are undecided.
			rt.Skipf("inconclusive: %s: %s", rep.Verdict.Lemma, rep.Verdict.Reason)
		}
	}
}
