package smt

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lockstep-dev/lockstep/internal/knobs"
)

// Primitive terms (PRIMITIVES.md §2): integer constants, the input symbols
// α(r, f) of the primitive fields of input objects, +, -, <, <=, = on
// primitives, and ite. They are Formula nodes like every other, hash-consed
// in the same table, so a term is a cache key and a map key and the Z3
// translation is one function. A node has a sort: SortInt for an int term,
// SortBool for everything else; a bool-sorted term (a comparison, a bool
// symbol, a bool ite or equality) is a formula, usable in And, Or, Not and
// as a path-condition atom.
//
// The constructors simplify only by rewrites valid over the mathematical
// integers (constant folding, x + 0 = x, x - x = 0, (x + 1) + 2 = x + 3,
// x < x = false, ite(true, a, b) = a, ite(c, a, a) = a, a = a is true, …).
// A fold whose result would overflow int64 is not done: the node is kept,
// and Z3, which has unbounded integers, decides it. A bool ite or equality
// whose operands have no data is written as the equivalent conjunctions
// and disjunctions, so that a formula over references only stays in the
// fragment the Go decision procedure decides.
//
// Giving an int term to a bool constructor (And, Or, Not, Lt's result to
// Add, …) or mixing sorts is a caller bug and panics.

// Sort is the sort of a Formula node.
type Sort uint8

const (
	// SortBool is the sort of every formula, and of bool terms.
	SortBool Sort = iota
	// SortInt is the sort of int terms (mathematical integers).
	SortInt
)

func (s Sort) String() string {
	switch s {
	case SortBool:
		return "bool"
	case SortInt:
		return "int"
	}
	return "Sort(" + strconv.Itoa(int(s)) + ")"
}

// Sort returns the sort of f: SortInt for an int term, SortBool otherwise.
func (f *Formula) Sort() Sort { return f.sort }

// HasData reports whether f is or contains a term node (Int, Sym, Add, Sub,
// Lt, Le, EqT, Ite). It is a flag computed at construction.
func (f *Formula) HasData() bool { return f.data }

// IntValue returns the value of an Int constant.
func (f *Formula) IntValue() (int64, bool) {
	if f.op != OpInt {
		return 0, false
	}
	return int64(uint64(uint32(f.a)) | uint64(uint32(f.b))<<32), true
}

// SymOf returns the identity reference and the field of an input symbol.
func (f *Formula) SymOf() (r Ref, field int, ok bool) {
	if f.op != OpSym {
		return Un, 0, false
	}
	return f.a, int(f.b), true
}

func mustBool(f *Formula, op Op) {
	if f.sort != SortBool {
		panic("smt: int term " + Short(f) + " given to " + op.String() + ", which takes bool")
	}
}

func mustInt(f *Formula, op Op) {
	if f.sort != SortInt {
		panic("smt: bool term " + Short(f) + " given to " + op.String() + ", which takes int")
	}
}

// Int returns the integer constant n.
func Int(n int64) *Formula {
	var key [9]byte
	key[0] = byte(OpInt)
	binary.LittleEndian.PutUint64(key[1:], uint64(n))
	return intern(key[:], func() *Formula {
		u := uint64(n)
		return &Formula{op: OpInt, sort: SortInt, data: true, a: Ref(int32(uint32(u))), b: Ref(int32(uint32(u >> 32))), refs: emptyRs}
	})
}

// Sym returns α(r, field): the initial value, of the given sort, of the
// primitive field `field` (a global javalite Field.ID) of the input object
// whose identity reference is r. It panics on r_un or a bad field or sort.
func Sym(r Ref, field int, sort Sort) *Formula {
	if r == Un {
		panic("smt: r_un as the identity of an input symbol")
	}
	if field < 0 || field > math.MaxInt32 {
		panic("smt: input symbol field " + strconv.Itoa(field) + " out of range")
	}
	if sort != SortBool && sort != SortInt {
		panic("smt: input symbol of sort " + sort.String())
	}
	var key [10]byte
	key[0] = byte(OpSym)
	binary.LittleEndian.PutUint32(key[1:], uint32(r))
	binary.LittleEndian.PutUint32(key[5:], uint32(field))
	key[9] = byte(sort)
	return intern(key[:], func() *Formula {
		return &Formula{op: OpSym, sort: sort, data: true, a: r, b: Ref(field), refs: emptyRs}
	})
}

