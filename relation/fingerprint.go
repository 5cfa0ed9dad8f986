package relation

import (
	"encoding/binary"
	"hash"

	"github.com/lockstep-dev/lockstep/internal/knobs"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Fingerprint writes to w everything of s that the checks of this package
// read, except the control (η e k beyond the references they hold): the
// path condition (φ and the facts), the roots in Roots order, every location's class, input
// flag and existence guard, R, and the guarded value set of every
// reference in use. Formulas are written by their ID (hash-consed: equal
// IDs are equal formulas, and an ID is never reused for another formula).
//
// Two states with equal fingerprints are indistinguishable to Represents,
// Exact, Concretize and the well-formedness checks as long as their
// controls agree with whatever they are compared with: their answers are
// the same. The lockstep checker uses this to recognize a pair (P, q) it
// has checked already at an earlier step — a step that only moves the
// control (a variable lookup, a branch on a boolean) leaves every heap and
// path condition as they were, and a group of hundreds of GSE states is
// then checked once instead of at every step.
func Fingerprint(w hash.Hash, s *machine.State) {
	w.Write(AppendFingerprint(nil, s))
}

// AppendFingerprint appends to b the bytes Fingerprint writes and returns
// the extended slice: the same stream, built without a call per number (a
// caller that hashes the stream itself, as the checker's memo keys do,
// saves most of the fingerprint's time).
func AppendFingerprint(b []byte, s *machine.State) []byte {
	w := fpBuf(b)
	if err := checkState(s); err != nil {
		w.num(-1) // never equal to a readable state's (which starts with a formula ID ≥ 0)
		w = append(w, err.Error()...)
		return w
	}
	// φ and the facts, not PathCondition(): their conjunction is built
	// anew at every call, and once collected it is interned again under a
	// new ID, while the state holds φ and the facts themselves.
	w.form(s.Phi)
	for f := s.Facts; f != nil; f = f.Next {
		w.form(f.F)
	}
	w.num(-3)
	// StackOnlyRoots reads values that Roots skips (invalid ones).
	if StackOnlyRoots(s) != nil {
		w.num(-2)
	}
	var rootBuf [rootsOnStack]machine.Ref
	roots := s.AppendRoots(rootBuf[:0])
	w.num(int64(len(roots)))
	for _, r := range roots {
		w.num(int64(r))
	}
	w.num(int64(len(s.Locs)))
	w.num(int64(len(s.R)))
	for _, info := range s.Locs {
		w.num(int64(len(info.Class.Name)))
		w = append(w, info.Class.Name...)
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
	for _, r := range s.R {
		w.num(int64(r))
	}
	// The guarded value sets of the references in use: the roots' and
	// R's, in that order, a reference as often as it occurs (RefsInUse
	// without its set, which was a quarter of the time of a fingerprint;
	// equal states still write equal streams).
	refs := func(rs []machine.Ref) {
		for _, r := range rs {
			g := s.Get(r)
			w.num(int64(r))
			w.num(int64(len(g)))
			for _, e := range g {
				w.form(e.Guard)
				w.num(int64(e.Loc))
			}
		}
	}
	refs(roots)
	refs(s.R)
	return w
}

// rootsOnStack is the number of roots AppendFingerprint collects without
// allocating.
const rootsOnStack = 32

// fpBuf is a fingerprint stream under construction: a number as its
// zig-zag varint (binary.AppendVarint: one byte for the small numbers that
// most of a state is, a prefix-free code, so the stream still reads back
// one way), a formula as its ID (nil as 0). The stream is hashed whole for
// every state of every pair; eight bytes a number made it three to four
// times longer, and hashing it a tenth of a check.
type fpBuf []byte

func (b *fpBuf) num(x int64) { *b = binary.AppendVarint(*b, x) }

func (b *fpBuf) form(f *smt.Formula) {
	if f == nil {
		b.num(0)
		return
	}
	b.num(int64(f.ID()))
}

// DataFingerprint writes to w what the data half of exactness reads of s
// beyond Fingerprint: the term of every primitive field of every location,
// and the state's slots (the term values of η, e and k, in Slots order).
// Fingerprint leaves them out so that a step that changes only data does
// not make the reference half check its pair again.
func DataFingerprint(w hash.Hash, s *machine.State) {
	w.Write(AppendDataFingerprint(nil, s))
}

// AppendDataFingerprint appends to b the bytes DataFingerprint writes (in
// AppendFingerprint's encoding) and returns the extended slice.
func AppendDataFingerprint(b []byte, s *machine.State) []byte {
	w := fpBuf(b)
	for l, info := range s.Locs {
		w.num(int64(len(info.Class.PrimFields)))
		for _, f := range info.Class.PrimFields {
			w.form(s.PrimField(machine.Loc(l), f))
		}
	}
	if knobs.DataKeyNoSlots.Load() {
		return w // a checker mutation (tests only)
	}
	slots := s.Slots()
	w.num(int64(len(slots)))
	for _, t := range slots {
		w.form(t)
	}
	return w
}
