package summary

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/lockstep-dev/lockstep/machine"
)

// A Variant is a named set of rule choices (RULES.md §9). It is data: the
// one engine reads these fields at the points where the sources disagree,
// so a new reading or a deliberate mutation is one more field value, never
// a copy of a rule. The zero value of every choice is the default reading
// ("published"), so a Variant literal only names what it changes.
type Variant struct {
	Name, Doc string

	// V1: which other candidates an alias guard of Summarize excludes.
	AliasGuard AliasGuard
	// V2: Field access (A) keeps φ_g (in VS and in the successor) instead
	// of φ'_g. →S* still runs under φ'_g, as in every reading.
	AccessKeepsPhi bool
	// V3: what a null dereference does.
	NullDeref NullDeref
	// V4: run →S* on the written field of L(r_x) before Field write (W).
	InitBeforeWrite bool
	// V5: the path condition of Equals (E′).
	EqualsFalse EqualsFalse
	// V6: how the alias candidates ρ(C) are chosen.
	Candidates Candidates
	// V7: which guard the new entries of Summarize carry.
	SummarizeGuard SummarizeGuard
	// V8: the error state of A′ and W′ keeps φ_g instead of φ_g ∧ ⋁θ_0.
	ErrorKeepsPhi bool
	// V9: Invoke extends the caller's η (a common rule: GSE must run with
	// the same machine.Options, see MachineOptions).
	InvokeExtendsEnv bool
	// V10, V11: the papers' readings of the var scope and of a call on
	// null, common rules like V9 (machine.Options; the zero value is Java,
	// set both with WithSemantics from a -semantics name).
	VarRestoresEnv, NullCallProceeds bool
	// What Summarize does with the world in which r_f would be a new
	// location when the k-bound leaves θ_new out (RULES.md §4 says only
	// that θ_new is left out; see docs/FINDINGS.md).
	KBound KBoundRule
	// What r_f means in the worlds where Summarize does not apply (¬φ_s):
	// free (as written), or pinned to r_null (proposed fix, FINDINGS F3).
	IdleRef IdleRefRule

	// Mutation is a deliberate single-point error, used to measure whether
	// the checker notices it. The zero value is no mutation.
	Mutation Mutation
	// Common is a deliberate error in the common rules or in GSE (the
	// reference side), passed to both engines through MachineOptions.
	Common machine.Mutation
}

// AliasGuard selects, for the alias entry of candidate r_a, which other
// candidates r'_a the guard requires r_f to differ from (variant V1).
type AliasGuard uint8

const (
	// AliasBefore (published): r_f ≠ r'_a for the candidates r'_a < r_a.
	AliasBefore AliasGuard = iota
	// AliasAll (seed 000): r_f ≠ r'_a for every other candidate.
	AliasAll
	// AliasAfter (mutant: `<` turned into `>`): the candidates after r_a.
	AliasAfter
)

// NullDeref selects what a dereference of a possibly-null reference does
// (variant V3).
type NullDeref uint8

const (
	// NullError (published): rules A′ and W′ lead to error.
	NullError NullDeref = iota
	// NullStuck (seed 000): A′ and W′ do not exist; a state whose only
	// redex is a null dereference has no successor.
	NullStuck
)

// EqualsFalse selects the path condition of Equals (E′) (variant V5).
type EqualsFalse uint8

const (
	// EqFalseNotAlpha (default here): φ ∧ ¬⋁Φ_α.
	EqFalseNotAlpha EqualsFalse = iota
	// EqFalseLiteralOuter: seed 000's formula with ∧ binding tighter than
	// ∨, the usual precedence: (φ ∧ ⋀(φ0⇒¬φ1)) ∨ ⋁Φ_0 ∨ ⋁Φ_1.
	EqFalseLiteralOuter
	// EqFalseLiteralInner: the other reading, φ conjoined with the whole
	// disjunction: φ ∧ (⋀(φ0⇒¬φ1) ∨ ⋁Φ_0 ∨ ⋁Φ_1).
	EqFalseLiteralInner
)

