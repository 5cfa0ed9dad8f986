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
// IDs only, no formula, are kept per program (for the programs asked
// last), and start again empty past their bounds.

// exclusiveBySyntax reports whether no two guards of g can hold
// together, as shown by the test above; false means "not shown".
//
// Value sets have up to thousands of pieces, so the pairs are not tested
// one by one: each conjunct's ID indexes the pieces that have it, and a
// piece's single needs mark at once, in a bit set, every piece they
// exclude. Only a pair neither excludes by a single need is tested on
// the needs of two or more.
func exclusiveBySyntax(g machine.GVS, prog any) bool {
	memo := memoOf(prog)
	sc := scratch.Get().(*infoScratch)
	defer scratch.Put(sc)
	var ps []*pieceInfo
	var owner []int // the entry of each piece of ps
	for i, e := range g {
		for _, d := range disjuncts(e.Guard) {
			p, ok := piecesOf(d, memo, sc)
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

// idMemo is a map by formula ID (IDs are never reused, and what is kept
// is a function of the formula alone), bounded by the words its values
// hold: past memoWords it starts again empty. (A piece keeps every need
// of its negated conjuncts, up to thousands of IDs: bounded by entries
// instead, the memo of pieces took a gigabyte on the reference-only
// stream.)
type idMemo[V any] struct {
	mu     sync.Mutex
	m      map[uint64]V
	weight int // the words held by m and its values
}

// memoWords bounds each idMemo: 8M words (64 MB). On
// testdata/bench/treemap_remove.jl under pose at k = 3 a bound of 1M IDs
// started the memo of pieces again 33 times in the check's first 17 s of
// CPU: the memo answered 19 % of the pieces asked, and two in five of
// those analysed again were pieces it had held (with 8M IDs it answered
// 43 %).
const memoWords = 1 << 23

// mapEntryWords is what an entry costs a map beyond its value's slices.
const mapEntryWords = 4

func (c *idMemo[V]) get(id uint64) (V, bool) {
	c.mu.Lock()
	v, ok := c.m[id]
	c.mu.Unlock()
	return v, ok
}

// put keeps v, which holds weight words, under id.
func (c *idMemo[V]) put(id uint64, v V, weight int) {
	if weight > memoWords/64 {
		return // a value this large is built again when asked again
	}
	c.mu.Lock()
	if c.m == nil || c.weight+weight > memoWords {
		c.m, c.weight = map[uint64]V{}, 0
	}
	c.m[id] = v
	c.weight += weight + mapEntryWords
	c.mu.Unlock()
}

// exclusiveMemo is the memos of one program: pieces keeps the pieces of a
// guard's disjunct (nil: split past maxPieces), needs a formula's needs.
// The pieces of one program's guards rarely recur in another's (their
// answers would be the same: they are a function of the formula), so the
// memos are kept per program, for the memoPrograms programs asked last:
// on a generated stream, one program after another, memos shared by all
// of them hold the pieces of programs long finished, and a bound large
// enough for one deep program (memoWords) would hold tens of them.
type exclusiveMemo struct {
	prog   any
	pieces idMemo[[]*pieceInfo]
	needs  idMemo[[][]uint64]
}

// memoPrograms is how many programs' memos are kept: the checks running
// at once (a worker each) keep theirs.
const memoPrograms = 4

var exclusiveMemos struct {
	mu   sync.Mutex
	last []*exclusiveMemo // the programs asked last, the last one first
}

// memoOf returns prog's memos, made when prog is not among the programs
// asked last (the least recent one's are dropped).
func memoOf(prog any) *exclusiveMemo {
	ms := &exclusiveMemos
	ms.mu.Lock()
	defer ms.mu.Unlock()
	for i, m := range ms.last {
		if m.prog == prog {
			copy(ms.last[1:i+1], ms.last[:i])
			ms.last[0] = m
			return m
		}
	}
	m := &exclusiveMemo{prog: prog}
	if len(ms.last) < memoPrograms {
		ms.last = append(ms.last, nil)
	}
	copy(ms.last[1:], ms.last)
	ms.last[0] = m
	return m
}

// Words of a pieceInfo beyond its slices' elements: its fields, and the
// header of each of its needs.
const (
	pieceInfoWords = 16
	needWords      = 3
)

// piecesOf returns the pieces of the disjunct d, without those refuted on
// their own; false when d splits into more than maxPieces.
func piecesOf(d *smt.Formula, memo *exclusiveMemo, sc *infoScratch) ([]*pieceInfo, bool) {
	if ps, ok := memo.pieces.get(d.ID()); ok {
		return ps, ps != nil
	}
	var out []*pieceInfo
	split, ok := expand(nil, piece{conjuncts(d)})
	weight := 0
	if ok {
		out = make([]*pieceInfo, 0, len(split))
		weight += len(split)
		for _, p := range split {
			info, fits := infoOf(p, sc, memo)
			if !fits {
				out, ok = nil, false
				break
			}
			if info != nil {
				out = append(out, info)
				weight += pieceInfoWords + len(info.ids) + len(info.single) + len(info.sigs) + needWords*len(info.needs)
				for _, n := range info.needs {
					weight += len(n)
				}
			}
		}
	}
	memo.pieces.put(d.ID(), out, weight)
	return out, ok
}

// needsOfMemo is needsOf, remembered.
func needsOfMemo(f *smt.Formula, memo *exclusiveMemo) [][]uint64 {
	if n, ok := memo.needs.get(f.ID()); ok {
		return n
	}
	n := needsOf(f)
	weight := needWords * len(n)
	for _, x := range n {
		weight += len(x)
	}
	memo.needs.put(f.ID(), n, weight)
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
//
// sc holds the needs while they are collected, reused from piece to piece
// and from value set to value set (growing them piece by piece was a
// third of the test on treemap_remove under pose at k = 3); what is kept
// is copied out at the end, in slices of its own length.
func infoOf(p piece, sc *infoScratch, memo *exclusiveMemo) (*pieceInfo, bool) {
	info := &pieceInfo{}
	n := 0
	for _, cs := range p {
		n += len(cs)
	}
	info.ids = make([]uint64, 0, n)
	for _, cs := range p {
		for _, c := range cs {
			info.ids = append(info.ids, c.ID())
		}
	}
	slices.Sort(info.ids)
	info.ids = slices.Clip(slices.Compact(info.ids))
	for _, id := range info.ids {
		info.sig |= bit(id)
	}
	// An ID whose bit is not in the signature is not among ids: the test
	// skips the search for most members of the needs.
	has := func(id uint64) bool { return info.sig&bit(id) != 0 && info.has(id) }
	flat := sc.flat[:0] // the needs of two or more, one after the other
	ends := sc.ends[:0]
	single := sc.single[:0]
	defer func() { sc.flat, sc.ends, sc.single = flat, ends, single }()
	for _, cs := range p {
		for _, c := range cs {
			if c.Op() != smt.OpNot {
				continue
			}
			for _, n := range needsOfMemo(c.Kids()[0], memo) {
				if len(flat) > maxPieceIDs {
					return nil, false
				}
				start := len(flat)
				for _, id := range n {
					if !has(id) {
						flat = append(flat, id)
					}
				}
				switch len(flat) - start {
				case 0:
					return nil, true
				case 1:
					single = append(single, flat[start])
					flat = flat[:start]
				default:
					ends = append(ends, len(flat))
				}
			}
		}
	}
	slices.Sort(single)
	single = slices.Compact(single)
	if len(single) > 0 {
		info.single = slices.Clone(single)
	}
	for _, id := range info.single {
		info.ssig |= bit(id)
	}
	// A need with a member that is a need alone adds nothing. The needs
	// kept share one array of their total length.
	sigs := sc.sigs[:0]
	defer func() { sc.sigs = sigs }()
	total := 0
	for i, e := range ends {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		var sig uint64
		for _, id := range flat[start:e] {
			if info.ssig&bit(id) != 0 {
				if _, ok := slices.BinarySearch(info.single, id); ok {
					sig = 0
					break
				}
			}
			sig |= bit(id)
		}
		sigs = append(sigs, sig)
		if sig != 0 {
			total += e - start
		}
	}
	if total == 0 {
		return info, true
	}
	kept := make([]uint64, 0, total)
	k := 0
	for _, sig := range sigs {
		if sig != 0 {
			k++
		}
	}
	info.needs, info.sigs = make([][]uint64, 0, k), make([]uint64, 0, k)
	for i, e := range ends {
		if sigs[i] == 0 {
			continue
		}
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		from := len(kept)
		kept = append(kept, flat[start:e]...)
		info.needs = append(info.needs, kept[from:len(kept):len(kept)])
		info.sigs = append(info.sigs, sigs[i])
	}
	return info, true
}

// scratch holds infoOf's working spaces, one for each test running.
var scratch = sync.Pool{New: func() any { return new(infoScratch) }}

// infoScratch is infoOf's working space.
type infoScratch struct {
	flat, single, sigs []uint64
	ends               []int
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
