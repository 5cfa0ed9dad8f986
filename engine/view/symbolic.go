// Views of engines whose states extend the machine state (ENGINES.md §5):
// this file holds POSE-J's; the package documentation lives in doc.go.

package view

import (
	"fmt"

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

// symbolic is Symbolic with the conjunctions of canonGVS taken from ands
// when it has them (nil: none).
func symbolic(s *machine.State, ands *andMemo) (*machine.State, error) {
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
	type canonical struct {
		to machine.Loc
		g  *smt.Formula
	}
	canons := make([][]canonical, len(s.Locs))
	for _, c := range order {
		ls := syms[c]
		for i, y := range ls {
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
		}
	}
	canonGVS := func(acc *machine.GVSBuilder, g machine.GVS, under *smt.Formula) {
		for _, e := range g {
			guard := ands.and(under, e.Guard)
			if guard.IsFalse() {
				continue
			}
			if e.Loc >= 0 && isSymbolic(s.Locs[e.Loc]) {
				for _, cn := range canons[e.Loc] {
					acc.Add(ands.and(guard, cn.g), cn.to)
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
			for _, f := range c.PrimFields {
				v.SetPrimField(y2, f, primField(s, ls, y2, f, m))
			}
			for _, f := range c.RefFields {
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
				v.Set(r, out.GVS())
				v.SetField(y2, f, r)
			}
		}
	}

	// The symbolic locations become input locations, present where they
	// are canonical.
	for _, c := range order {
		ls := syms[c]
		for i, y := range ls {
			parts := []*smt.Formula{m(y), smt.Neq(id(y), machine.RNull)}
			for _, y2 := range ls[:i] {
				parts = append(parts, smt.Not(smt.And(smt.Eq(id(y), id(y2)), m(y2))))
			}
			info := v.Locs[y]
			info.Input, info.Symbolic = true, false
			info.Exists = smt.And(parts...)
			v.Locs[y] = info
		}
	}
	return v, nil
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
