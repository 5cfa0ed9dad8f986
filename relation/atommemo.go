package relation

import (
	"encoding/binary"

	"github.com/lockstep-dev/lockstep/smt"
)

// The values a reference atom can take in a world of the data half,
// remembered per program.
//
// refine decides, leaf by leaf, which values each reference atom of the
// leaf's data may take under φ_q's reference part, the leaf's literals and
// the values of the atoms branched on before it (decideAtoms). A step
// changes a few slots of q and leaves its heap, its reference path
// condition and so its leaves as they were: on tree_mirror_sum at k = 2 half
// of the leaves refined are ones refined before, under the same
// assumptions, and half of the atoms asked were asked before under them.
// The answer is a fact about the assumptions and the atom alone (which
// values are satisfiable together with them), so it is looked up here
// before the solver is asked, and a leaf whose atoms are all known costs
// no assumption (refineCtx).
//
// A context is named by the IDs of its formulas (φ_q's reference part, the
// leaf's literals in their order, then each branched atom with its value).
// Formulas are hash-consed and an ID is never reused, so two contexts with
// one name are the same conjunction; one rebuilt after its formulas were
// collected gets a new name, which only misses.
type atomMemo struct {
	leaves   map[string]int32
	branches map[branchKey]int32
	can      map[atomAt][2]bool
	next     int32
	buf      []byte
}

type branchKey struct {
	ctx   int32
	atom  uint64
	value bool
}

type atomAt struct {
	ctx  int32
	atom uint64
}

// atomMemoEntries bounds the answers kept: past it the memo starts again
// (between two refinements, never during one, which holds context names).
const atomMemoEntries = 1 << 20

// atomMemo returns the memo of the cache's program (nil for a nil cache:
// nothing is remembered).
func (c *ConcretizationCache) atomMemo() *atomMemo {
	if c == nil {
		return nil
	}
	if c.atoms == nil {
		c.atoms = &atomMemo{}
		c.atoms.reset()
	}
	return c.atoms
}

func (m *atomMemo) reset() {
	m.leaves = map[string]int32{}
	m.branches = map[branchKey]int32{}
	m.can = map[atomAt][2]bool{}
	m.next = 0
}

// trim starts the memo again when it holds too many answers; it must not
// be called while a context name is in use.
func (m *atomMemo) trim() {
	if m != nil && len(m.can)+len(m.leaves)+len(m.branches) > atomMemoEntries {
		m.reset()
	}
}

// leafContext names the assumptions φ_q's reference part ∧ the leaf's
// literals.
func (m *atomMemo) leafContext(refPhi *smt.Formula, lits []*smt.Formula) int32 {
	if m == nil {
		return -1
	}
	b := binary.LittleEndian.AppendUint64(m.buf[:0], refPhi.ID())
	for _, l := range lits {
		b = binary.LittleEndian.AppendUint64(b, l.ID())
	}
	m.buf = b
	if id, ok := m.leaves[string(b)]; ok {
		return id
	}
	id := m.next
	m.next++
	m.leaves[string(b)] = id
	return id
}

// branch names the assumptions of ctx with atom a given value.
func (m *atomMemo) branch(ctx int32, a *smt.Formula, value bool) int32 {
	if m == nil {
		return -1
	}
	k := branchKey{ctx, a.ID(), value}
	if id, ok := m.branches[k]; ok {
		return id
	}
	id := m.next
	m.next++
	m.branches[k] = id
	return id
}

// get returns which values of a are possible under ctx, when known:
// can[1] true, can[0] false.
func (m *atomMemo) get(ctx int32, a *smt.Formula) ([2]bool, bool) {
	if m == nil {
		return [2]bool{}, false
	}
	c, ok := m.can[atomAt{ctx, a.ID()}]
	return c, ok
}

func (m *atomMemo) put(ctx int32, a *smt.Formula, can [2]bool) {
	if m != nil {
		m.can[atomAt{ctx, a.ID()}] = can
	}
}
