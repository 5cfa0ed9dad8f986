package cli

import (
	"fmt"
	"os"
	"testing"
)

// asCLI, set in the environment, makes this test binary the CLI: the
// process tests (cli(t)) start it as bin/lockstep.
const asCLI = "LOCKSTEP_CLI_TEST_BINARY"

// TestMain runs the CLI when started as it (asCLI), and otherwise the
// tests. It sets asCLI for the processes the tests start (the test binary
// run as the CLI, and the children the CLI starts of itself, bench
// -overhead's) and unsets GOGC, which make test sets for the test binaries
// (the runtime has read it): the CLI processes run with the CLI's own
// collector setting (tuneGC), as a user's do, whatever GOGC make test or
// the caller chose. It points TMPDIR at a
// directory of its own, removed at the end: check -gen without -save keeps
// each counterexample in a new temporary directory (and writes its
// pictures into another), which the tests, run again and again, would
// otherwise leave behind.
func TestMain(m *testing.M) {
	if os.Getenv(asCLI) == "1" {
		Main() // exits
	}
	os.Setenv(asCLI, "1")
	os.Unsetenv("GOGC")
	dir, err := os.MkdirTemp("", "lockstep-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	code := m.Run()
	if had {
		os.Setenv("TMPDIR", old)
	} else {
		os.Unsetenv("TMPDIR")
	}
	os.RemoveAll(dir)
	os.Exit(code)
}
