package checker

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"slices"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
)

// Exactness held once is not checked again for the same (P, q).
//
// Many steps move only the control: a variable lookup, a branch on a
// boolean, a call's bookkeeping. After such a step every GSE state of the
// group and the engine's state have the heaps and path conditions they had
// before, and exactness would ask the same thousands of solver questions
// again (on the generated programs whose groups grow to hundreds of GSE
// states, the same group is checked at five to ten consecutive steps).
// relation.FingerprintSum covers everything the relations read of a state
// except the control, and the controls of P and q agree at every pair (the
// driver groups by control; exactMemo checks it anyway), so a pair whose
// fingerprints equal those of a pair that held holds too.
//
// Only Holds is remembered: a violation stops the check, and an
// inconclusive answer is not knowledge. The key is a 128-bit hash
// (stateKey) over the fingerprints of q and of the members of P (sorted:
// exactness is about the set P), the part of exactness asked, and nothing
// else of the run's options changes between pairs. The data half
// (relation.ExactData) is memoized the same way, its key adding every
// state's data (relation.FingerprintSum with data): a step that moves only the
// control leaves the terms as they were, and the data half's worlds are as
// many as the concretization's leaves.
type exactMemo map[stateKey]relation.ExactResult

// A stateKey is a 128-bit hash: of one state's fingerprint stream
// (relation.FingerprintSum, two 64-bit lanes seeded at random when the
// process starts, hashed as the stream is produced, not encoded first),
// or of a pair's: the sums of q and of the members, combined by keyHash.
// The fingerprints were hashed with SHA-256 at first, which was a fifth
// of a check's time on the LinkedList drivers, then encoded and hashed by
// hash/maphash, the encoding an eighth of a check. How likely two
// different states are to share a key, and what is proven of it, is said
// at relation.FingerprintSum: about 2⁻¹²⁸ for an ideal hash, an estimate
// for its XXH64 rounds, not a bound.
type stateKey [2]uint64

var keySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// keyHash collects the sums of a pair's states and sums them into a
// stateKey (hash/maphash under two process seeds). Its buffer is reused.
//
// prev and from, when the caller sets them, are for the P of the next
// exactKey: prev[from[i]] is the record of an ancestor of P[i] (heapRec),
// whose heap sum exactKey takes when P[i] still has that heap. cur is what exactKey
// last computed, for the states of curP: the data half's key of the same
// pair takes the heap sums from it. lastQ and lastQSum are the state
// wellFormedMemoized last computed the sum of, and the sum, for the
// exactness key of the same pair (exactKey takes it once).
type keyHash struct {
	buf      []byte
	slab     []heapRec // recsFor's chunk
	prev     []heapRec
	from     []int32
	cur      []heapRec
	curP     []*machine.State
	lastQ    *machine.State
	lastQSum stateKey
	// reused and summed count the members whose heap sum was taken
	// from a record and those whose heap was summed.
	reused, summed int
}

// sameHeaps tells the step's heap cache, for every member of P (the
// states of the key just computed) whose record has a heap, that the
// member has that heap's heap part (heapRec): exactness then builds the
// member's heap from it.
func (h *keyHash) sameHeaps(P []*machine.State, c *relation.HeapCache) {
	if !h.of(P) || !reuseHeaps {
		return
	}
	for i, p := range P {
		if h.cur[i].heap != nil {
			c.Same(p, h.cur[i].heap)
			if heapReuseHook != nil {
				heapReuseHook(p, h.cur[i].sum, h.cur[i].heap)
			}
		}
	}
}

// builtHeaps keeps in the records of P's members (the states of the key
// just computed) the heaps exactness built for them.
func (h *keyHash) builtHeaps(P []*machine.State, c *relation.HeapCache) {
	if !h.of(P) || !reuseHeaps {
		return
	}
	for i, p := range P {
		if h.cur[i].ok {
			if b := c.Built(p); b != nil {
				h.cur[i].heap = b
			}
		}
	}
}

// of reports whether cur holds the records of the states of P.
func (h *keyHash) of(P []*machine.State) bool {
	if len(h.curP) != len(P) || len(h.cur) != len(P) {
		return false
	}
	for i, p := range P {
		if h.curP[i] != p {
			return false
		}
	}
	return true
}

// reuseHeaps lets exactness build a member's heap from its ancestor's
// (heapRec.heap, relation.HeapOfSame); TestHeapSumsSameVerdicts compares
// with it off.
var reuseHeaps = true

