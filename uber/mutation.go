package uber

// Mutation is a deliberate single-point error in the engine's rules, for
// showing that the checker notices it (docs/UBER.md, "Mutants"). They are
// not readings of any source.
type Mutation uint8

const (
	MutNone Mutation = iota
	MutDropNull
	MutNewIgnoresAliases
	MutNoWidenNoIdle
	MutAliasAll
	MutReadGuardAccess
	MutDropOrig
	MutWriteNoResolve
	MutEqualsLeftOnly
	// The data rules (PRIMITIVES.md §4, UBER.md §9).
	MutResolvePrimDefaults
	MutPrimReadNoResolve
	MutPrimWriteGuardPhi
)

// MutationInfo is one row of the mutant table (the catalog of
// engine.Mutants, `lockstep mutants -engine uber`).
type MutationInfo struct {
	Mut       Mutation
	Name, Doc string
	// Equivalent, if not empty, argues why no program can tell the mutant
	// from defer under the checked relations.
	Equivalent string
	// Data marks a mutation of a data rule (only programs with data
	// reach it).
	Data bool
}

// Mutations is the table of single-point mutations, as data.
var Mutations = []MutationInfo{
	{Mut: MutDropNull, Name: "m-drop-null", Doc: "resolution without θ_null"},
	{Mut: MutNewIgnoresAliases, Name: "m-new-ignores-aliases", Doc: "θ_new's guard without ⋀ r ≠ r_a"},
	{Mut: MutNoWidenNoIdle, Name: "m-no-widen-no-idle", Doc: "neither the idle-null conjunct ψ ∨ r = null nor the widening of Exists(l_a) by alias guards (each alone is an equivalent mutant: either keeps an alias from naming an absent location)"},
	{Mut: MutAliasAll, Name: "m-alias-all", Doc: "an alias guard excludes every other candidate, not only the earlier ones (V1 seed 000)"},
	{Mut: MutReadGuardAccess, Name: "m-read-guard-access", Doc: "read guard ψ = φ_x instead of φ_x ∧ φ_un (V7 published)"},
	{Mut: MutDropOrig, Name: "m-drop-orig", Doc: "a deferred read without θ_orig"},
	{Mut: MutWriteNoResolve, Name: "m-write-no-resolve", Doc: "Field write does not resolve its receiver"},
	{Mut: MutEqualsLeftOnly, Name: "m-equals-left-only", Doc: "Equals resolves its left operand only"},
	// The data rules.
	{Mut: MutResolvePrimDefaults, Name: "m-resolve-prim-defaults", Doc: "a resolution leaves the new input object's primitive fields at New's defaults (0, false) instead of its initial-value symbols α(r, f)", Data: true},
	{Mut: MutPrimReadNoResolve, Name: "m-prim-read-no-resolve", Doc: "a primitive field read does not resolve its receiver: it reads the unresolved location's placeholder, with no A′ for its null worlds", Data: true},
	{Mut: MutPrimWriteGuardPhi, Name: "m-prim-write-guard-phi", Doc: "a primitive field write (after the resolution of its receiver) guards its ite by φ'_g instead of the entry guard: every candidate of the resolution is written", Data: true},
}

func (m Mutation) String() string {
	for _, i := range Mutations {
		if i.Mut == m {
			return i.Name
		}
	}
	if m == MutNone {
		return "none"
	}
	return "Mutation(?)"
}
