package relation

import (
	"slices"
	"sync"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Determinism without the solver. POSE-J's Views give a reference value
// sets of dozens of entries whose guards are exclusive by construction:
// the View's canonicalization conjoins an entry's guard with
// canon(Y, Y′) = r_Y = r_Y′ ∧ m(Y′) ∧ ⋀_{Y″<Y′} ¬(r_Y = r_Y″ ∧ m(Y″)), so two
// targets of one symbol differ by a subformula one asserts and the other
// denies, and a field's value in a later symbol is guarded by the
// negation of the earlier symbols' (engine/view/symbolic.go). Asked as one
// question ("can two guards hold together?"), a set no earlier state had
// cost clause learning 10–20 ms (docs/PERFORMANCE.md, POSE-J); the
// syntactic test below answers nearly all of them in well under one.
//
// The test is sufficient, never necessary: exclusiveBySyntax says true
// only when it has shown that no two guards can hold together, and false
// when it has shown nothing (the solver is asked then, as before). What
// it shows:
//
//   - A guard is the disjunction of its pieces (the operands of an Or,
//     or the guard itself): two guards are exclusive when every piece of
//     one is exclusive with every piece of the other.
//   - A piece is the conjunction of its conjuncts (the operands of an
//     And, or the piece itself). A conjunct that is an Or none of whose
//     operands the piece entails (below) is split: the piece becomes one
//     piece per operand, the piece with that operand's conjuncts added.
//     P ∧ (a ∨ b) ≡ (P ∧ a) ∨ (P ∧ b), so the pieces' disjunction is the
//     guard. Past maxPieces pieces nothing is shown.
//   - A set of conjuncts C entails f when f is one of C, or f is an And
//     and C entails each operand, or f is an Or and C entails one: by
//     induction on f, wherever C's conjuncts all hold, f holds.
//   - Two pieces are exclusive when a conjunct ¬x of either has x
//     entailed by the conjuncts of both: their conjunction implies x and
//     ¬x. A piece whose own conjuncts entail such an x is unsatisfiable
//     and is dropped from its guard (the guard is the same function).
//
// Formulas are compared by pointer (they are hash-consed: equal formulas
// are one pointer, and f and ¬f are two), so the test reads no semantics
// of the atoms at all; it is the propositional argument above, which
// holds in every theory.
//
// To test a pair of pieces without walking every negated conjunct again,
// a piece keeps its needs: for each conjunct ¬x, the sets N of formulas
// with N ∪ C entails x (needsOf), less what the piece has itself. Two
// pieces are exclusive when one's need is within the other's conjuncts.
// needsOf lists at most maxNeeds sets for a formula: a set left out is a
// way of entailing x not tried, so the cap weakens the test and never
// makes it claim more.
//
// Pieces recur from state to state even where the value sets are new, so
// a piece's analysis is remembered by the ID of the formula it came from
// (an ID is never reused), and so are a formula's needs. The memos hold
// IDs only, no formula, and start again empty past their bounds.

// exclusiveBySyntax reports whether no two guards of g can hold
// together, as shown by the test above; false means "not shown".
//
// Value sets have up to thousands of pieces, so the pairs are not tested
// one by one: each conjunct's ID indexes the pieces that have it, and a
// piece's single needs mark at once, in a bit set, every piece they
// exclude. Only a pair neither excludes by a single need is tested on
// the needs of two or more.
func exclusiveBySyntax(g machine.GVS) bool {
	var ps []*pieceInfo
	var owner []int // the entry of each piece of ps
	for i, e := range g {
		for _, d := range disjuncts(e.Guard) {
			p, ok := piecesOf(d)
			if !ok {
				return false
			}
			ps = append(ps, p...)
			for range p {
				owner = append(owner, i)
			}
			if len(ps) > maxSetPieces {
				return false
			}
		}
	}
	with := map[uint64][]int32{} // conjunct ID → the pieces that have it
	for k, p := range ps {
		for _, id := range p.ids {
			with[id] = append(with[id], int32(k))
		}
	}
	// excluded[k] is the pieces that piece k's single needs exclude, a
	// bit set of words words.
	words := (len(ps) + 63) / 64
	excluded := make([]uint64, words*len(ps))
	for k, p := range ps {
		ex := excluded[k*words : (k+1)*words]
		for _, id := range p.single {
			for _, l := range with[id] {
				ex[l/64] |= 1 << (l % 64)
			}
		}
	}
	for k, p := range ps {
		ex := excluded[k*words : (k+1)*words]
		for l := k + 1; l < len(ps); l++ {
			if owner[l] == owner[k] || ex[l/64]&(1<<(l%64)) != 0 || excluded[l*words+k/64]&(1<<(k%64)) != 0 {
				continue
			}
			if !p.excludesByNeeds(ps[l]) && !ps[l].excludesByNeeds(p) {
				return false
			}
		}
	}
	return true
}

// disjuncts is the operands of an Or, or f alone.
func disjuncts(f *smt.Formula) []*smt.Formula {
	if f.Op() == smt.OpOr {
		return f.Kids()
	}
	return []*smt.Formula{f}
}

// maxPieces bounds the pieces one disjunct of a guard is split into;
// maxNeeds the needs listed for one formula; maxPieceIDs the IDs of one
// piece's needs of two or more (on the reference-only stream a piece can
// have hundreds of negated conjuncts); maxSetPieces the pieces of
// one value set (its index has a bit for every two pieces: past 4,096,
// 2 MB; the reference-only stream has sets of tens of thousands, whose
// index took a gigabyte, and leaves them to the solver).
const (
	maxPieces    = 64
	maxNeeds     = 64
	maxSetPieces = 4096
	maxPieceIDs  = 4096
)

// pieceInfo is what the test keeps of a piece: its conjuncts' IDs and
// its needs, the ones of a single formula apart (most are: the negated
// conjunct's own formula, or an atom), each with a signature that
// rules most pairs out before any search.
type pieceInfo struct {
	ids    []uint64   // the conjuncts, sorted
	sig    uint64     // signature of ids
	single []uint64   // sorted: any one of these among the other piece's conjuncts excludes it
	ssig   uint64     // signature of single
	needs  [][]uint64 // sets of two or more, all of whose members among the other's conjuncts exclude it
	sigs   []uint64   // signature of each of needs
}

// bit is an ID's bit in a signature (a one-hash Bloom filter): a set
// whose signature has a bit another's lacks is not within it.
func bit(id uint64) uint64 { return 1 << ((id * 0x9E3779B97F4A7C15) >> 58) }

func (p *pieceInfo) has(id uint64) bool {
	_, ok := slices.BinarySearch(p.ids, id)
	return ok
}

// excludesByNeeds reports whether a need of two or more of p is within
// q's conjuncts (the single ones are tested by the index): then p ∧ q
// implies some x and ¬x.
func (p *pieceInfo) excludesByNeeds(q *pieceInfo) bool {
next:
	for i, n := range p.needs {
		if p.sigs[i]&^q.sig != 0 {
			continue
		}
		for _, id := range n {
			if !q.has(id) {
				continue next
			}
		}
		return true
	}
	return false
}

// idMemo is a map by formula ID shared by every run of the process
// (IDs are never reused, and what is kept is a function of the formula
// alone), bounded by the IDs its values hold: past memoIDs it starts
// again empty. (A piece keeps every need of its negated conjuncts, up to
// thousands of IDs: bounded by entries instead, the memo of pieces took
// a gigabyte on the reference-only stream.)
type idMemo[V any] struct {
	mu     sync.Mutex
	m      map[uint64]V
	weight int // the IDs held by the values of m
}

// memoIDs bounds each idMemo: 1M IDs (8 MB, and about as much again in
// the slices that hold them).
const memoIDs = 1 << 20

func (c *idMemo[V]) get(id uint64) (V, bool) {
	c.mu.Lock()
	v, ok := c.m[id]
	c.mu.Unlock()
	return v, ok
}

// put keeps v, which holds weight IDs, under id.
func (c *idMemo[V]) put(id uint64, v V, weight int) {
	if weight > memoIDs/64 {
		return // a value this large is built again when asked again
	}
	c.mu.Lock()
	if c.m == nil || c.weight+weight > memoIDs {
		c.m, c.weight = map[uint64]V{}, 0
	}
	c.m[id] = v
	c.weight += weight + 1
	c.mu.Unlock()
}

var (
	// pieceMemo keeps the pieces of a guard's disjunct (nil: split past
	// maxPieces), needsMemo a formula's needs.
	pieceMemo idMemo[[]*pieceInfo]
	needsMemo idMemo[[][]uint64]
)

// piecesOf returns the pieces of the disjunct d, without those refuted on
// their own; false when d splits into more than maxPieces.
func piecesOf(d *smt.Formula) ([]*pieceInfo, bool) {
	if ps, ok := pieceMemo.get(d.ID()); ok {
		return ps, ps != nil
	}
	var out []*pieceInfo
	split, ok := expand(nil, piece{conjuncts(d)})
	weight := 0
	if ok {
		out = make([]*pieceInfo, 0, len(split))
		for _, p := range split {
			info, fits := infoOf(p)
			if !fits {
				out, ok = nil, false
				break
			}
			if info != nil {
				out = append(out, info)
				weight += len(info.ids) + len(info.single) + 2*len(info.sigs)
				for _, n := range info.needs {
					weight += len(n)
				}
			}
		}
	}
	pieceMemo.put(d.ID(), out, weight)
	return out, ok
}

// needsOfMemo is needsOf, remembered.
func needsOfMemo(f *smt.Formula) [][]uint64 {
	if n, ok := needsMemo.get(f.ID()); ok {
		return n
	}
	n := needsOf(f)
	weight := 0
	for _, x := range n {
		weight += len(x)
	}
	needsMemo.put(f.ID(), n, weight)
	return n
}

// needsOf lists sets N of IDs such that conjuncts with those IDs entail
// f: {f}; for an And, a need of each operand together; for an Or, a need
// of one operand. At most maxNeeds: the first ones found.
func needsOf(f *smt.Formula) [][]uint64 {
	out := [][]uint64{{f.ID()}}
	switch f.Op() {
	case smt.OpAnd:
		acc := [][]uint64{{}}
		for _, k := range f.Kids() {
			kn := needsOf(k)
			var next [][]uint64
			for _, a := range acc {
				for _, b := range kn {
					if len(next) >= maxNeeds {
						break
					}
					next = append(next, append(a[:len(a):len(a)], b...))
				}
			}
			acc = next
		}
		out = append(out, acc...)
	case smt.OpOr:
		for _, k := range f.Kids() {
			out = append(out, needsOf(k)...)
		}
	}
	if len(out) > maxNeeds {
		out = out[:maxNeeds]
	}
	return out
}

// infoOf is the pieceInfo of the piece p, nil if p is refuted on its
// own (a need of one of its negated conjuncts within its conjuncts);
// false if its needs of two or more hold more than maxPieceIDs IDs.
func infoOf(p piece) (*pieceInfo, bool) {
	info := &pieceInfo{}
	for _, cs := range p {
		for _, c := range cs {
			info.ids = append(info.ids, c.ID())
		}
	}
	slices.Sort(info.ids)
	info.ids = slices.Compact(info.ids)
	for _, id := range info.ids {
		info.sig |= bit(id)
	}
	var flat []uint64 // the needs of two or more, one after the other
	var ends []int
	for _, cs := range p {
		for _, c := range cs {
			if c.Op() != smt.OpNot {
				continue
			}
			for _, n := range needsOfMemo(c.Kids()[0]) {
				if len(flat) > maxPieceIDs {
					return nil, false
				}
				start := len(flat)
				for _, id := range n {
					if !info.has(id) {
						flat = append(flat, id)
					}
				}
				switch len(flat) - start {
				case 0:
					return nil, true
				case 1:
					info.single = append(info.single, flat[start])
					flat = flat[:start]
				default:
					ends = append(ends, len(flat))
				}
			}
		}
	}
	flat = slices.Clip(flat)
	multi := make([][]uint64, len(ends))
	for i, e := range ends {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		multi[i] = flat[start:e:e]
	}
	slices.Sort(info.single)
	info.single = slices.Compact(info.single)
	for _, id := range info.single {
		info.ssig |= bit(id)
	}
	// A need with a member that is a need alone adds nothing.
	for _, n := range multi {
		var sig uint64
		for _, id := range n {
			if _, ok := slices.BinarySearch(info.single, id); ok {
				sig = 0
				break
			}
			sig |= bit(id)
		}
		if sig != 0 {
			info.needs = append(info.needs, n)
			info.sigs = append(info.sigs, sig)
		}
	}
	return info, true
}

// piece is a conjunction being split: lists of conjuncts, each sorted by
// ID (an And's operands are).
type piece [][]*smt.Formula

// expand appends to out the pieces p splits into (the splitting above),
// without those refuted on their own; false past maxPieces.
func expand(out []piece, p piece) ([]piece, bool) {
	if p.refuted() {
		return out, true
	}
	for _, cs := range p {
		for _, c := range cs {
			if c.Op() != smt.OpOr || p.entailsOne(c.Kids()) {
				continue
			}
			for _, k := range c.Kids() {
				var ok bool
				if out, ok = expand(out, append(p[:len(p):len(p)], conjuncts(k))); !ok {
					return nil, false
				}
			}
			return out, true
		}
	}
	if len(out) >= maxPieces {
		return nil, false
	}
	return append(out, p), true
}

// refuted reports whether p has False or a conjunct ¬x with x entailed.
func (p piece) refuted() bool {
	for _, cs := range p {
		for _, c := range cs {
			if c.IsFalse() || c.Op() == smt.OpNot && p.entails(c.Kids()[0]) {
				return true
			}
		}
	}
	return false
}

func (p piece) has(f *smt.Formula) bool {
	for _, cs := range p {
		if _, ok := slices.BinarySearchFunc(cs, f.ID(), smt.CompareID); ok {
			return true
		}
	}
	return false
}

// entails is the entailment above.
func (p piece) entails(f *smt.Formula) bool {
	if p.has(f) {
		return true
	}
	switch f.Op() {
	case smt.OpAnd:
		for _, k := range f.Kids() {
			if !p.entails(k) {
				return false
			}
		}
		return true
	case smt.OpOr:
		return p.entailsOne(f.Kids())
	}
	return false
}

func (p piece) entailsOne(fs []*smt.Formula) bool {
	return slices.ContainsFunc(fs, p.entails)
}
