package machine_test

import (
	"context"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

// The read initializes this.next (a GSE branch creates input location l1),
// the first write points it at a (new Node) location, the second at null:
// at the end l1 is unreachable but still drawn (it is an input location),
// while the (new Node) location and the references that held it are not.
const dotProg = `
(((class Node ([Node next])
   ((bool m [bool u]
      (var Node x := (this $ next) in
        (begin (this $ next := (new Node))
               (this $ next := null)
               (x = x)))))))
 (Node m))`

func dotParse(t *testing.T) *javalite.Program {
	t.Helper()
	p, err := javalite.ParseAndCheck("dot.jl", []byte(dotProg))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// atCompare returns, for every path, the state about to evaluate (x = x):
// both writes are done and x is still bound.
func atCompare(t *testing.T, p *javalite.Program, eng machine.Engine) []*machine.State {
	t.Helper()
	var out []*machine.State
	work := []*machine.State{machine.Initial(p)}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if _, ok := s.Expr.(*javalite.Equals); ok && s.Mode == machine.ModeExpr {
			out = append(out, s)
			continue
		}
		if s.Terminal() {
			t.Fatalf("path ended before (x = x): %s", s.ControlString())
		}
		succ, err := machine.Step(s, eng, eng.Options())
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range succ {
			work = append(work, x.S)
		}
	}
	return out
}

var nodeLine = regexp.MustCompile(`(?m)^  (\w+) \[(shape=\w+)`)

// nodes maps DOT node IDs to their shapes.
func nodes(dot string) map[string]string {
	m := map[string]string{}
	for _, x := range nodeLine.FindAllStringSubmatch(dot, -1) {
		m[x[1]] = x[2]
	}
	return m
}

func TestDOTGSEReachability(t *testing.T) {
	p := dotParse(t)
	var withNew *machine.State
	for _, s := range atCompare(t, p, gse.New(1)) {
		if len(s.Locs) == 3 { // l0, the input l1, the (new Node) l2
			withNew = s
		}
	}
	if withNew == nil {
		t.Fatal("no GSE path created the input location l1")
	}
	dot := machine.DOT(withNew, "gse")
	n := nodes(dot)
	if n["l0"] != "shape=box" || n["l1"] != "shape=box" {
		t.Errorf("input locations l0, l1 not drawn as boxes:\n%s", dot)
	}
	if _, ok := n["l2"]; ok {
		t.Errorf("the unreachable (new Node) location l2 is drawn:\n%s", dot)
	}
	// References are circles; the first write's fresh reference f2 is no
	// longer reachable from anything drawn.
	if n["r0"] != "shape=circle" {
		t.Errorf("this's reference s0 is not a circle:\n%s", dot)
	}
	if _, ok := n["r2"]; ok {
		t.Errorf("unreachable reference f2 drawn:\n%s", dot)
	}
	// Stack variables by name, e's value, field labels, no "true" guards.
	for _, want := range []string{`label="this"`, `label="x"`, `label="next"`, `label="u = true"`, `e = (x = x)`} {
		if !strings.Contains(dot, want) {
			t.Errorf("missing %s in:\n%s", want, dot)
		}
	}
	if strings.Contains(dot, `label="true"`) {
		t.Errorf("a true guard is printed:\n%s", dot)
	}
	renders(t, dot)
}

// At the end x is out of scope: the input location l1 is reachable from no
// root but still drawn, the (new Node) location l2 is not.
func TestDOTUnreachableInputLocation(t *testing.T) {
	p := dotParse(t)
	var last *machine.State
	_, err := machine.Explore(context.Background(), machine.Initial(p), gse.New(1), 200, func(s *machine.State, _ machine.EndKind) bool {
		if len(s.Locs) == 3 {
			last = s
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if last == nil {
		t.Fatal("no GSE path created the input location l1")
	}
	for _, r := range last.Roots() {
		for _, e := range last.Get(r) {
			if e.Loc == 1 {
				t.Fatal("l1 is still reachable from a root; the test needs it unreachable")
			}
		}
	}
	dot := machine.DOT(last, "end")
	n := nodes(dot)
	if n["l1"] != "shape=box" {
		t.Errorf("unreachable input location l1 not drawn:\n%s", dot)
	}
	if _, ok := n["l2"]; ok {
		t.Errorf("unreachable (new Node) location l2 drawn:\n%s", dot)
	}
	if !strings.Contains(dot, `label="e = true"`) {
		t.Errorf("the value of e is not drawn:\n%s", dot)
	}
	renders(t, dot)
}

func TestDOTSummaryGuards(t *testing.T) {
	p := dotParse(t)
	sol, err := smt.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	v, _ := summary.Lookup("published")
	fs := atCompare(t, p, summary.New(v, 1, sol))
	if len(fs) != 1 {
		t.Fatalf("%d summary paths, want 1", len(fs))
	}
	s := fs[0]
	dot := machine.DOT(s, "summary")
	// x holds the read's three guarded locations: each guard is an edge
	// label printed with the machine's reference names.
	x := s.Env[2].Ref()
	for _, e := range s.Get(x) {
		label := strings.ReplaceAll(machine.FormulaString(e.Guard), "\n", `\n`)
		if !strings.Contains(dot, label) {
			t.Errorf("guard %q of L(x) not drawn:\n%s", label, dot)
		}
	}
	if len(s.Get(x)) != 3 {
		t.Errorf("L(x) has %d entries, want null, new and alias", len(s.Get(x)))
	}
	if !strings.Contains(dot, `label="l_null"`) || !strings.Contains(dot, "i4 = null") {
		t.Errorf("null entry missing:\n%s", dot)
	}
	if !strings.Contains(dot, "exists if") {
		t.Errorf("the existence guard of l1 is not shown:\n%s", dot)
	}
	renders(t, dot)
}

func TestFormulaString(t *testing.T) {
	f := smt.And(smt.Neq(4, smt.Null), smt.Or(smt.Eq(4, 1), smt.Eq(7, smt.Null)))
	got := machine.FormulaString(f)
	for _, want := range []string{"i4 ≠ null", "i4 = i1", "i7 = null", "("} {
		if !strings.Contains(got, want) {
			t.Errorf("FormulaString = %q, missing %q", got, want)
		}
	}
}

// renders checks that Graphviz accepts the text, when it is installed.
func renders(t *testing.T, dot string) {
	t.Helper()
	if _, err := exec.LookPath("dot"); err != nil {
		t.Log("graphviz not installed: DOT syntax not checked by dot")
		return
	}
	cmd := exec.Command("dot", "-Tsvg")
	cmd.Stdin = strings.NewReader(dot)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "<svg") {
		t.Errorf("dot rejected the graph: %v\n%s\n%s", err, out, dot)
	}
}

// A state with data: primitive fields hold terms over the initial-value
// symbols, e is a term, and φ has data atoms beside the reference ones.
// The picture must show all of them, the way `lockstep run -paths` prints
// them (with the fields named), not an empty "key = " or "φ = … ∧  ∧".
const dotDataProg = `
(((class Node ([int key] [bool seen] [Node next])
   ((int m [int x]
      (begin (assume (0 < (this $ key)))
             (if ((this $ key) < 5)
                 (this $ key := ((this $ key) + 1))
              else (this $ key := 7))
             (this $ seen := ((this $ key) < 3))
             (this $ key))))))
 (Node m))`

func TestDOTData(t *testing.T) {
	p, err := javalite.ParseAndCheck("dotdata.jl", []byte(dotDataProg))
	if err != nil {
		t.Fatal(err)
	}
	sol, err := smt.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	fixed, err := summary.Lookup("fixed")
	if err != nil {
		t.Fatal(err)
	}
	for _, eng := range []machine.Engine{gse.New(1), summary.New(fixed, 1, sol)} {
		var first *machine.State
		_, err = machine.Explore(context.Background(), machine.Initial(p), eng, 200, func(s *machine.State, _ machine.EndKind) bool {
			if first == nil {
				first = s
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		dot := machine.DOT(first, eng.Name())
		for _, want := range []string{
			`key = (α(i1.key) + 1)`,             // a primitive field's term
			`seen = ((α(i1.key) + 1) < 3)`,      // a bool field's term
			`e = (α(i1.key) + 1)`,               // the result
			`(0 < α(i1.key)) ∧ (α(i1.key) < 5)`, // φ's data atoms
			`φ = i1 ≠ null ∧`,                   // and its reference atom
		} {
			if !strings.Contains(dot, want) {
				t.Errorf("%s: the picture lacks %q:\n%s", eng.Name(), want, dot)
			}
		}
		for _, bad := range []string{`= \n`, `= "`, `∧  ∧`, `∧ \l`} {
			if strings.Contains(dot, bad) {
				t.Errorf("%s: the picture has an empty term (%q):\n%s", eng.Name(), bad, dot)
			}
		}
	}
}
