package smt

import (
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"weak"
)

// Ref is a reference constant of the uninterpreted sort "Ref". The machine
// aliases its reference type to this one (type Ref = smt.Ref), so formulas can
// talk about machine references without conversion.
type Ref int32

const (
	// Null is r_null. In Z3 it is one more constant of the Ref sort; nothing
	// forces it to differ from the input references, the path condition does.
	Null Ref = -1
	// Un is r_un. It is reserved: it never appears in a formula, and the
	// constructors panic if asked to build an atom over it, because an atom
	// over r_un always signals a bug in the caller.
	Un Ref = -2
)

// String prints a reference the way formulas print it: r<n>, "null" or "un".
func (r Ref) String() string {
	switch r {
	case Null:
		return "null"
	case Un:
		return "un"
	}
	return "r" + strconv.Itoa(int(r))
}

// Op is the operator at the root of a Formula.
type Op uint8

const (
	OpTrue Op = iota
	OpFalse
	OpEq
	OpNot
	OpAnd
	OpOr
	// Primitive terms (terms.go). OpInt and OpSym are leaves; the others
	// keep their operands in Kids: Add, Sub, Lt, Le and EqT two, Ite three
	// (condition, then, else).
	OpInt
	OpSym
	OpAdd
	OpSub
	OpLt
	OpLe
	OpEqT
	OpIte
)

func (o Op) String() string {
	switch o {
	case OpTrue:
		return "true"
	case OpFalse:
		return "false"
	case OpEq:
		return "="
	case OpNot:
		return "¬"
	case OpAnd:
		return "∧"
	case OpOr:
		return "∨"
	case OpInt:
		return "int"
	case OpSym:
		return "α"
	case OpAdd:
		return "+"
	case OpSub:
		return "-"
	case OpLt:
		return "<"
	case OpLe:
		return "<="
	case OpEqT:
		return "=ₜ"
	case OpIte:
		return "ite"
	}
	return "Op(" + strconv.Itoa(int(o)) + ")"
}

// Formula is an immutable, hash-consed formula over reference equalities,
// or a primitive term (terms.go): an int-sorted term, or a bool-sorted one,
// which is a formula like any other.
//
// Two structurally equal formulas (after the constructors' simplification)
// are the same pointer, so pointer (or ID) equality is formula equality, and
// the solver can cache answers and Z3 translations by ID.
//
// The zero Formula is not valid; obtain formulas only through the
// constructors.
type Formula struct {
	op Op
	// sort is SortBool for every formula and SortInt for int terms; data
	// is set at construction when the node is or contains a term node
	// (OpInt … OpIte), so that the solver routes a question with one field
	// read. Both fit in the padding after op.
	sort Sort
	data bool
	// OpEq: the references, a < b. OpSym: a is the identity reference and
	// b the field. OpInt: the value, low half in a and high half in b.
	a, b Ref
	kids []*Formula // OpNot: one kid; OpAnd/OpOr: ≥ 2 kids sorted by ID; terms: their operands
	refs []Ref      // sorted distinct constants of Eq atoms, computed once at construction
	id   uint64
}

// Op returns the root operator.
func (f *Formula) Op() Op { return f.op }

// Kids returns the operands of Not, And and Or (nil otherwise). The slice is
// shared with the formula: do not modify it.
func (f *Formula) Kids() []*Formula { return f.kids }

// Atom returns the two references of an OpEq formula, a < b. For any other
// operator it returns (Un, Un).
func (f *Formula) Atom() (a, b Ref) {
	if f.op != OpEq {
		return Un, Un
	}
	return f.a, f.b
}

// ID is unique for the process and never reused, even after the formula has
// been garbage collected. IDs give the canonical operand order of And/Or.
func (f *Formula) ID() uint64 { return f.id }

// CompareID orders f against an ID, for binary searches over formulas
// sorted by ID (the operands of And, Or and EqT are).
func CompareID(f *Formula, id uint64) int { return cmp.Compare(f.id, id) }

// ConjunctsWithin reports whether every conjunct of a (the operands of a
// conjunction, none for True, else a itself) is a conjunct of b, so that
// b implies a. The operands of a conjunction are sorted by ID (And),
// which lets one pass over both lists decide; were they not, an operand
// would only be missed, never found where it is not.
func ConjunctsWithin(a, b *Formula) bool {
	if a.IsTrue() || a == b {
		return true
	}
	if b.op != OpAnd {
		return false // b's one conjunct (or none) is not a
	}
	bk := b.kids
	if a.op != OpAnd {
		_, ok := slices.BinarySearchFunc(bk, a.id, CompareID)
		return ok
	}
	ak := a.kids
	if len(ak) > len(bk) {
		return false
	}
	j := 0
	for _, x := range ak {
		for j < len(bk) && bk[j].id < x.id {
			j++
		}
		if j == len(bk) || bk[j] != x {
			return false
		}
		j++
	}
	return true
}