// recsFor is a copy of the heap records exactKey last computed when they
// are of the states of P (in order), else nil.
func (h *keyHash) recsFor(P []*machine.State) []heapRec {
	if !h.of(P) || !reuseHeapSums {
		return nil
	}
	// From a chunk shared by the pairs of many steps (a slice each was a
	// thirtieth of the check's allocations); a chunk lives as long as a
	// pair holds a part of it.
	n := len(h.cur)
	if n > len(h.slab) {
		h.slab = make([]heapRec, max(recChunk, n))
	}
	out := h.slab[:n:n]
	h.slab = h.slab[n:]
	copy(out, h.cur)
	return out
}

// recChunk is the number of records recsFor allocates at once.
const recChunk = 1024

// heapRec is the heap sum of a GSE state (relation.HeapSum) with what
// tells whether a state made from it by steps and clones still has that
// heap: its count of writes (machine.State.HeapWrites), φ and facts.
//
// Why that is exact: the heap sum reads φ, the facts, the locations, R
// and L of R's references (and of r_un), none of them a stack reference
// when a record is kept (recOf). Every write a GSE step makes to L of
// another reference, to R, the locations or the facts goes through the
// machine.State methods that count it (the
// rules of machine and gse write nothing else of a state; gse's own
// copy-free explorer, which restores slices, never hands a state to the
// checker), and a clone starts from its original's count. A state whose
// count is its ancestor's count at the record has had no write since, on
// itself or on the states it was cloned from after the record (counts
// only grow along the line), so its heap is the one summed. φ and the
// facts are compared too, as they are read (their pointers): a rule that
// set φ without a method would be seen. The line matters: two branches
// of one initialization make the same number of writes to different
// cells, so a record is only ever compared with a state made from the
// state it was taken of (step: the successors of the member it was
// taken of; checkInit: the member itself and its initializations).
// reuseHeapSums turns this off (TestHeapSumsSameVerdicts compares with
// it off).
//
// heap, when not nil, is the concrete heap (relation.HeapOf) of a state
// that had the record's heap part: exactness builds a member's heap from
// it (relation.HeapOfSame, which resolves only the roots), or takes it
// as it is when the roots are its too.
type heapRec struct {
	sum    [2]uint64
	writes uint64
	phi    *smt.Formula
	facts  *machine.Fact
	heap   *relation.Heap
	ok     bool
}

// reuseHeapSums lets exactKey take a GSE state's heap sum from its
// ancestor's (heapRec).
var reuseHeapSums = true

// heapReuseHook, when not nil, is called with every state whose heap sum
// exactKey takes from its ancestor's record, and that sum, and with every
// state whose heap exactness is to build from an ancestor's heap, with
// the record's sum and that heap (tests).
var heapReuseHook func(p *machine.State, sum [2]uint64, heap *relation.Heap)

// memberSumHook, when not nil, is called with every member whose sum
// exactKey computed from a heap sum, and that sum (tests).
var memberSumHook func(p *machine.State, data bool, sum stateKey)

// recOf is the heapRec of p, whose heap sum is sum. It is kept only when
// no cell of R holds a stack reference: the heap sum reads L of R's
// references, and a stack reference's L is written without a count
// (machine.State.HeapWrites). Once taken, R changes only with a count.
// (φ and the facts are kept either way: GPC reads them, gsepc.go.)
func recOf(p *machine.State, sum [2]uint64) heapRec {
	ok := true
	for _, r := range p.R {
		if machine.PartitionOf(r) == machine.PartStack {
			ok = false
			break
		}
	}
	return heapRec{sum: sum, writes: p.HeapWrites(), phi: p.Phi, facts: p.Facts, ok: ok}
}

// fits reports whether p, made from the state h was taken of by steps and
// clones, still has its heap.
func (h heapRec) fits(p *machine.State) bool {
	return h.ok && reuseHeapSums && p.HeapWrites() == h.writes && p.Phi == h.phi && p.Facts == h.facts
}

// fitsAfterFact reports whether p has the heap part of the state the
// record was taken of with one fact added (GSE's E and E′): one write
// more, the same φ, and a fact list whose tail is the recorded one. The
// one write counted is the fact's, so L, R and the locations are as they
// were (derive.go).
func (h heapRec) fitsAfterFact(p *machine.State) bool {
	return h.ok && reuseHeapSums && p.HeapWrites() == h.writes+1 && p.Phi == h.phi && p.Facts != nil && p.Facts.Next == h.facts
}

func (h *keyHash) key() stateKey {
	return stateKey{maphash.Bytes(keySeeds[0], h.buf), maphash.Bytes(keySeeds[1], h.buf)}
}

