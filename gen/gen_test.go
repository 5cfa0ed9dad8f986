package gen

import (
	"os"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/javalite"
)

// soak reports whether deep runs were asked for.
func soak() bool { return os.Getenv("LOCKSTEP_SOAK") == "1" }

// checkRoundTrip asserts what every generated program must satisfy: it
// checks, and its canonical text parses and checks back to the same text
// and the same number of expressions.
func checkRoundTrip(t interface {
	Helper()
	Fatalf(string, ...any)
}, p *javalite.Program) {
	t.Helper()
	if err := javalite.Check(p); err != nil {
		t.Fatalf("generated program does not check: %v\n%s", err, javalite.Print(p))
	}
	src := javalite.Print(p)
	q, err := javalite.ParseAndCheck("gen.jl", []byte(src))
	if err != nil {
		t.Fatalf("printed program does not parse and check: %v\n%s", err, src)
	}
	if again := javalite.Print(q); again != src {
		t.Fatalf("round trip changed the text:\n%s\nbecame\n%s", src, again)
	}
	if q.NumExpr != p.NumExpr || len(q.Fields) != len(p.Fields) {
		t.Fatalf("round trip changed the tree: %d→%d expressions, %d→%d fields\n%s",
			p.NumExpr, q.NumExpr, len(p.Fields), len(q.Fields), src)
	}
	if p.Entry == nil || p.Entry.Owner.Name != p.EntryClass {
		t.Fatalf("entry not resolved\n%s", src)
	}
}

func TestProgramChecksAndRoundTrips(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := Program().Draw(t, "program")
		checkRoundTrip(t, p)
	})
}

// TestProgramWithAnyConfig draws the config too, including values out of
// range, which ProgramWith clamps.
func TestProgramWithAnyConfig(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := Config{
			MinClasses:     rapid.IntRange(-1, 4).Draw(t, "minClasses"),
			MaxClasses:     rapid.IntRange(-1, 4).Draw(t, "maxClasses"),
			MinEntryFields: rapid.IntRange(-1, 5).Draw(t, "minEntryFields"),
			MaxFields:      rapid.IntRange(-1, 5).Draw(t, "maxFields"),
			MinMethods:     rapid.IntRange(-1, 3).Draw(t, "minMethods"),
			MaxMethods:     rapid.IntRange(-1, 4).Draw(t, "maxMethods"),
			MaxDepth:       rapid.IntRange(-1, 4).Draw(t, "maxDepth"),
			MaxBegin:       rapid.IntRange(-1, 4).Draw(t, "maxBegin"),
			MaxPath:        rapid.IntRange(-1, 3).Draw(t, "maxPath"),
			Data:           DataMode(rapid.IntRange(-1, 2).Draw(t, "data")),
		}
		p := ProgramWith(cfg).Draw(t, "program")
		checkRoundTrip(t, p)
		c := cfg.clamp()
		if err := c.Validate(); err != nil {
			t.Fatalf("clamped config %+v invalid: %v", c, err)
		}
		if n := len(p.Classes); n > c.MaxClasses {
			t.Fatalf("%d classes, MaxClasses %d", n, c.MaxClasses)
		}
		for _, cl := range p.Classes {
			if len(cl.Fields) > c.MaxFields || len(cl.Methods) > c.MaxMethods {
				t.Fatalf("class %s has %d fields, %d methods; config %+v", cl.Name, len(cl.Fields), len(cl.Methods), c)
			}
		}
	})
}

func TestSourceParses(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := Source().Draw(t, "source")
		if _, err := javalite.ParseAndCheck("gen.jl", []byte(src)); err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
	})
}

