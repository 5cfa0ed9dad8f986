package summary

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// References of the walks below. The counters start at s0, i1, f2 and step
// by 3 (RULES.md §2): r_in0 = i1, the first Summarize's r_f = i4, the next
// i7, i10; `this` is s0 and the first field read's result s3.
const (
	i1, i4, i7, i10 machine.Ref = 1, 4, 7, 10
	s0, s3, s6, s9  machine.Ref = 0, 3, 6, 9
)

// The shared test helpers, under the names these tests use.
var (
	newSolver = testutil.Solver
	parse     = testutil.Parse
)

func lookup(t *testing.T, name string) Variant {
	t.Helper()
	v, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// atHeapRule reports whether the redex of s is a heap rule (A/A′, W/W′,
// E/E′): those are the steps the tests look at.
func atHeapRule(s *machine.State) bool {
	if s.Mode != machine.ModeValue || s.K == nil {
		return false
	}
	switch s.K.Kind {
	case machine.KField, machine.KWrite:
		return true
	case machine.KEqR:
		return s.Val.IsRef()
	}
	return false
}

// toHeapRule applies common rules (each with exactly one successor) until
// the redex of s is a heap rule, and returns that state.
func toHeapRule(t *testing.T, s *machine.State, eng machine.Engine) *machine.State {
	t.Helper()
	for !atHeapRule(s) {
		if s.Terminal() {
			t.Fatalf("reached a terminal state before a heap rule: %s", s.ControlString())
		}
		succ, err := machine.Step(s, eng, eng.Options())
		if err != nil {
			t.Fatalf("step: %v", err)
		}
		if len(succ) != 1 {
			t.Fatalf("common rule gave %d successors", len(succ))
		}
		s = succ[0].S
	}
	return s
}

// heapStep runs to the next heap rule and applies it, checking the rules
// of the successors.
func heapStep(t *testing.T, s *machine.State, eng machine.Engine, rules ...string) []machine.Succ {
	t.Helper()
	s = toHeapRule(t, s, eng)
	succ, err := machine.Step(s, eng, eng.Options())
	if err != nil {
		t.Fatalf("heap step: %v", err)
	}
	var got []string
	for _, x := range succ {
		got = append(got, x.Rule)
	}
	if strings.Join(got, "|") != strings.Join(rules, "|") {
		t.Fatalf("heap step gave rules %q, want %q", got, rules)
	}
	return succ
}

// valid reports whether f holds in every world, asking the solver.
func valid(t *testing.T, sol *smt.Solver, f *smt.Formula) bool {
	t.Helper()
	sat, err := sol.Sat(smt.Not(f))
	if err != nil {
		t.Fatalf("solver: %v", err)
	}
	return !sat
}

func sat(t *testing.T, sol *smt.Solver, fs ...*smt.Formula) bool {
	t.Helper()
	ok, err := sol.Sat(smt.And(fs...))
	if err != nil {
		t.Fatalf("solver: %v", err)
	}
	return ok
}

func iff(a, b *smt.Formula) *smt.Formula {
	return smt.And(smt.Implies(a, b), smt.Implies(b, a))
}

// assertEquiv checks φ ⇒ (got ⇔ want) semantically.
func assertEquiv(t *testing.T, sol *smt.Solver, what string, phi, got, want *smt.Formula) {
	t.Helper()
	if !valid(t, sol, smt.Implies(phi, iff(got, want))) {
		t.Errorf("%s: guard %v is not equivalent to %v under %v", what, got, want, phi)
	}
}

// assertGVS compares a guarded value set with one built by hand: every
// location's guard must be equivalent under phi, a missing entry counting
// as the guard false (pruning may drop an entry unsatisfiable with phi).
func assertGVS(t *testing.T, sol *smt.Solver, what string, phi *smt.Formula, got machine.GVS, want map[machine.Loc]*smt.Formula) {
	t.Helper()
	seen := map[machine.Loc]bool{}
	for _, e := range got {
		if seen[e.Loc] {
			t.Errorf("%s: location %v appears twice in %v", what, e.Loc, gvsString(got))
		}
		seen[e.Loc] = true
	}
	locs := map[machine.Loc]bool{}
	for l := range want {
		locs[l] = true
	}
	for l := range seen {
		locs[l] = true
	}
	guard := func(g machine.GVS, l machine.Loc) *smt.Formula {
		for _, e := range g {
			if e.Loc == l {
				return e.Guard
			}
		}
		return smt.False()
	}
	for l := range locs {
		w := want[l]
		if w == nil {
			w = smt.False()
		}
		g := guard(got, l)
		if !valid(t, sol, smt.Implies(phi, iff(g, w))) {
			t.Errorf("%s: location %v: got guard %v, want %v (under %v)", what, l, g, w, phi)
		}
	}
}

func gvsString(g machine.GVS) string {
	var parts []string
	for _, e := range g {
		parts = append(parts, fmt.Sprintf("(%v %v)", e.Guard, e.Loc))
	}
	sort.Strings(parts)
	return "{" + strings.Join(parts, " ") + "}"
}

var (
	eq  = smt.Eq
	neq = smt.Neq
	and = smt.And
	or  = smt.Or
	not = smt.Not
)

const null = machine.RNull
