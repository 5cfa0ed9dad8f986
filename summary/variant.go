package summary

import (
	"github.com/lockstep-dev/lockstep/internal/mutation/choice"
	"github.com/lockstep-dev/lockstep/machine"
)

// A Variant is a named set of rule choices (RULES.md §9). It is data: the
// one engine reads these fields at the points where the sources disagree,
// so a new reading or a deliberate mutation is one more field value, never
// a copy of a rule. The zero value of every choice is the default reading
// ("published"). Every choice has one name, one doc and one Change in
// Table; the lists, the docs and Differences are derived from it.
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
	// D1: If (sym) as written (PRIMITIVES.md §3 with RULES.md §1's
	// literal values): a literal branch is a value at once (a common
	// rule: machine.Options.IfSymLiteralValues; FINDINGS.md D1).
	IfSymLiteralValues bool
	// What Summarize does with the world in which r_f would be a new
	// location when the k-bound leaves θ_new out (RULES.md §4 says only
	// that θ_new is left out; see docs/FINDINGS.md).
	KBound KBoundRule
	// What r_f means in the worlds where Summarize does not apply (¬φ_s):
	// free (as written), or pinned to r_null (proposed fix, FINDINGS F3).
	IdleRef IdleRefRule
	// U-ST (seed 004, ENGINES.md §6.2): a rule that would conjoin a
	// condition to φ strengthens every guard with it instead, and fires
	// iff no reference reachable from the roots is left without a target;
	// the state's φ is then the §5.3 φ_view (see distribute). The data
	// rules If (sym) and Assume are such rules (Engine.Strengthen).
	Distributed bool

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
	// EqFalseSeed004: seed 004's (uber-lazy) E′ before the authors' fix
	// ∧→∨: φ ∧ ⋀(φ0⇒¬φ1) ∧ (⋁Φ_0 ∨ ⋁Φ_1) (ENGINES.md §6.1, U-EQAND).
	EqFalseSeed004
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
// one mutation, named and documented by its row of Table, and applied at
// exactly one place in the engine, marked "// Mutant m-NAME". They exist to
// test the checker (a mutation it cannot detect is a blind spot), never to
// be run as a reading of the papers.
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
	// PrimWriteGuardPhi guards the ite of W on a primitive field by the
	// path condition φ'_g instead of the entry's guard (PRIMITIVES.md §4,
	// §8: the place the published rules may break with data).
	PrimWriteGuardPhi bool
	// PrimReadFirst makes A on a primitive field read the first satisfiable
	// target's term instead of the ite over all of them.
	PrimReadFirst bool
	// StrengthenTighter records a fact a < b of If (sym) and Assume as
	// a + 1 < b: φ_g over-constrained (a < 3 recorded as a < 2). Only
	// direction (a) of the data half of exactness sees it.
	StrengthenTighter bool
	// StrengthenNone records no fact at If (sym) and Assume: φ_g
	// under-constrained. Only direction (b) sees it.
	StrengthenNone bool
	// StrengthenFirstEntry records a fact over a guarded read, ite(g, x,
	// y) inside t, as ite(g, t, true): the fact holds only in the worlds of
	// the read's first entry, the others are under-constrained (direction
	// (b), in the worlds of the other entries only).
	StrengthenFirstEntry bool
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
		VarRestoresEnv: v.VarRestoresEnv, NullCallProceeds: v.NullCallProceeds, IfSymLiteralValues: v.IfSymLiteralValues, Mutation: v.Common}
}

// IsPublished reports whether v makes every default choice.
func (v Variant) IsPublished() bool { return len(v.Differences()) == 0 }

// Differences names the rows of Table whose choice v makes, in table
// order: none for published, the parts of a combination, and for a mutant
// of fixed the three fixes and the mutation.
func (v Variant) Differences() []string { return Table.Differences(v) }

func (v Variant) String() string { return v.Name }

