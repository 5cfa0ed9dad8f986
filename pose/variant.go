package pose

import (
	"fmt"
	"sort"
	"strings"
)

// Variant is the set of rule choices of one POSE-J engine: the published
// readings that lockstep suspects (ENGINES.md §4.2) and single-point
// mutations for testing the checker. The zero value is the world-exact
// POSE-J of ENGINES.md §4.3.
type Variant struct {
	// PublishedMerge reproduces P-MERGE (seed 003 mergeHPf (3)–(6),
	// mergeHGf (3)–(4), jPOSE Interpreter.mergeHeaps): the part of a ⊥
	// field that a branch of an ite receiver did not touch becomes a fresh
	// initial-value symbol, not l_un, and each branch's update only sees
	// the aliases initialized before the write.
	PublishedMerge bool
	// JPoseEq reproduces P-EQ (jPOSE stepComputationHandleEq): a new
	// location compared with an ite is false.
	JPoseEq bool
	// KBound is GSE's k-bound (kbound.go): a symbol read from an object
	// of depth k is null or an alias of a symbol bound before the read.
	KBound bool
	// Mutation is a deliberate defect (zero: none).
	Mutation Mutation
}

// Mutation lists single-point mutations of the POSE-J rules, each read at
// exactly one place in its rule, for checking that the checker notices.
type Mutation struct {
	// AssumeIgnoresReceiver refines the field in every ⊥ world, not only
	// where the read reaches the symbol (ENGINES.md §4.3 read literally).
	AssumeIgnoresReceiver bool
	// AssumeNoAliases drops the alias entries of assume: every read of a ⊥
	// field is a fresh symbol.
	AssumeNoAliases bool
	// AliasGuardIgnoresInit excludes an alias Y_i in every world Y = Y_i,
	// also where its field is still ⊥ (POSE's alias set read per state,
	// not per world).
	AliasGuardIgnoresInit bool
	// AssumeDropsOld forgets the old value in the worlds the read does not
	// refine.
	AssumeDropsOld bool
	// NoUpdate drops the update of the aliases on a write.
	NoUpdate bool
	// UpdateIgnoresReceiver propagates a write to the aliases of every
	// receiver symbol in all worlds, not only where that symbol is the
	// receiver.
	UpdateIgnoresReceiver bool
	// WriteDropsOld forgets the old value in the worlds a write does not
	// touch.
	WriteDropsOld bool
	// EqSymbolsFalse makes two distinct symbols always different (Eq (c2)
	// applied to symbols).
	EqSymbolsFalse bool
	// NullIgnored never takes the null worlds of a dereference (POSE's
	// (r1) without lockstep's error end).
	NullIgnored bool

	// The data rules (PRIMITIVES.md §4, data.go).

	// PrimUpdateSwapped writes the update ite of a primitive field with its
	// branches swapped: ite(Y = Y', H(Y')(f), σ').
	PrimUpdateSwapped bool
	// PrimNoUpdate drops the update of the aliases on a primitive write.
	PrimNoUpdate bool
	// PrimAssumeNoAliases binds a primitive field to its initial value
	// α(r_Y, f), ignoring the aliases bound before.
	PrimAssumeNoAliases bool
	// PrimWriteDropsOld writes t in every world, not ite(g, t, old).
	PrimWriteDropsOld bool
	// PrimReadLast reads a primitive field through the last receiver entry
	// only, not the ite over all of them.
	PrimReadLast bool
}

