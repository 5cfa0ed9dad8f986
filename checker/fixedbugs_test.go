package checker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestFixedBugs replays every regression case of testdata/fixedbugs: each
// variant the case names still breaks exactly the lemma (and rule) it
// names, and every variant it lists under `holds:` holds, with the case's
// k and step bound. An inconclusive run fails either way: a case that can
// no longer be decided proves nothing. The cases are shrunk programs of a
// few lines, so this is quick.
func TestFixedBugs(t *testing.T) {
	files, err := filepath.Glob("../testdata/fixedbugs/*.jl")
	require.NoError(t, err)
	require.NotEmpty(t, files, "no regression cases")
	solver, err := smt.NewSolver()
	require.NoError(t, err)
	defer solver.Close()
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			c, err := ParseCase(f, src)
			require.NoError(t, err)
			run := func(name string) *Report {
				// A bare name is a summary variant (the cases the project
				// began with); any other engine is named NAME:VARIANT.
				spec := name
				if !strings.Contains(name, ":") {
					spec = "summary:" + name
				}
				_, _, err := engine.Lookup(spec)
				require.NoError(t, err, "the case names an unknown engine")
				_, err = engine.New(spec, engine.Config{K: c.K, Solver: solver})
				require.NoError(t, err, "the case names an unknown variant")
				sem, err := machine.ParseSemantics(c.Semantics)
				require.NoError(t, err)
				opt := DefaultOptions()
				opt.Engine, opt.Semantics, opt.K, opt.Steps = spec, sem, c.K, c.Steps
				rep, err := Run(context.Background(), c.Program, opt, solver)
				require.NoError(t, err, name)
				return rep
			}
			for _, name := range c.Refutes {
				rep := run(name)
				v := rep.Verdict
				require.Equal(t, Violated, v.Status, "%s should violate %s:\n%s", name, c.Lemma, rep.Text(false))
				require.Equal(t, c.Lemma, v.Lemma, "%s:\n%s", name, rep.Text(false))
				if c.Rule != "" {
					require.Equal(t, c.Rule, v.Rule, "%s:\n%s", name, rep.Text(false))
				}
			}
			for _, name := range c.Holds {
				rep := run(name)
				require.Equal(t, Holds, rep.Verdict.Status, "%s should hold:\n%s", name, rep.Text(false))
			}
		})
	}
}
