// Views of engines whose states extend the machine state (ENGINES.md §5):
// this file holds POSE-J's; the package documentation lives in doc.go.

package view

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Symbolic is the canonicalizing View of a POSE-J state (ENGINES.md §5.2).
//
// In a POSE-J state every bound symbol Y has its own symbolic location l_Y
// (an input location: l_0 is the symbol of `this`, the others have
// LocInfo.Symbolic set), and two symbolic locations of one class are the
// same object in the worlds where their identity references are equal.
// GSE has one location per object. The View picks, in every world, the
// first materialized symbol of each object as its canonical location:
//
//	m(Y)        = Exists(l_Y) (the worlds where GSE has materialized Y)
//	canon(Y,Y') = r_Y = r_Y' ∧ m(Y') ∧ ⋀_{Y″<Y'} ¬(r_Y = r_Y″ ∧ m(Y″))   for Y' ≤ Y
//
// and rewrites
//   - every entry (g, l_Y) into {(g ∧ canon(Y,Y'), l_Y') | Y' ≤ Y};
//   - the existence guard of l_Y into m(Y) ∧ r_Y ≠ null ∧ ⋀_{Y″<Y} ¬(r_Y = r_Y″ ∧ m(Y″));
//   - field f of l_Y' into the (canonicalized) entries of the first
//     materialized symbol Y, in creation order, with r_Y = r_Y' whose f has
//     a non-l_un entry in that world, and l_un in the remaining worlds;
//   - a primitive field f of l_Y' into the ite of the same choice over the
//     symbols whose f is bound, α(r_Y', f) where none is (primField).
//
// The engine guarantees that an entry (g, l_Y) has g ⇒ r_Y ≠ null ∧ m(Y);
// where it does not, the View is not total and relation.WellFormed says so
// (a View verdict, not a crash). The result is a new state; s is not
// modified (Clone shares only immutable parts). No solver is asked: the
// View is a syntactic rewriting, so it is deterministic and cheap enough to
// recompute, and entries with unsatisfiable guards are left for the
// relations to ignore.
func Symbolic(s *machine.State) (*machine.State, error) {
	return symbolic(s, nil)
}

