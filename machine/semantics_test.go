package machine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// TestSemanticsNames: every name parses and names itself back; the zero
// Options are Java; an unknown name is an error.
func TestSemanticsNames(t *testing.T) {
	require.Equal(t, machine.SemJava, machine.Options{}.SemanticsName())
	for _, n := range machine.SemanticsNames() {
		o, err := machine.ParseSemantics(n)
		require.NoError(t, err)
		require.Equal(t, n, o.SemanticsName())
		require.NotEmpty(t, machine.SemanticsDoc[n])
		// WithSemantics keeps V9.
		w := machine.Options{InvokeExtendsEnv: true}.WithSemantics(o)
		require.True(t, w.InvokeExtendsEnv)
		require.Equal(t, n, w.SemanticsName())
	}
	_, err := machine.ParseSemantics("kotlin")
	require.Error(t, err)
}

// noHeap is HeapRules for programs without field accesses, writes,
// reference comparisons or calls: every heap rule is a test failure.
type noHeap struct{ t *testing.T }

func (h noHeap) FieldAccess(*machine.State, machine.Ref, *javalite.FieldAccess, *machine.Kont) ([]machine.Succ, error) {
	h.t.Fatal("FieldAccess")
	return nil, nil
}
func (h noHeap) FieldWrite(*machine.State, machine.Ref, *javalite.FieldWrite, *machine.Kont) ([]machine.Succ, error) {
	h.t.Fatal("FieldWrite")
	return nil, nil
}
func (h noHeap) EqualsRef(*machine.State, machine.Ref, machine.Ref, *javalite.Equals, *machine.Kont) ([]machine.Succ, error) {
	h.t.Fatal("EqualsRef")
	return nil, nil
}
func (h noHeap) Invoke(*machine.State, machine.Ref, []machine.Value, *javalite.Call, *machine.Kont) ([]machine.Succ, error) {
	h.t.Fatal("Invoke")
	return nil, nil
}

// TestVarScopeRules runs issue 14's second example step by step. Java:
// Var decl pushes (popvar y ⊥ k) and Pop var unbinds y, keeping x := false.
// Paper: (pop η k) restores x = true.
func TestVarScopeRules(t *testing.T) {
	src := `(((class Main () ((bool main [bool x] (begin (var bool y := true in (x := false)) x))))) (Main main))`
	p, err := javalite.ParseAndCheck("v10", []byte(src))
	require.NoError(t, err)
	for sem, want := range map[string]machine.Value{machine.SemJava: machine.VFalse, machine.SemPaper: machine.VTrue} {
		opt, err := machine.ParseSemantics(sem)
		require.NoError(t, err)
		s := machine.Initial(p)
		var rules []string
		for !s.Terminal() {
			succ, err := machine.Step(s, noHeap{t}, opt)
			require.NoError(t, err)
			require.Len(t, succ, 1)
			s = succ[0].S
			rules = append(rules, succ[0].Rule)
			if succ[0].Rule == machine.RuleVar {
				kind := machine.KPopVar
				if sem == machine.SemPaper {
					kind = machine.KPop
				}
				require.Equal(t, kind, s.K.Kind, sem)
			}
		}
		require.Equal(t, want, s.Val, sem)
		pop := machine.RulePopVar
		if sem == machine.SemPaper {
			pop = machine.RulePop
		}
		require.Equal(t, []string{machine.RuleBeginFirst, machine.RuleVarEval, machine.RuleVar, machine.RuleAssignEval, machine.RuleAssign, pop,
			machine.RuleBeginNext, machine.RuleVarLookup, machine.RuleBeginLast}, rules, sem)
		// Slots: this 0, x 1, y 2.
		require.Equal(t, machine.VUndef, s.Env[2], "%s: y is unbound again", sem)
	}
}

// TestBaseRule: an engine's compound rule name is charged to its lockstep
// rule; a plain name is its own base.
func TestBaseRule(t *testing.T) {
	require.Equal(t, "Field access (A)", machine.BaseRule("Field access (A) / GETFIELD2-A"))
	require.Equal(t, machine.RuleWriteW, machine.BaseRule(machine.RuleWriteW))
}