// Mutations lists the named mutations with their one-line docs: the
// mutation catalog of POSE-J (engine.Mutants, `lockstep mutants -engine
// pose`). Equivalent, if not empty, argues why no program can tell the
// mutant from world-exact under the checked relations.
var Mutations = []struct {
	Name, Doc  string
	Set        func(*Mutation)
	Equivalent string
	Data       bool // a mutation of a data rule (only programs with data reach it)
}{
	{Name: "assume-ignores-receiver", Doc: "Assume refines every ⊥ world, not only those the read reaches", Set: func(m *Mutation) { m.AssumeIgnoresReceiver = true }},
	{Name: "assume-no-aliases", Doc: "Assume never copies an alias's field: every ⊥ read is a fresh symbol", Set: func(m *Mutation) { m.AssumeNoAliases = true }},
	{Name: "alias-guard-ignores-init", Doc: "Assume excludes an alias also where its field is still ⊥", Set: func(m *Mutation) { m.AliasGuardIgnoresInit = true }},
	{Name: "assume-drops-old", Doc: "Assume forgets the old value in the worlds it does not refine", Set: func(m *Mutation) { m.AssumeDropsOld = true }},
	{Name: "no-update", Doc: "a write does not update the aliases of the receiver symbol", Set: func(m *Mutation) { m.NoUpdate = true }},
	{Name: "update-ignores-receiver", Doc: "update propagates in every world Y = Y', not only where Y is the receiver", Set: func(m *Mutation) { m.UpdateIgnoresReceiver = true }},
	{Name: "write-drops-old", Doc: "a write forgets the old value in the worlds it does not touch", Set: func(m *Mutation) { m.WriteDropsOld = true }},
	{Name: "eq-symbols-false", Doc: "two distinct symbols always compare false", Set: func(m *Mutation) { m.EqSymbolsFalse = true }},
	{Name: "null-ignored", Doc: "no A′/W′/Invoke′: the null worlds of a dereference are dropped", Set: func(m *Mutation) { m.NullIgnored = true }},
	{Name: "prim-update-swapped", Doc: "the update ite of a primitive write has its branches swapped: ite(Y = Y', old, new)", Set: func(m *Mutation) { m.PrimUpdateSwapped = true }, Data: true},
	{Name: "prim-no-update", Doc: "a primitive write does not update the aliases of the receiver symbol", Set: func(m *Mutation) { m.PrimNoUpdate = true }, Data: true},
	{Name: "prim-assume-no-aliases", Doc: "a primitive field is bound to its initial value, ignoring the aliases bound before", Set: func(m *Mutation) { m.PrimAssumeNoAliases = true }, Data: true},
	{Name: "prim-write-drops-old", Doc: "a primitive write through a receiver with several targets writes every target in every world", Set: func(m *Mutation) { m.PrimWriteDropsOld = true }, Data: true},
	{Name: "prim-read-last", Doc: "a primitive read through a receiver with several targets reads only the last one", Set: func(m *Mutation) { m.PrimReadLast = true }, Data: true},
}

// Default is the name of the default variant.
const Default = "world-exact"

// variants are the named published readings; they compose with "+".
var variants = []struct {
	Name, Doc string
	Set       func(*Variant)
}{
	{Default, "POSE-J as ENGINES.md §4.3, world-exact (no change)", func(*Variant) {}},
	{"pose-published-merge", "P-MERGE: a ⊥ part becomes a fresh initial-value symbol at an ite merge (seed 003 mergeHPf/mergeHGf)", func(v *Variant) { v.PublishedMerge = true }},
	{"jpose-eq", "P-EQ: a new location compared with an ite is false (jPOSE stepComputationHandleEq)", func(v *Variant) { v.JPoseEq = true }},
	{"kbound", "GSE's k-bound (POSE has none): a symbol read from an object of depth k is null or aliases a symbol bound before the read", func(v *Variant) { v.KBound = true }},
}

// Lookup parses a variant name: "+"-separated variant and mutation names.
func Lookup(name string) (Variant, error) {
	var v Variant
	if name == "" {
		return v, nil
	}
next:
	for _, part := range strings.Split(name, "+") {
		for _, x := range variants {
			if x.Name == part {
				x.Set(&v)
				continue next
			}
		}
		for _, x := range Mutations {
			if x.Name == part || "mut-"+x.Name == part {
				x.Set(&v.Mutation)
				continue next
			}
		}
		return v, fmt.Errorf("pose: unknown variant %q (variants: %s)", part, strings.Join(Names(), ", "))
	}
	return v, nil
}

// Names lists the variant names (mutations excluded).
func Names() []string {
	var out []string
	for _, x := range variants {
		out = append(out, x.Name)
	}
	sort.Strings(out[1:])
	return out
}