// term interns a compound term node over kids (kept in the given order).
func term(op Op, sort Sort, kids ...*Formula) *Formula {
	key := make([]byte, 1+8*len(kids))
	key[0] = byte(op)
	for i, k := range kids {
		binary.LittleEndian.PutUint64(key[1+8*i:], k.id)
	}
	return intern(key, func() *Formula {
		ks := slices.Clone(kids)
		return &Formula{op: op, sort: sort, data: true, kids: ks, refs: mergeRefs(ks)}
	})
}

func addOK(x, y int64) (int64, bool) {
	s := x + y
	return s, (s > x) == (y > 0)
}

func subOK(x, y int64) (int64, bool) {
	s := x - y
	return s, (s < x) == (y > 0)
}

// offset splits t into base + k where t is base + n or base - n for a
// constant n (k = 0 and base = t otherwise).
func offset(t *Formula) (base *Formula, k int64) {
	if t.op == OpAdd || t.op == OpSub {
		if n, ok := t.kids[1].IntValue(); ok {
			if t.op == OpAdd {
				return t.kids[0], n
			}
			if n != math.MinInt64 {
				return t.kids[0], -n
			}
		}
	}
	return t, 0
}

// withOffset is base + k, written base - |k| for a negative k, so that
// x + -1 and x - 1 are one node.
func withOffset(base *Formula, k int64) *Formula {
	switch {
	case k == 0:
		return base
	case k > 0 || k == math.MinInt64:
		return term(OpAdd, SortInt, base, Int(k))
	}
	return term(OpSub, SortInt, base, Int(-k))
}

// Add returns a + b, folding constants: n + m, x + 0, (x + n) + m.
func Add(a, b *Formula) *Formula {
	mustInt(a, OpAdd)
	mustInt(b, OpAdd)
	x, xok := a.IntValue()
	y, yok := b.IntValue()
	switch {
	case xok && yok:
		if s, ok := addOK(x, y); ok {
			return Int(s)
		}
		return term(OpAdd, SortInt, a, b)
	case xok && x == 0:
		return b
	case yok:
		base, k := offset(a)
		if s, ok := addOK(k, y); ok {
			return withOffset(base, s)
		}
	}
	return term(OpAdd, SortInt, a, b)
}

// Sub returns a - b, folding constants: n - m, x - 0, x - x, (x + n) - m.
func Sub(a, b *Formula) *Formula {
	mustInt(a, OpSub)
	mustInt(b, OpSub)
	if a == b {
		return Int(0)
	}
	x, xok := a.IntValue()
	y, yok := b.IntValue()
	switch {
	case xok && yok:
		if s, ok := subOK(x, y); ok {
			return Int(s)
		}
		return term(OpSub, SortInt, a, b)
	case yok:
		base, k := offset(a)
		if s, ok := subOK(k, y); ok {
			return withOffset(base, s)
		}
	}
	return term(OpSub, SortInt, a, b)
}

// Lt returns a < b: a constant for two constants, false for a < a.
func Lt(a, b *Formula) *Formula {
	mustInt(a, OpLt)
	mustInt(b, OpLt)
	if a == b {
		// a mutant of the term layer (tests and `lockstep mutants -shared` only)
		return boolF(knobs.SMTLtSelfTrue.Load())
	}
	if x, ok := a.IntValue(); ok {
		if y, ok := b.IntValue(); ok {
			return boolF(x < y)
		}
	}
	return term(OpLt, SortBool, a, b)
}

// Le returns a <= b: a constant for two constants, true for a <= a.
func Le(a, b *Formula) *Formula {
	mustInt(a, OpLe)
	mustInt(b, OpLe)
	if a == b {
		return trueF
	}
	if x, ok := a.IntValue(); ok {
		if y, ok := b.IntValue(); ok {
			return boolF(x <= y)
		}
	}
	return term(OpLe, SortBool, a, b)
}

func boolF(v bool) *Formula {
	if v {
		return trueF
	}
	return falseF
}

