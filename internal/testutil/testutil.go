// Package testutil is what lockstep's tests share: reading test programs,
// parsing a source with the type checker, a solver that closes itself.
// Every helper fails the test through testify's require, the one assertion
// style of the repository's tests.
//
// Paths are relative to the test's working directory, which `go test` sets
// to the package directory, so "../testdata/programs/x.jl" from a package
// at the root of the module.
//
// The tests of packages smt and javalite are internal tests of packages
// this one imports, so they cannot import it (an import cycle): they keep
// their own newSolver and mustParse over their own package. The chunked
// testdata reader has no such dependency and lives in testutil/chunked.
package testutil

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// Program loads, parses and type checks the program file at path.
func Program(t testing.TB, path string) *javalite.Program {
	t.Helper()
	p, err := javalite.LoadFile(path)
	require.NoError(t, err)
	return p
}

// Parse parses and type checks src, named "test.jl" in positions.
func Parse(t testing.TB, src string) *javalite.Program {
	t.Helper()
	return ParseAs(t, "test.jl", src)
}

// ParseAs is Parse with a file name for positions and messages.
func ParseAs(t testing.TB, name, src string) *javalite.Program {
	t.Helper()
	p, err := javalite.ParseAndCheck(name, []byte(src))
	require.NoError(t, err, name)
	return p
}

// Solver returns a new solver, closed when t ends. A solver belongs to one
// goroutine.
func Solver(t testing.TB) *smt.Solver {
	t.Helper()
	s, err := smt.NewSolver()
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

// Source returns the text of the file at path. It is for package-level
// variables of tests, where there is no t yet, so it panics if the file
// cannot be read (the test binary then stops before any test runs, naming
// the file).
func Source(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return string(b)
}
