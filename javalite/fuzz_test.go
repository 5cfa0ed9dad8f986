package javalite

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lockstep-dev/lockstep/internal/testutil/chunked"
)

// FuzzParseCheck feeds arbitrary text to ParseAndCheck. It must never panic
// or hang; every error must carry a real position; and any text that checks
// must print to a canonical form that parses back to the same tree, checks
// again with every promised field filled in, and prints identically.
//
// Seeds: the test programs, the data programs (the syntax of PRIMITIVES.md
// §1) and every chunk of the error files.
// Run: go test -run XXX -fuzz FuzzParseCheck -fuzztime 60s ./javalite/
func FuzzParseCheck(f *testing.F) {
	for _, path := range append(programFiles(f), dataFiles(f)...) {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	errFiles, _ := filepath.Glob(filepath.Join(errorsDir, "*.jl"))
	for _, path := range errFiles {
		for _, c := range chunked.Read(f, path) {
			f.Add([]byte(c.Text))
		}
	}
	f.Add([]byte(briefExample))

	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := ParseAndCheck("fuzz.jl", src)
		if err != nil {
			errs := errorList(t, err)
			if len(errs) == 0 {
				t.Fatal("empty error list returned as an error")
			}
			for _, e := range errs {
				if e.Pos.File != "fuzz.jl" || e.Pos.Line < 1 || e.Pos.Col < 1 || e.Msg == "" {
					t.Fatalf("bad diagnostic %#v", e)
				}
			}
			return
		}
		if msg := checkResolved(p); msg != "" {
			t.Fatalf("checked program not fully resolved: %s", msg)
		}
		for _, cl := range p.Classes {
			for _, m := range cl.Methods {
				_ = PrintExpr(m.Body)
			}
		}
		out := Print(p)
		p2, err := ParseAndCheck("fuzz.jl", []byte(out))
		if err != nil {
			t.Fatalf("printed program does not check: %v\n%s", err, out)
		}
		if p2.NumExpr != p.NumExpr {
			t.Fatalf("NumExpr %d after printing, %d before", p2.NumExpr, p.NumExpr)
		}
		if Print(p2) != out {
			t.Fatalf("Print is not idempotent:\n%s", out)
		}
		// Compare the trees without positions; the checked trees have back
		// pointers, so compare fresh parses.
		p1, _ := Parse("fuzz.jl", src)
		p3, _ := Parse("fuzz.jl", []byte(out))
		if !sameTree(p1, p3) {
			t.Fatalf("printed program parses to a different tree:\n%s", out)
		}
	})
}