// EqT returns a = b over primitives of one sort (int = int, or bool ⇔
// bool); it panics when the sorts differ. a = a is true, two different
// constants are unequal, and a = b is b = a (one node). For bools: a =
// true is a, a = false is ¬a, a = ¬a is false, and without data a = b is
// (a ∧ b) ∨ (¬a ∧ ¬b).
func EqT(a, b *Formula) *Formula {
	if a.sort != b.sort {
		panic("smt: = between " + a.sort.String() + " term " + Short(a) + " and " + b.sort.String() + " term " + Short(b))
	}
	if a == b {
		return trueF
	}
	if a.sort == SortInt {
		if a.op == OpInt && b.op == OpInt {
			return falseF // a != b, and constants are hash-consed
		}
	} else {
		switch {
		case a == trueF:
			return b
		case b == trueF:
			return a
		case a == falseF:
			return Not(b)
		case b == falseF:
			return Not(a)
		case a.op == OpNot && a.kids[0] == b, b.op == OpNot && b.kids[0] == a:
			return falseF
		case !a.data && !b.data:
			return Or(And(a, b), And(Not(a), Not(b)))
		}
	}
	if a.id > b.id {
		a, b = b, a
	}
	return term(OpEqT, SortBool, a, b)
}

// iteNegations counts the ites built on a negated condition (rewritten
// to the condition itself with the branches swapped): the generator's
// rule coverage asks whether a stream reaches this rewriting
// (checker.DataCoverage, under POSE-J's View).
var iteNegations atomic.Int64

// IteNegations is the number of ites built on a negated condition so far,
// by every goroutine of the process.
func IteNegations() int64 { return iteNegations.Load() }

// Ite returns ite(c, a, b): c is a formula, a and b have one sort (it
// panics otherwise). ite(true, a, b) = a, ite(false, a, b) = b,
// ite(c, a, a) = a, ite(¬c, a, b) = ite(c, b, a); for bools ite(c, true, b)
// = c ∨ b and the like, and without data ite(c, a, b) = (c ∧ a) ∨ (¬c ∧ b).
func Ite(c, a, b *Formula) *Formula {
	mustBool(c, OpIte)
	if a.sort != b.sort {
		panic("smt: ite between " + a.sort.String() + " term " + Short(a) + " and " + b.sort.String() + " term " + Short(b))
	}
	switch {
	case c == trueF:
		return a
	case c == falseF:
		return b
	case a == b:
		return a
	case c.op == OpNot:
		iteNegations.Add(1)
		return Ite(c.kids[0], b, a)
	}
	if a.sort == SortBool {
		switch {
		case a == trueF:
			return Or(c, b)
		case a == falseF:
			return And(Not(c), b)
		case b == trueF:
			return Or(Not(c), a)
		case b == falseF:
			return And(c, a)
		case !c.data && !a.data && !b.data:
			return Or(And(c, a), And(Not(c), b))
		}
	}
	return term(OpIte, a.sort, c, a, b)
}

// Syms returns the input symbols of f, distinct, sorted by reference, field
// and sort.
func (f *Formula) Syms() []*Formula {
	if !f.data {
		return nil
	}
	seen := make(map[*Formula]bool)
	var out []*Formula
	var walk func(g *Formula)
	walk = func(g *Formula) {
		if !g.data || seen[g] {
			return
		}
		seen[g] = true
		if g.op == OpSym {
			out = append(out, g)
			return
		}
		for _, k := range g.kids {
			walk(k)
		}
	}
	walk(f)
	slices.SortFunc(out, func(x, y *Formula) int {
		return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b), cmp.Compare(x.sort, y.sort))
	})
	return out
}

// remake rebuilds a compound node of g's operator over new operands,
// through the constructors (so the result is simplified).
func remake(g *Formula, ks []*Formula) *Formula {
	switch g.op {
	case OpNot:
		return Not(ks[0])
	case OpAnd:
		return And(ks...)
	case OpOr:
		return Or(ks...)
	case OpAdd:
		return Add(ks[0], ks[1])
	case OpSub:
		return Sub(ks[0], ks[1])
	case OpLt:
		return Lt(ks[0], ks[1])
	case OpLe:
		return Le(ks[0], ks[1])
	case OpEqT:
		return EqT(ks[0], ks[1])
	case OpIte:
		return Ite(ks[0], ks[1], ks[2])
	}
	panic("smt: remake of " + g.op.String())
}

// rewrite rebuilds f bottom-up with leaf(g) deciding each node first: it
// returns the replacement of g and true, or false to rebuild g from its
// rewritten operands. skip(g) says that no node under g changes. Shared
// subformulas are rewritten once (memo), so the work is linear in the DAG.
func rewrite(f *Formula, skip func(g *Formula) bool, leaf func(g *Formula) (*Formula, bool)) *Formula {
	return rewriteMemo(f, skip, leaf, make(map[*Formula]*Formula), true)
}

