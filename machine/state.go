// Package machine is the state (L R φ η e k) of RULES.md §2 and the rules
// common to both engines (§3), implemented once for both to share.
//
// A State is the whole machine configuration. The heap is kept in dense
// slices rather than maps because both engines clone states at every branch
// and explore millions of them: references and locations are small
// integers, so L is a slice indexed by reference, R a slice indexed by
// location × global field ID, and a clone is three copies.
//
// The engines differ only in the heap rules (field access, field write and
// reference comparison). Step applies a common rule itself and hands a
// state whose redex is a heap rule to the engine's HeapRules. Because every
// rule application, heap rules included, is exactly one step, a step bound
// cuts a path at the same control point in both engines, and the stack
// references (allocated only by common rules and by field access, identically
// in both engines) coincide along the same control flow. That is what lets
// the checker compare controls (η e k) of the two engines literally.
package machine

import (
	"fmt"
	"slices"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// Ref is a reference. The three partitions of RULES.md §2 are told apart by
// n mod 3 on non-negative numbers; r_null and r_un are the two negative
// distinguished references.
type Ref = smt.Ref

const (
	RNull = smt.Null
	RUn   = smt.Un
)

// Partition of a reference (RULES.md §2).
type Partition uint8

const (
	PartStack   Partition = iota // stack_r(): n mod 3 = 0
	PartInput                    // init_r():  n mod 3 = 1
	PartFresh                    // fresh_r(): n mod 3 = 2
	PartSpecial                  // r_null, r_un
)

// PartitionOf returns the partition of r.
func PartitionOf(r Ref) Partition {
	if r < 0 {
		return PartSpecial
	}
	return Partition(r % 3)
}

// Loc is a location. Numbered locations are dense from 0 (l_0 is the entry
// receiver); l_null and l_un are negative.
type Loc int32

const (
	LNull Loc = -1
	LUn   Loc = -2
)

func (l Loc) String() string {
	switch l {
	case LNull:
		return "l_null"
	case LUn:
		return "l_un"
	}
	return fmt.Sprintf("l%d", int32(l))
}

// LocInfo describes a numbered location. Only Exists may change after the
// location is created (a State's Locs slice is copied by Clone, so a change
// stays in one state).
type LocInfo struct {
	Class *javalite.Class
	// Input locations are l_0 and those created by an initialization "new"
	// choice (GSE) or by Summarize (θ_new).
	Input bool
	// Depth is used by the k-bound: 0 for l_0, depth(l_x)+1 for a location
	// created by initializing a field of l_x.
	Depth int
	// Identity is the input reference whose initialization created the
	// location (r_in0 for l_0); RNull for non-input locations.
	Identity Ref
	// Exists is the condition under which the location is part of the
	// represented heap: true for GSE locations, l_0 and (new C) locations.
	// For a summary location it is its θ_new guard, widened by the guard of
	// every alias entry to it taken since (in a world where the location
	// had not been materialized, taking that entry names the new object).
	// Concretization needs it, because an input location that no field
	// points to any more is still part of the heap (a later initialization
	// can alias it).
	Exists *smt.Formula

	// State extensions of engines other than GSE and heap summaries
	// (ENGINES.md §3.2, §4.3). The relations never read them: they read an
	// engine's View, in which these are mapped away.
	//
	// Unresolved marks a Kiasan symbolic location δ (lazier) or symbolic
	// reference δ̂ (lazier#, with MayBeNull): an input object not yet
	// resolved to null, an existing input location or a fresh one.
	Unresolved, MayBeNull bool
	// Symbolic marks a POSE-J symbolic location l_Y: the object of symbol
	// Y, the same object as another symbolic location of its class in the
	// worlds where their identity references are equal.
	Symbolic bool
}

// Entry is one guarded location (φ l) of a guarded value set.
type Entry struct {
	Guard *smt.Formula
	Loc   Loc
}

// GVS is a guarded value set {(φ l) ...}. A GVS stored in a state is never
// modified in place (states share them after a clone); build a new one.
type GVS []Entry

// Single is the GVS {(true l)}.
func Single(l Loc) GVS { return GVS{{Guard: smt.True(), Loc: l}} }

// Merge adds (g l) to the set, merging a duplicate location by disjunction
// of the guards (RULES.md §2), and returns the new set without touching the
// old one.
func (s GVS) Merge(g *smt.Formula, l Loc) GVS {
	for i, e := range s {
		if e.Loc == l {
			out := append(GVS(nil), s...)
			out[i].Guard = smt.Or(e.Guard, g)
			return out
		}
	}
	out := make(GVS, len(s), len(s)+1)
	copy(out, s)
	return append(out, Entry{Guard: g, Loc: l})
}

// GuardOf is the guard of l in s, nil when l is not one of its
// locations.
func (s GVS) GuardOf(l Loc) *smt.Formula {
	for _, e := range s {
		if e.Loc == l {
			return e.Guard
		}
	}
	return nil
}

// A GVSBuilder makes the GVS that repeated Merges would, with the
// disjunction of each location's guards built once: a Merge per entry
// re-sorts the location's whole disjunction, quadratic in the entries
// merged into one location (a View canonicalizes each entry into one per
// earlier symbol of its class). The zero value is empty.
type GVSBuilder struct {
	locs   []Loc
	guards [][]*smt.Formula
	at     map[Loc]int
}

// Add is Merge(g, l).
func (b *GVSBuilder) Add(g *smt.Formula, l Loc) {
	i, ok := b.at[l]
	if !ok {
		if b.at == nil {
			b.at = map[Loc]int{}
		}
		i = len(b.locs)
		b.at[l] = i
		b.locs = append(b.locs, l)
		b.guards = append(b.guards, nil)
	}
	b.guards[i] = append(b.guards[i], g)
}

// GVS is the set, locations in the order they were first added (as
// Merge keeps them).
func (b *GVSBuilder) GVS() GVS {
	if len(b.locs) == 0 {
		return nil
	}
	out := make(GVS, len(b.locs))
	for i, l := range b.locs {
		out[i] = Entry{Guard: smt.Or(b.guards[i]...), Loc: l}
	}
	return out
}

// Value is what η binds and what e becomes: a reference (a stack reference
// or r_null), a control literal true or false, ⊥ (an unbound slot), or a
// primitive term (PRIMITIVES.md §2).
//
// The two kinds of primitive value are kept apart on purpose. The control
// literals come from the program's literals and from reference comparison
// (E/E′), which branches: two states that differ in one are different
// controls, in every engine, as before data existed. A term value comes
// from data (a primitive field, Binary, Equals (prim) on a term, an int
// literal) and never splits a control: the control key writes only its
// sort, and its term is a *slot* (Slots), compared by the data half of the
// relations. A term stays a term even when it is the constant true, because
// whether a value is a literal must not depend on how far an engine could
// fold it (GSE reads 5 where the summary engine reads ite(φ, 5, α)): it
// depends only on the expression that made it, which both engines share.
type Value struct {
	r Ref          // a reference, or one of the tags below
	t *smt.Formula // the term of a term value (r == tagTerm)
}

const (
	tagTrue  Ref = -10
	tagFalse Ref = -11
	tagUndef Ref = -12
	tagTerm  Ref = -13
)

var (
	VTrue  = Value{r: tagTrue}
	VFalse = Value{r: tagFalse}
	VUndef = Value{r: tagUndef} // an environment slot not yet bound
)

// RefVal is the value of reference r.
func RefVal(r Ref) Value { return Value{r: r} }

// BoolVal is the control literal true or false.
func BoolVal(b bool) Value {
	if b {
		return VTrue
	}
	return VFalse
}

// PrimVal is the term value t (int or bool sort).
func PrimVal(t *smt.Formula) Value { return Value{r: tagTerm, t: t} }

// IsRef reports whether v is a reference.
func (v Value) IsRef() bool { return v.r >= RUn }

// IsBool reports whether v is a control literal, true or false.
func (v Value) IsBool() bool { return v.r == tagTrue || v.r == tagFalse }

// IsTerm reports whether v is a term value.
func (v Value) IsTerm() bool { return v.r == tagTerm }

// IsPrim reports whether v is primitive: a control literal or a term.
func (v Value) IsPrim() bool { return v.IsBool() || v.IsTerm() }

// Term returns the term of a primitive value (True or False for the control
// literals) and nil for any other value.
func (v Value) Term() *smt.Formula {
	switch v.r {
	case tagTrue:
		return smt.True()
	case tagFalse:
		return smt.False()
	case tagTerm:
		return v.t
	}
	return nil
}

// Ref returns the reference of v; v must be a reference.
func (v Value) Ref() Ref { return v.r }

// key is a number that tells apart every value the control key keeps: a
// reference, a control literal, ⊥, and a term value by its sort only.
func (v Value) key() int64 {
	if v.r == tagTerm {
		return int64(tagTerm)*2 - int64(v.t.Sort())
	}
	return int64(v.r)
}

func (v Value) String() string {
	switch v.r {
	case tagTrue:
		return "true"
	case tagFalse:
		return "false"
	case tagUndef:
		return "⊥"
	case tagTerm:
		return smt.Short(v.t)
	}
	return RefString(v.r)
}

// RefString prints a reference the way the papers do: r_null, r_un, and
// s3 / i4 / f5 for the stack, input and fresh partitions.
func RefString(r Ref) string {
	switch r {
	case RNull:
		return "r_null"
	case RUn:
		return "r_un"
	}
	return fmt.Sprintf("%c%d", "sif"[r%3], int32(r))
}

// Mode says what the current e of a state is.
type Mode uint8

const (
	ModeExpr  Mode = iota // e is an expression still to evaluate
	ModeValue             // e is a value
	ModeError             // e is error (and k is end)
	// ModePruned marks a state that rule Assume pruned (PRIMITIVES.md §3):
	// Step returned no successor for it, and an explorer counts a pruned
	// end, which is not a path. No rule applies to it.
	ModePruned
)

// State is (L R φ η e k) plus the bookkeeping the rules need: location
// descriptors, the three reference counters, and the step count.
type State struct {
	Prog *javalite.Program

	Locs []LocInfo // indexed by Loc
	L    []GVS     // indexed by int(Ref)+2; nil for references not in use
	R    []Ref     // indexed by int(Loc)*NumFields + field ID
	// Prim holds the primitive fields (PRIMITIVES.md §2), indexed like R;
	// nil while no location of a class with a primitive field exists, so
	// programs without data pay nothing. R(l, f) of a primitive field is
	// r_un forever: the reference relations see a field no rule ever
	// initializes, the same in every engine.
	Prim []*smt.Formula

	// Phi is the path condition. GSE records its comparisons in Facts
	// instead, so that millions of GSE paths do not intern millions of long
	// conjunctions; PathCondition combines both.
	Phi   *smt.Formula
	Facts *Fact

	Env  []Value // η, indexed by javalite slot
	Mode Mode
	Expr javalite.Expr // when Mode == ModeExpr
	Val  Value         // when Mode == ModeValue
	K    *Kont         // nil is end
	// Origin is the literal a control literal value came from, set only
	// by a branch of If (sym) and cleared by the next step (SetValue,
	// SetExpr): it keeps the two branches of (if t true else true) two
	// controls (ControlKey; FINDINGS.md D1). Nil everywhere else.
	Origin javalite.Expr

	NextStack, NextInput, NextFresh Ref
	Steps                           int

	// Arena, if not nil, is where the rules allocate frames, environments
	// and facts of this state (arena.go); only an explorer that owns the
	// state sets it. Clone does not copy it.
	Arena *Arena

	// pc is PathCondition's answer for φ = pcPhi and the facts pcFacts,
	// valid while the state still has both (formulas and fact lists are
	// never changed in place, so the two pointers are everything the
	// conjunction depends on).
	pc      *smt.Formula
	pcPhi   *smt.Formula
	pcFacts *Fact

	// writes counts the writes made through Set (of a reference that is
	// not a stack reference), SetField, SetPrimField, NewLoc and AddFact
	// (HeapWrites). Clone copies it.
	writes uint64
}

// HeapWrites is the number of writes to R, to L(r) of references r that
// are not stack references, to the locations, the primitive fields and
// the facts made through the State's methods (Set, SetField,
// SetPrimField, NewLoc, AddFact) since the state was made, counting those
// of the states it was cloned from; a stack reference's L is not counted
// (most steps bind one, and the heap is about the other references). A
// state whose count is the one its original had at some moment, and that
// was made from that original by steps and clones only, has the
// original's R, locations, facts and L of every reference but the stack's
// of that moment, if every write to them went through those methods,
// which the rules of machine and gse do (a writer of the exported fields,
// such as an engine that sets φ or a location's guard itself, is not
// counted: a caller relying on the count checks what it can see besides,
// such as φ's pointer).
func (s *State) HeapWrites() uint64 { return s.writes }

// Fact is a persistent list of path-condition conjuncts.
type Fact struct {
	F    *smt.Formula
	Next *Fact
}

// NumFields is the number of global field IDs (the row width of R).
func (s *State) NumFields() int { return len(s.Prog.Fields) }

// Get returns L(r).
func (s *State) Get(r Ref) GVS {
	i := int(r) + 2
	if i < 0 || i >= len(s.L) {
		return nil
	}
	return s.L[i]
}

// Set makes L(r) = g. g must not be modified afterwards.
func (s *State) Set(r Ref, g GVS) {
	if PartitionOf(r) != PartStack {
		s.writes++
	}
	i := int(r) + 2
	for i >= len(s.L) {
		s.L = append(s.L, nil)
	}
	s.L[i] = g
}

// Field returns R(l, f).
func (s *State) Field(l Loc, f *javalite.Field) Ref {
	return s.R[int(l)*s.NumFields()+f.ID]
}

// SetField makes R(l, f) = r.
func (s *State) SetField(l Loc, f *javalite.Field, r Ref) {
	s.writes++
	s.R[int(l)*s.NumFields()+f.ID] = r
}

// PrimField returns the term of primitive field f of l.
func (s *State) PrimField(l Loc, f *javalite.Field) *smt.Formula {
	i := int(l)*s.NumFields() + f.ID
	if i >= len(s.Prim) {
		return nil
	}
	return s.Prim[i]
}

// SetPrimField makes the primitive field f of l hold t.
func (s *State) SetPrimField(l Loc, f *javalite.Field, t *smt.Formula) {
	s.writes++
	s.Prim[int(l)*s.NumFields()+f.ID] = t
}

// InitialValue is α(l, f), the initial-value symbol of primitive field f
// of the input location whose identity reference is id (PRIMITIVES.md §2).
func InitialValue(id Ref, f *javalite.Field) *smt.Formula {
	return smt.Sym(id, f.ID, Sort(f.T))
}

// Sort is the sort of the terms of primitive type t.
func Sort(t javalite.Type) smt.Sort {
	if t.Kind == javalite.KindInt {
		return smt.SortInt
	}
	return smt.SortBool
}

// DefaultValue is Java's default of a primitive field of a new object: 0
// or false (PRIMITIVES.md §2).
func DefaultValue(f *javalite.Field) *smt.Formula {
	if f.T.Kind == javalite.KindInt {
		return smt.Int(0)
	}
	return smt.False()
}

// StackR is stack_r().
func (s *State) StackR() Ref { r := s.NextStack; s.NextStack += 3; return r }

// InitR is init_r().
func (s *State) InitR() Ref { r := s.NextInput; s.NextInput += 3; return r }

// FreshR is fresh_r().
func (s *State) FreshR() Ref { r := s.NextFresh; s.NextFresh += 3; return r }

// NewLoc creates a location of class c with every field set to fieldInit
// (r_null for (new C), r_un for an input location).
func (s *State) NewLoc(info LocInfo, fieldInit Ref) Loc {
	s.writes++
	l := Loc(len(s.Locs))
	if info.Exists == nil {
		info.Exists = smt.True()
	}
	if !info.Input {
		info.Identity = RNull
	}
	s.Locs = append(s.Locs, info)
	nf := s.NumFields()
	for i := 0; i < nf; i++ {
		s.R = append(s.R, RUn)
	}
	for _, f := range info.Class.RefFields {
		s.R[int(l)*nf+f.ID] = fieldInit
	}
	if len(info.Class.PrimFields) > 0 || s.Prim != nil {
		for len(s.Prim) < len(s.R) {
			s.Prim = append(s.Prim, nil)
		}
		// An input location's primitive fields hold their initial-value
		// symbols from the start, with no branching (PRIMITIVES.md §2);
		// a new object's hold Java's defaults.
		for _, f := range info.Class.PrimFields {
			t := DefaultValue(f)
			if info.Input {
				t = InitialValue(info.Identity, f)
			}
			s.Prim[int(l)*nf+f.ID] = t
		}
	}
	return l
}

// InitPrimFields makes every primitive field of l its initial-value
// symbol α(l, f) under l's identity reference: for a location that becomes
// an input object after it was created (a deferred or unresolved one,
// resolved as fresh).
func (s *State) InitPrimFields(l Loc) {
	info := s.Locs[l]
	for _, f := range info.Class.PrimFields {
		s.SetPrimField(l, f, InitialValue(info.Identity, f))
	}
}

// ClassOf returns the class of a numbered location.
func (s *State) ClassOf(l Loc) *javalite.Class { return s.Locs[l].Class }

// InputLocs returns ρ(C): the input locations of class c with their
// identity references, ordered by identity reference.
func (s *State) InputLocs(c *javalite.Class) []Entry2 {
	var out []Entry2
	for l, info := range s.Locs {
		if info.Input && info.Class == c {
			out = append(out, Entry2{Ref: info.Identity, Loc: Loc(l)})
		}
	}
	// Identity references are allocated in increasing order along with the
	// locations, so creation order is already reference order; sort anyway
	// in case a variant creates them otherwise.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Ref < out[j-1].Ref; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Entry2 is a pair (r_a l_a) of ρ(C).
type Entry2 struct {
	Ref Ref
	Loc Loc
}

// PathCondition returns φ as one formula.
func (s *State) PathCondition() *smt.Formula {
	if s.Facts == nil {
		return s.Phi
	}
	if s.pc != nil && s.pcPhi == s.Phi && s.pcFacts == s.Facts {
		return s.pc
	}
	fs := []*smt.Formula{s.Phi}
	for f := s.Facts; f != nil; f = f.Next {
		fs = append(fs, f.F)
	}
	s.pc, s.pcPhi, s.pcFacts = smt.And(fs...), s.Phi, s.Facts
	return s.pc
}

// AddFact records a GSE comparison in the path condition.
func (s *State) AddFact(f *smt.Formula) { s.writes++; s.Facts = s.fact(f, s.Facts) }

// Terminal reports whether the state is (… v end) or (… error end).
func (s *State) Terminal() bool {
	return s.Mode == ModeError || s.Mode == ModePruned || (s.Mode == ModeValue && s.K == nil)
}

// Clone returns an independent copy. GVSs, LocInfos, formulas, the
// environment and the continuation are immutable and shared; the copy has
// no Arena (of a state that allocates from one, CloneDeep makes a copy
// that outlives the arena's next reset).
func (s *State) Clone() *State {
	c := *s
	c.Locs = append([]LocInfo(nil), s.Locs...)
	c.L = append([]GVS(nil), s.L...)
	c.R = append([]Ref(nil), s.R...)
	if s.Prim != nil {
		c.Prim = append([]*smt.Formula(nil), s.Prim...)
	}
	c.Arena = nil
	return &c
}

// SetPruned marks the state pruned by rule Assume.
func (s *State) SetPruned() {
	s.Mode, s.Expr, s.Val, s.K, s.Origin = ModePruned, nil, Value{}, nil, nil
}

// Pruned reports whether rule Assume pruned the state.
func (s *State) Pruned() bool { return s.Mode == ModePruned }

// SetError makes the state (L R φ η error end).
func (s *State) SetError() {
	s.Mode, s.Expr, s.Val, s.K, s.Origin = ModeError, nil, Value{}, nil, nil
}

// SetValue makes e the value v with continuation k.
func (s *State) SetValue(v Value, k *Kont) {
	s.Mode, s.Expr, s.Val, s.K, s.Origin = ModeValue, nil, v, k, nil
}

// SetExpr makes e the expression x with continuation k. The literals true
// and false are values already (RULES.md §1: v ::= … | true | false), so
// they enter the state as values; null is not, it steps by rule Null.
func (s *State) SetExpr(x javalite.Expr, k *Kont) {
	if lit, ok := x.(*javalite.Lit); ok && lit.Kind != javalite.LitNull {
		s.SetValue(BoolVal(lit.Kind == javalite.LitTrue), k)
		return
	}
	s.Mode, s.Expr, s.Val, s.K, s.Origin = ModeExpr, x, Value{}, k, nil
}

// rootsScan is the number of roots Roots tells apart by a linear scan.
const rootsScan = 32

// Roots returns every stack reference in η, e and k: the references a
// homomorphism must map besides the field edges (RULES.md §7).
func (s *State) Roots() []Ref { return s.AppendRoots(nil) }

// AppendRoots appends Roots() to out and returns the extended slice (a
// caller that asks for the roots of every state of every pair passes a
// buffer it reuses).
func (s *State) AppendRoots(out []Ref) []Ref {
	// A state holds a few dozen roots at most: a linear scan for the ones
	// seen finds them faster than a map made at every call. A map takes
	// over past rootsScan.
	start := len(out)
	var seen map[Ref]bool
	for _, v := range s.Env {
		out, seen = addRoot(out, start, seen, v)
	}
	if s.Mode == ModeValue {
		out, seen = addRoot(out, start, seen, s.Val)
	}
	for k := s.K; k != nil; k = k.Next {
		if k.Kind == KEqR || k.Kind == KCallArg || k.Kind == KPopVar {
			out, seen = addRoot(out, start, seen, k.Val)
		}
		for _, v := range k.Env {
			out, seen = addRoot(out, start, seen, v)
		}
	}
	return out
}

// addRoot appends v's reference to out unless out[start:] has it.
func addRoot(out []Ref, start int, seen map[Ref]bool, v Value) ([]Ref, map[Ref]bool) {
	if !v.IsRef() {
		return out, seen
	}
	r := v.Ref()
	if seen != nil {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
		return out, seen
	}
	if slices.Contains(out[start:], r) {
		return out, seen
	}
	out = append(out, r)
	if len(out)-start > rootsScan {
		seen = make(map[Ref]bool, 2*rootsScan)
		for _, x := range out[start:] {
			seen[x] = true
		}
	}
	return out, seen
}