// IsTrue reports whether f is the constant true.
func (f *Formula) IsTrue() bool { return f.op == OpTrue }

// IsFalse reports whether f is the constant false.
func (f *Formula) IsFalse() bool { return f.op == OpFalse }

// Refs returns the sorted distinct constants mentioned in f's equality atoms
// (Null included if mentioned). The identity reference of an input symbol
// α(r, f) is not one of them: it names the symbol, it is no constant of the
// Ref sort (Syms lists the symbols). The slice is shared: do not modify it.
func (f *Formula) Refs() []Ref { return f.refs }

// Eval evaluates f with every atom a = b decided by same(a, b). same must
// behave like an equivalence relation for the result to mean anything. f
// must not have data (HasData): a term needs a valuation of its symbols,
// which EvalData takes; Eval panics on one, as on any caller bug.
func (f *Formula) Eval(same func(a, b Ref) bool) bool {
	switch f.op {
	case OpTrue:
		return true
	case OpFalse:
		return false
	case OpEq:
		return same(f.a, f.b)
	case OpNot:
		return !f.kids[0].Eval(same)
	case OpAnd:
		for _, k := range f.kids {
			if !k.Eval(same) {
				return false
			}
		}
		return true
	case OpOr:
		for _, k := range f.kids {
			if k.Eval(same) {
				return true
			}
		}
		return false
	}
	if f.data {
		panic("smt: Eval of a formula with data (use EvalData): " + Short(f))
	}
	panic("smt: bad formula op " + f.op.String())
}

// String renders f readably: "r4 = null", "r4 ≠ r7", "(a ∧ b)", "¬(a ∨ b)";
// terms as "α(r4.f7)", "(a + b)", "(a < b)", "ite(c, a, b)" (terms.go).
// Operands of ∧ and ∨ are printed in text order, so the rendering does not
// depend on creation order and is the same in every run.
func (f *Formula) String() string {
	var sb strings.Builder
	f.write(&sb)
	return sb.String()
}

// writeAtom prints an equality atom with null on the right ("r4 = null"),
// the way the papers write it, although Atom orders Null first.
func (f *Formula) writeAtom(sb *strings.Builder, rel string) {
	a, b := f.a, f.b
	if a == Null {
		a, b = b, a
	}
	sb.WriteString(a.String())
	sb.WriteString(rel)
	sb.WriteString(b.String())
}

func (f *Formula) write(sb *strings.Builder) {
	switch f.op {
	case OpTrue:
		sb.WriteString("true")
	case OpFalse:
		sb.WriteString("false")
	case OpEq:
		f.writeAtom(sb, " = ")
	case OpNot:
		k := f.kids[0]
		if k.op == OpEq {
			// The common case reads better as a disequality.
			k.writeAtom(sb, " ≠ ")
			return
		}
		sb.WriteString("¬")
		k.write(sb) // And/Or print their own parentheses
	case OpAnd, OpOr:
		sep := " ∧ "
		if f.op == OpOr {
			sep = " ∨ "
		}
		// Kids are stored in ID (creation) order, which differs between
		// runs; print them sorted by their text so output is reproducible
		// (golden files, counterexample reports).
		parts := make([]string, len(f.kids))
		for i, k := range f.kids {
			var ksb strings.Builder
			k.write(&ksb)
			parts[i] = ksb.String()
		}
		slices.Sort(parts)
		sb.WriteByte('(')
		sb.WriteString(strings.Join(parts, sep))
		sb.WriteByte(')')
	default:
		f.writeTerm(sb)
	}
}

// ---------------------------------------------------------------------------
// Intern table.
//
// The table maps a structural key to a weak pointer, so formulas nobody
// references any more are collected and a long run (the checker explores
// millions of paths) does not accumulate every formula it ever built. A
// cleanup removes the entry once its formula is gone. Keys of compound
// formulas are built from kid IDs; IDs are never reused and a parent keeps
// its kids alive, so a key can never be confused with a dead formula's key.
//
// The table is sharded so that constructors called from several workers do
// not serialise on one mutex.

const numShards = 64

type shard struct {
	mu sync.Mutex
	m  map[string]weak.Pointer[Formula]
}