// The memo tables of SubstAtoms are reused: a table made per call and
// grown entry by entry, rehashing as it grew, was a fifth of the
// substitution in the data half of exactness (bst_insert_parent at k = 3).
// A table is cleared before it is reused, so no entry of one rewrite is
// seen by another (exact: each call starts from an empty memo, as a new
// table would); a table that grew large is dropped rather than kept, so
// that clearing it (linear in its capacity) never costs a small rewrite
// more than a new table would.
var rewriteMemos = sync.Pool{New: func() any { return make(map[*Formula]*Formula, 64) }}

// maxPooledMemo is the most entries a memo table may have held to be kept.
const maxPooledMemo = 1 << 12

func getRewriteMemo() map[*Formula]*Formula { return rewriteMemos.Get().(map[*Formula]*Formula) }

func putRewriteMemo(m map[*Formula]*Formula) {
	if len(m) > maxPooledMemo {
		return
	}
	clear(m)
	rewriteMemos.Put(m)
}

// rewriteMemo is rewrite with the memo given, so that several formulas
// rewritten alike share it. memoLeaves says whether the replacements of
// nodes without operands are memoized too; without, leaf is asked again
// each time such a node is reached, which is exact (leaf is a function of
// the node) and cheaper when leaf costs one map lookup, as the memo does.
//
// The operands of a node are copied only once one of them changes: a node
// whose operands all rewrite to themselves is kept as it is (as before, when
// the copy was made and then dropped), without the copy.
func rewriteMemo(f *Formula, skip func(g *Formula) bool, leaf func(g *Formula) (*Formula, bool), memo map[*Formula]*Formula, memoLeaves bool) *Formula {
	var rw func(g *Formula) *Formula
	rw = func(g *Formula) *Formula {
		if skip(g) {
			return g
		}
		noKids := len(g.kids) == 0
		if !noKids || memoLeaves {
			if r, ok := memo[g]; ok {
				return r
			}
		}
		r, ok := leaf(g)
		if !ok {
			r = g
			var ks []*Formula
			for i, k := range g.kids {
				nk := rw(k)
				if ks == nil && nk != k {
					ks = make([]*Formula, len(g.kids))
					copy(ks, g.kids[:i])
				}
				if ks != nil {
					ks[i] = nk
				}
			}
			if ks != nil {
				r = remake(g, ks)
			}
		}
		if !noKids || memoLeaves {
			memo[g] = r
		}
		return r
	}
	return rw(f)
}

// RenameSyms returns f with every input symbol α(r, fld) for which m(r)
// gives a reference r′ replaced by α(r′, fld); the others are kept.
func RenameSyms(f *Formula, m func(r Ref) (Ref, bool)) *Formula {
	return NewRenamer(m).Rename(f)
}

// A Renamer renames the input symbols of several formulas by one m, as
// RenameSyms does, with one memo for all of them: a subformula that several
// of them share (the guards of a state's ite chains, which its primitive
// fields, its slots and its path condition repeat) is renamed once. Exact:
// the renaming of a node depends on the node and m alone, so a memoized
// renaming is the one RenameSyms would compute again.
type Renamer struct {
	m    func(r Ref) (Ref, bool)
	memo map[*Formula]*Formula
}

// NewRenamer returns a Renamer by m; m must be a function (the same r
// gives the same answer every time it is asked).
func NewRenamer(m func(r Ref) (Ref, bool)) *Renamer {
	return &Renamer{m: m, memo: make(map[*Formula]*Formula)}
}

// Len is the number of nodes the Renamer remembers.
func (rn *Renamer) Len() int { return len(rn.memo) }

// Rename is RenameSyms(f, m).
func (rn *Renamer) Rename(f *Formula) *Formula {
	return rewriteMemo(f,
		func(g *Formula) bool { return !g.data },
		func(g *Formula) (*Formula, bool) {
			if g.op != OpSym {
				return nil, false
			}
			if r, ok := rn.m(g.a); ok && r != g.a {
				return Sym(r, int(g.b), g.sort), true
			}
			return g, true
		}, rn.memo, true)
}

