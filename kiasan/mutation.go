package kiasan

// Mutation is a single-point change of one rule of this package (issue 13
// item 7): each is read at the one place where the rule makes the choice it
// changes, so the checker can be shown to kill it. MutNone is the engine as
// specified.
type Mutation uint8

const (
	MutNone Mutation = iota
	// MutDropAliases: RESOLVE offers no alias candidates (null and fresh
	// only).
	MutDropAliases
	// MutAllLocations: RESOLVE's alias candidates include the (new C)
	// locations of the class, not only the materialized input locations.
	MutAllLocations
	// MutFreshBeyondK: RESOLVE offers "fresh" whatever the depth.
	MutFreshBeyondK
	// MutLocalSubst: a resolution rewrites only the reference being
	// dereferenced or compared, not every entry naming l_u.
	MutLocalSubst
	// MutForgetNonNull: the non-null branch of a δ̂ null test records no
	// fact r_u ≠ null and leaves MayBeNull set.
	MutForgetNonNull
	// MutMayBeNullAsNonNull: a null test of a δ̂ takes only the non-null
	// branch, as IFNULL-A does for a δ.
	MutMayBeNullAsNonNull
	// MutSameUnequal: IF_ACMPEQ1 (one unresolved location on both sides)
	// answers false.
	MutSameUnequal
	// MutNoNullAtRead: lazier's read of an uninitialized field has no
	// GETFIELD3-S (null) successor.
	MutNoNullAtRead
	// MutFreshPrimDefaults: a fresh materialization leaves the primitive
	// fields at Java's defaults instead of the initial-value symbols α(l, f).
	MutFreshPrimDefaults
	// MutPrimNoResolve: a primitive field of an unresolved receiver is read
	// without RESOLVE, as the δ's own initial value α(l_u, f).
	MutPrimNoResolve
	// MutAliasOwnSymbols: an alias resolution gives the existing object the
	// δ's initial-value symbols α(l_u, f), losing what was written to its
	// primitive fields or assumed about them (PRIMITIVES.md §8).
	MutAliasOwnSymbols
	// MutStampKeepSymbols: stamp-kbound gives an object an older symbol's
	// identity without renaming its initial-value symbols (the variant as
	// ENGINES.md §3.2 words it, before data: docs/FINDINGS.md K-STAMP).
	MutStampKeepSymbols
)

// MutationInfo names and documents a mutation: one row of the mutation
// catalog of lazier and lazier# (engine.Mutants, `lockstep mutants`).
type MutationInfo struct {
	Mut       Mutation
	Name, Doc string
	// Modes are the engines whose rules read the mutation (nil: both); a
	// mutation of a rule one engine does not have is no mutant of it.
	Modes []Mode
	// Equivalent, if not empty, argues why no program can tell the mutant
	// from the default engine under the checked relations.
	Equivalent string
	// Data marks a mutation of a data rule (only programs with data
	// reach it).
	Data bool
	// K, if not nil, is the k-bound the mutant is hunted at instead of
	// k = −1.
	K *int
}

// The mutations of a rule only one engine has: a null test of a δ̂ exists
// in lazier# alone (lazier's δ is never MayBeNull), the null branch at a
// read in lazier alone.
var (
	sharpOnly  = []Mode{LazierSharp}
	lazierOnly = []Mode{Lazier}
)

// kZero is the k of resolve-fresh-beyond-k's hunt: at k = −1 (the k of
// every other mutant) "fresh" is offered at every depth anyway, so the
// mutation changes nothing. At k = 0 the specified engines hold on the
// programs that reach no depth-1 object twice, and the mutant's fresh
// objects beyond the bound are heaps GSE's bound cuts off: lemma KB
// (finite-k divergence; the checker's rerun at k = −1, where the mutant is
// the base, holds). At k = 1 the hunt stops at the base's own divergences
// (docs/FINDINGS.md KB-1, KB-2) first.
var kZero = 0

// Mutations lists every mutation with its name and one-line documentation.
var Mutations = []MutationInfo{
	{Mut: MutDropAliases, Name: "resolve-no-alias", Doc: "RESOLVE drops the alias candidates (only null and fresh)"},
	{Mut: MutAllLocations, Name: "resolve-all-locations", Doc: "RESOLVE also aliases (new C) locations, not only materialized input locations"},
	{Mut: MutFreshBeyondK, Name: "resolve-fresh-beyond-k", Doc: "RESOLVE offers a fresh location beyond the k-bound", K: &kZero},
	{Mut: MutLocalSubst, Name: "resolve-local-subst", Doc: "a resolution rewrites only the reference at hand, not every entry naming l_u"},
	{Mut: MutForgetNonNull, Name: "ifnull-forget-nonnull", Doc: "the non-null branch of a δ̂ null test forgets r_u ≠ null (MayBeNull stays set)", Modes: sharpOnly},
	{Mut: MutMayBeNullAsNonNull, Name: "ifnull-maybenull-nonnull", Doc: "a δ̂ null test treats MayBeNull as non-null (no null branch)", Modes: sharpOnly},
	{Mut: MutSameUnequal, Name: "acmpeq-same-unequal", Doc: "IF_ACMPEQ1: an unresolved location compared with itself is unequal"},
	{Mut: MutNoNullAtRead, Name: "lazier-no-null-read", Doc: "lazier reads an uninitialized field without the GETFIELD3-S null branch", Modes: lazierOnly},
	{Mut: MutFreshPrimDefaults, Name: "fresh-prim-defaults", Doc: "RESOLVE's fresh object keeps Java's defaults in its primitive fields instead of its initial-value symbols", Data: true},
	{Mut: MutPrimNoResolve, Name: "prim-read-no-resolve", Doc: "a primitive field of an unresolved receiver is read without RESOLVE (as the δ's own initial value)", Data: true},
	{Mut: MutStampKeepSymbols, Name: "stamp-keep-symbols", Doc: "stamp-kbound re-identifies an object with an older symbol but keeps its initial-value symbols under the younger identity",
		Equivalent: "only stamp-kbound re-identifies objects: on the catalog's base (default) the mutation changes nothing; on lazier#:stamp-kbound it is killed (L2, testdata/fixedbugs/kiasan-stamp-symbols_L2.jl)", Data: true},
	{Mut: MutAliasOwnSymbols, Name: "resolve-alias-own-symbols", Doc: "an alias resolution gives the existing object the δ's initial-value symbols, losing its primitive fields' writes and constraints", Data: true},
}

func (m Mutation) String() string {
	if m == MutNone {
		return "none"
	}
	for _, i := range Mutations {
		if i.Mut == m {
			return i.Name
		}
	}
	return "mutation?"
}

// MutationByName finds a mutation by its name.
func MutationByName(name string) (Mutation, bool) {
	for _, i := range Mutations {
		if i.Name == name {
			return i.Mut, true
		}
	}
	return MutNone, false
}
