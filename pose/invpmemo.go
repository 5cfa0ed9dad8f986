package pose

import (
	"encoding/binary"
	"slices"

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
// A key is the whole input of one question but φ: the two identities and
// existence conditions, and for a reference field every initialized entry
// of both value sets with what equality reads of its location (the
// location, its class, whether it is symbolic, its identity); for a
// primitive field the two terms. Formulas enter by ID (hash-consed: equal
// IDs are equal formulas, and an ID is never reused), so equal keys are
// the same question, and the key is kept whole (no hash alone decides).
// Only unsat answers are kept: a sat one is a violation and ends the check.
//
// φ is not in the key: a key keeps the path conditions φ₀ under which
// its question was unsat, and answers it under φ when φ has every
// conjunct of some φ₀ (as relation.TotalityMemo does for totality): then
// φ implies φ₀, and φ ∧ X implies φ₀ ∧ X, which is unsatisfiable. A
// step along a path only adds conjuncts to φ (a branch, an assume, a
// materialization), so the same pair asked at the next state, under a new
// φ, is answered without the solver: on testdata/bench/treemap_remove.jl
// under pose at k = 3, where INV-P was a seventh of the check, most of it
// questions with data sent to Z3, each new φ asked every pair again.
type invpMemo struct {
	held map[string][]*smt.Formula // key → the φ₀s under which it was unsat
	key  []byte                    // the key of the last question looked up
	phi  *smt.Formula              // and its φ
	// reused counts the questions answered under a φ other than one kept.
	reused int
}

// invpMemoWidth is how many φ₀s a key keeps; a new one replaces the
// oldest (the few most recent, weakest path conditions of a path answer
// its later questions).
const invpMemoWidth = 4

// invpMemoLimit bounds the memo: it is cleared when full.
const invpMemoLimit = 1 << 17

// heldRef reports whether INV-P's question on a reference field of la and
// lb, with value sets all and bll, was answered unsat before.
func (m *invpMemo) heldRef(phi *smt.Formula, s *machine.State, la, lb machine.Loc, all, bll machine.GVS) bool {
	if m == nil {
		return false
	}
	m.pairKey(1, s, la, lb)
	m.set(s, all)
	m.set(s, bll)
	return m.implied(phi)
}

// heldPrim is heldRef for a primitive field with terms ta and tb.
func (m *invpMemo) heldPrim(phi *smt.Formula, s *machine.State, la, lb machine.Loc, ta, tb *smt.Formula) bool {
	if m == nil {
		return false
	}
	m.pairKey(2, s, la, lb)
	m.num(int64(ta.ID()))
	m.num(int64(tb.ID()))
	return m.implied(phi)
}

// implied reports whether the question last keyed was unsat under a φ₀
// kept whose conjuncts are all conjuncts of phi.
func (m *invpMemo) implied(phi *smt.Formula) bool {
	m.phi = phi
	for _, phi0 := range m.held[string(m.key)] {
		if phi0 == phi {
			return true
		}
		if smt.ConjunctsWithin(phi0, phi) {
			m.reused++
			return true
		}
	}
	return false
}

// hold records the question last looked up as answered unsat.
func (m *invpMemo) hold() {
	if m == nil {
		return
	}
	if m.held == nil || len(m.held) >= invpMemoLimit {
		m.held = make(map[string][]*smt.Formula)
	}
	// A φ₀ with every conjunct of φ answers nothing φ does not.
	list := slices.DeleteFunc(m.held[string(m.key)], func(phi0 *smt.Formula) bool { return smt.ConjunctsWithin(m.phi, phi0) })
	if len(list) >= invpMemoWidth {
		list = list[1:]
	}
	m.held[string(m.key)] = append(list, m.phi)
}

func (m *invpMemo) pairKey(kind int64, s *machine.State, la, lb machine.Loc) {
	m.key = m.key[:0]
	m.num(kind)
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
