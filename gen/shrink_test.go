package gen

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/javalite"
)

// The shrinking-quality measurement: a synthetic "bug" that generated
// programs hit often enough for rapid to find, and a check that rapid's
// shrinking reduces a failing program to a few printed lines. A real
// counterexample of the lockstep checker shrinks through the same draws.

// hasSyntheticBug is the synthetic property's failure: a begin writes a
// field through a variable, and a later expression of the begin compares a
// read of the same field through a different receiver, i.e. the situation
// in which a wrong alias treatment would show.
func hasSyntheticBug(p *javalite.Program) bool {
	bug := false
	for _, cl := range p.Classes {
		for _, m := range cl.Methods {
			javalite.Walk(m.Body, func(e javalite.Expr) {
				if bg, ok := e.(*javalite.Begin); ok && writeThenOtherRead(bg, true) {
					bug = true
				}
			})
		}
	}
	return bug
}

// quietTB is a rapid.TB that records the outcome instead of failing the
// test, so that a test can look at what rapid shrank a failure to.
type quietTB struct {
	name   string
	failed bool
	msg    string
}

func (q *quietTB) Helper()                        {}
func (q *quietTB) Name() string                   { return q.name }
func (q *quietTB) Logf(string, ...any)            {}
func (q *quietTB) Log(...any)                     {}
func (q *quietTB) Skipf(string, ...any)           {}
func (q *quietTB) Skip(...any)                    {}
func (q *quietTB) SkipNow()                       {}
func (q *quietTB) Errorf(format string, a ...any) { q.fail(fmt.Sprintf(format, a...)) }
func (q *quietTB) Error(a ...any)                 { q.fail(fmt.Sprint(a...)) }
func (q *quietTB) Fatalf(format string, a ...any) { q.fail(fmt.Sprintf(format, a...)) }
func (q *quietTB) Fatal(a ...any)                 { q.fail(fmt.Sprint(a...)) }
func (q *quietTB) FailNow()                       { q.failed = true }
func (q *quietTB) Fail()                          { q.failed = true }
func (q *quietTB) Failed() bool                   { return q.failed }
func (q *quietTB) fail(msg string)                { q.failed, q.msg = true, q.msg+msg }

var _ rapid.TB = (*quietTB)(nil)

