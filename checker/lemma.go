package checker

import (
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/machine"
)

// Lemma names a claim of the lemma catalog (RULES.md §8). Every verdict
// names the claim it breaks, so a counterexample says what it refutes.
type Lemma string

const (
	L1  Lemma = "L1"  // →S* is exact with respect to →I* (Summarize)
	L2  Lemma = "L2"  // Field access (A, A′) preserves ⊏
	L3  Lemma = "L3"  // Field write (W, W′) preserves ⊏
	L4  Lemma = "L4"  // →S* preserves determinism
	L5  Lemma = "L5"  // Field access preserves determinism
	L6  Lemma = "L6"  // Field write preserves determinism
	L7  Lemma = "L7"  // →J preserves determinism
	L9  Lemma = "L9"  // Reference compare (E, E′) preserves ⊏
	L10 Lemma = "L10" // New preserves ⊏
	L11 Lemma = "L11" // Invoke (Invoke, Invoke′) preserves ⊏ (V11, Java reading)
	L12 Lemma = "L12" // If (sym) and Assume preserve ⊏ (PRIMITIVES.md §3)
	L13 Lemma = "L13" // Binary and Equals (prim) preserve ⊏ (PRIMITIVES.md §3)
	T11 Lemma = "T11" // ⊏ is a bisimulation
	C12 Lemma = "C12" // same control-flow sequences
	C13 Lemma = "C13" // summary path count = distinct GSE control-flow sequences
	WF  Lemma = "WF"  // every engine state (its View) is well formed

	// Additions of ENGINES.md §8.3 for engines other than the summary
	// engine (Partition engines, and Views that are not the identity).
	P1   Lemma = "P1"   // sibling disjointness
	P2   Lemma = "P2"   // cover
	P3   Lemma = "P3"   // path accounting
	P4   Lemma = "P4"   // path-count ordering (reported, not enforced)
	FEAS Lemma = "FEAS" // no empty engine state
	VIEW Lemma = "VIEW" // the View is deterministic and total
	KB   Lemma = "KB"   // finite-k agreement of the k-bounds
	// INVP is POSE-J's invariant (ENGINES.md §4.3), checked on the
	// engine's own states through engine.Invariant.
	INVP Lemma = "INV-P" // aliased symbols agree, where both exist, on every field initialized in both
	// VS compares two engines without GSE (Options.Versus).
	VS Lemma = "VS" // same concretizations at every common control

	// The reference side's own claims (docs/LEMMAS.md): without them a
	// wrong GSE fact or a wrong common rule is invisible, because the
	// relations read only the summary state's φ and both engines share the
	// common rules.
	GPC Lemma = "GPC" // GSE's path condition holds in its own heap and agrees with q
	ORC Lemma = "ORC" // terminal GSE paths agree with the concrete interpreter
)

// Lemmas lists the catalog in its order.
var Lemmas = []Lemma{L1, L2, L3, L4, L5, L6, L7, L9, L10, L11, L12, L13, T11, C12, C13, WF, P1, P2, P3, P4, FEAS, VIEW, KB, INVP, VS, GPC, ORC}

// Claim is the text of each lemma, as in RULES.md §8.
var Claim = map[Lemma]string{
	L1:   "→S* is exact with respect to →I* (Summarize)",
	L2:   "Field access (A, A′) preserves ⊏",
	L3:   "Field write (W, W′) preserves ⊏",
	L4:   "→S* preserves determinism",
	L5:   "Field access preserves determinism",
	L6:   "Field write preserves determinism",
	L7:   "→J preserves determinism",
	L9:   "Reference compare (E, E′) preserves ⊏",
	L10:  "New preserves ⊏",
	L11:  "Invoke (Invoke, Invoke′) preserves ⊏",
	L12:  "If (sym) and Assume preserve ⊏ (the data branching point, and pruning)",
	L13:  "Binary and Equals (prim) preserve ⊏ (the terms of data)",
	T11:  "⊏ is a bisimulation",
	C12:  "the two engines produce the same control-flow sequences",
	C13:  "summary path count = distinct GSE control-flow sequences",
	WF:   "every engine state (its View) is well formed (type consistent, total, stack-only roots)",
	P1:   "the successors of an engine state at one control have pairwise unsatisfiable path conditions (sibling disjointness: case optimality of a step)",
	P2:   "the successors of an engine state at one control together represent every GSE successor there (cover: relative completeness, Deng Prop. 1)",
	P3:   "the distinct GSE paths carried to the engine's path ends = the number of GSE paths (path accounting, by identity)",
	P4:   "#summary ≤ #lazier# ≤ #lazier ≤ #GSE paths (ordering; a k = −1 claim, reported, not enforced)",
	FEAS: "the View of every engine state has a concretization (no empty engine state)",
	VIEW: "the View of every engine state is deterministic and total (a failure is a View bug, not an engine bug)",
	KB:   "at a finite k the engine agrees with GSE as it does at k = −1 (finite-k divergence, reported apart from exactness)",
	INVP: "two symbolic locations of one class agree, in every world of φ where their symbols are equal and both exist, on every field initialized in both (POSE-J's INV-P, ENGINES.md §4.3; pinpoints P-MERGE)",
	VS:   "two one-per-control engines have, at every common control, Views with the same concretizations (engine against engine, ENGINES.md §8.4)",
	GPC:  "a GSE state's path condition holds in its own heap and agrees with the summary state that represents it",
	ORC:  "each terminal GSE path agrees with the concrete interpreter run on its concretization (end kind, value, steps); with data, on path-directed valuations (Z3 models ordering inputs and literals both ways), and every path-directed or enumerated input runs along some GSE path (bounded without a k-bound)",
}