// Candidates selects how ρ(C) is built (variant V6).
type Candidates uint8

const (
	// CandIdentity (default here): every input location of class C with
	// its identity reference.
	CandIdentity Candidates = iota
	// CandMinRef (the papers read literally): r_a is the least reference
	// whose L contains l_a, and the candidate is dropped unless r_a is an
	// input reference.
	CandMinRef
)

// SummarizeGuard selects the guard φ_s of the new entries of Summarize
// (θ_null, θ_new, θ_alias); θ_orig is guarded by ¬φ_s (variant V7).
type SummarizeGuard uint8

const (
	// GuardAccess (published): φ_s = φ_x, the guard of the accessing
	// reference's entry.
	GuardAccess SummarizeGuard = iota
	// GuardUninit (proposed fix): φ_s = φ_x ∧ φ_un, where φ_un is the guard
	// of l_un in L(R(l_x,f)): the field is re-initialized only where it
	// is actually uninitialized.
	GuardUninit
)

// KBoundRule selects how Summarize treats θ_new beyond the k-bound.
type KBoundRule uint8

const (
	// KBoundDrop (RULES.md §4 as written): θ_new is left out and nothing
	// else changes. The world "r_f is a new location" then has no entry in
	// L(r_f): the state is not total.
	KBoundDrop KBoundRule = iota
	// KBoundAssume (proposed fix): θ_new is left out and its guard is
	// assumed false, ¬θ_new is conjoined to the path condition of the
	// successor, as GSE leaves out the branch. r_f is fresh, so the
	// assumption never makes a satisfiable path condition unsatisfiable.
	KBoundAssume
)

// IdleRefRule selects what Summarize says about r_f in the worlds where
// it does not apply (¬φ_s: the accessing reference does not point to l_x
// there, or the field is already initialized).
type IdleRefRule uint8

const (
	// IdleFree (as written): nothing; r_f is unconstrained there. An alias
	// entry r_g = r_f of a later Summarize can then point to l_f in a world
	// where l_f was never created, which acts as a new object, also beyond
	// the k-bound.
	IdleFree IdleRefRule = iota
	// IdleNull (proposed fix): conjoin φ_s ∨ r_f = r_null to the path
	// condition. r_f is fresh, so this never makes a satisfiable path
	// condition unsatisfiable; with it, in every world an identity
	// reference is null, equal to an earlier candidate's, or its location
	// exists, so an alias entry only reaches existing objects.
	IdleNull
)