// The table and the constants are initialized by expressions, not in an
// init function, so that package-level variables built with the
// constructors (in this package's tests, say) see them: Go orders variable
// initialization by dependency and runs init functions only afterwards.
var (
	shards = func() *[numShards]shard {
		s := new([numShards]shard)
		for i := range s {
			s[i].m = make(map[string]weak.Pointer[Formula])
		}
		return s
	}()
	seed    = maphash.MakeSeed()
	nextID  atomic.Uint64
	emptyRs = []Ref{}
	// The constants are never collected: package variables hold them.
	trueF  = intern([]byte{byte(OpTrue)}, func() *Formula { return &Formula{op: OpTrue, refs: emptyRs} })
	falseF = intern([]byte{byte(OpFalse)}, func() *Formula { return &Formula{op: OpFalse, refs: emptyRs} })
)

type cleanupArg struct {
	sh  *shard
	key string
	wp  weak.Pointer[Formula]
}

func removeEntry(c cleanupArg) {
	c.sh.mu.Lock()
	// Only delete if the entry still refers to the dead formula: a new
	// formula with the same key may have replaced it in the meantime.
	if cur, ok := c.sh.m[c.key]; ok && cur == c.wp {
		delete(c.sh.m, c.key)
	}
	c.sh.mu.Unlock()
}

// intern returns the canonical formula for key, calling mk to build it if
// none is live. mk must return a formula without ID; intern assigns it.
func intern(key []byte, mk func() *Formula) *Formula {
	sh := &shards[maphash.Bytes(seed, key)%numShards]
	sh.mu.Lock()
	if wp, ok := sh.m[string(key)]; ok {
		if f := wp.Value(); f != nil {
			sh.mu.Unlock()
			return f
		}
	}
	f := mk()
	f.id = nextID.Add(1)
	k := string(key)
	wp := weak.Make(f)
	sh.m[k] = wp
	sh.mu.Unlock()
	runtime.AddCleanup(f, removeEntry, cleanupArg{sh: sh, key: k, wp: wp})
	return f
}

// InternedCount returns the number of entries in the intern table, live or
// awaiting cleanup. It exists for tests and diagnostics.
func InternedCount() int {
	n := 0
	for i := range shards {
		shards[i].mu.Lock()
		n += len(shards[i].m)
		shards[i].mu.Unlock()
	}
	return n
}

// ---------------------------------------------------------------------------
// Constructors. All simplification is structural and happens here, so the
// solver never sees trivial queries and equal formulas share one pointer.

// True returns the constant true.
func True() *Formula { return trueF }

// False returns the constant false.
func False() *Formula { return falseF }

// Eq returns the atom a = b. Eq(a, a) is True, and Eq(a, b) == Eq(b, a).
// It panics if either argument is Un, which must never reach a formula.
func Eq(a, b Ref) *Formula {
	if a == Un || b == Un {
		panic("smt: r_un in an equality atom")
	}
	if a == b {
		return trueF
	}
	if a > b {
		a, b = b, a
	}
	var key [9]byte
	key[0] = byte(OpEq)
	binary.LittleEndian.PutUint32(key[1:], uint32(a))
	binary.LittleEndian.PutUint32(key[5:], uint32(b))
	return intern(key[:], func() *Formula {
		refs := []Ref{a, b}
		return &Formula{op: OpEq, a: a, b: b, refs: refs}
	})
}

// Neq returns ¬(a = b).
func Neq(a, b Ref) *Formula { return Not(Eq(a, b)) }

// Not returns the negation of f, removing double negation and negating
// constants.
func Not(f *Formula) *Formula {
	if f.data {
		mustBool(f, OpNot)
	}
	switch f.op {
	case OpTrue:
		return falseF
	case OpFalse:
		return trueF
	case OpNot:
		return f.kids[0]
	}
	var key [9]byte
	key[0] = byte(OpNot)
	binary.LittleEndian.PutUint64(key[1:], f.id)
	return intern(key[:], func() *Formula {
		return &Formula{op: OpNot, data: f.data, kids: []*Formula{f}, refs: f.refs}
	})
}

// And returns the conjunction of fs: nested conjunctions are flattened, True
// operands dropped, duplicates removed and operands sorted by ID; False or a
// complementary pair f, ¬f makes the whole conjunction False. And() is True
// and a conjunction of one operand is that operand.
func And(fs ...*Formula) *Formula { return nary(OpAnd, fs) }

// Or is the dual of And: Or() is False, True absorbs, f ∨ ¬f is True.
func Or(fs ...*Formula) *Formula { return nary(OpOr, fs) }

