package javalite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// roundTrip checks that Print(Parse(src)) parses back to the same tree and
// that printing is idempotent. It returns the printed text.
func roundTrip(t testing.TB, file string, src []byte) string {
	t.Helper()
	p1, err := Parse(file, src)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	out := Print(p1)
	p2, err := Parse(file, []byte(out))
	if err != nil {
		t.Fatalf("printed text does not parse: %v\n%s", err, out)
	}
	if again := Print(p2); again != out {
		t.Fatalf("Print is not idempotent:\n%s\nthen\n%s", out, again)
	}
	if !sameTree(p1, p2) {
		t.Fatalf("printed text parses to a different tree:\n%s", out)
	}
	return out
}

func TestRoundTripPrograms(t *testing.T) {
	for _, path := range programFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			out := roundTrip(t, path, src)
			// The printed form must also check, with the same numbering.
			p1, err1 := ParseAndCheck(path, src)
			p2, err2 := ParseAndCheck(path, []byte(out))
			if err1 != nil || err2 != nil {
				t.Fatalf("check: %v / %v", err1, err2)
			}
			if p1.NumExpr != p2.NumExpr || len(p1.Fields) != len(p2.Fields) {
				t.Errorf("checked programs differ")
			}
			for i, line := range strings.Split(out, "\n") {
				if len(line) > printWidth {
					t.Errorf("line %d is %d columns wide: %s", i+1, len(line), line)
				}
			}
		})
	}
}

func TestPrintLayout(t *testing.T) {
	// Pins the canonical layout: short expressions stay on one line, long
	// ones break as documented in print.go.
	want := `(((class Data () ())
  (class Node ([Node next] [Data data])
    ((bool contains [Data d]
       (if (this = null)
           false
        else (if ((this $ data) = d) true else ((this $ next) @ contains d))))))
  (class Main ([Node head] [Data d0])
    ((bool main [bool unused]
       ((this $ head) @ contains (this $ d0)))
     (Node other [Node n]
       (var Node someLongVariableName := (new Node) in
         (begin (someLongVariableName $ next := (n $ next))
                (someLongVariableName := ((this $ head) $ next))
                (((someLongVariableName $ next) $ next)
                 @ someLongMethodName ((this $ head)
                                       = someLongVariableName))))))))
 (Main main))
`
	p := mustParse(t, want)
	if got := Print(p); got != want {
		t.Errorf("Print =\n%s\nwant\n%s", got, want)
	}
	empty := "(()\n (A m))\n"
	if got := Print(mustParse(t, empty)); got != empty {
		t.Errorf("Print of an empty class list = %q", got)
	}
}

func TestPrintExpr(t *testing.T) {
	p := mustParse(t, `(((class A ([A f]) ((bool m [bool x]
   (var A y := (new A) in
     (begin (y $ f := (if x null else y)) (x := (y = (y $ f))) (y @ m x)))))))
 (A m))`)
	got := PrintExpr(p.Classes[0].Methods[0].Body)
	want := "(var A y := (new A) in (begin (y $ f := (if x null else y)) (x := (y = (y $ f))) (y @ m x)))"
	if got != want {
		t.Errorf("PrintExpr = %s\nwant %s", got, want)
	}
	if got := PrintExpr(nil); got != "<nil>" {
		t.Errorf("PrintExpr(nil) = %q", got)
	}
}

// TestGeneratedPrograms: random well-typed programs print, parse back to
// the same tree and pass Check with every promised field filled in.
func TestGeneratedPrograms(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genProgram(t)
		out := Print(p)
		p2, err := Parse("gen.jl", []byte(out))
		if err != nil {
			t.Fatalf("printed program does not parse: %v\n%s", err, out)
		}
		if !sameTree(p, p2) {
			t.Fatalf("round trip changed the tree:\n%s", out)
		}
		if err := Check(p2); err != nil {
			t.Fatalf("generated program does not check: %v\n%s", err, out)
		}
		if msg := checkResolved(p2); msg != "" {
			t.Fatalf("%s\n%s", msg, out)
		}
		if again := Print(p2); again != out {
			t.Fatalf("Print not idempotent")
		}
	})
}