// Mutation holds deliberate single-point errors in the rules. Each field is
// one mutation; a mutant sets exactly one. They exist to test the checker
// (a mutation it cannot detect is a blind spot), never to be run as a
// reading of the papers.
type Mutation struct {
	// DropOrig leaves θ_orig out of Summarize.
	DropOrig bool
	// DropNull leaves θ_null out of Summarize.
	DropNull bool
	// DropAlias leaves out the alias entry of one candidate: the n-th of
	// ρ(C) counting from 1, or the last one for -1. 0: no mutation.
	DropAlias int
	// NewIgnoresAliases drops ⋀ r_f ≠ r_a from the θ_new guard.
	NewIgnoresAliases bool
	// ForgetPhiPrime runs →S* and VS of Field access under φ_g instead of
	// φ'_g (the successor still gets φ'_g).
	ForgetPhiPrime bool
	// KBoundSlack moves the k-bound: θ_new is allowed while
	// depth(l_x)+1 ≤ k + KBoundSlack.
	KBoundSlack int
	// MergeByAnd merges duplicate locations of a value set by conjunction
	// instead of disjunction.
	MergeByAnd bool
	// EqualsByLocations decides Equals like GSE, by comparing the sets of
	// locations and leaving φ unchanged, ignoring the guards.
	EqualsByLocations bool
	// SingleSummarize applies →S once instead of running →S* to its
	// fixpoint.
	SingleSummarize bool

	// The fields below are applied in the same places (summarize.go,
	// engine.go); docs/MUTANTS.md lists which lemma kills each.

	// SummarizeMax initializes the location of UN with the largest number
	// first (max_l instead of min_l).
	SummarizeMax bool
	// NullIgnoresRef drops r_f = r_null from the θ_null guard.
	NullIgnoresRef bool
	// NewIgnoresNull drops r_f ≠ r_null from the θ_new guard.
	NewIgnoresNull bool
	// AliasIgnoresNull drops r_f ≠ r_null from the θ_alias guards.
	AliasIgnoresNull bool
	// OrigGuardAccess guards θ_orig by ¬φ_x, the published guard, while
	// the new entries keep φ_s (a half-applied V7 fix; no effect unless
	// SummarizeGuard is GuardUninit).
	OrigGuardAccess bool
	// OrigUnguarded keeps θ_orig's entries with their old guards, without
	// ¬φ_s: l_un stays possible where the field was just initialized, so
	// →S* never reaches its fixpoint and the engine fails. Not in
	// Mutants(): it exists to test that the checker reports an engine
	// failure as a verdict.
	OrigUnguarded bool
	// GuardTrue makes the Summarize guard φ_s true: the field is
	// re-initialized in every world, also where r does not point to l_x.
	GuardTrue bool
	// SuccessorKeepsPhi gives the successor of A the path condition φ_g
	// instead of φ'_g (→S* and VS still run under φ'_g).
	SuccessorKeepsPhi bool
	// VSDropsFieldGuard gives the entries of VS the guard φ of the
	// receiver's entry instead of φ ∧ φ'.
	VSDropsFieldGuard bool
	// WriteDropsOld builds L(r_l) of W from ST(L,r,φ,φ'_g) alone: the
	// worlds where r_x does not point to l lose the old value.
	WriteDropsOld bool
	// WriteFirstOnly makes W update only the first location of L(r_x).
	WriteFirstOnly bool
	// NoWriteNull leaves rule W′ out.
	NoWriteNull bool
	// EqualsFalseNoNot gives E′ the path condition φ ∧ ⋁Φ_α.
	EqualsFalseNoNot bool
	// NoEqualsFalse leaves rule E′ out.
	NoEqualsFalse bool
	// EqualsTrueNoExclusion gives E the path condition φ ∧ ⋁Φ_α, without
	// ⋀¬Φ_0 ∧ ⋀¬Φ_1.
	EqualsTrueNoExclusion bool
	// EqualsAlphaOr builds Φ_α from φ0 ∨ φ1 instead of φ0 ∧ φ1.
	EqualsAlphaOr bool
}

// MachineOptions returns the common-rule choices of the variant. GSE must
// be run with the same options when the two engines are compared.
func (v Variant) MachineOptions() machine.Options {
	return machine.Options{InvokeExtendsEnv: v.InvokeExtendsEnv,
		VarRestoresEnv: v.VarRestoresEnv, NullCallProceeds: v.NullCallProceeds, Mutation: v.Common}
}

// rules returns v without its name and doc, for comparing choices.
func (v Variant) rules() Variant { v.Name, v.Doc = "", ""; return v }

// IsPublished reports whether v makes every default choice.
func (v Variant) IsPublished() bool { return v.rules() == Variant{} }

