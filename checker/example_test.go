package checker_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/summary"
)

// TestAsLibrary shows how another project's tests use lockstep: check one
// program of their own against their rule variant with a *testing.T. It
// runs in make test, so it is a real check of the corrected rules, not only
// an illustration. ExamplePropertyOf (example_function_test.go) shows the
// generated-programs half, rapid.Check(t, checker.Property(t, opt, nil)).
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

}