// symbolic is Symbolic with what memo has of it (nil: nothing): the
// conjunctions of canonGVS, the canonicalizations of a class's symbols
// and the canonicalized value sets (viewMemo).
func symbolic(s *machine.State, memo *viewMemo) (*machine.State, error) {
	if s == nil || s.Prog == nil {
		return nil, fmt.Errorf("view: nil state or program")
	}
	v := s.Clone()
	syms := map[*javalite.Class][]machine.Loc{}
	var order []*javalite.Class
	rank := make([]int, len(s.Locs)) // position of a symbol among its class's symbols
	for i, info := range s.Locs {
		if !isSymbolic(info) {
			continue
		}
		c := info.Class
		if _, ok := syms[c]; !ok {
			order = append(order, c)
		}
		rank[i] = len(syms[c])
		syms[c] = append(syms[c], machine.Loc(i))
	}
	m := func(l machine.Loc) *smt.Formula {
		if ex := s.Locs[l].Exists; ex != nil {
			return ex
		}
		return smt.True()
	}
	id := func(l machine.Loc) machine.Ref { return s.Locs[l].Identity }

	// canons[l] lists (Y', canon(Y,Y')) for Y' ≤ Y = l, in creation order.
	canons := make([][]canonical, len(s.Locs))
	// chain[l] names, in memo, the symbols of l's class up to l (their
	// locations, identities and existence guards): all that canons[l]
	// and l's existence guard in the View depend on. 0 without a memo.
	chain := make([]uint64, len(s.Locs))
	exists := make([]*smt.Formula, len(s.Locs)) // from the memo, when it had them
	for _, c := range order {
		ls := syms[c]
		var prev uint64
		for i, y := range ls {
			if memo != nil {
				prev = memo.chainOf(prev, y, c, id(y), m(y))
				chain[y] = prev
				if k, ok := memo.canons[prev]; ok {
					out := make([]canonical, len(k.to))
					for j := range k.to {
						out[j] = canonical{ls[k.to[j]], k.g[j]}
					}
					canons[y], exists[y] = out, k.exists
					continue
				}
			}
			var out []canonical
			var before []*smt.Formula // ¬(r_Y = r_Y″ ∧ m(Y″)) for Y″ < Y'
			for _, y2 := range ls[:i+1] {
				g := smt.And(append([]*smt.Formula{smt.Eq(id(y), id(y2)), m(y2)}, before...)...)
				if !g.IsFalse() {
					out = append(out, canonical{y2, g})
				}
				before = append(before, smt.Not(smt.And(smt.Eq(id(y), id(y2)), m(y2))))
			}
			canons[y] = out
			if memo != nil {
				exists[y] = existsOf(ls[:i+1], id, m)
				memo.keepCanons(prev, ls, out, exists[y])
			}
		}
	}
	canonGVS := func(acc *machine.GVSBuilder, g machine.GVS, under *smt.Formula) {
		for _, e := range g {
			guard := memo.and(under, e.Guard)
			if guard.IsFalse() {
				continue
			}
			if e.Loc >= 0 && isSymbolic(s.Locs[e.Loc]) {
				for _, cn := range canons[e.Loc] {
					acc.Add(memo.and(guard, cn.g), cn.to)
				}
				continue
			}
			acc.Add(guard, e.Loc)
		}
	}

	// Every guarded value set, so that stack references and fields of new
	// locations are canonical. RefsInUse-style liveness is not needed: a
	// dead reference is never read.
	for i, g := range s.L {
		if g != nil {
			if memo != nil {
				key := memo.setKey('L', chain, g)
				if out, ok := memo.sets[string(key)]; ok {
					v.L[i] = out
					continue
				}
				var b machine.GVSBuilder
				canonGVS(&b, g, smt.True())
				v.L[i] = b.GVS()
				memo.keepSet(key, v.L[i])
				continue
			}
			var b machine.GVSBuilder
			canonGVS(&b, g, smt.True())
			v.L[i] = b.GVS()
		}
	}

	// The fields of the symbolic locations: one object's field, whichever
	// of its symbols holds it.
	for _, c := range order {
		ls := syms[c]
		for _, y2 := range ls {
			for fi, f := range c.PrimFields {
				if memo == nil {
					v.SetPrimField(y2, f, primField(s, ls, y2, f, m))
					continue
				}
				// The field's View is made of the field in every symbol
				// of the class, and of the class's symbols.
				key := memo.primKey(chain[ls[len(ls)-1]], y2, fi)
				for _, y := range ls {
					var id uint64
					if t := s.PrimField(y, f); t != nil {
						id = t.ID()
					}
					key = binary.AppendUvarint(key, id)
				}
				memo.key = key
				t, ok := memo.prims[string(key)]
				if !ok {
					t = primField(s, ls, y2, f, m)
					memo.keepPrim(key, t)
				}
				v.SetPrimField(y2, f, t)
			}
			for fi, f := range c.RefFields {
				var key []byte
				if memo != nil {
					// The field's View is made of the field in every
					// symbol of the class, and of the class's symbols.
					key = memo.fieldKey(chain[ls[len(ls)-1]], y2, fi)
					for _, y := range ls {
						key = memo.appendSet(key, chain, s.Get(s.Field(y, f)))
					}
					if got, ok := memo.sets[string(key)]; ok {
						r := v.FreshR()
						v.Set(r, got)
						v.SetField(y2, f, r)
						continue
					}
				}
				var out machine.GVSBuilder
				var covered []*smt.Formula
				for _, y := range ls {
					vals := s.Get(s.Field(y, f))
					var init []*smt.Formula
					for _, e := range vals {
						if e.Loc != machine.LUn {
							init = append(init, e.Guard)
						}
					}
					if len(init) == 0 {
						continue
					}
					holds := smt.And(smt.Eq(id(y), id(y2)), m(y), smt.Or(init...))
					if holds.IsFalse() {
						continue
					}
					sel := smt.And(holds, notAll(covered))
					var nonUn machine.GVS
					for _, e := range vals {
						if e.Loc != machine.LUn {
							nonUn = append(nonUn, e)
						}
					}
					canonGVS(&out, nonUn, sel)
					covered = append(covered, holds)
				}
				un := notAll([]*smt.Formula{smt.Or(covered...)})
				if len(covered) == 0 {
					un = smt.True()
				}
				if !un.IsFalse() {
					out.Add(un, machine.LUn)
				}
				r := v.FreshR()
				set := out.GVS()
				if memo != nil {
					memo.keepSet(key, set)
				}
				v.Set(r, set)
				v.SetField(y2, f, r)
			}
		}
	}

	// The symbolic locations become input locations, present where they
	// are canonical.
	for _, c := range order {
		ls := syms[c]
		for i, y := range ls {
			info := v.Locs[y]
			info.Input, info.Symbolic = true, false
			if info.Exists = exists[y]; info.Exists == nil {
				info.Exists = existsOf(ls[:i+1], id, m)
			}
			v.Locs[y] = info
		}
	}
	return v, nil
}

