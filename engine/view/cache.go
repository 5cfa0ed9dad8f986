package view

import (
	"encoding/binary"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// A SymbolicCache is Symbolic with its results kept for the states met
// again: most steps of a POSE-J run move only the control (a variable
// lookup, a branch on a boolean, a call's bookkeeping), and the checker
// asks the View of every state of every step, rebuilding thousands of
// canonicalized guards that the step before built already (the View was a
// tenth of the checking time of the generated programs).
//
// Symbolic reads of its argument only the locations (every field of
// LocInfo), every guarded value set, R, the primitive fields and the next
// fresh reference, and writes of the state it returns only those; every
// other field of the result is its argument's (State.Clone). The cache key
// is all of what it reads, written exactly (formulas by ID, which is never
// reused, and a formula a cached View holds stays alive, so an equal ID is
// the same formula), so a state with the key of a state seen before has
// the same View but for the fields Symbolic does not write, which are
// taken from the state itself: the result is the one Symbolic would
// return, down to the formula pointers (formulas are hash-consed, and
// every subformula of the kept View is alive).
//
// The cache holds at most symbolicCacheSize Views of one program and is
// emptied when full or when the program changes. It is not safe for
// concurrent use (an engine has one).
type SymbolicCache struct {
	prog any // the program of the cached states (*javalite.Program)
	m    map[string]*symbolicEntry
	key  []byte
	hits int
	memo viewMemo // what its Views are built from (symbolic.go)
}

// symbolicEntry is what Symbolic wrote of a View.
type symbolicEntry struct {
	locs      []machine.LocInfo
	l         []machine.GVS
	r         []machine.Ref
	prim      []*smt.Formula
	nextFresh machine.Ref
}

// symbolicCacheSize bounds the Views a SymbolicCache keeps. The states met
// again are mostly those of the last few steps: on the reference-only
// stream 32 Views answer as many as 256 did (5,458 against 5,463 of
// 7,000).
const symbolicCacheSize = 32

// Hits is the number of Views the cache answered.
func (c *SymbolicCache) Hits() int { return c.hits }

// Symbolic is Symbolic(s), from the cache when s's key was seen.
func (c *SymbolicCache) Symbolic(s *machine.State) (*machine.State, error) {
	if s == nil || s.Prog == nil {
		return Symbolic(s)
	}
	if c.prog != any(s.Prog) || len(c.m) >= symbolicCacheSize {
		c.m, c.prog = nil, s.Prog
	}
	c.key = symbolicKey(c.key[:0], s)
	if e, ok := c.m[string(c.key)]; ok {
		c.hits++
		v := s.Clone()
		v.Locs = append([]machine.LocInfo(nil), e.locs...)
		v.L = append([]machine.GVS(nil), e.l...)
		v.R = append([]machine.Ref(nil), e.r...)
		v.Prim = nil
		if e.prim != nil {
			v.Prim = append([]*smt.Formula(nil), e.prim...)
		}
		v.NextFresh = e.nextFresh
		return v, nil
	}
	v, err := symbolic(s, &c.memo)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]*symbolicEntry{}
	}
	e := &symbolicEntry{
		locs:      append([]machine.LocInfo(nil), v.Locs...),
		l:         append([]machine.GVS(nil), v.L...),
		r:         append([]machine.Ref(nil), v.R...),
		nextFresh: v.NextFresh,
	}
	if v.Prim != nil {
		e.prim = append([]*smt.Formula(nil), v.Prim...)
	}
	c.m[string(c.key)] = e
	return v, nil
}

// symbolicKey appends to b everything Symbolic reads of s: the locations,
// every guarded value set, R, the primitive fields and the next fresh
// reference, each list with its length (a prefix-free stream: equal
// streams come from equal inputs).
func symbolicKey(b []byte, s *machine.State) []byte {
	num := func(x int64) { b = binary.AppendVarint(b, x) }
	form := func(f *smt.Formula) {
		if f == nil {
			num(0)
			return
		}
		num(int64(f.ID()))
	}
	num(int64(s.NextFresh))
	num(int64(len(s.Locs)))
	for _, info := range s.Locs {
		num(int64(len(info.Class.Name)))
		b = append(b, info.Class.Name...)
		flags := int64(0)
		for i, f := range [...]bool{info.Input, info.Unresolved, info.MayBeNull, info.Symbolic} {
			if f {
				flags |= 1 << i
			}
		}
		num(flags)
		num(int64(info.Depth))
		num(int64(info.Identity))
		form(info.Exists)
	}
	num(int64(len(s.L)))
	for _, g := range s.L {
		if g == nil {
			num(-1)
			continue
		}
		num(int64(len(g)))
		for _, e := range g {
			form(e.Guard)
			num(int64(e.Loc))
		}
	}
	num(int64(len(s.R)))
	for _, r := range s.R {
		num(int64(r))
	}
	if s.Prim == nil {
		num(-1)
	} else {
		num(int64(len(s.Prim)))
		for _, t := range s.Prim {
			form(t)
		}
	}
	return b
}
