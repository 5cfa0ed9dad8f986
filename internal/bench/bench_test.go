package bench

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// ends is a path count split by end kind: value, error, cut, stuck.
type endCounts [4]int64

func endsOf(r Result) endCounts { return endCounts{r.Value, r.Error, r.Cut, r.Stuck} }

// quickWant are the path counts of the quick suite, derived by running
// both engines (published variant) and checked by hand where small:
//
//   - LinkedList, one call, k-bound k: the list has at most k nodes. GSE
//     value paths are 3, 12, 35, 109 (every initialization choice of next
//     and data that ends the traversal); the 2 error paths are a null head
//     (the root is dereferenced without a test) and nothing else, because a
//     null next is tested before it is followed. The cut paths are the
//     cyclic lists (one per cyclic shape; checked: every cut heap has a
//     cycle). The summary engine has one value path per control flow:
//     found at node i (i = 1..k) or not found after node i, so 2k value
//     paths, 1 error path (null head) and 1 cut path (the may-cyclic
//     traversal), 2k+2 in all.
//   - swap: 2 summary paths (s null or not), as POSE's path-optimal count;
//     GSE 8 (s null, s = this, s fresh, times the choices for data).
//   - hasNull (max = 4): 21 GSE paths, POSE's lazy-initialization count
//     exactly, and 6 summary paths, POSE's path-optimal count exactly.
//   - sum: 1 summary value path, as POSE; plus 3 error paths for a null s0,
//     s1 or s2 (Java would throw; POSE counts these differently).
var quickWant = []struct {
	program string
	k       int
	calls   int
	gse, sh endCounts
}{
	{"LinkedList", 1, 1, endCounts{3, 2, 1, 0}, endCounts{2, 1, 1, 0}},
	{"LinkedList", 2, 1, endCounts{12, 2, 11, 0}, endCounts{4, 1, 1, 0}},
	{"LinkedList", 3, 1, endCounts{35, 2, 56, 0}, endCounts{6, 1, 1, 0}},
	{"LinkedList", 4, 1, endCounts{109, 2, 265, 0}, endCounts{8, 1, 1, 0}},
	{"LinkedList", 2, 1, endCounts{12, 2, 11, 0}, endCounts{4, 1, 1, 0}},
	{"LinkedList×2", 2, 2, endCounts{29, 2, 30, 0}, endCounts{9, 1, 3, 0}},
	{"LinkedList×3", 2, 3, endCounts{60, 2, 65, 0}, endCounts{18, 1, 7, 0}},
	{"swap", -1, 0, endCounts{8, 0, 0, 0}, endCounts{2, 0, 0, 0}},
	{"sum", -1, 0, endCounts{179, 41, 0, 0}, endCounts{1, 3, 0, 0}},
	{"hasNull", -1, 0, endCounts{21, 0, 0, 0}, endCounts{6, 0, 0, 0}},
	{"alias_two_fields", -1, 0, endCounts{5, 0, 0, 0}, endCounts{2, 0, 0, 0}},
	{"alias_write_read", -1, 0, endCounts{3, 3, 0, 0}, endCounts{2, 2, 0, 0}},
	{"selfref", -1, 0, endCounts{5, 1, 0, 0}, endCounts{2, 1, 0, 0}},
}

// testBudget is far above what any quick case needs: a run that still
// exceeds it makes the test inconclusive, which fails it rather than
// passing on lower-bound counts.
const testBudget = 2 * time.Minute

