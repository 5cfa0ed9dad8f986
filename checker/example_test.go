package checker_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/summary"
)

// TestAsLibrary shows how another project's tests use lockstep: check one
// program of their own, and let rapid generate and shrink programs against
// their rule variant. It runs in make test, so it is a real check of the
// corrected rules, not only an illustration.
func TestAsLibrary(t *testing.T) {
	const src = `
(((class Node ([Node next])
    ((bool same [Node other]
       (var Node a := (this $ next) in
         (begin (a $ next := other)
                ((this $ next) = (a $ next))))))))
 (Node same))`
	p, err := javalite.ParseAndCheck("same.jl", []byte(src))
	require.NoError(t, err)

	opt := checker.DefaultOptions()
	opt.Variant, err = summary.Lookup("fixed")
	require.NoError(t, err)
	rep := checker.Check(t, p, opt) // fails t with the verdict if a lemma breaks
	require.Positive(t, rep.Checked[checker.L3], "the write was checked")

	// Generated programs, shrunk on failure. A small generator and k = 1
	// keep this example quick (rapid draws 100 programs); the default
	// generator is checker.Property(t, opt, nil), and TestGeneratedFixed
	// runs it at k = 2.
	opt.K, opt.Steps = 1, 100
	small := gen.Config{MinClasses: 1, MaxClasses: 1, MinEntryFields: 1, MaxFields: 2,
		MinMethods: 1, MaxMethods: 1, MaxDepth: 2, MaxBegin: 2, MaxPath: 2}
	rapid.Check(t, checker.PropertyOf(t, opt, gen.ProgramWith(small), nil))
}