// withRapidFlags sets rapid's command-line flags for the duration of f
// (rapid reads its seed and shrink budget only from them).
func withRapidFlags(t *testing.T, set map[string]string, f func()) {
	t.Helper()
	old := map[string]string{}
	for name, v := range set {
		fl := flag.Lookup(name)
		if fl == nil {
			t.Fatalf("rapid flag -%s not registered", name)
		}
		old[name] = fl.Value.String()
		if err := flag.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	defer func() {
		for name, v := range old {
			_ = flag.Set(name, v)
		}
	}()
	f()
}

// shrinkOnce runs rapid from seed on the synthetic property and returns the
// program rapid reports as the minimal failing case (nil when no failure
// was found within rapid's checks).
func shrinkOnce(t *testing.T, seed uint64) *javalite.Program {
	return shrinkWith(t, seed, hasSyntheticBug)
}

// shrinkWith runs rapid from seed on the property "not bug(p)" over
// Program() and returns the shrunk failing program (nil if none failed).
func shrinkWith(t *testing.T, seed uint64, bug func(*javalite.Program) bool) *javalite.Program {
	return shrinkWithCfg(t, seed, bug, Default)
}

// shrinkWithCfg is shrinkWith on the stream of cfg.
func shrinkWithCfg(t *testing.T, seed uint64, bug func(*javalite.Program) bool, cfg Config) *javalite.Program {
	var last *javalite.Program
	tb := &quietTB{name: fmt.Sprintf("TestShrinkSynthetic_seed%d", seed)}
	// rapid's 100 checks in either mode: under go test -short it runs a
	// fifth of rapid.checks, and some seeds then meet no failing program.
	checks := 100
	if testing.Short() {
		checks = 500
	}
	withRapidFlags(t, map[string]string{
		"rapid.seed":       strconv.FormatUint(seed, 10),
		"rapid.checks":     strconv.Itoa(checks),
		"rapid.nofailfile": "true",
		"rapid.shrinktime": "5s",
	}, func() {
		rapid.Check(tb, func(rt *rapid.T) {
			p := ProgramWith(cfg).Draw(rt, "program")
			if bug(p) {
				// rapid replays the minimal case last, so the last
				// failing program is the shrunk one.
				last = p
				rt.Fatalf("synthetic bug")
			}
		})
	})
	if !tb.failed {
		return nil
	}
	if !strings.Contains(tb.msg, "synthetic bug") {
		t.Fatalf("seed %d: rapid failed for another reason: %s", seed, tb.msg)
	}
	return last
}

// TestShrinkSynthetic checks that rapid shrinks failing programs of the
// synthetic property to at most 15 printed lines, and logs the median size
// (recorded in docs/TESTING.md, "gen: shrinking").
func TestShrinkSynthetic(t *testing.T) {
	seeds := 5
	if soak() {
		seeds = 40
	}
	var sizes []int
	var total time.Duration
	for i := range seeds {
		seed := uint64(1000 + i)
		start := time.Now()
		p := shrinkOnce(t, seed)
		total += time.Since(start)
		if p == nil {
			t.Errorf("seed %d: rapid found no program with the synthetic bug", seed)
			continue
		}
		if !hasSyntheticBug(p) {
			t.Fatalf("seed %d: the reported program does not have the bug:\n%s", seed, javalite.Print(p))
		}
		n := Lines(p)
		sizes = append(sizes, n)
		if n > 15 {
			t.Errorf("seed %d: shrunk to %d lines, want ≤ 15:\n%s", seed, n, javalite.Print(p))
		}
		if i == 0 || testing.Verbose() && soak() {
			t.Logf("seed %d shrinks to %d lines:\n%s", seed, n, javalite.Print(p))
		}
	}
	if len(sizes) == 0 {
		return
	}
	sort.Ints(sizes)
	t.Logf("shrunk sizes over %d seeds: min %d, median %d, max %d lines (%v in all)",
		len(sizes), sizes[0], sizes[len(sizes)/2], sizes[len(sizes)-1], total.Round(time.Millisecond))
	if path := os.Getenv("GEN_SHRINK_REPORT"); path != "" {
		// For docs/TESTING.md: the measured numbers, not retyped by hand.
		report := fmt.Sprintf("seeds=%d min=%d median=%d max=%d\n", len(sizes), sizes[0], sizes[len(sizes)/2], sizes[len(sizes)-1])
		if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// hasData reports whether p has any data: a primitive field, an int
// parameter or local, an integer literal, arithmetic, a comparison of
// ints, or an assume.
func hasData(p *javalite.Program) bool {
	data := false
	for _, cl := range p.Classes {
		if len(cl.PrimFields) > 0 {
			data = true
		}
		for _, m := range cl.Methods {
			for _, prm := range m.Params {
				if prm.T.Kind == javalite.KindInt {
					data = true
				}
			}
			javalite.Walk(m.Body, func(e javalite.Expr) {
				switch e := e.(type) {
				case *javalite.IntLit, *javalite.Binary, *javalite.Assume:
					data = true
				case *javalite.VarDecl:
					if e.DeclType.IsInt() {
						data = true
					}
				}
			})
		}
	}
	return data
}

// TestShrinkData: shrinking takes literals toward 0 and drops data. A
// failure that needs a literal ≥ 3 shrinks to the literal 3 (the zigzag
// draw 0, 1, -1, 2, -2, 3 puts it after every smaller magnitude); one that
// needs a comparison of two references shrinks to a program without data.
func TestShrinkData(t *testing.T) {
	bigLiteral := func(p *javalite.Program) bool {
		found := false
		for _, cl := range p.Classes {
			for _, m := range cl.Methods {
				javalite.Walk(m.Body, func(e javalite.Expr) {
					if l, ok := e.(*javalite.IntLit); ok && l.Val >= 3 {
						found = true
					}
				})
			}
		}
		return found
	}
	refEq := func(p *javalite.Program) bool {
		found := false
		for _, cl := range p.Classes {
			for _, m := range cl.Methods {
				javalite.Walk(m.Body, func(e javalite.Expr) {
					if eq, ok := e.(*javalite.Equals); ok && eq.Refs && !isNull(eq.L) && !isNull(eq.R) {
						found = true
					}
				})
			}
		}
		return found
	}
	for i := range 3 {
		seed := uint64(2000 + i)
		p := shrinkWithCfg(t, seed, bigLiteral, Default.WithData(DataMixed))
		require.NotNil(t, p, "seed %d: no program with a literal ≥ 3", seed)
		src := javalite.Print(p)
		require.Contains(t, src, " 3", "seed %d: the literal did not shrink to 3:\n%s", seed, src)
		require.NotContains(t, src, " 4", "seed %d: the literal did not shrink to 3:\n%s", seed, src)
		require.LessOrEqual(t, Lines(p), 8, "seed %d:\n%s", seed, src)

		p = shrinkWithCfg(t, seed, refEq, Default.WithData(DataMixed))
		require.NotNil(t, p, "seed %d: no program comparing two references", seed)
		require.False(t, hasData(p), "seed %d: data left after shrinking:\n%s", seed, javalite.Print(p))
		if i == 0 {
			t.Logf("seed %d shrinks to:\n%s", seed, javalite.Print(p))
		}
	}
	// hasData itself sees data.
	var withData int
	for _, p := range Programs(5, 50, Default.WithData(DataMixed)) {
		if hasData(p) {
			withData++
		}
	}
	require.Greater(t, withData, 25)
	for _, p := range Programs(5, 50, NoData) {
		require.False(t, hasData(p), javalite.Print(p))
	}
}
