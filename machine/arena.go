package machine

import "github.com/lockstep-dev/lockstep/smt"

// Arena is where the rules allocate the persistent parts of a state that
// an explorer owning the state frees in bulk when it backtracks:
// continuation frames, environments and path-condition facts. A state whose
// Arena is nil (every state but an explorer's working state) allocates on
// the Go heap as usual.
//
// The copy-free GSE explorer (gse.Explore) keeps one working state and
// undoes its changes at a branch; everything the rules allocated below the
// branch is unreachable once it has restored the state, so it resets the
// arena to the mark it took there (Mark, Reset) and the next choice reuses
// the memory. On the five-call LinkedList a path allocates a frame at about
// every second step, hundreds of millions in all at k = 6: taking them
// from the Go heap, and collecting them, was half of the explorer's time.
//
// A state allocated from an arena is valid until the arena is reset below
// it; CloneDeep copies a state off the arena.
type Arena struct {
	konts  chunks[Kont]
	values chunks[Value]
	facts  chunks[Fact]
}

// ArenaMark is a position of an Arena to reset to.
type ArenaMark struct{ konts, values, facts chunkPos }

// Mark returns the arena's current position.
func (a *Arena) Mark() ArenaMark { return ArenaMark{a.konts.pos, a.values.pos, a.facts.pos} }

// Reset frees everything allocated since m was taken.
func (a *Arena) Reset(m ArenaMark) {
	a.konts.pos, a.values.pos, a.facts.pos = m.konts, m.values, m.facts
}

const chunkSize = 1 << 12

// chunks is a bump allocator over fixed chunks that are never moved, so
// pointers into them stay valid until a reset passes them.
type chunks[T any] struct {
	all [][]T
	pos chunkPos
}

type chunkPos struct{ chunk, off int }

// take returns n consecutive zeroed elements (n ≤ chunkSize).
func (c *chunks[T]) take(n int) []T {
	if c.pos.chunk >= len(c.all) || c.pos.off+n > chunkSize {
		if c.pos.chunk < len(c.all) {
			c.pos.chunk++
		}
		c.pos.off = 0
		if c.pos.chunk == len(c.all) {
			c.all = append(c.all, make([]T, chunkSize))
		}
	}
	out := c.all[c.pos.chunk][c.pos.off : c.pos.off+n : c.pos.off+n]
	c.pos.off += n
	clear(out)
	return out
}

// kont allocates frame k for s.
func (s *State) kont(k Kont) *Kont {
	if s.Arena == nil {
		c := k // only this branch allocates (a &k would move k to the heap on every call)
		return &c
	}
	p := &s.Arena.konts.take(1)[0]
	*p = k
	return p
}

// newValues allocates an environment of n slots for s.
func (s *State) newValues(n int) []Value {
	if s.Arena == nil || n > chunkSize {
		return make([]Value, n)
	}
	return s.Arena.values.take(n)
}

// fact allocates a fact cell for s.
func (s *State) fact(f *smt.Formula, next *Fact) *Fact {
	if s.Arena == nil {
		return &Fact{F: f, Next: next}
	}
	p := &s.Arena.facts.take(1)[0]
	p.F, p.Next = f, next
	return p
}

// CloneDeep is Clone that also copies the continuation, the environments
// and the facts, so that the copy stays valid after the arena the state
// allocates from is reset. A state without an arena needs only Clone.
func (s *State) CloneDeep() *State {
	c := s.Clone()
	c.Env = append([]Value(nil), s.Env...)
	var facts []*Fact
	for f := s.Facts; f != nil; f = f.Next {
		facts = append(facts, f)
	}
	c.Facts = nil
	for i := len(facts) - 1; i >= 0; i-- {
		c.Facts = &Fact{F: facts[i].F, Next: c.Facts}
	}
	var frames []*Kont
	for k := s.K; k != nil; k = k.Next {
		frames = append(frames, k)
	}
	c.K = nil
	for i := len(frames) - 1; i >= 0; i-- {
		f := *frames[i]
		if f.Env != nil {
			f.Env = append([]Value(nil), f.Env...)
		}
		f.Next = c.K
		c.K = &f
	}
	return c
}
