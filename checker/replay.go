package checker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Failures are kept and replayed the way Go's fuzzing keeps its failing
// inputs under testdata/fuzz and re-runs them in every `go test`: `lockstep
// check -gen -save DIR` writes each shrunk counterexample as a case file
// (Counterexample.CaseFile: the program with the header of
// testdata/fixedbugs, Case), and Replay runs a directory of them as
// subtests of a user's test, each asserting the verdict it records.

// CaseFile is the counterexample as a regression case: comment lines that
// say where it was found (cmdline, the program's index and seed in the
// stream), the header Case reads, and the shrunk program.
func (cx *Counterexample) CaseFile(opt Options, cmdline string) []byte {
	v := cx.Shrunk.Verdict
	c := &Case{Refutes: []string{opt.EngineSpec()}, Lemma: v.Lemma, Rule: v.Rule, K: opt.K, Steps: opt.Steps, Semantics: opt.SemanticsName()}
	var b bytes.Buffer
	fmt.Fprintf(&b, "; Counterexample: %s, %s.\n", v.Lemma, Claim[v.Lemma])
	if cmdline != "" {
		fmt.Fprintf(&b, "; Found by `%s`:", cmdline)
	} else {
		b.WriteString("; Found:")
	}
	fmt.Fprintf(&b, " program %d of the stream (program seed %d), %d lines", cx.Index, cx.Seed, Lines(cx.Found.Program))
	if cx.IsShrunk {
		fmt.Fprintf(&b, ", shrunk to %d.\n", Lines(cx.Shrunk.Program))
	} else {
		b.WriteString(", not shrunk.\n")
	}
	fmt.Fprintf(&b, "; Reason: %s\n", strings.ReplaceAll(v.Reason, "\n", " "))
	b.WriteString(c.Header())
	b.WriteString("\n")
	b.WriteString(javalite.Print(cx.Shrunk.Program))
	return b.Bytes()
}

// CaseRun is the verdict of one engine named by a case on the case's
// program, and what the case expects of it.
type CaseRun struct {
	Engine string // NAME:VARIANT (a bare name in the file is a summary variant)
	Want   Status // Violated for the case's `variant:` list, Holds for `holds:`
	Report *Report
}

// OK reports whether the run gave the recorded verdict: the lemma and rule
// of the case for a refuted variant, every lemma holding for the others.
// An inconclusive run is never OK: a case that cannot be decided proves
// nothing.
func (r CaseRun) OK(c *Case) bool {
	v := r.Report.Verdict
	if r.Want == Holds {
		return v.Status == Holds
	}
	return v.Status == Violated && v.Lemma == c.Lemma && (c.Rule == "" || v.Rule == c.Rule)
}

// ReplayOptions are the caller's choices for replaying cases.
type ReplayOptions struct {
	// AllowExec lets a case name an engine that runs as a process
	// ("exec:COMMAND", engine.Outside). A case file is data: without this
	// opt-in, a header naming such an engine is refused before anything
	// is started, so that a file added to a case directory (a pull
	// request to testdata/fixedbugs) never runs a command.
	AllowExec bool
}

// ErrCaseExec refuses a case that names an engine run as a process
// without ReplayOptions.AllowExec.
var ErrCaseExec = errors.New("names an engine that runs a command (exec:); a case file is data and starts no process unless the caller allows it (ReplayOptions.AllowExec, lockstep check -allow-exec)")

// CaseSpec is the engine spec of a name in a case header: a bare name is
// a summary variant (the cases the project began with), any other engine
// is named NAME:VARIANT.
func CaseSpec(name string) string {
	if !strings.Contains(name, ":") {
		return "summary:" + name
	}
	return name
}

// CheckCaseEngines refuses a case any of whose engines runs as a process,
// unless ro allows it. It starts nothing.
func CheckCaseEngines(c *Case, ro ReplayOptions) error {
	if ro.AllowExec {
		return nil
	}
	for _, name := range append(slices.Clone(c.Refutes), c.Holds...) {
		if engine.Outside(CaseSpec(name)) {
			return fmt.Errorf("%s: %q %w", c.File, name, ErrCaseExec)
		}
	}
	return nil
}

// ReplayCase runs every engine the case names on its program with the
// case's k, step bound and semantics. solver may be nil (Run then makes
// one). A case naming an engine that runs as a process is refused
// (ReplayCaseWith allows it).
func ReplayCase(ctx context.Context, c *Case, solver *smt.Solver) ([]CaseRun, error) {
	return ReplayCaseWith(ctx, c, solver, ReplayOptions{})
}

// ReplayCaseWith is ReplayCase with the caller's ReplayOptions.
func ReplayCaseWith(ctx context.Context, c *Case, solver *smt.Solver, ro ReplayOptions) ([]CaseRun, error) {
	if err := CheckCaseEngines(c, ro); err != nil {
		return nil, err
	}
	sem, err := machine.ParseSemantics(c.Semantics)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.File, err)
	}
	var out []CaseRun
	run := func(name string, want Status) error {
		spec := CaseSpec(name)
		if _, _, err := engine.Lookup(spec); err != nil {
			return fmt.Errorf("%s: %w", c.File, err)
		}
		opt := DefaultOptions()
		opt.Engine, opt.Semantics, opt.K, opt.Steps = spec, sem, c.K, c.Steps
		rep, err := Run(ctx, c.Program, opt, solver)
		if err != nil {
			return fmt.Errorf("%s on %s: %w", c.File, spec, err)
		}
		out = append(out, CaseRun{Engine: spec, Want: want, Report: rep})
		return nil
	}
	for _, name := range c.Refutes {
		if err := run(name, Violated); err != nil {
			return out, err
		}
	}
	for _, name := range c.Holds {
		if err := run(name, Holds); err != nil {
			return out, err
		}
	}
	return out, nil
}

// ReadCases reads every case file (*.jl) of dir, in name order.
func ReadCases(dir string) ([]*Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []*Case
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		c, err := ParseCase(f, src)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Replay runs every case file of dir (the *.jl files written by `lockstep
// check -gen -save DIR` or kept in testdata/fixedbugs) as a subtest of t
// named after the file: each engine the case refutes must still break the
// recorded lemma (and rule), and each it lists under `holds:` must hold.
// An inconclusive run fails the subtest, and so does a directory without
// cases (a path typo would otherwise pass).
//
//	func TestSavedCounterexamples(t *testing.T) { checker.Replay(t, "testdata/lockstep") }
//
// A case naming an engine that runs as a process (exec:) fails its
// subtest without starting anything; ReplayWith allows it.
func Replay(t *testing.T, dir string) {
	t.Helper()
	ReplayWith(t, dir, ReplayOptions{})
}

// ReplayWith is Replay with the caller's ReplayOptions.
func ReplayWith(t *testing.T, dir string, ro ReplayOptions) {
	t.Helper()
	cases, err := ReadCases(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("no case files (*.jl) in %s", dir)
	}
	solver, err := smt.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer solver.Close()
	for _, c := range cases {
		t.Run(filepath.Base(c.File), func(t *testing.T) {
			runs, err := ReplayCaseWith(t.Context(), c, solver, ro)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range runs {
				if !r.OK(c) {
					want := "every lemma to hold"
					if r.Want == Violated {
						want = fmt.Sprintf("%s violated (%s)", c.Lemma, ruleOrNone(c.Rule))
					}
					t.Errorf("%s: want %s, got:\n%s", r.Engine, want, r.Report.Text(false))
				}
			}
		})
	}
}
