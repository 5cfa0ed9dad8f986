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
)

// MutationInfo is one row of the mutant table.
type MutationInfo struct {
	Mut       Mutation
	Name, Doc string
}

// Mutations is the table of single-point mutations, as data.
var Mutations = []MutationInfo{
	{MutDropNull, "m-drop-null", "resolution without θ_null"},
	{MutNewIgnoresAliases, "m-new-ignores-aliases", "θ_new's guard without ⋀ r ≠ r_a"},
	{MutNoWidenNoIdle, "m-no-widen-no-idle", "neither the idle-null conjunct ψ ∨ r = null nor the widening of Exists(l_a) by alias guards (each alone is an equivalent mutant: either keeps an alias from naming an absent location)"},
	{MutAliasAll, "m-alias-all", "an alias guard excludes every other candidate, not only the earlier ones (V1 seed 000)"},
	{MutReadGuardAccess, "m-read-guard-access", "read guard ψ = φ_x instead of φ_x ∧ φ_un (V7 published)"},
	{MutDropOrig, "m-drop-orig", "a deferred read without θ_orig"},
	{MutWriteNoResolve, "m-write-no-resolve", "Field write does not resolve its receiver"},
	{MutEqualsLeftOnly, "m-equals-left-only", "Equals resolves its left operand only"},
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