func TestQuickSuiteCounts(t *testing.T) {
	s := Quick()
	if len(s.Cases) != len(quickWant) {
		t.Fatalf("quick suite has %d cases, the expectations %d", len(s.Cases), len(quickWant))
	}
	rows, err := Run(context.Background(), s, Options{Root: "../..", Budget: testBudget, Steps: DefaultSteps})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		w := quickWant[i]
		name := r.Program + " k=" + KString(r.K)
		if r.Program != w.program || r.K != w.k || r.Calls != w.calls {
			t.Fatalf("case %d is %s (calls %d), want %s k=%s (calls %d)", i, name, r.Calls, w.program, KString(w.k), w.calls)
		}
		if r.GSE.Status != Done || r.Summary.Status != Done {
			t.Fatalf("%s: inconclusive: status gse %s, summary %s (budget %v)", name, r.GSE.Status, r.Summary.Status, testBudget)
		}
		if got := endsOf(r.GSE); got != w.gse {
			t.Errorf("%s: GSE value/error/cut/stuck = %v, want %v", name, got, w.gse)
		}
		if got := endsOf(r.Summary); got != w.sh {
			t.Errorf("%s: summary value/error/cut/stuck = %v, want %v", name, got, w.sh)
		}
		if r.Summary.Paths > r.GSE.Paths {
			t.Errorf("%s: summary paths %d > GSE paths %d", name, r.Summary.Paths, r.GSE.Paths)
		}
		for _, e := range []Result{r.GSE, r.Summary} {
			if e.Paths != e.Value+e.Error+e.Cut+e.Stuck {
				t.Errorf("%s: paths %d ≠ sum of end kinds %v", name, e.Paths, endsOf(e))
			}
			if e.MaxSteps >= r.Steps {
				t.Errorf("%s: a completed path has %d steps, bound %d", name, e.MaxSteps, r.Steps)
			}
		}
		if r.BoundTooSmall() {
			t.Errorf("%s: the step bound %d cut a path with an acyclic heap (GSE cut %d, cyclic %d; summary cut %d, may-cyclic %d)",
				name, r.Steps, r.GSE.Cut, r.GSE.CutCyclic, r.Summary.Cut, r.Summary.CutCyclic)
		}
		if r.Summary.Queries+r.Summary.Decided == 0 {
			t.Errorf("%s: the summary engine asked the solver nothing", name)
		}
	}
}

// TestStepBoundOnlyCutsCycles checks the claim the LinkedList bound rests
// on: once the bound exceeds the longest acyclic path, raising it changes
// no count, because every cut path is a walk round a cycle.
func TestStepBoundOnlyCutsCycles(t *testing.T) {
	p, err := javalite.LoadFile(filepath.Join("../..", linkedListFile(2)))
	if err != nil {
		t.Fatal(err)
	}
	tight, err := runGSE(context.Background(), p, 3, LinkedListSteps(3, 2), Options{Budget: testBudget})
	if err != nil {
		t.Fatal(err)
	}
	loose, err := runGSE(context.Background(), p, 3, 4*LinkedListSteps(3, 2), Options{Budget: testBudget})
	if err != nil {
		t.Fatal(err)
	}
	if tight.Status != Done || loose.Status != Done {
		t.Fatalf("inconclusive: %s, %s", tight.Status, loose.Status)
	}
	if endsOf(tight) != endsOf(loose) {
		t.Errorf("bound %d: %v, bound %d: %v; want equal", LinkedListSteps(3, 2), endsOf(tight), 4*LinkedListSteps(3, 2), endsOf(loose))
	}
	if tight.Cut == 0 || tight.CutCyclic != tight.Cut {
		t.Errorf("cut %d, of which cyclic %d: want all cut paths cyclic, and some", tight.Cut, tight.CutCyclic)
	}
}