// stateSum is the key of one state's fingerprint (with data, followed by
// its data fingerprint).
func stateSum(s *machine.State, data bool) stateKey {
	return stateKey(relation.FingerprintSum(s, data))
}

// exactKey is the memo key of (P, q), or false when the controls of P and q
// differ (then the check is not memoized). With data, the key is the data
// half's. h is the buffer to use (reused between calls).
//
// shared, when not "", is the control every member of P is known to have
// (the driver grouped them by it): then only q's is computed and compared.
func exactKey(h *keyHash, P []*machine.State, q *machine.State, concretize, data bool, shared string) (stateKey, bool) {
	lastQ := h.lastQ
	h.lastQ = nil
	// Control keys as bytes on the stack: no string is made.
	var qkb, pkb [256]byte
	ck := q.AppendControlKey(qkb[:0])
	known := shared != "" && shared == string(ck)
	var buf [64]stateKey
	sums := buf[:0]
	same := len(h.curP) == len(P) && len(h.cur) == len(P)
	for i, p := range P {
		if !known && !bytes.Equal(p.AppendControlKey(pkb[:0]), ck) {
			return stateKey{}, false
		}
		if same && h.curP[i] != p {
			same = false
		}
	}
	if !same {
		h.cur = h.cur[:0]
		h.curP = append(h.curP[:0], P...)
	}
	// Every member has q's control key (checked above, or known), so
	// their roots are q's (relation.ControlRoots): collected once.
	var rootBuf [32]machine.Ref
	cr := relation.ControlRootsOf(q, rootBuf[:0])
	for i, p := range P {
		var (
			rec          heapRec // what the state's successors may take
			heap         [2]uint64
			taken, whole bool
		)
		switch {
		case same && h.cur[i].fits(p):
			rec, heap, taken = h.cur[i], h.cur[i].sum, true
		case i < len(h.from) && int(h.from[i]) < len(h.prev) && h.prev[h.from[i]].fits(p):
			rec, heap, taken = h.prev[h.from[i]], h.prev[h.from[i]].sum, true
		case relation.Readable(p):
			heap = relation.HeapSum(p)
			rec = recOf(p, heap)
			h.summed++
		default: // no heap part: summed whole
			whole = true
		}
		if same {
			h.cur[i] = rec
		} else {
			h.cur = append(h.cur, rec)
		}
		if taken {
			h.reused++
			if heapReuseHook != nil {
				heapReuseHook(p, heap, nil)
			}
		}
		if whole {
			sums = append(sums, stateSum(p, data))
			continue
		}
		var sum stateKey
		if reuseHeapSums {
			sum = stateKey(relation.FingerprintSumRoots(p, heap, cr, data))
		} else {
			sum = stateKey(relation.FingerprintSumHeap(p, heap, data)) // the member's own roots
		}
		if memberSumHook != nil {
			memberSumHook(p, data, sum)
		}
		sums = append(sums, sum)
	}
	slices.SortFunc(sums, func(a, b stateKey) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	var qs stateKey
	if lastQ == q && !data {
		qs = h.lastQSum
	} else {
		qs = stateSum(q, data)
	}
	h.buf = h.buf[:0]
	switch {
	case data:
		h.buf = append(h.buf, 2)
	case concretize:
		h.buf = append(h.buf, 1)
	default:
		h.buf = append(h.buf, 0)
	}
	for _, s := range append(sums, qs) {
		h.buf = binary.LittleEndian.AppendUint64(h.buf, s[0])
		h.buf = binary.LittleEndian.AppendUint64(h.buf, s[1])
	}
	return h.key(), true
}

// vouchControls tells exactness that exactKey found the members' controls
// equal to q's (relation.Budget.ControlsEqual); TestExactReuseSameVerdicts
// compares with it off.
var vouchControls = true

// reuseExact turns the reuse on (TestExactReuseSameVerdicts compares with
// it off).
var reuseExact = true

// reuseRepresents lets the Partition driver answer p ⊏ v once per heap
// shape of a group (partitionAt); TestPartitionReuseSameVerdicts compares
// with it off.
var reuseRepresents = true

// reuseConcretizations gives exactness a concretization cache per program
// (relation.ConcretizationCache: the leaves of a state's concretization
// serve the states that differ from it only in their roots or by a
// stronger path condition);
// TestExactReuseSameVerdicts compares with it off.
var reuseConcretizations = true

// reuseTotality gives the well-formedness checks of a run one
// relation.TotalityMemo: a totality question is not asked again when the
// same value set was total under a path condition the present one
// implies by its conjuncts. TestTotalityReuseSameVerdicts compares with
// it off.
var reuseTotality = true

// budget is the run's Budget for one check: the time limit reaches into
// the search (Done), and the program's concretization cache is in it.
func (r *run) budget() relation.Budget {
	budget := r.opt.Budget
	budget.Done = r.ctx.Done()
	if reuseConcretizations {
		if r.concretized == nil {
			r.concretized = relation.NewConcretizationCache()
		}
		budget.Cache = r.concretized
	}
	budget.Heaps = r.heaps
	return budget
}

// exactMemoized is relation.ExactWellFormed with the Holds answers of this
// run reused. The per-program time limit reaches into the check
// (Budget.Done), so a long check stops inside, not only between pairs.
func (r *run) exactMemoized(P []*machine.State, q *machine.State) relation.ExactResult {
	budget := r.budget()
	if !reuseExact {
		return relation.ExactWellFormed(P, q, r.solver, budget, !r.opt.NoExactness)
	}
	key, ok := exactKey(&r.keyHash, P, q, !r.opt.NoExactness, false, r.sameControl)
	if ok {
		if res, seen := r.exactHeld[key]; seen {
			r.rep.exactReused++
			return res
		}
	}
	var (
		res     relation.ExactResult
		derived bool
	)
	if ok && r.derivable {
		// The predecessor pair's answer, derived (derive.go).
		res, derived = r.derivedExact(P, q)
	}
	if ok && !derived {
		r.keyHash.sameHeaps(P, r.heaps)
		// exactKey compared every member's control key with q's (or
		// knew them equal: sameControl), as ⊏ would.
		budget.ControlsEqual = vouchControls
	}
	if !derived {
		res = relation.ExactWellFormed(P, q, r.solver, budget, !r.opt.NoExactness)
	}
	if ok {
		r.keyHash.builtHeaps(P, r.heaps)
	}
	if ok && res.Outcome == relation.Holds {
		if r.exactHeld == nil {
			r.exactHeld = exactMemo{}
		}
		kept := res
		kept.Leaves = nil // for the data half of this pair only
		r.exactHeld[key] = kept
	}
	return res
}

// wellFormedMemoized is relation.WellFormedChecks with the states found
// well formed in this run remembered by fingerprint: the checks read only
// what relation.FingerprintSum covers (the roots and the stack values that
// StackOnlyRoots reads, the locations, the guarded value sets and the
// path condition), and most steps leave all of it as it was, so a state
// whose fingerprint was well formed before is well formed again. Only the
// absence of a violation is remembered; a violation or an undecided check
// is always computed again. A state computed has its totality questions
// answered by the run's relation.TotalityMemo where it can (reuseTotality).
func (r *run) wellFormedMemoized(q *machine.State) (*relation.Violation, string, error) {
	var memo *relation.TotalityMemo
	if reuseTotality {
		if r.totality == nil {
			r.totality = relation.NewTotalityMemo()
		}
		memo = r.totality
	}
	if !reuseExact {
		return relation.WellFormedChecksMemo(q, r.solver, memo)
	}
	key := stateSum(q, false)
	// The exactness key of the pair sums q again unless it is given this
	// one; nothing changes q between its well-formedness and its
	// exactness (checkPair, checkInit), and exactKey takes it only for the
	// same state, once.
	r.keyHash.lastQ, r.keyHash.lastQSum = q, key
	if r.wellFormedHeld[key] {
		r.rep.wellFormedReused++
		return nil, "", nil
	}
	v, check, err := relation.WellFormedChecksMemo(q, r.solver, memo)
	if v == nil && err == nil {
		if r.wellFormedHeld == nil {
			r.wellFormedHeld = map[stateKey]bool{}
		}
		r.wellFormedHeld[key] = true
	}
	return v, check, err
}

// exactDataMemoized is relation.ExactData with the Holds answers of this
// run reused (see exactMemo). leaves are q's concretization leaves when
// the reference half just computed them (relation.ExactResult.Leaves),
// else nil.
func (r *run) exactDataMemoized(P []*machine.State, q *machine.State, leaves relation.Leaves) relation.ExactResult {
	if !reuseExact {
		return relation.ExactDataLeaves(P, q, leaves, r.solver, r.budget())
	}
	key, ok := exactKey(&r.keyHash, P, q, true, true, r.sameControl)
	if ok {
		if res, seen := r.exactHeld[key]; seen {
			r.rep.exactReused++
			return res
		}
	}
	res := relation.ExactDataLeaves(P, q, leaves, r.solver, r.budget())
	if ok && res.Outcome == relation.Holds {
		if r.exactHeld == nil {
			r.exactHeld = exactMemo{}
		}
		r.exactHeld[key] = res
	}
	return res
}