func TestValidate(t *testing.T) {
	if err := Default.Validate(); err != nil {
		t.Fatalf("Default: %v", err)
	}
	if err := NoData.Validate(); err != nil {
		t.Fatalf("NoData: %v", err)
	}
	for _, s := range []string{"none", "mixed"} {
		d, err := ParseDataMode(s)
		if err != nil || d.String() != s {
			t.Fatalf("ParseDataMode(%q) = %v, %v", s, d, err)
		}
	}
	if _, err := ParseDataMode("some"); err == nil {
		t.Fatalf("ParseDataMode accepted some")
	}
	bad := []Config{
		{},
		{MinClasses: 2, MaxClasses: 1, MinMethods: 1, MaxMethods: 1, MaxPath: 1},
		{MinClasses: 1, MaxClasses: 4, MinMethods: 1, MaxMethods: 1, MaxPath: 1},
		{MinClasses: 1, MaxClasses: 1, MinEntryFields: 2, MaxFields: 1, MinMethods: 1, MaxMethods: 1, MaxPath: 1},
		{MinClasses: 1, MaxClasses: 1, MinMethods: 0, MaxMethods: 1, MaxPath: 1},
		{MinClasses: 1, MaxClasses: 1, MinMethods: 1, MaxMethods: 1, MaxPath: 0},
		{MinClasses: 1, MaxClasses: 1, MinMethods: 1, MaxMethods: 1, MaxPath: 1, MaxDepth: -1},
		{MinClasses: 1, MaxClasses: 1, MinMethods: 1, MaxMethods: 1, MaxPath: 1, Data: 7},
	}
	for _, c := range bad {
		if err := c.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil, want an error", c)
		} else if !strings.HasPrefix(err.Error(), "gen: ") {
			t.Errorf("Validate(%+v) = %q, want a gen: message", c, err)
		}
		if err := c.clamp().Validate(); err != nil {
			t.Errorf("clamp(%+v) still invalid: %v", c, err)
		}
	}
}

func TestProgramsDeterministic(t *testing.T) {
	texts := func(ps []*javalite.Program) []string {
		var out []string
		for _, p := range ps {
			out = append(out, javalite.Print(p))
		}
		return out
	}
	a := texts(Programs(42, 20, Default))
	b := texts(Programs(42, 20, Default))
	short := texts(Programs(42, 5, Default))
	other := texts(Programs(43, 20, Default))
	if len(a) != 20 {
		t.Fatalf("Programs(42, 20) returned %d programs", len(a))
	}
	distinct := map[string]bool{}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("program %d differs between two runs with the same seed:\n%s\n%s", i, a[i], b[i])
		}
		if i < len(short) && a[i] != short[i] {
			t.Fatalf("program %d differs between batches of 20 and 5", i)
		}
		distinct[a[i]] = true
	}
	if len(distinct) < 10 {
		t.Fatalf("only %d distinct programs among 20", len(distinct))
	}
	same := 0
	for i := range a {
		if a[i] == other[i] {
			same++
		}
	}
	if same > 5 {
		t.Fatalf("seeds 42 and 43 share %d of 20 programs", same)
	}
	if n := len(Programs(1, 0, Default)) + len(Programs(1, -3, Default)); n != 0 {
		t.Fatalf("Programs with n ≤ 0 returned %d programs", n)
	}
	for _, p := range Programs(7, 50, Default) {
		checkRoundTrip(t, p)
	}
}

func TestLines(t *testing.T) {
	src := "(((class A ([A f])\n    ((bool main [bool x]\n       ((this $ f) = null)))))\n (A main))\n"
	p, err := javalite.ParseAndCheck("t.jl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if javalite.Print(p) != src {
		t.Fatalf("test program not canonical:\n%s", javalite.Print(p))
	}
	if n := Lines(p); n != 4 {
		t.Fatalf("Lines = %d, want 4", n)
	}
}

// TestSmallestProgram pins the program that all-zero draws give: what
// rapid's shrinking converges to when nothing else is needed to fail.
func TestSmallestProgram(t *testing.T) {
	var got string
	rapid.MakeFuzz(func(t *rapid.T) {
		got = javalite.Print(Program().Draw(t, "program"))
	})(t, make([]byte, 1<<14))
	want := "(((class A ()\n    ((bool main [bool x]\n       (this = null)))))\n (A main))\n"
	if got != want {
		t.Fatalf("all-zero draws give\n%s\nwant\n%s", got, want)
	}
}