// Applicable lists, in catalog order, the lemmas a check of eut can
// decide (ENGINES.md §8.3's table): L1 and L4 need an initialization
// machine of its own (engine.Initializer); C13 holds only for
// OnePerControl engines (a Partition engine has several paths per
// sequence by design), P1–P3, FEAS and KB only for Partition engines; VIEW
// only when the View is not the identity (engine.IdentityView); an
// engine's own invariant (INV-P) only for an engine.Invariant that names
// it. P4 is a claim across engines, never decided by the check of one
// engine: Order (order.go, `lockstep order`) reports it program by program.
func Applicable(eut engine.UnderTest) []Lemma {
	return ApplicableBound(eut, engine.BoundGSE)
}

// ApplicableBound is Applicable for an engine whose k-bound is b
// (engine.Info.BoundOf): an engine with a bound of its own diverges from
// GSE at a finite k by design whatever its shape, so KB (the re-check at
// k = −1, along the violation's control flow, that tells such a
// divergence from an error of the rules, Run)
// applies to a OnePerControl one too (uber's U-DEFER).
func ApplicableBound(eut engine.UnderTest, b engine.Bound) []Lemma {
	_, init := eut.(engine.Initializer)
	inv := invariantLemma(eut)
	_, identity := eut.(engine.IdentityView)
	part := eut.Shape() == engine.Partition
	var out []Lemma
	for _, l := range Lemmas {
		switch l {
		case L1, L4:
			if !init {
				continue
			}
		case C13:
			if part {
				continue
			}
		case P1, P2, P3, FEAS:
			if !part {
				continue
			}
		case KB:
			if !part && b != engine.BoundOwn {
				continue
			}
		case VIEW:
			if identity {
				continue
			}
		case INVP:
			if inv != l {
				continue
			}
		case P4, VS:
			continue
		}
		out = append(out, l)
	}
	return out
}

// ApplicableInfo is ApplicableBound for an engine described by info (its
// k-bound for variant, and whether it has the data rules): without the
// data rules (engine.Info.Data false) a program with data is refused
// before a check starts, so L12 and L13, the lemmas of If (sym), Assume,
// Binary and Equals (prim), are never decided for it.
func ApplicableInfo(eut engine.UnderTest, info engine.Info, variant string) []Lemma {
	all := ApplicableBound(eut, info.BoundOf(variant))
	if info.Data {
		return all
	}
	out := all[:0]
	for _, l := range all {
		if l != L12 && l != L13 {
			out = append(out, l)
		}
	}
	return out
}

// invariantLemma is the lemma of eut's own invariant (engine.Invariant),
// "" when it states none.
func invariantLemma(eut engine.UnderTest) Lemma {
	if inv, ok := eut.(engine.Invariant); ok {
		return Lemma(inv.InvariantName())
	}
	return ""
}

// representationLemma is the lemma whose claim "rule preserves ⊏" covers a
// step by the given rule. Steps by the other common rules leave the heap
// alone; their preservation of ⊏ is part of the bisimulation theorem.
func representationLemma(rule string) Lemma {
	switch machine.BaseRule(rule) {
	case machine.RuleFieldA, machine.RuleFieldANull, machine.RuleStuckNullDR:
		return L2
	case machine.RuleWriteW, machine.RuleWriteWNull:
		return L3
	case machine.RuleEqualsE, machine.RuleEqualsENot:
		return L9
	case machine.RuleNew:
		return L10
	case machine.RuleInvoke, machine.RuleInvokeNull:
		// Under V11's Java reading Invoke is a heap rule of each engine
		// (it decides null / non-null like A/A′), so it has its own lemma;
		// under the paper reading the same claim covers the common rule.
		return L11
	case machine.RuleIfSym, machine.RuleAssume:
		return L12
	case machine.RuleBinary, machine.RuleEqPrim:
		return L13
	}
	return T11
}

// determinismLemma is the lemma whose claim "rule preserves determinism"
// covers a step by the given rule. Field access runs →S* and then builds
// the value set of the result; a non-deterministic result of a field
// access is charged to L5, and L4 is checked on its own by CheckSummarize.
// Invoke and Invoke′ change only φ and the control, never L or R, so their
// determinism is →J's (L7).
func determinismLemma(rule string) Lemma {
	switch machine.BaseRule(rule) {
	case machine.RuleFieldA, machine.RuleFieldANull:
		return L5
	case machine.RuleWriteW, machine.RuleWriteWNull:
		return L6
	}
	return L7
}
