package summary

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// TestInvokeNullByHand walks issue 14's first example, main =
// (this.f @ id x), to the call and applies Invoke/Invoke′ (RULES.md §3, V11
// Java reading) by hand. After the read, L(s3) = {(i4 = null, l_null),
// (i4 ≠ null ∧ i4 ≠ i1, l1), (i4 ≠ null ∧ i4 = i1, l0)} and φ_g = i1 ≠ null,
// so θ_0 = {i4 = null} and φ'_g = i1 ≠ null ∧ i4 ≠ null: Invoke enters id
// under φ'_g with η = {this ↦ s3, b ↦ true}; Invoke′ ends in error under
// φ_g ∧ i4 = null (φ_g alone under V8's published reading). The heap is
// not touched by either. Under the paper semantics Step applies the old
// Invoke itself: one successor, φ unchanged.
func TestInvokeNullByHand(t *testing.T) {
	p, err := javalite.LoadFile("../testdata/semantics/null_call.jl")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"published", "v8-keep-phi"} {
		t.Run(name, func(t *testing.T) {
			sol := newSolver(t)
			v := lookup(t, name)
			eng := New(v, 2, sol)
			s := heapStep(t, machine.Initial(p), eng, machine.RuleFieldA)[0].S
			s = toCall(t, s, eng)
			before := s.Clone()
			succ, err := machine.Step(s, eng, eng.Options())
			if err != nil {
				t.Fatal(err)
			}
			if len(succ) != 2 || succ[0].Rule != machine.RuleInvoke || succ[1].Rule != machine.RuleInvokeNull {
				t.Fatalf("successors %v, want Invoke and Invoke′", succ)
			}
			in, ex := succ[0].S, succ[1].S
			assertEquiv(t, sol, "Invoke φ", smt.True(), in.PathCondition(), and(neq(i1, null), neq(i4, null)))
			if in.Env[javalite.SlotThis] != machine.RefVal(s3) || in.Env[1] != machine.VTrue {
				t.Errorf("Invoke η = %s, want {this ↦ s3, b ↦ true}", machine.EnvString(in.Env))
			}
			if in.Mode != machine.ModeExpr || in.K == nil || in.K.Kind != machine.KPop {
				t.Errorf("Invoke control %s, want id's body with (pop η k)", in.ControlString())
			}
			wantE := and(neq(i1, null), eq(i4, null))
			if v.ErrorKeepsPhi {
				wantE = neq(i1, null)
			}
			if ex.Mode != machine.ModeError || ex.K != nil {
				t.Fatalf("Invoke′ control %s, want error end", ex.ControlString())
			}
			assertEquiv(t, sol, "Invoke′ φ", smt.True(), ex.PathCondition(), wantE)
			for _, x := range []*machine.State{in, ex} {
				if x.Field(0, p.Fields[0]) != before.Field(0, p.Fields[0]) || len(x.Locs) != len(before.Locs) {
					t.Error("Invoke/Invoke′ changed the heap")
				}
			}
			if st := eng.Stats(); st.Invoke != 1 || st.InvokeNull != 1 {
				t.Errorf("stats Invoke %d, Invoke′ %d; want 1, 1", st.Invoke, st.InvokeNull)
			}

			// Paper semantics: no engine rule, the call proceeds.
			paper := New(v.WithSemantics(machine.Options{VarRestoresEnv: true, NullCallProceeds: true}), 2, sol)
			succ, err = machine.Step(before, paper, paper.Options())
			if err != nil {
				t.Fatal(err)
			}
			if len(succ) != 1 || succ[0].Rule != machine.RuleInvoke {
				t.Fatalf("paper: successors %v, want one Invoke", succ)
			}
			assertEquiv(t, sol, "paper Invoke φ", smt.True(), succ[0].S.PathCondition(), neq(i1, null))
		})
	}
}

// toCall applies common and heap rules (each with one successor) until the
// redex is (v (r @ m * → k)).
func toCall(t *testing.T, s *machine.State, eng machine.Engine) *machine.State {
	t.Helper()
	for s.Mode != machine.ModeValue || s.K == nil || s.K.Kind != machine.KCallArg {
		succ, err := machine.Step(s, eng, eng.Options())
		if err != nil || len(succ) != 1 {
			t.Fatalf("step to the call: %d successors, %v", len(succ), err)
		}
		s = succ[0].S
	}
	return s
}

// TestSemanticsByHandSummary: the summary engine's ends (variant fixed,
// k = 2) on the programs of testdata/semantics under both semantics,
// derived by hand from the GSE paths (gse.TestSemanticsByHand) and
// Corollary 13: one summary path per distinct GSE control-flow sequence,
// i.e. per way the path can end, since within a program the GSE paths of
// one end have the same controls (they differ in the heap only).
//
//	null_call: read → A only (L(s0) = {l0}); the call: Invoke′ (i4 = null)
//	  and Invoke → id → true. Java: error, true. Paper: one path, true.
//	null_call_alias: W′ (y = this.f null) and W; after W the read of this.g
//	  may give null (written through the alias y = l0, or l0.g initialized
//	  null) or an object: Java: W′ error, Invoke′ error, true. Paper: W′
//	  error and the call that proceeds: true.
//	null_call_in_var: Java: Invoke′ error, true (r := true kept). Paper:
//	  false (r restored).
//	null_call_chain: the second read: A′ (this.f null) and A; the call on
//	  its value: Invoke′ (l1.f null) and Invoke. Java: 2 errors, true.
//	  Paper: A′ error, true.
//	var_assign, var_shadow, var_nested_assign: no heap, one path with GSE's
//	  value (false, true, false under Java; true, false, true under paper).
//	var_assign_ref: Java: E′ (this.f ≠ this) and E (this.f aliases this):
//	  false, true. Paper: (this = this) is E only: true.
func TestSemanticsByHandSummary(t *testing.T) {
	cases := []struct{ file, java, paper string }{
		{"null_call.jl", "error true", "true"},
		{"null_call_alias.jl", "error error true", "error true"},
		{"null_call_in_var.jl", "error true", "false"},
		{"null_call_chain.jl", "error error true", "error true"},
		{"var_assign.jl", "false", "true"},
		{"var_shadow.jl", "true", "false"},
		{"var_assign_ref.jl", "false true", "true"},
		{"var_nested_assign.jl", "false", "true"},
	}
	sol := newSolver(t)
	for _, c := range cases {
		p, err := javalite.LoadFile("../testdata/semantics/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		for sem, want := range map[string]string{machine.SemJava: c.java, machine.SemPaper: c.paper} {
			opt, err := machine.ParseSemantics(sem)
			if err != nil {
				t.Fatal(err)
			}
			eng := New(lookup(t, "fixed").WithSemantics(opt), 2, sol)
			var got []string
			st, err := machine.Explore(context.Background(), machine.Initial(p), eng, 1000, func(s *machine.State, kind machine.EndKind) bool {
				switch kind {
				case machine.EndError:
					got = append(got, "error")
				case machine.EndValue:
					got = append(got, s.Val.String())
				default:
					got = append(got, kind.String())
				}
				return true
			})
			if err != nil || !st.Complete {
				t.Fatalf("%s %s: %v (complete %v)", c.file, sem, err, st.Complete)
			}
			sort.Strings(got)
			if g := strings.Join(got, " "); g != want {
				t.Errorf("%s %s: summary ends %q, want %q", c.file, sem, g, want)
			}
		}
	}
}
