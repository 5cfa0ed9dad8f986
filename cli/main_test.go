package cli

import (
	"fmt"
	"os"
	"testing"
)

// TestMain points TMPDIR at a directory of its own, removed at the end:
// check -gen without -save keeps each counterexample in a new temporary
// directory (and writes its pictures into another), which the tests, run
// again and again, would otherwise leave behind.
func TestMain(m *testing.M) {
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