// Variants returns the readings of RULES.md §9, the proposed fixes and
// their named combinations, "published" first. Seed 004's readings and
// the mutations are in Table but not listed here.
func Variants() []Variant {
	return lookupAll(func(r choice.Row[Variant]) bool {
		return r.Kind == choice.Reading || r.Kind == choice.Fix || r.Kind == choice.Combination
	})
}

// Mutants returns every deliberate mutation of Table applied to published
// (the engine's default). The mutation catalog proper is these mutations
// applied to fixed (package mutation).
func Mutants() []Variant {
	return lookupAll(func(r choice.Row[Variant]) bool { return r.Kind == choice.Mutation && r.Mutant })
}

// Lookup returns the variant with the given name: a row of Table, or
// rows joined by "+" ("kbound-assume+v7-uninit-guard" makes every choice
// either part makes; parts must not disagree on a choice), so a finding
// can be reproduced with exactly one correction missing. The name may be
// qualified by the engine ("summary:fixed+m-drop-orig").
func Lookup(name string) (Variant, error) { return Table.Lookup(name) }

func lookupAll(keep func(choice.Row[Variant]) bool) []Variant {
	var out []Variant
	for _, r := range Table.Select(keep) {
		v, err := Table.Lookup(r.Name)
		if err != nil {
			panic(err) // a broken table, not input
		}
		out = append(out, v)
	}
	return out
}

// set returns a Change making one choice.
func set(f func(*Variant)) func(*Variant) { return f }

// mutate returns a Change making one deliberate error.
func mutate(f func(*Mutation)) func(*Variant) { return func(v *Variant) { f(&v.Mutation) } }

