package relation

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"math/rand/v2"

	"github.com/lockstep-dev/lockstep/internal/knobs"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// fingerprint writes s's fingerprint stream to w (see FingerprintSum):
// the sum of its heap's stream (heap), then its roots and their guarded
// value sets.
func (w *fpWriter) fingerprint(s *machine.State) {
	if err := checkState(s); err != nil {
		w.num(-1) // never equal to a readable state's (which starts with a sum of two numbers)
		w.str(err.Error())
		return
	}
	var rootBuf [rootsOnStack]machine.Ref
	w.roots(s, HeapSum(s), ControlRootsOf(s, rootBuf[:0]))
}

// ControlRoots is what a fingerprint reads of a state's control (η, e and
// k) besides the values of its references: its roots (AppendRoots, in
// their order) and whether StackOnlyRoots finds a violation (it reads
// values that the roots skip, invalid ones). Both are functions of η, e
// and k alone, so two states whose control keys are equal
// (machine.State.ControlKey: equal exactly when η, e and k are) have
// equal ControlRoots: a caller with a group of such states takes them
// from one (FingerprintSumRoots).
type ControlRoots struct {
	Refs     []machine.Ref
	NotStack bool
}

// ControlRootsOf is s's ControlRoots, the roots appended to buf.
func ControlRootsOf(s *machine.State, buf []machine.Ref) ControlRoots {
	return ControlRoots{Refs: s.AppendRoots(buf), NotStack: StackOnlyRoots(s) != nil}
}

// roots writes the fingerprint stream of a readable state s whose heap's
// sum is heap and whose ControlRoots are cr: the sum, the roots and
// their guarded value sets.
func (w *fpWriter) roots(s *machine.State, heap [2]uint64, cr ControlRoots) {
	w.num(int64(heap[0]))
	w.num(int64(heap[1]))
	if cr.NotStack {
		w.num(-2)
	}
	w.num(int64(len(cr.Refs)))
	for _, r := range cr.Refs {
		w.num(int64(r))
	}
	// The guarded value sets of the roots, a reference as often as it
	// occurs (RefsInUse without its set, which was a quarter of the time
	// of a fingerprint; equal states still write equal streams).
	w.refs(s, cr.Refs)
}

// heap writes the stream of the heap of a readable state s: φ and the
// facts, every location, R, and the guarded value sets of R's references.
func (w *fpWriter) heap(s *machine.State) {
	// φ and the facts, not PathCondition(): their conjunction is built
	// anew at every call, and once collected it is interned again under a
	// new ID, while the state holds φ and the facts themselves.
	w.form(s.Phi)
	for f := s.Facts; f != nil; f = f.Next {
		w.form(f.F)
	}
	w.num(-3)
	w.num(int64(len(s.Locs)))
	w.num(int64(len(s.R)))
	for _, info := range s.Locs {
		// The class by its index in the program (javalite.Class.Index):
		// the states compared are of one program, where it names one
		// class; its name was hashed for every location of every state.
		w.num(int64(len(info.Class.Name)))
		w.num(int64(info.Class.Index))
		w.num(int64(len(info.Class.Fields)))
		// The flags of the engines' state extensions, the identity and the
		// depth are written too: the relations may not read them all, but
		// a key that tells more states apart only costs a recheck.
		flags := int64(0)
		for i, f := range [...]bool{info.Input, info.Unresolved, info.MayBeNull, info.Symbolic} {
			if f {
				flags |= 1 << i
			}
		}
		w.num(flags)
		w.num(int64(info.Identity))
		w.num(int64(info.Depth))
		w.form(info.Exists)
	}
	// R: a row of R has a cell for every field of the program, and only
	// the fields of the location's class are ever set (the others stay
	// r_un). When that is so for every row, only the class's cells are
	// written (the stream has every class, so the rest is known to be
	// r_un); they were most of the fingerprint on programs of several
	// classes. Otherwise every cell is.
	nf := s.NumFields()
	own := len(s.R) == len(s.Locs)*nf && ownCellsOnly(s, nf)
	if own {
		w.num(-5)
		for l, info := range s.Locs {
			row := s.R[l*nf : (l+1)*nf]
			for _, f := range info.Class.Fields {
				w.num(int64(row[f.ID]))
			}
		}
	} else {
		w.num(-6)
		for _, r := range s.R {
			w.num(int64(r))
		}
	}
	// The guarded value sets of R's references, a reference as often as
	// it occurs. With the class's cells only, r_un's set follows once
	// when some row has another cell.
	if !own {
		w.refs(s, s.R)
		return
	}
	other := false
	for l, info := range s.Locs {
		row := s.R[l*nf : (l+1)*nf]
		for _, f := range info.Class.Fields {
			w.ref(s, row[f.ID])
		}
		other = other || len(info.Class.Fields) < nf
	}
	if other {
		w.ref(s, machine.RUn)
	}
}

