package machine

import (
	"fmt"
	"strings"

	"github.com/lockstep-dev/lockstep/javalite"
)

// Semantics sets: the named readings of the two common rules where the
// papers' Javalite and Java differ (RULES.md §3, "Java readings of two
// common rules"; §9 rows V10 and V11). One name selects both rows for every
// engine at once (the CLI's -semantics flag); V9 is a separate choice
// (InvokeExtendsEnv) and is not part of a semantics name.
//
//	java        V10 Java (Pop var), V11 Java (Invoke′: a call on null throws). The default.
//	paper       V10 paper (Pop restores the whole η), V11 paper (a call on null proceeds
//	            with static lookup and this = null): lockstep's earlier default.
//	paper-scope V10 paper, V11 Java: isolates the var-scope reading.
//	paper-call  V10 Java, V11 paper: isolates the null-call reading.
const (
	SemJava       = "java"
	SemPaper      = "paper"
	SemPaperScope = "paper-scope"
	SemPaperCall  = "paper-call"
)

// SemanticsNames lists the names ParseSemantics accepts, the default first.
func SemanticsNames() []string {
	return []string{SemJava, SemPaper, SemPaperScope, SemPaperCall}
}

// SemanticsDoc is one line per semantics name, for usage texts.
var SemanticsDoc = map[string]string{
	SemJava:       "Java (default): var scopes keep assignments to enclosing variables (V10 Pop var); a call on null throws (V11 Invoke′)",
	SemPaper:      "the papers' Javalite: leaving a var restores the whole η (V10); a call on null proceeds with this = null (V11)",
	SemPaperScope: "V10 as in the papers, V11 as in Java",
	SemPaperCall:  "V10 as in Java, V11 as in the papers",
}

// ParseSemantics returns the Options of the named semantics set (V10 and
// V11 only; InvokeExtendsEnv is false). The empty name is "java".
func ParseSemantics(name string) (Options, error) {
	switch name {
	case "", SemJava:
		return Options{}, nil
	case SemPaper:
		return Options{VarRestoresEnv: true, NullCallProceeds: true}, nil
	case SemPaperScope:
		return Options{VarRestoresEnv: true}, nil
	case SemPaperCall:
		return Options{NullCallProceeds: true}, nil
	}
	return Options{}, fmt.Errorf("unknown semantics %q (known: %s)", name, strings.Join(SemanticsNames(), ", "))
}

// SemanticsName is the name of o's V10/V11 choices (see ParseSemantics).
func (o Options) SemanticsName() string {
	switch {
	case o.VarRestoresEnv && o.NullCallProceeds:
		return SemPaper
	case o.VarRestoresEnv:
		return SemPaperScope
	case o.NullCallProceeds:
		return SemPaperCall
	}
	return SemJava
}

// WithSemantics returns o with the V10/V11 choices of sem (o's V9 choice
// is kept).
func (o Options) WithSemantics(sem Options) Options {
	o.VarRestoresEnv, o.NullCallProceeds = sem.VarRestoresEnv, sem.NullCallProceeds
	return o
}

// EnterMethod is the rule Invoke of RULES.md §3 after the receiver is known
// not to be null (or, under V11's paper reading, whatever it is): on
// (L R φ η v (r @ m v… * → k)) it makes (L R φ η_m e_m (pop η k)) with
// the method of the receiver's static class and η_m = {this ↦ r, x_i ↦ v_i}, or η
// extended with them under V9's published reading. Engines call it from
// HeapRules.Invoke for their non-null successor; it consumes s.
//
// Invoke keeps (pop η k) in both readings of V10: a callee cannot assign
// its caller's variables, so restoring the caller's whole η is right.
func EnterMethod(s *State, r Ref, args []Value, c *javalite.Call, k *Kont, opt Options) Succ {
	// Rule: Invoke
	saved := s.Env
	env := s.newEnv(c.Method)
	if opt.InvokeExtendsEnv {
		// The caller's bindings stay visible in the callee's slots. A
		// well-typed callee binds every local before reading it, so this
		// changes η but never a result.
		copy(env, saved)
	}
	env[javalite.SlotThis] = RefVal(r)
	for i, prm := range c.Method.Params {
		env[prm.Slot] = args[i]
	}
	s.Env = env
	if opt.Mutation.InvokePushesCalleeEnv {
		saved = env // mutant: the caller resumes in η_callee
	}
	s.SetExpr(c.Method.Body, s.kont(Kont{Kind: KPop, Env: saved, Next: k}))
	return Succ{S: s, Rule: RuleInvoke}
}