// SubstAtoms decides reference atoms: every atom a = b of the formulas of
// fs that val gives a value (val[[2]Ref{a, b}], a < b) is replaced by it,
// the others are kept, and the results simplified; fs is rewritten in
// place, shared subformulas once, and returned.
func SubstAtoms(fs []*Formula, val map[[2]Ref]bool) []*Formula {
	memo := getRewriteMemo()
	defer putRewriteMemo(memo)
	skip := func(g *Formula) bool { return len(g.refs) == 0 }
	leaf := func(g *Formula) (*Formula, bool) {
		if g.op != OpEq {
			return nil, false
		}
		if v, ok := val[[2]Ref{g.a, g.b}]; ok {
			return boolF(v), true
		}
		return g, true
	}
	for i, f := range fs {
		// The leaves left are atoms, whose replacement is one lookup in
		// val: memoizing them would cost that lookup and an insertion.
		fs[i] = rewriteMemo(f, skip, leaf, memo, false)
	}
	return fs
}

// EvalData evaluates f concretely: reference atoms by same, input symbols
// by val (for a bool symbol, 0 is false and anything else true). A bool
// result is 0 or 1. ok is false when an intermediate integer leaves int64
// (the mathematical value is then not representable). Shared subterms are
// evaluated once.
func (f *Formula) EvalData(same func(a, b Ref) bool, val func(sym *Formula) int64) (v int64, ok bool) {
	memo := make(map[*Formula]int64)
	overflow := false
	b2i := func(b bool) int64 {
		if b {
			return 1
		}
		return 0
	}
	var ev func(g *Formula) int64
	ev = func(g *Formula) int64 {
		if overflow {
			return 0
		}
		if r, ok := memo[g]; ok {
			return r
		}
		var r int64
		switch g.op {
		case OpTrue:
			r = 1
		case OpFalse:
			r = 0
		case OpEq:
			r = b2i(same(g.a, g.b))
		case OpNot:
			r = 1 - ev(g.kids[0])
		case OpAnd:
			r = 1
			for _, k := range g.kids {
				if ev(k) == 0 {
					r = 0
					break
				}
			}
		case OpOr:
			r = 0
			for _, k := range g.kids {
				if ev(k) != 0 {
					r = 1
					break
				}
			}
		case OpInt:
			r, _ = g.IntValue()
		case OpSym:
			r = val(g)
			if g.sort == SortBool {
				r = b2i(r != 0)
			}
		case OpAdd, OpSub:
			x, y := ev(g.kids[0]), ev(g.kids[1])
			var ok bool
			if g.op == OpAdd {
				r, ok = addOK(x, y)
			} else {
				r, ok = subOK(x, y)
			}
			if !ok {
				overflow = true
			}
		case OpLt:
			r = b2i(ev(g.kids[0]) < ev(g.kids[1]))
		case OpLe:
			r = b2i(ev(g.kids[0]) <= ev(g.kids[1]))
		case OpEqT:
			r = b2i(ev(g.kids[0]) == ev(g.kids[1]))
		case OpIte:
			if ev(g.kids[0]) != 0 {
				r = ev(g.kids[1])
			} else {
				r = ev(g.kids[2])
			}
		default:
			panic("smt: bad formula op " + g.op.String())
		}
		memo[g] = r
		return r
	}
	v = ev(f)
	if overflow {
		return 0, false
	}
	return v, true
}

// writeTerm prints a term node (the other nodes are formula.go's).
func (f *Formula) writeTerm(sb *strings.Builder) {
	switch f.op {
	case OpInt:
		v, _ := f.IntValue()
		sb.WriteString(strconv.FormatInt(v, 10))
	case OpSym:
		sb.WriteString("α(")
		sb.WriteString(f.a.String())
		sb.WriteString(".f")
		sb.WriteString(strconv.Itoa(int(f.b)))
		sb.WriteByte(')')
	case OpAdd, OpSub, OpLt, OpLe:
		sb.WriteByte('(')
		f.kids[0].write(sb)
		sb.WriteString(" " + f.op.String() + " ")
		f.kids[1].write(sb)
		sb.WriteByte(')')
	case OpEqT:
		// The operands are kept in ID order, which differs between runs:
		// print a constant on the right, else the two sides in text order.
		var x, y strings.Builder
		f.kids[0].write(&x)
		f.kids[1].write(&y)
		l, r := x.String(), y.String()
		if f.kids[0].op == OpInt || (f.kids[1].op != OpInt && l > r) {
			l, r = r, l
		}
		sb.WriteString("(" + l + " = " + r + ")")
	case OpIte:
		sb.WriteString("ite(")
		f.kids[0].write(sb)
		sb.WriteString(", ")
		f.kids[1].write(sb)
		sb.WriteString(", ")
		f.kids[2].write(sb)
		sb.WriteByte(')')
	default:
		sb.WriteString("Op(" + strconv.Itoa(int(f.op)) + ")")
	}
}