// ownCellsOnly reports whether every cell of R outside its location's
// class's fields is r_un (nf: the row width).
func ownCellsOnly(s *machine.State, nf int) bool {
	for l, info := range s.Locs {
		row := s.R[l*nf : (l+1)*nf]
		set := 0 // cells not r_un in the row
		for _, r := range row {
			if r != machine.RUn {
				set++
			}
		}
		for _, f := range info.Class.Fields {
			if row[f.ID] != machine.RUn {
				set--
			}
		}
		if set != 0 {
			return false
		}
	}
	return true
}

func (w *fpWriter) refs(s *machine.State, rs []machine.Ref) {
	for _, r := range rs {
		w.ref(s, r)
	}
}

// ref writes r and its guarded value set.
func (w *fpWriter) ref(s *machine.State, r machine.Ref) {
	g := s.Get(r)
	w.num(int64(r))
	w.num(int64(len(g)))
	for _, e := range g {
		w.form(e.Guard)
		w.num(int64(e.Loc))
	}
}

// rootsOnStack is the number of roots fingerprint collects without
// allocating.
const rootsOnStack = 32

// fpBuf is the concretization cache's content key under construction
// (contentKey): a number as its zig-zag varint (binary.AppendVarint: one
// byte for the small numbers that most of a state is, a prefix-free code,
// so the stream reads back one way), a formula as its ID (nil as 0).
type fpBuf []byte

func (b *fpBuf) num(x int64) { *b = binary.AppendVarint(*b, x) }

func (b *fpBuf) form(f *smt.Formula) {
	if f == nil {
		b.num(0)
		return
	}
	b.num(int64(f.ID()))
}

// data writes what the data half of exactness reads of s beyond the
// fingerprint: the term of every primitive field of every location, and
// the state's slots (the term values of η, e and k, in Slots order). The
// fingerprint leaves them out so that a step that changes only data does
// not make the reference half check its pair again.
func (w *fpWriter) data(s *machine.State) {
	for l, info := range s.Locs {
		w.num(int64(len(info.Class.PrimFields)))
		for _, f := range info.Class.PrimFields {
			w.form(s.PrimField(machine.Loc(l), f))
		}
	}
	if knobs.DataKeyNoSlots.Load() {
		return // a checker mutation (tests only)
	}
	slots := s.Slots()
	w.num(int64(len(slots)))
	for _, t := range slots {
		w.form(t)
	}
}

// FingerprintSum is a 128-bit hash of everything of s that the checks of
// this package read, except the control (η e k beyond the references they
// hold): the path condition (φ and the facts), the roots in Roots order,
// every location's class, input flag and existence guard, R, and the
// guarded value set of every reference in use; with data, followed by what
// the data half reads (data). Formulas are taken by their ID (hash-consed:
// equal IDs are equal formulas, and an ID is never reused for another
// formula), classes by their index in the program: fingerprints compare
// states of one program.
//
// Two states of a program with equal fingerprints are indistinguishable to
// Represents, Exact, Concretize and the well-formedness checks as long as
// their controls agree with whatever they are compared with: their answers
// are the same. The lockstep checker uses this to recognize a pair (P, q)
// it has checked already at an earlier step — a step that only moves the
// control (a variable lookup, a branch on a boolean) leaves every heap and
// path condition as they were, and a group of hundreds of GSE states is
// then checked once instead of at every step.
//
// The sum is of the stream of numbers (formula IDs, references,
// locations, class indices, counts, flags) that fingerprint produces:
// states with equal streams have equal sums, so a memo keyed by the sum
// answers a state as one keyed by the stream would, unless two different
// streams collide.
//
// The lockstep checker's memo keys are these sums, of every state of
// every pair (a few hundred thousand on the LinkedList drivers). The
// numbers are mixed as they are produced, never encoded: a varint per
// number into a buffer hashed afterwards was an eighth of a check. Each
// number enters two 64-bit lanes by a round of XXH64 (acc = rotl(acc +
// x·p₂, 31)·p₁; the second lane with other odd constants and rotation),
// which for a given number is a bijection of the accumulator and for a
// given accumulator a bijection of the number, so two streams of the same
// length that differ in one number never meet in a lane. Each lane is
// striped four ways (number i enters accumulator i mod 4), so consecutive
// numbers do not wait for each other's multiplications, and the four are
// folded with the count of numbers by bijective rounds and XXH64's
// avalanche. The lanes start from seeds drawn at random when the process
// starts (the reason an unreadable state is unreadable enters as its
// hash/maphash sum under a process seed). For an ideal 128-bit hash, two
// different streams would share both lanes with probability 2⁻¹²⁸, about
// 10⁻²⁷ across the million keys of the largest run; XXH64's rounds are
// not a proven universal family, so that is an estimate, not a bound. A
// collision would make the memo answer one pair with another's answer;
// since the seeds are drawn per process, it would not repeat in a second
// run of the same check. What is proven: equal streams give equal sums,
// and two streams of one length that differ in one number differ in both
// lanes (every round, fold and the avalanche are bijections).
//
// The stream is in two parts: the heap's (φ, the facts, the locations, R
// and the value sets of R's references), summed on its own by the same
// rounds (HeapSum), and the state's, which is that sum's two numbers
// followed by the roots and their value sets. Equal states still give
// equal streams; two states whose heap streams differ have different heap
// sums unless those collide, which is one more collision of the same
// 128-bit hash. The heap's part is most of a fingerprint, and most steps
// of a GSE state leave it as it was: FingerprintSumHeap takes it from an
// earlier HeapSum of the same heap.
func FingerprintSum(s *machine.State, data bool) [2]uint64 {
	var w fpWriter
	w.start()
	w.fingerprint(s)
	if data {
		w.num(-4) // the data fingerprint follows
		w.data(s)
	}
	return w.sum()
}