// Differences lists the rule choices of v that differ from published, as
// "V1 alias guard: all other candidates", in §9 order, then mutations.
func (v Variant) Differences() []string {
	var out []string
	add := func(cond bool, s string) {
		if cond {
			out = append(out, s)
		}
	}
	add(v.AliasGuard == AliasAll, "V1 alias guard: r_f ≠ r'_a for all other candidates")
	add(v.AliasGuard == AliasAfter, "alias guard: r_f ≠ r'_a for candidates after r_a (mutant)")
	add(v.AccessKeepsPhi, "V2 field access keeps φ_g")
	add(v.NullDeref == NullStuck, "V3 null dereference is stuck (no A′, W′)")
	add(v.InitBeforeWrite, "V4 →S* on the written field before W")
	add(v.EqualsFalse == EqFalseLiteralOuter, "V5 E′: (φ ∧ ⋀(φ0⇒¬φ1)) ∨ ⋁Φ_0 ∨ ⋁Φ_1")
	add(v.EqualsFalse == EqFalseLiteralInner, "V5 E′: φ ∧ (⋀(φ0⇒¬φ1) ∨ ⋁Φ_0 ∨ ⋁Φ_1)")
	add(v.Candidates == CandMinRef, "V6 alias candidates by least reference")
	add(v.SummarizeGuard == GuardUninit, "V7 Summarize guard φ_x ∧ φ_un")
	add(v.ErrorKeepsPhi, "V8 error state keeps φ_g")
	add(v.KBound == KBoundAssume, "k-bound: ¬θ_new assumed when θ_new is left out")
	add(v.IdleRef == IdleNull, "r_f = r_null where Summarize does not apply")
	add(v.InvokeExtendsEnv, "V9 Invoke extends η")
	add(v.VarRestoresEnv, "V10 leaving a var restores the whole η (paper)")
	add(v.NullCallProceeds, "V11 a call on null proceeds (paper)")
	m := v.Mutation
	add(m.DropOrig, "mutant: no θ_orig")
	add(m.DropNull, "mutant: no θ_null")
	add(m.DropAlias != 0, fmt.Sprintf("mutant: no θ_alias for candidate %d", m.DropAlias))
	add(m.NewIgnoresAliases, "mutant: θ_new without r_f ≠ r_a")
	add(m.ForgetPhiPrime, "mutant: →S* and VS under φ_g")
	add(m.KBoundSlack != 0, fmt.Sprintf("mutant: k-bound shifted by %+d", m.KBoundSlack))
	add(m.MergeByAnd, "mutant: merge duplicates by ∧")
	add(m.EqualsByLocations, "mutant: Equals compares location sets")
	add(m.SingleSummarize, "mutant: one →S step instead of →S*")
	add(m.SummarizeMax, "mutant: →S initializes max_l(UN) first")
	add(m.NullIgnoresRef, "mutant: θ_null without r_f = r_null")
	add(m.NewIgnoresNull, "mutant: θ_new without r_f ≠ r_null")
	add(m.AliasIgnoresNull, "mutant: θ_alias without r_f ≠ r_null")
	add(m.OrigGuardAccess, "mutant: θ_orig guarded by ¬φ_x instead of ¬φ_s")
	add(m.OrigUnguarded, "mutant: θ_orig without ¬φ_s")
	add(m.GuardTrue, "mutant: Summarize guard φ_s = true")
	add(m.SuccessorKeepsPhi, "mutant: A successor keeps φ_g")
	add(m.VSDropsFieldGuard, "mutant: VS entries without the field guard φ'")
	add(m.WriteDropsOld, "mutant: W drops ST(L,r_cur,¬φ,φ'_g)")
	add(m.WriteFirstOnly, "mutant: W writes only the first location of L(r_x)")
	add(m.NoWriteNull, "mutant: no W′")
	add(m.EqualsFalseNoNot, "mutant: E′ path condition φ ∧ ⋁Φ_α")
	add(m.NoEqualsFalse, "mutant: no E′")
	add(m.EqualsTrueNoExclusion, "mutant: E path condition without ⋀¬Φ_0 ∧ ⋀¬Φ_1")
	add(m.EqualsAlphaOr, "mutant: Φ_α from φ0 ∨ φ1")
	out = append(out, v.Common.Differences()...)
	return out
}

func (v Variant) String() string { return v.Name }

