package checker_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"

	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

// The examples below are the main entry points of lockstep as a library,
// each run by `go test` and compared with its `// Output:`.

// A four-line program on which the published Summarize rule is not exact
// (testdata/fixedbugs/published_L1.jl): the corrected variant `fixed`
// holds on it.
const published_L1 = `
(((class A ([A f] [A g])
    ((A main [bool x]
       (var A y := (this $ f) in
         (begin (y $ g := (new A)) true ((this $ g) $ g)))))))
 (A main))`

// Check one program under two rule variants and print the verdicts. In a
// Go test, checker.Check(t, p, opt) does the same and fails t unless the
// verdict is holds.
func ExampleRun() {
	p, err := javalite.ParseAndCheck("published_L1.jl", []byte(published_L1))
	if err != nil {
		fmt.Println(err) // file:line:col: reason
		return
	}
	solver, err := smt.NewSolver() // one solver per goroutine
	if err != nil {
		fmt.Println(err)
		return
	}
	defer solver.Close()
	for _, name := range []string{"published", "fixed"} {
		opt := checker.DefaultOptions()
		opt.Variant, _ = summary.Lookup(name)
		rep, err := checker.Run(context.Background(), p, opt, solver)
		if err != nil {
			fmt.Println(err) // the tool itself failed
			return
		}
		v := rep.Verdict
		if v.Status == checker.Violated {
			fmt.Printf("%s: %s %s at rule %s\n", name, v.Status, v.Lemma, v.Rule)
		} else {
			fmt.Printf("%s: %s\n", name, v.Status)
		}
	}
	// Output:
	// published: violated L1 at rule Summarize
	// fixed: holds
}

// A rapid property over generated programs: rapid draws well-typed
// programs from a generator, the property checks each in lockstep, and a
// violation is shrunk to a minimal program. In a Go test this is
//
//	rapid.Check(t, checker.Property(t, opt, nil))
//
// An example has no *testing.T, so this one reports to a small TB of its
// own (exampleTB, below).
func ExamplePropertyOf() {
	opt := checker.DefaultOptions()
	opt.Variant, _ = summary.Lookup("fixed")
	opt.K, opt.Steps = 1, 100 // small programs, shallow inputs: quick
	small := gen.Config{MinClasses: 1, MaxClasses: 1, MinEntryFields: 1, MaxFields: 2,
		MinMethods: 1, MaxMethods: 1, MaxDepth: 2, MaxBegin: 2, MaxPath: 2}

	t := &exampleTB{}
	defer t.cleanup()
	rapid.Check(t, checker.PropertyOf(t, opt, gen.ProgramWith(small), func(r *checker.Report) {
		fmt.Printf("counterexample:\n%s", r.Text(false)) // sees every failing run; the last is the shrunk one
	}))
	fmt.Println("failed:", t.Failed())
	// Output:
	// failed: false
}

// Run one engine alone: GSE, the reference, on the brief's LinkedList
// (testdata/programs/linkedlist_guarded.jl), printing the end of every
// path and its path condition. Under the Java readings (the default) a
// call on a null list throws at the call (rule Invoke′): those are the
// error ends after 9 and 32 steps.
func ExampleExplore() {
	p, err := javalite.LoadFile("../testdata/programs/linkedlist_guarded.jl")
	if err != nil {
		fmt.Println(err)
		return
	}
	const k, steps = 1, 60
	st, err := machine.Explore(context.Background(), machine.Initial(p), gse.New(k), steps,
		func(end *machine.State, kind machine.EndKind) bool {
			fmt.Printf("%s after %d steps, φ = %s\n", kind, end.Steps, end.PathCondition())
			return true // keep exploring
		})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d paths, complete: %v\n", st.Paths, st.Complete)
	// Output:
	// error after 9 steps, φ = r1 ≠ null
	// error after 9 steps, φ = r1 ≠ null
	// value after 26 steps, φ = (r1 ≠ null ∧ r3 ≠ null ∧ r6 = r9)
	// error after 32 steps, φ = (r1 ≠ null ∧ r3 ≠ null ∧ r6 ≠ r9)
	// cut after 60 steps, φ = (r1 ≠ null ∧ r12 ≠ null ∧ r3 ≠ null ∧ r6 ≠ r15 ∧ r6 ≠ r9)
	// value after 26 steps, φ = (r1 ≠ null ∧ r3 ≠ null ∧ r6 = r9)
	// 6 paths, complete: true
}