// HeapSum is the sum of the heap's part of the fingerprint stream of a
// readable s (Readable; see FingerprintSum).
func HeapSum(s *machine.State) [2]uint64 {
	var w fpWriter
	w.start()
	w.heap(s)
	return w.sum()
}

// Readable reports whether s is a state whose fingerprint has a heap part
// (HeapSum): one the relations can read.
func Readable(s *machine.State) bool { return checkState(s) == nil }

// FingerprintSumHeap is FingerprintSum(s, data) for a readable s
// (Readable) whose HeapSum is heap: the heap's part is not computed
// again. A caller that passes another state's heap sum gets that of the
// state with the other's heap and s's roots.
func FingerprintSumHeap(s *machine.State, heap [2]uint64, data bool) [2]uint64 {
	var rootBuf [rootsOnStack]machine.Ref
	return FingerprintSumRoots(s, heap, ControlRootsOf(s, rootBuf[:0]), data)
}

// FingerprintSumRoots is FingerprintSumHeap for an s whose ControlRoots
// are cr (those of a state with s's control key).
func FingerprintSumRoots(s *machine.State, heap [2]uint64, cr ControlRoots, data bool) [2]uint64 {
	var w fpWriter
	w.start()
	w.roots(s, heap, cr)
	if data {
		w.num(-4) // the data fingerprint follows
		w.data(s)
	}
	return w.sum()
}

// fpWriter is a fingerprint stream under construction, mixed into the
// lanes h and g (each striped four ways, so that consecutive numbers do
// not wait for each other's multiplications).
type fpWriter struct {
	h, g [4]uint64
	n    uint64
}

// start sets the lanes to their seeds.
func (w *fpWriter) start() {
	for i := range w.h {
		w.h[i], w.g[i] = fpSeeds[0]+uint64(i)*fpP2, fpSeeds[1]+uint64(i)*fpP4
	}
}

// The lanes' constants: XXH64's primes p₁, p₂ for the first, XXH64's p₃,
// p₄ (odd) for the second, and its avalanche for both.
const (
	fpP1 = 11400714785074694791
	fpP2 = 14029467366897019727
	fpP3 = 1609587929392839161
	fpP4 = 9650029242287828579
	fpP5 = 2870177450012600261
)

var (
	fpSeeds   = [2]uint64{rand.Uint64(), rand.Uint64()}
	fpStrSeed = maphash.MakeSeed()
)

func (w *fpWriter) num(x int64) {
	i := w.n & 3
	w.h[i] = bits.RotateLeft64(w.h[i]+uint64(x)*fpP2, 31) * fpP1
	w.g[i] = bits.RotateLeft64(w.g[i]+uint64(x)*fpP4, 27) * fpP3
	w.n++
}

func (w *fpWriter) form(f *smt.Formula) {
	var id int64
	if f != nil {
		id = int64(f.ID())
	}
	w.num(id)
}

// str writes the bytes of s, as their hash/maphash sum.
func (w *fpWriter) str(s string) {
	w.num(int64(maphash.String(fpStrSeed, s)))
}

func (w *fpWriter) sum() [2]uint64 {
	var out [2]uint64
	for i, lanes := range [2]*[4]uint64{&w.h, &w.g} {
		h := w.n * fpP5
		for _, l := range lanes {
			h = bits.RotateLeft64(h^l, 27)*fpP1 + fpP4
		}
		h ^= h >> 33
		h *= fpP2
		h ^= h >> 29
		h *= fpP3
		h ^= h >> 32
		out[i] = h
	}
	return out
}