// Variants returns the named readings of RULES.md §9, "published" first:
// the default, one variant per single deviation, the tech report's
// combination, and proposed fixes. Mutants are not listed here.
func Variants() []Variant {
	return []Variant{
		{Name: "published", Doc: "the default column of RULES.md §9 for every row"},
		{Name: "v1-all-candidates", AliasGuard: AliasAll,
			Doc: "V1 as in seed 000: an alias guard excludes every other candidate, not only the earlier ones"},
		{Name: "v2-keep-phi", AccessKeepsPhi: true,
			Doc: "V2 as in seed 000: Field access computes φ'_g for →S* but keeps φ_g in VS and in the successor"},
		{Name: "v3-stuck", NullDeref: NullStuck,
			Doc: "V3 as in seed 000: no rule for a null dereference (no A′, W′); the state is stuck"},
		{Name: "v4-init-before-write", InitBeforeWrite: true,
			Doc: "V4 as in seed 001: run →S* on the written field of L(r_x) before Field write (W)"},
		{Name: "v5-literal-outer", EqualsFalse: EqFalseLiteralOuter,
			Doc: "V5, seed 000's E′ formula with ∧ binding tighter: (φ ∧ ⋀(φ0⇒¬φ1)) ∨ ⋁Φ_0 ∨ ⋁Φ_1"},
		{Name: "v5-literal-inner", EqualsFalse: EqFalseLiteralInner,
			Doc: "V5, seed 000's E′ formula with φ over the disjunction: φ ∧ (⋀(φ0⇒¬φ1) ∨ ⋁Φ_0 ∨ ⋁Φ_1)"},
		{Name: "v6-min-ref", Candidates: CandMinRef,
			Doc: "V6 read literally: r_a is the least reference whose L contains l_a, dropped unless it is an input reference"},
		{Name: "v7-uninit-guard", SummarizeGuard: GuardUninit,
			Doc: "PROPOSED FIX for V7, to be confirmed by the checker (not established): guard θ_null/θ_new/θ_alias by φ_x ∧ φ_un " +
				"(φ_un the guard of l_un in L(R(l_x,f))) and θ_orig by ¬(φ_x ∧ φ_un), so a field written through one alias is not " +
				"re-initialized when read through another"},
		{Name: "kbound-assume", KBound: KBoundAssume,
			Doc: "PROPOSED FIX for the k-bound (docs/FINDINGS.md F1): when θ_new is left out, conjoin its negated guard to the " +
				"path condition, as GSE leaves out the branch; RULES.md §4 as written leaves the state non-total"},
		{Name: "v8-keep-phi", ErrorKeepsPhi: true,
			Doc: "V8 published: the error state of A′/W′ keeps φ_g instead of φ_g ∧ ⋁θ_0"},
		{Name: "v9-extend-env", InvokeExtendsEnv: true,
			Doc: "V9 as in the papers: Invoke extends the caller's η (GSE must use the same machine options)"},
		{Name: "idle-null", IdleRef: IdleNull,
			Doc: "PROPOSED FIX for phantom aliases (docs/FINDINGS.md F3): conjoin φ_s ∨ r_f = r_null, so that r_f is not free " +
				"in the worlds where Summarize does not apply and a later alias entry cannot reach a location that was never created"},
		{Name: "fixed", KBound: KBoundAssume, SummarizeGuard: GuardUninit, IdleRef: IdleNull,
			Doc: "published with every proposed fix: kbound-assume, v7-uninit-guard, idle-null (docs/FINDINGS.md)"},
		{Name: "seed000", AliasGuard: AliasAll, AccessKeepsPhi: true, NullDeref: NullStuck,
			EqualsFalse: EqFalseLiteralOuter, InvokeExtendsEnv: true,
			Doc: "the tech report's figures: V1 all candidates, V2 keep φ_g, V3 stuck, V5 literal (outer reading: ∧ binds tighter than ∨), V9 extend η"},
	}
}