// Read a verdict from `lockstep check -json FILE...`, as a CI script
// would: the command prints one document whose "reports" are one
// checker.JSONReport per file (with "exit_code" beside them). Here a report
// is made the way the command makes each (rep.JSON()); the exit status
// says the same in short: 0 holds, 1 violated, 2 usage or input error.
func ExampleJSONReport() {
	p, _ := javalite.ParseAndCheck("published_L1.jl", []byte(published_L1))
	solver, err := smt.NewSolver()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer solver.Close()
	rep, err := checker.Run(context.Background(), p, checker.DefaultOptions(), solver) // variant published
	if err != nil {
		fmt.Println(err)
		return
	}
	var out bytes.Buffer // what `lockstep check -json published_L1.jl` prints
	if err := json.NewEncoder(&out).Encode(rep.JSON()); err != nil {
		fmt.Println(err)
		return
	}

	dec := json.NewDecoder(&out)
	for dec.More() {
		var r checker.JSONReport
		if err := dec.Decode(&r); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %s\n", r.File, r.Status)
		if r.Status == "violated" {
			fmt.Printf("lemma %s (%s)\nrule %s at step %d\ncounterexample of %d lines\n", r.Lemma, r.Claim, r.Rule, r.Step, r.Lines)
		}
	}
	// Output:
	// published_L1.jl: violated
	// lemma L1 (→S* is exact with respect to →I* (Summarize))
	// rule Summarize at step 14
	// counterexample of 5 lines
}

// exampleTB is what an example passes where a test passes its
// *testing.T: it satisfies both rapid.TB and checker.TB, records failure
// and runs the cleanups at the end.
type exampleTB struct {
	mu       sync.Mutex
	failed   bool
	cleanups []func()
}

func (t *exampleTB) Helper()               {}
func (t *exampleTB) Name() string          { return "example" }
func (t *exampleTB) Logf(string, ...any)   {}
func (t *exampleTB) Log(...any)            {}
func (t *exampleTB) Skipf(string, ...any)  {}
func (t *exampleTB) Skip(...any)           {}
func (t *exampleTB) SkipNow()              {}
func (t *exampleTB) Errorf(string, ...any) { t.Fail() }
func (t *exampleTB) Error(...any)          { t.Fail() }
func (t *exampleTB) Fatalf(string, ...any) { t.Fail() }
func (t *exampleTB) Fatal(...any)          { t.Fail() }
func (t *exampleTB) FailNow()              { t.Fail() }
func (t *exampleTB) Fail()                 { t.mu.Lock(); t.failed = true; t.mu.Unlock() }
func (t *exampleTB) Failed() bool          { t.mu.Lock(); defer t.mu.Unlock(); return t.failed }
func (t *exampleTB) Cleanup(f func())      { t.cleanups = append(t.cleanups, f) }
func (t *exampleTB) cleanup() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}

var (
	_ checker.TB = (*exampleTB)(nil)
	_ rapid.TB   = (*exampleTB)(nil)
)

// Replay the counterexamples kept in a directory, as a test of your own
// does with checker.Replay(t, dir): each case file (written by `lockstep
// check -gen -save DIR`, or kept in testdata/fixedbugs) records the engines
// it refutes, the lemma and rule they break, the bounds, and the engines on
// which it holds. Here one case is replayed by hand with ReplayCase, and a
// nil solver: Run makes one for each call.
func ExampleReplay() {
	src, err := os.ReadFile("../testdata/fixedbugs/published_V7_C12.jl")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := checker.ParseCase("published_V7_C12.jl", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	runs, err := checker.ReplayCase(context.Background(), c, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("expect %s %s at k = %d, %d steps\n", c.Lemma, c.Rule, c.K, c.Steps)
	for _, r := range runs {
		fmt.Printf("%s: want %s, got %s %s: ok %v\n", r.Engine, r.Want, r.Report.Verdict.Status, r.Report.Verdict.Lemma, r.OK(c))
	}
	// In a test of your own: func TestKept(t *testing.T) { checker.Replay(t, "testdata/lockstep") }

	// Output:
	// expect L1 Summarize at k = 3, 150 steps
	// summary:published: want violated, got violated L1: ok true
	// summary:v7-uninit-guard: want holds, got holds : ok true
	// summary:fixed: want holds, got holds : ok true
}
