package relation

import (
	"encoding/binary"

	"github.com/lockstep-dev/lockstep/machine"
)

// ContentKey is a key of everything the relations of this package read
// from a state except its control (η's non-reference values, e and k
// beyond the references they hold): the roots in order, the locations
// with their class, kind and existence guard, R, L with every guard, and
// the path condition. Two states with one key and one control get the same
// answers from Represents, WellFormed, Concretize and Exact, so a caller
// may reuse an answer for a state whose content did not change in a step
// (most steps only move the control). Formulas are keyed by their
// hash-consing IDs, which are never reused.
func ContentKey(s *machine.State) string {
	b := make([]byte, 0, 256)
	put := func(x uint64) { b = binary.AppendUvarint(b, x) }
	wf := StackOnlyRoots(s) == nil
	if wf {
		put(1)
	} else {
		put(0)
	}
	roots := s.Roots()
	put(uint64(len(roots)))
	for _, r := range roots {
		put(uint64(uint32(r)))
	}
	put(uint64(len(s.Locs)))
	for _, info := range s.Locs {
		flags := uint64(0)
		for i, f := range []bool{info.Input, info.Unresolved, info.MayBeNull, info.Symbolic} {
			if f {
				flags |= 1 << i
			}
		}
		put(flags)
		b = append(b, info.Class.Name...)
		b = append(b, 0)
		put(uint64(uint32(info.Identity)))
		put(uint64(info.Depth))
		if info.Exists != nil {
			put(info.Exists.ID())
		} else {
			put(0)
		}
	}
	put(uint64(len(s.R)))
	for _, r := range s.R {
		put(uint64(uint32(r)))
	}
	put(uint64(len(s.L)))
	for i, g := range s.L {
		if g == nil {
			continue
		}
		put(uint64(i))
		put(uint64(len(g)))
		for _, e := range g {
			put(e.Guard.ID())
			put(uint64(uint32(e.Loc)))
		}
	}
	put(s.PathCondition().ID())
	return string(b)
}