// Mutants returns deliberately wrong single-point mutations of published,
// for testing the checker. They are not readings of any source.
func Mutants() []Variant {
	mut := func(name, doc string, m Mutation) Variant {
		return Variant{Name: name, Doc: "MUTANT (deliberately wrong): " + doc, Mutation: m}
	}
	return []Variant{
		mut("m-drop-orig", "Summarize without θ_orig", Mutation{DropOrig: true}),
		mut("m-drop-null", "Summarize without θ_null", Mutation{DropNull: true}),
		mut("m-drop-alias-first", "Summarize without the alias entry of the first candidate", Mutation{DropAlias: 1}),
		mut("m-drop-alias-last", "Summarize without the alias entry of the last candidate", Mutation{DropAlias: -1}),
		{Name: "m-alias-after", AliasGuard: AliasAfter,
			Doc: "MUTANT (deliberately wrong): alias guard excludes the candidates after r_a (`<` turned into `>`)"},
		mut("m-new-ignores-aliases", "θ_new guard without ⋀ r_f ≠ r_a", Mutation{NewIgnoresAliases: true}),
		mut("m-forget-phi-prime", "→S* and VS under φ_g instead of φ'_g", Mutation{ForgetPhiPrime: true}),
		mut("m-kbound-plus1", "k-bound one too generous", Mutation{KBoundSlack: 1}),
		mut("m-kbound-minus1", "k-bound one too strict", Mutation{KBoundSlack: -1}),
		mut("m-merge-and", "duplicate locations merged by ∧", Mutation{MergeByAnd: true}),
		mut("m-equals-by-locations", "Equals compares location sets, ignoring guards", Mutation{EqualsByLocations: true}),
		mut("m-single-summarize", "one →S step instead of →S*", Mutation{SingleSummarize: true}),
	}
}

// Lookup returns the variant or mutant with the given name.
//
// Names joined by "+" compose: "kbound-assume+v7-uninit-guard" is the
// variant that makes every choice either part makes (the parts must not
// disagree on a choice), so a finding can be reproduced with exactly one
// correction missing.
func Lookup(name string) (Variant, error) {
	if parts := strings.Split(name, "+"); len(parts) > 1 {
		var out Variant
		for _, part := range parts {
			v, err := Lookup(part)
			if err != nil {
				return Variant{}, err
			}
			if err := compose(&out, v); err != nil {
				return Variant{}, fmt.Errorf("summary: variant %q: %v", name, err)
			}
		}
		out.Name = name
		out.Doc = "composition of " + strings.Join(parts, ", ")
		return out, nil
	}
	return lookupOne(name)
}

// compose sets in dst every rule choice that v makes (every field of v that
// is not its zero value), refusing two different non-zero choices.
func compose(dst *Variant, v Variant) error {
	d, src := reflect.ValueOf(dst).Elem(), reflect.ValueOf(v)
	var walk func(d, s reflect.Value, path string) error
	walk = func(d, s reflect.Value, path string) error {
		for i := 0; i < s.NumField(); i++ {
			name := s.Type().Field(i).Name
			if name == "Name" || name == "Doc" {
				continue
			}
			sf, df := s.Field(i), d.Field(i)
			if sf.Kind() == reflect.Struct {
				if err := walk(df, sf, path+name+"."); err != nil {
					return err
				}
				continue
			}
			if sf.IsZero() {
				continue
			}
			if !df.IsZero() && !reflect.DeepEqual(df.Interface(), sf.Interface()) {
				return fmt.Errorf("parts disagree on %s%s", path, name)
			}
			df.Set(sf)
		}
		return nil
	}
	return walk(d, src, "")
}

func lookupOne(name string) (Variant, error) {
	all := append(Variants(), Mutants()...)
	for _, v := range all {
		if v.Name == name {
			return v, nil
		}
	}
	names := make([]string, 0, len(all))
	for _, v := range all {
		names = append(names, v.Name)
	}
	sort.Strings(names)
	return Variant{}, fmt.Errorf("summary: unknown variant %q (known: %s)", name, strings.Join(names, ", "))
}
