package checker

import "github.com/lockstep-dev/lockstep/machine"

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
	T11 Lemma = "T11" // ⊏ is a bisimulation
	C12 Lemma = "C12" // same control-flow sequences
	C13 Lemma = "C13" // summary path count = distinct GSE control-flow sequences
	WF  Lemma = "WF"  // every summary state is well formed
	// The reference side's own claims (docs/LEMMAS.md): without them a
	// wrong GSE fact or a wrong common rule is invisible, because the
	// relations read only the summary state's φ and both engines share the
	// common rules.
	GPC Lemma = "GPC" // GSE's path condition holds in its own heap and agrees with q
	ORC Lemma = "ORC" // terminal GSE paths agree with the concrete interpreter
)

// Lemmas lists the catalog in its order.
var Lemmas = []Lemma{L1, L2, L3, L4, L5, L6, L7, L9, L10, T11, C12, C13, WF, GPC, ORC}

// Claim is the text of each lemma, as in RULES.md §8.
var Claim = map[Lemma]string{
	L1:  "→S* is exact with respect to →I* (Summarize)",
	L2:  "Field access (A, A′) preserves ⊏",
	L3:  "Field write (W, W′) preserves ⊏",
	L4:  "→S* preserves determinism",
	L5:  "Field access preserves determinism",
	L6:  "Field write preserves determinism",
	L7:  "→J preserves determinism",
	L9:  "Reference compare (E, E′) preserves ⊏",
	L10: "New preserves ⊏",
	T11: "⊏ is a bisimulation",
	C12: "the two engines produce the same control-flow sequences",
	C13: "summary path count = distinct GSE control-flow sequences",
	WF:  "every summary state is well formed (type consistent, total, stack-only roots)",
	GPC: "a GSE state's path condition holds in its own heap and agrees with the summary state that represents it",
	ORC: "each terminal GSE path agrees with the concrete interpreter run on its concretization (end kind, value, steps)",
}

// representationLemma is the lemma whose claim "rule preserves ⊏" covers a
// step by the given rule. Steps by the other common rules leave the heap
// alone; their preservation of ⊏ is part of the bisimulation theorem.
func representationLemma(rule string) Lemma {
	switch rule {
	case machine.RuleFieldA, machine.RuleFieldANull, machine.RuleStuckNullDR:
		return L2
	case machine.RuleWriteW, machine.RuleWriteWNull:
		return L3
	case machine.RuleEqualsE, machine.RuleEqualsENot:
		return L9
	case machine.RuleNew:
		return L10
	}
	return T11
}

// determinismLemma is the lemma whose claim "rule preserves determinism"
// covers a step by the given rule. Field access runs →S* and then builds
// the value set of the result; a non-deterministic result of a field
// access is charged to L5, and L4 is checked on its own by CheckSummarize.
func determinismLemma(rule string) Lemma {
	switch rule {
	case machine.RuleFieldA, machine.RuleFieldANull:
		return L5
	case machine.RuleWriteW, machine.RuleWriteWNull:
		return L6
	}
	return L7
}
