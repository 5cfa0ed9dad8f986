package gse_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// semanticsCase is a program of testdata/semantics with its GSE ends at
// k = 2 under the two common-rule semantics, derived by hand (the comments
// of TestSemanticsByHand). An end is "error", "cut" or the value.
type semanticsCase struct {
	file        string
	java, paper string // the sorted ends, joined by spaces
}

// TestSemanticsByHand: GSE ends at k = 2 under Java and paper semantics
// (RULES.md §3, V10 and V11). "f: a | b" lists the initialization choices
// of a read of field f (RULES.md §5): null, new (depth ≤ k), one alias per
// input location of the class (ρ taken before the new location).
//
// null_call: main = (this.f @ id x), x = true.
//
//	f: null | new l1 | alias l0. Java: null → Invoke′ error; l1, l0 → true.
//	Paper: the call on null proceeds; id returns x: three times true.
//
// null_call_alias: y := this.f; y.g := null; (this.g @ id x).
//
//	f null: y null, the write is W′: error (both semantics).
//	f new l1: l1.g := null; this.g (l0.g, uninitialized): null | new l2
//	  | alias l0 | alias l1. Java: null → Invoke′ error, the others true.
//	f alias l0: y is this; l0.g := null; this.g is that null: Java
//	  Invoke′ error; paper true.
//	Java: 3 errors, 3 true. Paper: 1 error, 5 true.
//
// null_call_in_var: r := false; {y := this.f; r := true; (y @ id x)}; r.
//
//	f: null | new l1 | alias l0. Java: null → error inside the block
//	(Invoke′); l1, l0: the call gives true, Pop var restores only y, r
//	stays true → true. Paper: every call proceeds, Pop restores r = false
//	→ three times false.
//
// null_call_chain: ((this.f).f @ id x).
//
//	f: null → A′ error (a dereference, not a call) | alias l0: l0.f is
//	l0 → true | new l1: l1.f: null | new l2 | alias l0 | alias l1. Java:
//	l1.f null → Invoke′ error. Java: 2 errors, 4 true. Paper: 1 error,
//	5 true.
//
// var_assign: {var y := true in (x := false)}; x, x = true on entry.
// Java: false (kept). Paper: true (Pop restores x). One path, no heap.
//
// var_shadow: y := false; {z := true; {y' := z; y' := false; x := false;
// z}}; (y = x). The inner y' shadows y (another slot). Java: y false, x
// false → true. Paper: x restored to true → (false = true) = false.
//
// var_assign_ref: r := this; {y := this.f; r := y}; (r = this).
//
//	f: null | new l1 | alias l0. Java: r is this.f: false, false, true.
//	Paper: r restored to this: true three times.
//
// var_nested_assign: a := true; {b := a; {c := b; a := false; b := c; c};
// b := (a = x); b}; a. Java: a false after the c block, kept → false.
// Paper: the c block's Pop restores a = b = true, b := (true = true), the
// b block's Pop restores a = true → true.
func TestSemanticsByHand(t *testing.T) {
	cases := []semanticsCase{
		{"null_call.jl", "error true true", "true true true"},
		{"null_call_alias.jl", "error error error true true true", "error true true true true true"},
		{"null_call_in_var.jl", "error true true", "false false false"},
		{"null_call_chain.jl", "error error true true true true", "error true true true true true"},
		{"var_assign.jl", "false", "true"},
		{"var_shadow.jl", "true", "false"},
		{"var_assign_ref.jl", "false false true", "true true true"},
		{"var_nested_assign.jl", "false", "true"},
	}
	for _, c := range cases {
		p, err := javalite.LoadFile("../testdata/semantics/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		for sem, want := range map[string]string{machine.SemJava: c.java, machine.SemPaper: c.paper} {
			st, _, ends := exploreSem(t, p, 2, 1000, sem)
			var got []string
			for _, s := range ends {
				switch {
				case s.Mode == machine.ModeError:
					got = append(got, "error")
				case s.Terminal():
					got = append(got, s.Val.String())
				default:
					got = append(got, "cut")
				}
			}
			sort.Strings(got)
			if g := strings.Join(got, " "); g != want {
				t.Errorf("%s %s: GSE ends %q, want %q", c.file, sem, g, want)
			}
			if st.Ends[machine.EndStuck] != 0 {
				t.Errorf("%s %s: %d stuck paths", c.file, sem, st.Ends[machine.EndStuck])
			}
			// The rules of the Java readings fire exactly under Java: Pop var
			// wherever a var block is left (every program but null_call and
			// null_call_chain, which have none), Invoke′ in the null_ ones.
			java := sem == machine.SemJava
			hasVar := c.file != "null_call.jl" && c.file != "null_call_chain.jl"
			if (st.Rules[machine.RulePopVar] > 0) != (java && hasVar) {
				t.Errorf("%s %s: Pop var applied %d times", c.file, sem, st.Rules[machine.RulePopVar])
			}
			if java != (st.Rules[machine.RuleInvokeNull] > 0) && strings.HasPrefix(c.file, "null") {
				t.Errorf("%s %s: Invoke′ applied %d times", c.file, sem, st.Rules[machine.RuleInvokeNull])
			}
		}
	}
}