// Table is the summary engine's one catalog of choices: readings,
// proposed fixes, combinations, seed 004's readings, and mutations (the
// rows marked Mutant form the mutation catalog on top of Base, in rule
// order: Summarize, Field access, Field write, Equals).
var Table = &choice.Table[Variant]{
	Engine: "summary",
	Base:   "fixed",
	Label:  func(v *Variant, name, doc string) { v.Name, v.Doc = name, doc },
	Rows: []choice.Row[Variant]{
		{Name: "published", Kind: choice.Reading, Doc: "the default column of RULES.md §9 for every row"},
		{Name: "v1-all-candidates", Kind: choice.Reading, Mutant: true,
			Change: set(func(v *Variant) { v.AliasGuard = AliasAll }),
			Doc:    "V1 as in seed 000: an alias guard excludes every other candidate, not only the earlier ones (`<` turned into `≠`)"},
		{Name: "v2-keep-phi", Kind: choice.Reading, Change: set(func(v *Variant) { v.AccessKeepsPhi = true }),
			Doc: "V2 as in seed 000: Field access computes φ'_g for →S* but keeps φ_g in VS and in the successor"},
		{Name: "v3-stuck", Kind: choice.Reading, Change: set(func(v *Variant) { v.NullDeref = NullStuck }),
			Doc: "V3 as in seed 000: no rule for a null dereference (no A′, W′); the state is stuck"},
		{Name: "v4-init-before-write", Kind: choice.Reading, Change: set(func(v *Variant) { v.InitBeforeWrite = true }),
			Doc: "V4 as in seed 001: run →S* on the written field of L(r_x) before Field write (W)"},
		{Name: "v5-literal-outer", Kind: choice.Reading, Change: set(func(v *Variant) { v.EqualsFalse = EqFalseLiteralOuter }),
			Doc: "V5, seed 000's E′ formula with ∧ binding tighter: (φ ∧ ⋀(φ0⇒¬φ1)) ∨ ⋁Φ_0 ∨ ⋁Φ_1"},
		{Name: "v5-literal-inner", Kind: choice.Reading, Change: set(func(v *Variant) { v.EqualsFalse = EqFalseLiteralInner }),
			Doc: "V5, seed 000's E′ formula with φ over the disjunction: φ ∧ (⋀(φ0⇒¬φ1) ∨ ⋁Φ_0 ∨ ⋁Φ_1)"},
		{Name: "v6-min-ref", Kind: choice.Reading, Change: set(func(v *Variant) { v.Candidates = CandMinRef }),
			Doc: "V6 read literally: r_a is the least reference whose L contains l_a, dropped unless it is an input reference"},
		{Name: "v7-uninit-guard", Kind: choice.Fix, Change: set(func(v *Variant) { v.SummarizeGuard = GuardUninit }),
			Doc: "PROPOSED FIX for V7 (docs/FINDINGS.md F2: the checker confirmed V7 unsound; with this fix the lemmas hold on the generated stream): guard θ_null/θ_new/θ_alias by φ_x ∧ φ_un " +
				"(φ_un the guard of l_un in L(R(l_x,f))) and θ_orig by ¬(φ_x ∧ φ_un), so a field written through one alias is not " +
				"re-initialized when read through another"},
		{Name: "kbound-assume", Kind: choice.Fix, Change: set(func(v *Variant) { v.KBound = KBoundAssume }),
			Doc: "PROPOSED FIX for the k-bound (docs/FINDINGS.md F1): when θ_new is left out, conjoin its negated guard to the " +
				"path condition, as GSE leaves out the branch; RULES.md §4 as written leaves the state non-total"},
		{Name: "v8-keep-phi", Kind: choice.Reading, Mutant: true, Change: set(func(v *Variant) { v.ErrorKeepsPhi = true }),
			Doc: "V8 published: the error state of A′/W′ keeps φ_g instead of φ_g ∧ ⋁θ_0"},
		{Name: "v9-extend-env", Kind: choice.Reading, Change: set(func(v *Variant) { v.InvokeExtendsEnv = true }),
			Doc: "V9 as in the papers: Invoke extends the caller's η (GSE must use the same machine options)"},
		{Name: "d1-if-sym-values", Kind: choice.Reading, Change: set(func(v *Variant) { v.IfSymLiteralValues = true }),
			Doc: "PRIMITIVES.md §3 as written (FINDINGS.md D1): a literal branch of If (sym) is a value at once, so (if t true else true) " +
				"gives two paths with one control; the default keeps the literal for one step (rule Bool)"},
		{Name: "idle-null", Kind: choice.Fix, Change: set(func(v *Variant) { v.IdleRef = IdleNull }),
			Doc: "PROPOSED FIX for phantom aliases (docs/FINDINGS.md F3): conjoin φ_s ∨ r_f = r_null, so that r_f is not free " +
				"in the worlds where Summarize does not apply and a later alias entry cannot reach a location that was never created"},
		{Name: "fixed", Kind: choice.Combination, Of: "kbound-assume+v7-uninit-guard+idle-null",
			Doc: "published with every proposed fix: kbound-assume, v7-uninit-guard, idle-null (docs/FINDINGS.md)"},
		{Name: "seed000", Kind: choice.Combination, Of: "v1-all-candidates+v2-keep-phi+v3-stuck+v5-literal-outer+v9-extend-env",
			Doc: "the tech report's figures: V1 all candidates, V2 keep φ_g, V3 stuck, V5 literal (outer reading: ∧ binds tighter than ∨), V9 extend η"},

		// Seed 004 (uber-lazy) as summary variants, ENGINES.md §6.2.
		{Name: "u-st", Kind: choice.Lineage, Change: set(func(v *Variant) { v.Distributed = true }),
			Doc: "U-ST, seed 004: E/E′, A/A′, W/W′, If (sym) and Assume (and Summarize's assumptions) strengthen every guard with their condition " +
				"instead of conjoining it to φ, and fire iff C = 1 (no reference reachable from the roots is left empty); " +
				"the state's φ is ENGINES.md §5.3's φ_view"},
		{Name: "u-eqand", Kind: choice.Lineage, Change: set(func(v *Variant) { v.EqualsFalse = EqFalseSeed004 }),
			Doc: "U-EQAND, seed 004's E′ before the authors' fix (∧→∨, 29dc743): φ ∧ ⋀(φ0⇒¬φ1) ∧ (⋁Φ_0 ∨ ⋁Φ_1)"},

		// Mutations: Summarize (→S, →S*).
		{Name: "m-drop-orig", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.DropOrig = true }),
			Doc: "Summarize without θ_orig"},
		{Name: "m-drop-null", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.DropNull = true }),
			Doc: "Summarize without θ_null"},
		{Name: "m-drop-alias-first", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.DropAlias = 1 }),
			Doc: "Summarize without the alias entry of the first candidate (l_0 when C is the entry class)"},
		{Name: "m-drop-alias-last", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.DropAlias = -1 }),
			Doc: "Summarize without the alias entry of the last candidate"},
		{Name: "m-alias-after", Kind: choice.Mutation, Mutant: true, Change: set(func(v *Variant) { v.AliasGuard = AliasAfter }),
			Doc: "alias guard excludes the candidates after r_a (`<` turned into `>`)"},
		{Name: "m-alias-ignores-null", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.AliasIgnoresNull = true }),
			Doc: "θ_alias guard without r_f ≠ r_null"},
		{Name: "m-new-ignores-aliases", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.NewIgnoresAliases = true }),
			Doc: "θ_new guard without ⋀ r_f ≠ r_a"},
		{Name: "m-new-ignores-null", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.NewIgnoresNull = true }),
			Doc: "θ_new guard without r_f ≠ r_null"},
		{Name: "m-null-ignores-ref", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.NullIgnoresRef = true }),
			Doc: "θ_null guard without r_f = r_null"},
		{Name: "m-orig-guard-access", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.OrigGuardAccess = true }),
			Doc: "θ_orig guarded by ¬φ_x while the new entries keep φ_s = φ_x ∧ φ_un (V7 fix half applied)"},
		{Name: "m-orig-unguarded", Kind: choice.Mutation, Change: mutate(func(m *Mutation) { m.OrigUnguarded = true }),
			Doc: "θ_orig without ¬φ_s: →S* never reaches its fixpoint and the engine fails (not in the catalog: it tests " +
				"that an engine failure is reported, docs/MUTANTS.md)"},
		{Name: "m-guard-true", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.GuardTrue = true }),
			Doc: "Summarize guard φ_s = true"},
		{Name: "m-kbound-plus1", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.KBoundSlack = 1 }),
			Doc: "k-bound one too generous"},
		{Name: "m-kbound-minus1", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.KBoundSlack = -1 }),
			Doc: "k-bound one too strict"},
		{Name: "m-kbound-none", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.KBoundSlack = 1000 }),
			Doc: "no k-bound on the summary side (θ_new always kept)"},
		{Name: "m-single-summarize", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.SingleSummarize = true }),
			Doc: "one →S step instead of →S* (the other locations of UN stay uninitialized)"},
		{Name: "m-summarize-max", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.SummarizeMax = true }),
			Doc: "→S initializes max_l(UN) first instead of min_l(UN)", Equivalent: equivSummarizeMax},
		{Name: "m-merge-and", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.MergeByAnd = true }),
			Doc: "duplicate locations of a value set merged by ∧"},

		// Mutations: Field access (A, A′).
		{Name: "m-forget-phi-prime", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.ForgetPhiPrime = true }),
			Doc: "→S* and VS under φ_g instead of φ'_g (the successor still gets φ'_g)", Equivalent: equivForgetPhiPrime},
		{Name: "m-successor-keeps-phi", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.SuccessorKeepsPhi = true }),
			Doc: "the A successor gets φ_g instead of φ'_g"},
		{Name: "m-vs-drops-field-guard", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.VSDropsFieldGuard = true }),
			Doc: "VS entries carry φ instead of φ ∧ φ'"},

		// Mutations: Field write (W, W′).
		{Name: "m-write-drops-old", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.WriteDropsOld = true }),
			Doc: "W without ST(L,r_cur,¬φ,φ'_g): worlds where r_x is elsewhere lose the old value"},
		{Name: "m-write-first-only", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.WriteFirstOnly = true }),
			Doc: "W writes only the first location of L(r_x)"},
		{Name: "m-no-write-null", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.NoWriteNull = true }),
			Doc: "no rule W′"},

		// Mutations: the data rules (PRIMITIVES.md §4).
		{Name: "m-prim-write-guard-phi", Kind: choice.Mutation, Mutant: true, Data: true, Change: mutate(func(m *Mutation) { m.PrimWriteGuardPhi = true }),
			Doc: "W on a primitive field: the ite guarded by φ'_g instead of the entry guard"},
		{Name: "m-prim-read-first", Kind: choice.Mutation, Mutant: true, Data: true, Change: mutate(func(m *Mutation) { m.PrimReadFirst = true }),
			Doc: "A on a primitive field reads the first satisfiable target instead of the ite over all"},

		// Mutations: If (sym) and Assume, the facts they record
		// (PRIMITIVES.md §3), each seen by one direction of the data half
		// of exactness only.
		{Name: "m-strengthen-tighter", Kind: choice.Mutation, Mutant: true, Data: true, Change: mutate(func(m *Mutation) { m.StrengthenTighter = true }),
			Doc: "If (sym) and Assume record a < b as a + 1 < b (a < 3 as a < 2): φ_g over-constrained, seen by direction (a) only"},
		{Name: "m-strengthen-none", Kind: choice.Mutation, Mutant: true, Data: true, Change: mutate(func(m *Mutation) { m.StrengthenNone = true }),
			Doc: "If (sym) and Assume record no fact: φ_g under-constrained, seen by direction (b) only"},
		{Name: "m-strengthen-first-entry", Kind: choice.Mutation, Mutant: true, Data: true, Change: mutate(func(m *Mutation) { m.StrengthenFirstEntry = true }),
			Doc: "a fact over a guarded read ite(g, x, y) is recorded as ite(g, t, true): the worlds of the other entries lose it (direction (b), in those worlds only)"},

		// Mutations: Equals (E, E′).
		{Name: "m-equals-by-locations", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.EqualsByLocations = true }),
			Doc: "Equals compares location sets like GSE, ignoring guards"},
		{Name: "m-equals-false-no-not", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.EqualsFalseNoNot = true }),
			Doc: "E′ path condition φ ∧ ⋁Φ_α (negation forgotten)"},
		{Name: "m-no-equals-false", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.NoEqualsFalse = true }),
			Doc: "no rule E′"},
		{Name: "m-equals-alpha-or", Kind: choice.Mutation, Mutant: true, Change: mutate(func(m *Mutation) { m.EqualsAlphaOr = true }),
			Doc: "Φ_α built from φ0 ∨ φ1 instead of φ0 ∧ φ1"},
		{Name: "m-equals-true-no-exclusion", Kind: choice.Mutation, Mutant: true,
			Change: mutate(func(m *Mutation) { m.EqualsTrueNoExclusion = true }),
			Doc:    "E path condition φ ∧ ⋁Φ_α, without ⋀¬Φ_0 ∧ ⋀¬Φ_1", Equivalent: equivEqualsTrue},

		// Blind-spot mutations: the reference side (a common rule of package
		// machine, which both engines share, or GSE's E′), applied through
		// the variant's machine options (Common) to GSE and the engine
		// alike. Only the reference-side lemmas GPC and ORC can see them.
		{Name: "m-gse-enot-records-eq", Kind: choice.Mutation, Mutant: true,
			Change: set(func(v *Variant) { v.Common.GSEEqualsNotRecordsEq = true }),
			Doc:    "GSE's E′ records r0 = r1 in the path condition instead of r0 ≠ r1 (blind spot 1: GPC)"},
		{Name: "m-invoke-pushes-callee-env", Kind: choice.Mutation, Mutant: true,
			Change: set(func(v *Variant) { v.Common.InvokePushesCalleeEnv = true }),
			Doc:    "Invoke pushes (pop η_callee k): the caller resumes in the callee's environment (blind spot 2: ORC)"},
		{Name: "m-begin-first-twice", Kind: choice.Mutation, Mutant: true,
			Change: set(func(v *Variant) { v.Common.BeginFirstTwice = true }),
			Doc:    "Begin (first) evaluates the first expression of the block twice (blind spot 2: ORC)"},
		{Name: "m-if-sym-then-only", Kind: choice.Mutation, Mutant: true, Data: true,
			Change: set(func(v *Variant) { v.Common.IfSymThenOnly = true }),
			Doc:    "If (sym) takes only the then branch when both are feasible (data; blind spot 2: ORC)"},
		{Name: "m-gse-feasible-ignores-phi", Kind: choice.Mutation, Mutant: true, Data: true,
			Change: set(func(v *Variant) { v.Common.GSEFeasibleIgnoresPhi = true }),
			Doc:    "GSE decides If (sym) and Assume by S(t) instead of S(φ ∧ t): it explores infeasible paths (data; blind spot 2: ORC)"},
		{Name: "m-binary-le-as-lt", Kind: choice.Mutation, Mutant: true, Data: true,
			Change: set(func(v *Variant) { v.Common.BinaryLeAsLt = true }),
			Doc:    "Binary builds t0 <= t1 as t0 < t1 (data; blind spot 2: ORC)"},
		{Name: "m-gse-assume-no-strengthen", Kind: choice.Mutation, Mutant: true, Data: true,
			Change: set(func(v *Variant) { v.Common.GSEAssumeNoStrengthen = true }),
			Doc:    "GSE's Assume tests its condition but records no fact (data)"},
		{Name: "m-new-prim-symbolic", Kind: choice.Mutation, Mutant: true, Data: true,
			Change: set(func(v *Variant) { v.Common.NewPrimSymbolic = true }),
			Doc:    "New leaves a new object's int and bool fields symbolic instead of 0 and false (data; blind spot 2: ORC)"},
	},
}