// existsOf is the existence guard in the View of the last symbol Y of ls
// (its class's symbols up to it): m(Y) ∧ r_Y ≠ null ∧ ⋀_{Y″<Y} ¬(r_Y = r_Y″ ∧ m(Y″)).
func existsOf(ls []machine.Loc, id func(machine.Loc) machine.Ref, m func(machine.Loc) *smt.Formula) *smt.Formula {
	y := ls[len(ls)-1]
	parts := []*smt.Formula{m(y), smt.Neq(id(y), machine.RNull)}
	for _, y2 := range ls[:len(ls)-1] {
		parts = append(parts, smt.Not(smt.And(smt.Eq(id(y), id(y2)), m(y2))))
	}
	return smt.And(parts...)
}

// canonical is one (Y', canon(Y,Y')) of a symbol Y.
type canonical struct {
	to machine.Loc
	g  *smt.Formula
}

// primField is the primitive field f of the canonical location l_Y' in
// the View: the term of the first materialized symbol Y, in creation
// order, with r_Y = r_Y' whose f is bound, and in the remaining worlds the
// initial value α(r_Y', f) (a field still ⊥ in every symbol of the object
// was never read nor written: it holds its initial value):
//
//	ite(r_Y1 = r_Y' ∧ m(Y1), Y1.f, … ite(r_Yn = r_Y' ∧ m(Yn), Yn.f, α(r_Y', f)))
//
// over the symbols Y_i whose f is bound. The engine names the fresh symbol
// of Getfield (r2) α(r_Y, f) (pose/data.go), so in a world where l_Y' is
// canonical every symbol the term resolves to is canonical too and
// relation.ExactData's renaming by canonical names is all the renaming
// the data needs. The ite is left to the world (ExactData resolves it):
// the View asks no solver.
func primField(s *machine.State, ls []machine.Loc, y2 machine.Loc, f *javalite.Field, m func(machine.Loc) *smt.Formula) *smt.Formula {
	id := s.Locs[y2].Identity
	v := machine.InitialValue(id, f)
	for i := len(ls) - 1; i >= 0; i-- {
		t := s.PrimField(ls[i], f)
		if t == nil {
			continue
		}
		v = smt.Ite(smt.And(smt.Eq(s.Locs[ls[i]].Identity, id), m(ls[i])), t, v)
	}
	return v
}

// isSymbolic reports whether a location of a POSE-J state is a symbolic
// location l_Y: every input location is (l_0 is the symbol of `this`,
// created by machine.Initial without the flag).
func isSymbolic(info machine.LocInfo) bool { return info.Symbolic || info.Input }

