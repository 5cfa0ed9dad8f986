package machine

// Mutation is a deliberate single-point error in the reference side of the
// comparison: the common rules of this package, which both engines share,
// and GSE's heap rules. It exists to show that the checker sees such
// errors, which the lockstep comparison alone cannot: a wrong common rule
// changes both engines alike (every lemma relating them still holds), and
// a GSE that records a wrong path-condition fact is never contradicted by
// a relation that reads only the summary state's φ. The independent checks
// that do see them are lemmas GPC and ORC (package checker). The zero
// value is no mutation; each field is read at exactly one place.
type Mutation struct {
	// InvokePushesCalleeEnv: rule Invoke pushes (pop η_callee k) instead
	// of (pop η k), so the caller continues in the callee's environment.
	InvokePushesCalleeEnv bool
	// BeginFirstTwice: rule Begin (first) evaluates the first expression
	// of a begin block twice (the next frame starts at index 0).
	BeginFirstTwice bool
	// GSEEqualsNotRecordsEq: GSE's rule E′ records r0 = r1 in the path
	// condition instead of r0 ≠ r1 (read by package gse).
	GSEEqualsNotRecordsEq bool
	// IfSymThenOnly: rule If (sym) takes only the then branch when both
	// are feasible (PRIMITIVES.md §3, issue 22's example mutant).
	IfSymThenOnly bool
	// NewPrimSymbolic: rule New leaves a new object's primitive fields
	// symbolic (the initial-value symbols of an input object) instead of
	// Java's defaults.
	NewPrimSymbolic bool
	// GSEFeasibleIgnoresPhi: GSE decides If (sym) and Assume by S(t)
	// instead of S(φ ∧ t), so it explores paths whose data facts no input
	// meets (read by package gse).
	GSEFeasibleIgnoresPhi bool
	// GSEAssumeNoStrengthen: rule Assume on an engine without data rules
	// of its own (GSE: every engine under test has them) goes on without
	// φ := φ ∧ t (the assumption is tested, never recorded).
	GSEAssumeNoStrengthen bool
	// BinaryLeAsLt: rule Binary builds t0 <= t1 as t0 < t1.
	BinaryLeAsLt bool
}

// Union is m with every mutation of o added.
func (m Mutation) Union(o Mutation) Mutation {
	return Mutation{
		InvokePushesCalleeEnv: m.InvokePushesCalleeEnv || o.InvokePushesCalleeEnv,
		BeginFirstTwice:       m.BeginFirstTwice || o.BeginFirstTwice,
		GSEEqualsNotRecordsEq: m.GSEEqualsNotRecordsEq || o.GSEEqualsNotRecordsEq,
		IfSymThenOnly:         m.IfSymThenOnly || o.IfSymThenOnly,
		NewPrimSymbolic:       m.NewPrimSymbolic || o.NewPrimSymbolic,
		GSEFeasibleIgnoresPhi: m.GSEFeasibleIgnoresPhi || o.GSEFeasibleIgnoresPhi,
		GSEAssumeNoStrengthen: m.GSEAssumeNoStrengthen || o.GSEAssumeNoStrengthen,
		BinaryLeAsLt:          m.BinaryLeAsLt || o.BinaryLeAsLt,
	}
}

// Differences lists the mutations of m, one line each.
func (m Mutation) Differences() []string {
	var out []string
	if m.InvokePushesCalleeEnv {
		out = append(out, "mutant: Invoke pushes (pop η_callee k)")
	}
	if m.BeginFirstTwice {
		out = append(out, "mutant: Begin (first) evaluates the first expression twice")
	}
	if m.GSEEqualsNotRecordsEq {
		out = append(out, "mutant: GSE E′ records r0 = r1")
	}
	if m.IfSymThenOnly {
		out = append(out, "mutant: If (sym) takes only the then branch when both are feasible")
	}
	if m.NewPrimSymbolic {
		out = append(out, "mutant: New leaves primitive fields symbolic")
	}
	if m.GSEFeasibleIgnoresPhi {
		out = append(out, "mutant: GSE tests S(t) instead of S(φ ∧ t)")
	}
	if m.GSEAssumeNoStrengthen {
		out = append(out, "mutant: GSE's Assume does not strengthen φ")
	}
	if m.BinaryLeAsLt {
		out = append(out, "mutant: Binary builds <= as <")
	}
	return out
}
