package relation

import (
	"encoding/binary"
	"slices"

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
	subst    map[substKey]*smt.Formula
	// atomLists are the reference atoms of a formula in visibleAtoms'
	// order, by the formula's ID (atomsOf).
	atomLists map[uint64][]*smt.Formula
	// rename holds the data half's renamings (renamers).
	rename renamers
	// substHits counts the substitutions found in subst (the tests).
	substHits int
	next      int32
	buf       []byte
}

// substKey names one formula of a refinement's fs with the atoms that
// decideAtoms substitutes at a context: the atoms forced under ctx (branch
// false), or, when ctx names a branch, those forced under its parent with
// the branched atom's value (branch true).
type substKey struct {
	ctx    int32
	branch bool
	f      uint64
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
	m.subst = map[substKey]*smt.Formula{}
	m.atomLists = map[uint64][]*smt.Formula{}
	m.next = 0
}

// trim starts the memo again when it holds too many answers; it must not
// be called while a context name is in use.
func (m *atomMemo) trim() {
	if m != nil && len(m.can)+len(m.leaves)+len(m.branches)+len(m.subst)+len(m.atomLists) > atomMemoEntries {
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

// The substitutions of decideAtoms, remembered with the values.
//
// At a context, decideAtoms substitutes in each formula f of fs every atom
// of f that the context forces (visibleAtoms yields every atom fs shows, so
// every atom of f is forced or open), and on a branch the open atom's
// value too. Which atoms a context forces is in the memo (can), each
// answer put once and never changed while the context's name is in use:
// the substitution of f is a function of f and the context's name (for a
// branch, the child's name, which names the parent, the atom and its
// value). So a formula already substituted under a name is not substituted
// again: a step leaves most of q's data as it was, and its leaves are
// refined again under the same contexts (see above). Formulas are
// hash-consed with IDs never reused, and the table is emptied with the
// names (reset), so a hit is the formula SubstAtoms would build.
// substMemoOff turns it off (the tests compare).
var substMemoOff = false

// substAll returns fs (a fresh slice) with the atoms of val substituted,
// as smt.SubstAtoms(slices.Clone(fs), val) does, val being the
// substitution that (ctx, branch) names (substKey).
func (m *atomMemo) substAll(ctx int32, branch bool, fs []*smt.Formula, val map[[2]smt.Ref]bool) []*smt.Formula {
	out := make([]*smt.Formula, len(fs))
	if m == nil || substMemoOff {
		copy(out, fs)
		return smt.SubstAtoms(out, val)
	}
	var miss []*smt.Formula
	var missAt []int
	for i, f := range fs {
		if g, ok := m.subst[substKey{ctx, branch, f.ID()}]; ok {
			out[i] = g
			m.substHits++
			continue
		}
		miss = append(miss, f)
		missAt = append(missAt, i)
	}
	if len(miss) == 0 {
		return out
	}
	got := smt.SubstAtoms(slices.Clone(miss), val)
	for k, i := range missAt {
		out[i] = got[k]
		m.subst[substKey{ctx, branch, miss[k].ID()}] = got[k]
	}
	return out
}

// renamers are the Renamers of the data half's sides (sideOf), by their
// renaming, kept across pairs.
//
// A side's renaming maps the identity of each input location of its heap
// to the location's canonical name, and the others apart (q) or to
// themselves (P): it is named by those pairs, in the heap's order, and
// which of the two the others get. Along a lockstep the heap of a state
// mostly stays as it was, and so its renaming, while its data changes in
// a slot or a field: the terms of the fields left as they were, and the
// subterms the new terms share with them, are renamed once, not once per
// pair. Exact: a name is a renaming (two equal names are one sequence of
// pairs, and so one mapping), a Renamer's memo holds for each node its
// renaming by that mapping, and formulas are hash-consed (a node is one
// pointer for as long as it is in the memo).
type renamers struct {
	byKey   map[string]*smt.Renamer
	buf     []byte
	renamed int // Renamers taken from byKey (the tests)
}

// Bounds of the renamers kept: past maxRenamers the table starts again, and
// a Renamer whose memo holds more than maxRenamed nodes is made anew.
const (
	maxRenamers = 1 << 8
	maxRenamed  = 1 << 12
)

// renamers returns the cache's renamings (nil for a nil cache: each side
// gets a Renamer of its own).
func (c *ConcretizationCache) renamers() *renamers {
	m := c.atomMemo()
	if m == nil || renameMemoOff {
		return nil
	}
	return &m.rename
}

// renameMemoOff turns the renamers off (the tests compare).
var renameMemoOff = false

// get returns the Renamer by the mapping that key names.
func (rs *renamers) get(key []byte, mapping func(smt.Ref) (smt.Ref, bool)) *smt.Renamer {
	if rn, ok := rs.byKey[string(key)]; ok && rn.Len() <= maxRenamed {
		rs.renamed++
		return rn
	}
	if rs.byKey == nil || len(rs.byKey) >= maxRenamers {
		rs.byKey = map[string]*smt.Renamer{}
	}
	rn := smt.NewRenamer(mapping)
	rs.byKey[string(key)] = rn
	return rn
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// atomsOf returns the reference atoms of fs in visibleAtoms' order, each
// once, from each formula's own list, remembered by its ID. Exact: the walk
// over fs marks a node seen and walks all of it at its first visit, so it
// yields the atoms of each formula in the formula's own order, less those
// an earlier formula yielded (a node skipped as seen holds only atoms
// yielded already): the concatenation of the formulas' own lists with
// each atom kept at its first place. A formula's list is a function of the
// formula (hash-consed, IDs never reused). The lists are shared: the
// caller must not modify the slice returned.
func (m *atomMemo) atomsOf(fs []*smt.Formula) []*smt.Formula {
	if m == nil || atomsMemoOff {
		var atoms []*smt.Formula
		visibleAtoms(fs, func(a *smt.Formula) bool { atoms = append(atoms, a); return true })
		return atoms
	}
	var atoms []*smt.Formula
	var seen map[*smt.Formula]bool
	lists := 0
	for _, f := range fs {
		if f == nil || len(f.Refs()) == 0 {
			continue
		}
		as, ok := m.atomLists[f.ID()]
		if !ok {
			visibleAtoms([]*smt.Formula{f}, func(a *smt.Formula) bool { as = append(as, a); return true })
			m.atomLists[f.ID()] = as
		}
		if len(as) == 0 {
			continue
		}
		lists++
		if lists == 1 {
			atoms = as // shared until a second list comes
			continue
		}
		if seen == nil {
			seen = make(map[*smt.Formula]bool, 2*len(atoms))
			atoms = slices.Clone(atoms)
			for _, a := range atoms {
				seen[a] = true
			}
		}
		for _, a := range as {
			if !seen[a] {
				seen[a] = true
				atoms = append(atoms, a)
			}
		}
	}
	return atoms
}

// atomsMemoOff turns the atom lists off (the tests compare).
var atomsMemoOff = false