func TestHasCycle(t *testing.T) {
	// selfref: next is null (no cycle; the second read is the error), this
	// (a self-loop), or a fresh node whose next is null, this, itself or
	// fresh: 6 paths, of which those with a loop back have a cycle.
	p, err := javalite.LoadFile("../../testdata/programs/selfref.jl")
	if err != nil {
		t.Fatal(err)
	}
	var cyclic, acyclic int
	_, err = machine.Explore(context.Background(), machine.Initial(p), gse.New(-1), 100, func(s *machine.State, _ machine.EndKind) bool {
		if hasCycle(s) {
			cyclic++
		} else {
			acyclic++
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if cyclic != 3 || acyclic != 3 {
		t.Errorf("selfref end heaps: %d cyclic, %d acyclic; want 3 and 3", cyclic, acyclic)
	}
}

// TestBudgetCutAndSkip runs a series with a budget no exploration can
// meet: the first case is cut, with lower-bound counts, and the later ones
// are marked skipped, not left out.
func TestBudgetCutAndSkip(t *testing.T) {
	s := Suite{Name: "t", Cases: linkedListK(SeriesLinkedListK, 1, 1, 3)}
	rows, err := Run(context.Background(), s, Options{Root: "../..", Budget: time.Nanosecond, Steps: DefaultSteps})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	if rows[0].GSE.Status != Budget || rows[0].Summary.Status != Budget {
		t.Errorf("k=1: status %s/%s, want cut/cut", rows[0].GSE.Status, rows[0].Summary.Status)
	}
	for _, r := range rows[1:] {
		if r.GSE.Status != Skipped || r.Summary.Status != Skipped {
			t.Errorf("k=%d: status %s/%s, want skipped/skipped", r.K, r.GSE.Status, r.Summary.Status)
		}
	}
	var b bytes.Buffer
	if err := WriteTable(&b, rows, time.Nanosecond); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "cut >1ns") || strings.Count(b.String(), "skipped") < 4 {
		t.Errorf("table does not show the cut and skipped rows:\n%s", b.String())
	}
}

func TestRunRejectsBadOptions(t *testing.T) {
	for _, o := range []Options{{Root: "../..", Steps: 10}, {Root: "../..", Budget: time.Second}} {
		if _, err := Run(context.Background(), Quick(), o); err == nil {
			t.Errorf("Run(%+v) succeeded, want an error", o)
		}
	}
	bad := Suite{Cases: []Case{{Program: "missing", File: "testdata/bench/no_such_file.jl", K: 1}}}
	if _, err := Run(context.Background(), bad, Options{Root: "../..", Budget: time.Second, Steps: 10}); err == nil {
		t.Error("a missing program file was not reported")
	}
}

func TestOutputsAndPlot(t *testing.T) {
	s := Suite{Name: "t", Cases: append(linkedListK(SeriesLinkedListK, 1, 1, 3), linkedListCalls(1, 2)...)}
	rows, err := Run(context.Background(), s, Options{Root: "../..", Budget: testBudget, Steps: DefaultSteps})
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, Report{Suite: "t", Rows: rows}); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Rows) != len(rows) || back.Rows[2].GSE.Paths != rows[2].GSE.Paths {
		t.Errorf("JSON round trip lost rows: %d rows", len(back.Rows))
	}
	var cb bytes.Buffer
	if err := WriteCSV(&cb, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cb).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(rows)+1 || recs[0][0] != "program" || recs[3][5] != "93" {
		t.Errorf("CSV: %d records, header %v, LinkedList k=3 GSE paths %q", len(recs), recs[0], recs[3][5])
	}
	dir := t.TempDir()
	if err := Plot(rows, dir); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, FigureName+".png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 800 || b.Dy() < 600 {
		t.Errorf("figure is %v, want at least 800×600", b)
	}
	svg, err := os.ReadFile(filepath.Join(dir, FigureName+".svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("summary")) {
		t.Error("the SVG figure has no svg element or no summary legend")
	}
	growth, err := os.ReadFile(filepath.Join(dir, GrowthName+".svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(growth, []byte("summary checks")) || !bytes.Contains(growth, []byte("GSE states")) {
		t.Error("the growth figure lacks the work lines")
	}
	if _, err := os.Stat(filepath.Join(dir, GrowthName+".png")); err != nil {
		t.Error(err)
	}
	if err := Plot(nil, dir); err == nil {
		t.Error("Plot with no rows succeeded")
	}
}

func TestFindRoot(t *testing.T) {
	root, err := FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Errorf("root %s has no go.mod", root)
	}
	if _, err := FindRoot(t.TempDir()); err == nil {
		t.Error("FindRoot found a root above a temporary directory")
	}
}