const equivSummarizeMax = "The locations of UN are the non-null entries of one deterministic L(r), so their guards " +
	"are pairwise exclusive under φ'_g: in every world at most one of them is r's location, and only its →S step " +
	"changes that world (the others' new entries are guarded by their φ_x, false there; θ_orig keeps the old value; " +
	"idle-null pins their r_f to r_null, which no later alias guard can match because alias guards require r_f ≠ r_null). " +
	"The order therefore changes only reference and location numbers, which representation and isomorphism do not " +
	"observe (locations are matched by a homomorphism, input references never leave the path condition)."

const equivForgetPhiPrime = "φ'_g is φ_g ∧ ⋀¬θ for the satisfiable null guards θ of L(r). Every satisfiability " +
	"question that →S* (UN) and VS ask under it conjoins the guard φ of a non-null entry of L(r), and L(r) is " +
	"deterministic under φ_g (the checker verifies it on the state before the step), so φ ∧ θ ∧ φ_g is unsatisfiable " +
	"and φ ∧ φ_g ≡ φ ∧ φ'_g: every answer, hence every entry built, is the same. Entries are still pruned against φ'_g " +
	"and the successor still gets φ'_g, so the states are identical. (φ'_g matters only in the successor: " +
	"m-successor-keeps-phi is killed.)"

const equivEqualsTrue = "Under φ every checked summary state is deterministic and total, so in each world r0 and r1 " +
	"each take exactly one location. ⋁Φ_α holds exactly when they take the same location l; then the entries of " +
	"L(r0) and L(r1) on other locations are false in that world (determinism), and Φ_0 and Φ_1 only hold guards of " +
	"entries on other locations, so ⋀¬Φ_0 ∧ ⋀¬Φ_1 already follows from φ ∧ ⋁Φ_α. The two path conditions are " +
	"equivalent, so the successors are the same states up to the form of φ."