// notAll is ⋀_{φ∈fs} ¬φ.
func notAll(fs []*smt.Formula) *smt.Formula {
	out := make([]*smt.Formula, len(fs))
	for i, f := range fs {
		out[i] = smt.Not(f)
	}
	return smt.And(out...)
}

// andMemo keeps And(a, b) by the IDs of a and b for the Views of one
// engine. canonGVS conjoins every entry's guard with every canon(Y, Y′) of
// its symbol, each a conjunction over the earlier symbols that And
// flattens, sorts and interns again: on treemap_get under pose at k = 3
// that was a quarter of the check, and consecutive states (a View the
// SymbolicCache does not have is mostly one step from one it had) ask the
// same pairs. The memo returns the formula And returned: the formulas are
// hash-consed and the memo keeps the result alive, so it is the pointer
// And(a, b) would give; a View built with it is the View built without.
type andMemo struct {
	m map[[2]uint64]*smt.Formula
}

// andMemoSize bounds the pairs kept; the memo starts again empty past it.
const andMemoSize = 1 << 16

func (a *andMemo) and(x, y *smt.Formula) *smt.Formula {
	if a == nil {
		return smt.And(x, y)
	}
	k := [2]uint64{x.ID(), y.ID()}
	if f, ok := a.m[k]; ok {
		return f
	}
	f := smt.And(x, y)
	if a.m == nil || len(a.m) >= andMemoSize {
		a.m = make(map[[2]uint64]*smt.Formula)
	}
	a.m[k] = f
	return f
}

// A viewMemo keeps, for the Views of one engine (SymbolicCache), what
// symbolic builds that the next View asks again: consecutive states share
// most of their symbols and value sets, and a View the SymbolicCache does
// not have is mostly one step from one it had. On
// testdata/bench/treemap_remove.jl under pose at k = 3 the View was a
// fifth of the check, most of it canonicalizing value sets that an
// earlier View had canonicalized already.
//
// Everything is kept under a key that is all of what it was built from,
// written exactly (formulas by ID, which is never reused, and the memo
// keeps every formula it holds alive), so what the memo returns is what
// symbolic would build, down to the formula pointers (formulas are
// hash-consed): a View built with it is the View built without.
//
//   - chain names the symbols of one class up to one of them, in creation
//     order (location, class, identity reference and existence guard of
//     each), as a chain of numbers: the number of a prefix and the next
//     symbol make the number of the longer prefix. canons[l] and the
//     existence guard of l in the View depend on exactly that prefix.
//   - canons keeps them by the number of the prefix (canonical targets by
//     position in the class's symbols).
//   - sets keeps a canonicalized value set by its entries (guard, location
//     and, for a symbol, its prefix's number): a stack reference's ('L'),
//     or a reference field of a symbol ('F': the class's symbols, the
//     symbol, the field and the field's value set in every symbol).
//   - prims keeps a primitive field's term (primField, an ite over the
//     class's symbols that the View interned anew for every symbol and
//     field, 3 % of treemap_remove's check under pose at k = 3) by the
//     class's symbols, the symbol, the field and the field's term in
//     every symbol.
type viewMemo struct {
	ands   andMemo
	chain  map[chainKey]uint64
	next   uint64 // the last number given (numbers are never reused)
	canons map[uint64]keptCanons
	sets   map[string]machine.GVS
	prims  map[string]*smt.Formula // primField's terms (primKey)
	key    []byte
}

type chainKey struct {
	prev   uint64
	loc    machine.Loc
	class  *javalite.Class
	id     machine.Ref
	exists uint64
}

type keptCanons struct {
	to     []int // positions in the class's symbols
	g      []*smt.Formula
	exists *smt.Formula
}

// viewMemoSize bounds each map of a viewMemo; past it the map starts
// again empty (the numbers already given stay unique).
const viewMemoSize = 1 << 15

func (m *viewMemo) and(x, y *smt.Formula) *smt.Formula {
	if m == nil {
		return smt.And(x, y)
	}
	return m.ands.and(x, y)
}

