package pose

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Variant kbound: GSE's k-bound on POSE-J (RULES.md §4; POSE itself has
// none, docs/POSE.md D6). GSE initializes a field of an object of depth d
// to a fresh object only if d+1 ≤ k, and otherwise to null or an alias of
// an input object existing at the read. So a symbol Z read from Y.f may be
// a new object (non-null, equal to no symbol materialized before it) only
// in the worlds where Y's object has depth < k; elsewhere it is null or
// aliases a symbol bound before the read, which the path condition then
// says (the conjunct kbound returns).
//
// The depth of a symbol's object is a property of the world, not of the
// symbol: Y read at depth 1 may be, in some worlds, an object first met at
// depth 2 (this.g aliasing this.f.f). So every symbol Y carries formulas
// atMost[j] (j = 0..k−1): "in this world, the object of Y has depth ≤ j".
// For `this` they are true; for Z read from Y.f, with canon(Z, Y') the
// View's choice of Y' as Z's object (view.Symbolic: the first
// materialized symbol equal to Z),
//
//	new(Z)         = m(Z) ∧ ⋀_{Y' before Z} ¬(r_Z = r_Y' ∧ m(Y'))
//	atMost_j(Z)    = new(Z) ∧ atMost_{j−1}(Y)  ∨  ⋁_{Y'} canon(Z, Y') ∧ atMost_j(Y')
//	bound          = new(Z) ⇒ atMost_{k−1}(Y)
//
// (atMost_{−1} is false). A symbol's depth formulas are fixed when it is
// made, as its m(Z) is (D2), so the engine keeps them by the symbol's
// identity and existence guard, which together name one creation.

// depthKey names one symbol: its identity reference and its existence
// guard (hash-consed) at creation.
type depthKey struct {
	id machine.Ref
	m  *smt.Formula
}

func keyOf(s *machine.State, l machine.Loc) depthKey {
	return depthKey{id: s.Locs[l].Identity, m: s.Locs[l].Exists}
}

// atMost returns the depth formulas of the symbolic location l: entry j
// says its object has depth ≤ j, for j = 0..K−1.
func (e *Engine) atMost(s *machine.State, l machine.Loc) ([]*smt.Formula, error) {
	info := s.Locs[l]
	if !info.Symbolic {
		// An input location of the initial state (`this`): its depth is
		// the machine's, in every world.
		out := make([]*smt.Formula, e.K)
		for j := range out {
			out[j] = smt.False()
			if info.Depth <= j {
				out[j] = smt.True()
			}
		}
		return out, nil
	}
	d, ok := e.depths[keyOf(s, l)]
	if !ok {
		return nil, fmt.Errorf("pose: kbound: symbol l%d (identity %v) was not made by this engine's Assume", l, info.Identity)
	}
	return d, nil
}

// kbound records the depth formulas of the symbol lz just made by a read
// of a field of the symbolic location l, and returns the k-bound's
// conjunct for it: lz is a new object only where l's object is shallower
// than k.
func (e *Engine) kbound(s *machine.State, l, lz machine.Loc) (*smt.Formula, error) {
	if e.K < 0 {
		return smt.True(), nil
	}
	recv, err := e.atMost(s, l)
	if err != nil {
		return nil, err
	}
	z := s.Locs[lz].Identity
	mz := s.Locs[lz].Exists
	isNew := []*smt.Formula{mz}
	atMost := make([][]*smt.Formula, e.K) // the disjuncts of atMost_j(Z)
	for _, y := range symbolsOf(s, s.Locs[lz].Class) {
		if y == lz {
			break // symbolsOf is in creation order: the ones before Z
		}
		my := s.Locs[y].Exists
		if my == nil {
			my = smt.True() // `this`
		}
		same := smt.And(smt.Eq(z, s.Locs[y].Identity), my)
		canon := smt.And(append([]*smt.Formula{mz, same}, isNew[1:]...)...)
		isNew = append(isNew, smt.Not(same))
		dy, err := e.atMost(s, y)
		if err != nil {
			return nil, err
		}
		for j := range atMost {
			atMost[j] = append(atMost[j], smt.And(canon, dy[j]))
		}
	}
	fresh := smt.And(isNew...)
	d := make([]*smt.Formula, e.K)
	for j := range d {
		deeper := smt.False() // atMost_{j−1}(Y)
		if j > 0 {
			deeper = recv[j-1]
		}
		d[j] = smt.Or(append(atMost[j], smt.And(fresh, deeper))...)
	}
	if e.depths == nil {
		e.depths = map[depthKey][]*smt.Formula{}
	}
	e.depths[keyOf(s, lz)] = d
	if e.K == 0 {
		return smt.Not(fresh), nil // nothing is shallower than 0
	}
	return smt.Implies(fresh, recv[e.K-1]), nil
}
