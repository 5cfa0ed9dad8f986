package pose

import (
	"encoding/binary"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// invpMemo holds the INV-P questions of one engine's run that were
// answered unsat, by what the question is made of, so that a question met
// again costs a key and a map lookup instead of building its formula. The
// checker asks INV-P of every engine state of every pair (40,000 states on
// avltree_find at k = 3), and a step changes one field or one path
// condition: most pairs of locations ask at a state what they asked at the
// state before, and building those formulas (And flattens and sorts φ's
// and the existence conditions' conjuncts, equality builds one conjunction
// per pair of entries) was most of INV-P's time.
//
// A key is the whole input of one question: φ, the two identities and
// existence conditions, and for a reference field every initialized entry
// of both value sets with what equality reads of its location (the
// location, its class, whether it is symbolic, its identity); for a
// primitive field the two terms. Formulas enter by ID (hash-consed: equal
// IDs are equal formulas, and an ID is never reused), so equal keys are
// the same question, and the key is kept whole (no hash alone decides).
// Only unsat answers are kept: a sat one is a violation and ends the check.
type invpMemo struct {
	held map[string]struct{}
	key  []byte // the key of the last question looked up
}

// invpMemoLimit bounds the memo: it is cleared when full.
const invpMemoLimit = 1 << 17

// heldRef reports whether INV-P's question on a reference field of la and
// lb, with value sets all and bll, was answered unsat before.
func (m *invpMemo) heldRef(phi *smt.Formula, s *machine.State, la, lb machine.Loc, all, bll machine.GVS) bool {
	if m == nil {
		return false
	}
	m.pairKey(1, phi, s, la, lb)
	m.set(s, all)
	m.set(s, bll)
	_, ok := m.held[string(m.key)]
	return ok
}

// heldPrim is heldRef for a primitive field with terms ta and tb.
func (m *invpMemo) heldPrim(phi *smt.Formula, s *machine.State, la, lb machine.Loc, ta, tb *smt.Formula) bool {
	if m == nil {
		return false
	}
	m.pairKey(2, phi, s, la, lb)
	m.num(int64(ta.ID()))
	m.num(int64(tb.ID()))
	_, ok := m.held[string(m.key)]
	return ok
}

// hold records the question last looked up as answered unsat.
func (m *invpMemo) hold() {
	if m == nil {
		return
	}
	if m.held == nil || len(m.held) >= invpMemoLimit {
		m.held = make(map[string]struct{})
	}
	m.held[string(m.key)] = struct{}{}
}

func (m *invpMemo) pairKey(kind int64, phi *smt.Formula, s *machine.State, la, lb machine.Loc) {
	m.key = m.key[:0]
	m.num(kind)
	m.num(int64(phi.ID()))
	m.num(int64(s.Locs[la].Identity))
	m.num(int64(s.Locs[lb].Identity))
	m.num(int64(exists(s, la).ID()))
	m.num(int64(exists(s, lb).ID()))
}

// set writes the initialized entries of a value set and what equality
// reads of their locations.
func (m *invpMemo) set(s *machine.State, set machine.GVS) {
	n := 0
	for _, en := range set {
		if en.Loc != machine.LUn {
			n++
		}
	}
	m.num(int64(n))
	for _, en := range set {
		if en.Loc == machine.LUn {
			continue
		}
		m.num(int64(en.Guard.ID()))
		m.num(int64(en.Loc))
		if en.Loc >= 0 {
			info := s.Locs[en.Loc]
			sym := int64(0)
			if symbolic(s, en.Loc) {
				sym = 1
			}
			m.num(sym)
			m.num(int64(info.Class.Index))
			m.num(int64(info.Identity))
		}
	}
}

func (m *invpMemo) num(x int64) { m.key = binary.AppendVarint(m.key, x) }