// chainOf is the number of the prefix numbered prev followed by the
// symbol at l (class c, identity id, existence guard ex).
func (m *viewMemo) chainOf(prev uint64, l machine.Loc, c *javalite.Class, id machine.Ref, ex *smt.Formula) uint64 {
	k := chainKey{prev, l, c, id, ex.ID()}
	if n, ok := m.chain[k]; ok {
		return n
	}
	if m.chain == nil || len(m.chain) >= viewMemoSize {
		m.chain = make(map[chainKey]uint64)
	}
	m.next++
	m.chain[k] = m.next
	return m.next
}

// keepCanons keeps the canonicalization of the last symbol of the prefix
// numbered n, whose class's symbols are ls.
func (m *viewMemo) keepCanons(n uint64, ls []machine.Loc, out []canonical, exists *smt.Formula) {
	k := keptCanons{to: make([]int, len(out)), g: make([]*smt.Formula, len(out)), exists: exists}
	for j, cn := range out {
		k.to[j] = slices.Index(ls, cn.to)
		k.g[j] = cn.g
	}
	if m.canons == nil || len(m.canons) >= viewMemoSize {
		m.canons = make(map[uint64]keptCanons)
	}
	m.canons[n] = k
}

// appendSet appends to b the entries of g (prefix-free: its length
// first), a symbol's with the number of its prefix.
func (m *viewMemo) appendSet(b []byte, chain []uint64, g machine.GVS) []byte {
	b = binary.AppendVarint(b, int64(len(g)))
	for _, e := range g {
		b = binary.AppendUvarint(b, e.Guard.ID())
		b = binary.AppendVarint(b, int64(e.Loc))
		var n uint64
		if e.Loc >= 0 && int(e.Loc) < len(chain) {
			n = chain[e.Loc]
		}
		b = binary.AppendUvarint(b, n)
	}
	return b
}

// setKey is the key of a stack reference's value set g (kind 'L').
func (m *viewMemo) setKey(kind byte, chain []uint64, g machine.GVS) []byte {
	m.key = m.appendSet(append(m.key[:0], kind), chain, g)
	return m.key
}

// fieldKey starts the key of a reference field (field index fi of the
// class's reference fields) of the symbol at y2, whose class's symbols
// are numbered n; the field's value set in every symbol follows.
func (m *viewMemo) fieldKey(n uint64, y2 machine.Loc, fi int) []byte {
	return m.symbolKey('F', n, y2, fi)
}

// primKey starts the key of a primitive field (field index fi of the
// class's primitive fields) of the symbol at y2, whose class's symbols
// are numbered n; the field's term in every symbol follows (by ID, 0 for
// none). primField reads nothing else: the symbols' identities and
// existence guards are in the number, and the initial value is a
// function of y2's identity and the field.
func (m *viewMemo) primKey(n uint64, y2 machine.Loc, fi int) []byte {
	return m.symbolKey('P', n, y2, fi)
}

// symbolKey starts a key of kind ('F' reference field, 'P' primitive
// field) for field fi of the symbol at y2 among n.
func (m *viewMemo) symbolKey(kind byte, n uint64, y2 machine.Loc, fi int) []byte {
	b := append(m.key[:0], kind)
	b = binary.AppendUvarint(b, n)
	b = binary.AppendVarint(b, int64(y2))
	b = binary.AppendVarint(b, int64(fi))
	m.key = b
	return b
}

// keepPrim keeps the View's term t of a primitive field under key.
func (m *viewMemo) keepPrim(key []byte, t *smt.Formula) {
	if m.prims == nil || len(m.prims) >= viewMemoSize {
		m.prims = make(map[string]*smt.Formula)
	}
	m.prims[string(key)] = t
}

// keepSet keeps the canonicalized value set out under key.
func (m *viewMemo) keepSet(key []byte, out machine.GVS) {
	if m.sets == nil || len(m.sets) >= viewMemoSize {
		m.sets = make(map[string]machine.GVS)
	}
	m.sets[string(key)] = out
}
