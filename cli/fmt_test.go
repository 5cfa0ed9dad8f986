package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockstep-dev/lockstep/javalite"
)

// TestFmtRoundTrip: every test program formats to a text that parses and
// checks, prints to itself again (canonical), and keeps the tree (same
// canonical print as the original).
func TestFmtRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../testdata/programs/*.jl")
	if len(files) == 0 {
		t.Fatal("no programs in testdata/programs")
	}
	for _, f := range files {
		var out, errb bytes.Buffer
		if code := run([]string{"fmt", f}, &out, &errb); code != exitOK {
			t.Fatalf("%s: exit %d: %s", f, code, errb.String())
		}
		p, err := javalite.ParseAndCheck("formatted", out.Bytes())
		if err != nil {
			t.Fatalf("%s: formatted text does not check: %v\n%s", f, err, out.String())
		}
		if again := javalite.Print(p); again != out.String() {
			t.Errorf("%s: fmt is not idempotent:\n%s\n---\n%s", f, out.String(), again)
		}
		tmp := filepath.Join(t.TempDir(), "x.jl")
		if err := os.WriteFile(tmp, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		var out2 bytes.Buffer
		if code := run([]string{"fmt", tmp}, &out2, &errb); code != exitOK || out2.String() != out.String() {
			t.Errorf("%s: fmt of the formatted file differs (exit %d)", f, code)
		}
	}
}

// TestFmtErrors: bad input exits 2 with positioned errors on stderr and
// nothing on stdout; so do usage mistakes.
func TestFmtErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jl")
	src := "(((class A ([B f]) ((bool m [bool x] (x $ f)))))\n (A m))\n"
	if err := os.WriteFile(bad, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"fmt", bad}, {"fmt"}, {"fmt", "a", "b"}, {"fmt", filepath.Join(dir, "missing.jl")}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
		if out.Len() != 0 {
			t.Errorf("%v: printed %q on stdout", args, out.String())
		}
	}
	var out, errb bytes.Buffer
	run([]string{"fmt", bad}, &out, &errb)
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	if len(lines) < 2 {
		t.Errorf("want every error (unknown class B, bool receiver), got:\n%s", errb.String())
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, bad+":1:") {
			t.Errorf("error without position: %q", l)
		}
	}
}