// Implies returns Or(Not(a), b).
func Implies(a, b *Formula) *Formula { return Or(Not(a), b) }

func nary(op Op, fs []*Formula) *Formula {
	if len(fs) == 1 {
		// Already built by these constructors: flattened, sorted and
		// simplified, so the one operand is its own result.
		mustBool(fs[0], op)
		return fs[0]
	}
	if len(fs) == 2 {
		return naryPair(op, fs[0], fs[1])
	}
	return build(op, fs)
}

// naryPair is nary of two operands, remembered: the Views and the
// relations conjoin the same two guards from state to state (a guard with
// a canonicalization condition, an entry's guard with the path condition),
// and the conjunction of two large operands costs a merge of their kids,
// a sort and an intern of the result at every call. The memo maps the
// operator and the two operands' IDs (never reused) to a weak pointer to
// the result, so it keeps nothing alive; a collected result is built again.
func naryPair(op Op, a, b *Formula) *Formula {
	x, y := a.id, b.id
	if x > y {
		x, y = y, x
	}
	h := (x*0x9E3779B97F4A7C15 ^ y*0xC2B2AE3D27D4EB4F ^ uint64(op)) >> (64 - binaryBits)
	slot := &binaryMemo[h]
	if e := slot.Load(); e != nil && e.x == x && e.y == y && e.op == op {
		if f := e.f.Value(); f != nil {
			return f
		}
	}
	f := build(op, []*Formula{a, b})
	slot.Store(&binaryEntry{x: x, y: y, op: op, f: weak.Make(f)})
	return f
}

const binaryBits = 15

type binaryEntry struct {
	x, y uint64
	op   Op
	f    weak.Pointer[Formula]
}

// binaryMemo is naryPair's memo, a direct-mapped table shared by every
// goroutine (an entry is replaced whole, atomically).
var binaryMemo [1 << binaryBits]atomic.Pointer[binaryEntry]

// build is nary of two or more operands.
func build(op Op, fs []*Formula) *Formula {
	unit, zero := trueF, falseF // And: drop True, False absorbs
	if op == OpOr {
		unit, zero = falseF, trueF
	}
	// Flatten into a fresh slice; the caller's slice is never modified.
	ops := make([]*Formula, 0, len(fs))
	data := false
	for _, f := range fs {
		if f.data {
			mustBool(f, op)
			data = true
		}
		switch {
		case f == unit:
		case f == zero:
			return zero
		case f.op == op:
			ops = append(ops, f.kids...) // kids are already flat and simplified
		default:
			ops = append(ops, f)
		}
	}
	slices.SortFunc(ops, func(x, y *Formula) int {
		switch {
		case x.id < y.id:
			return -1
		case x.id > y.id:
			return 1
		}
		return 0
	})
	ops = slices.Compact(ops)
	switch len(ops) {
	case 0:
		return unit
	case 1:
		return ops[0]
	}
	// Complementary pairs. Operands are hash-consed, so ¬g is in ops exactly
	// when the pointer Not(g) is. Flattening can hide a pair: in
	// And(And(x, y), ¬And(x, y)) the positive side becomes x, y, so a
	// negated operand whose kid has this node's operator is contradicted
	// when all of that kid's operands are present.
	has := func(g *Formula) bool {
		_, found := slices.BinarySearchFunc(ops, g.id, func(x *Formula, id uint64) int {
			switch {
			case x.id < id:
				return -1
			case x.id > id:
				return 1
			}
			return 0
		})
		return found
	}
	for _, f := range ops {
		if f.op != OpNot {
			continue
		}
		g := f.kids[0]
		if has(g) {
			return zero
		}
		if g.op == op && !slices.ContainsFunc(g.kids, func(k *Formula) bool { return !has(k) }) {
			return zero
		}
	}
	key := make([]byte, 1+8*len(ops))
	key[0] = byte(op)
	for i, f := range ops {
		binary.LittleEndian.PutUint64(key[1+8*i:], f.id)
	}
	return intern(key, func() *Formula {
		return &Formula{op: op, data: data, kids: ops, refs: mergeRefs(ops)}
	})
}

// mergeRefs returns the sorted union of the operands' Refs.
func mergeRefs(ops []*Formula) []Ref {
	n := 0
	for _, f := range ops {
		n += len(f.refs)
	}
	out := make([]Ref, 0, n)
	for _, f := range ops {
		out = append(out, f.refs...)
	}
	slices.Sort(out)
	return slices.Clip(slices.Compact(out))
}
