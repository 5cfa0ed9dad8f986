package gse

import (
	"context"
	"fmt"
	"time"
	"unsafe"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// The copy-free explorer (issue 15 item 3).
//
// machine.Explore gives every successor of a step its own state: a branch
// of the initialization machine clones L, R and the location table, and
// every step, branching or not, allocates its successor list. Explore here
// keeps one state and changes it in place. At a branch of →I it saves the
// state's header (a struct copy: the control, the counters, φ and the
// slice headers of L, R and Locs) and the length of an undo log; when the
// path below has ended it restores the header and takes the next choice.
// A shared prefix is executed once and a branch costs what it changed:
//
//   - Locs and R only grow at the end (NewLoc) except for the entries a
//     rule overwrites, R(l, f) in Initialize and in rule W; those are the
//     undo log. Truncating to the saved lengths removes the rest.
//   - L only gets entries for references allocated after the branch (every
//     rule that sets L(r) sets it for a fresh r: New, A, W and the three
//     Initialize rules), so restoring clears the slots of the references
//     between the saved counters and the current ones.
//   - η, k, φ's facts and guarded value sets are persistent (never changed
//     in place), so the saved header still points to what they were. The
//     rules allocate the new ones from the state's machine.Arena, which
//     is reset to its mark at the branch: what the path below allocated is
//     unreachable from the restored state.
//
// The rules applied are the engine's own (Engine.initialize, access,
// fieldWrite, equalsRef, invoke, which the cloning rules call too) and the
// common rules of machine.StepInPlace, in the same order, so exploration
// order, end conditions and every count of machine.Stats are
// machine.Explore's on the same Engine; explore_test.go checks that, and
// the end states, on the generated stream and the testdata programs.
//
// The state a visitor sees is the explorer's working state: it is valid
// until the visitor returns. A visitor that keeps it must CloneDeep it
// (Clone is not enough: its frames, environments and facts are in the
// arena).

// Explore runs e depth-first from init until every path ends or is cut at
// bound steps (bound < 0: no bound), like machine.Explore, without copying
// states. init is consumed. The state passed to visit is valid only during
// the call (CloneDeep keeps a copy).
func Explore(ctx context.Context, init *machine.State, e *Engine, bound int, visit machine.Visitor) (machine.Stats, error) {
	var v func(*machine.State, struct{}, machine.EndKind) bool
	if visit != nil {
		v = func(s *machine.State, _ struct{}, k machine.EndKind) bool { return visit(s, k) }
	}
	return ExploreWith(ctx, init, e, bound, struct{}{}, nil, v)
}

// ExploreWith is Explore carrying a value along every path, like
// machine.ExploreWith: next(parent, i, succ) gives the value of the i-th
// successor of a step. It is called when that successor is reached, with
// succ.S the working state at that moment (so next must not keep succ.S
// and must not depend on the order of its calls, which differs from
// machine.ExploreWith's: there all successors of a step are valued before
// any is explored).
func ExploreWith[T any](ctx context.Context, init *machine.State, e *Engine, bound int, start T,
	next func(parent T, i int, succ machine.Succ) T, visit func(end *machine.State, carried T, kind machine.EndKind) bool) (machine.Stats, error) {
	if machine.UsesData(init.Prog) {
		// If (sym) branches without initializing anything, which the
		// undo log below does not record: a program with data is
		// explored by cloning, with the same rules, order and counts.
		return machine.ExploreWith(ctx, init, e, bound, start, next, visit)
	}
	begin := time.Now()
	x := &inPlace{e: e, atoms: map[uint64]*smt.Formula{}}
	st := machine.Stats{States: 1}
	var rules ruleCounter
	finish := func(complete bool) machine.Stats {
		st.Rules = rules.counts()
		st.Wall = time.Since(begin)
		st.Complete = complete
		return st
	}
	type choice struct {
		branch
		t    T   // the carried value of the state before the step
		next int // the next choice to take
	}
	var stack []choice
	opt := e.Opt
	s, t := init, start
	s.Arena = &machine.Arena{}
	defer func() { s.Arena = nil }()
	n := 0
	for {
		// Run the current path to its end.
		var kind machine.EndKind
		for {
			if s.Terminal() {
				kind = machine.EndValue
				if s.Mode == machine.ModeError {
					kind = machine.EndError
				}
				break
			}
			if bound >= 0 && s.Steps >= bound {
				kind = machine.EndCut
				break
			}
			// ctx at the first step and every 4096th: a context already
			// done stops even an exploration of a few states.
			if n&4095 == 0 && ctx.Err() != nil {
				return finish(false), nil
			}
			n++
			rule, succ, err := machine.StepInPlace(s, x, opt)
			if err != nil {
				return finish(false), fmt.Errorf("%s: step %d: %w", e.Name(), s.Steps, err)
			}
			st.Steps++
			if rule == "" {
				// A heap rule of x: it changed s in place.
				if len(succ) == 0 {
					kind = machine.EndStuck
					break
				}
				rule = succ[0].Rule
			}
			if b := x.pending; b.n > 1 {
				x.pending.n = 0
				stack = append(stack, choice{branch: b, t: t, next: 1})
				st.States += int64(b.n)
				rules.add(rule, int64(b.n))
			} else {
				st.States++
				rules.add(rule, 1)
			}
			if next != nil {
				t = next(t, 0, machine.Succ{S: s, Rule: rule})
			}
		}
		st.Paths++
		st.Ends[kind]++
		if visit != nil && !visit(s, t, kind) {
			return finish(false), nil
		}
		// Backtrack to the deepest branch with a choice left.
		for len(stack) > 0 && stack[len(stack)-1].next == stack[len(stack)-1].n {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			return finish(true), nil
		}
		c := &stack[len(stack)-1]
		i := c.next
		c.next++
		x.restore(s, &c.branch)
		x.take(s, &c.branch, i)
		t = c.t
		if next != nil {
			t = next(c.t, i, machine.Succ{S: s, Rule: machine.RuleFieldA})
		}
	}
}

// branch is a branching step of rule A (field access on an uninitialized
// field): the state before the first choice was applied, and the choices.
type branch struct {
	saved machine.State     // after Step counted the step, before Initialize
	undo  int               // length of the undo log then
	mark  machine.ArenaMark // of s.Arena then
	initBranches
	k *machine.Kont
}

// undoR is an entry of R overwritten in place, with its old value.
type undoR struct {
	i   int
	old machine.Ref
}

// atomKey packs (r0, r1, eq) into a map key that hashes fast.
func atomKey(r0, r1 machine.Ref, eq bool) uint64 {
	k := uint64(uint32(r0))<<33 | uint64(uint32(r1))<<1
	if eq {
		k |= 1
	}
	return k
}

// inPlace is the engine's heap rules applied to the working state in place.
// A field access that branches records the branch in pending and applies
// its first choice; the explorer applies the others after restoring.
type inPlace struct {
	e       *Engine
	log     []undoR
	pending branch
	atoms   map[uint64]*smt.Formula // the comparisons E and E′ record, built once
	one     [1]machine.Succ
}

var _ machine.HeapRules = (*inPlace)(nil)

func (x *inPlace) ret(s *machine.State, rule string) []machine.Succ {
	x.one[0] = machine.Succ{S: s, Rule: rule}
	return x.one[:]
}

// FieldAccess implements rules A and A′ (Engine.FieldAccess) in place.
func (x *inPlace) FieldAccess(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
	l, err := only(s, r)
	if err != nil {
		return nil, err
	}
	if l == machine.LNull {
		// Rule: Field access (A′)
		s.SetError()
		return x.ret(s, machine.RuleFieldANull), nil
	}
	// Rule: Field access (A)
	if !Uninitialized(s, l, fa.Field) {
		access(s, l, fa.Field, k)
		return x.ret(s, machine.RuleFieldA), nil
	}
	x.pending = branch{saved: *s, undo: len(x.log), mark: s.Arena.Mark(), initBranches: x.e.branches(s, l, fa.Field), k: k}
	x.take(s, &x.pending, 0)
	return x.ret(s, machine.RuleFieldA), nil
}

// take applies choice i of b and the rest of rule A to s, which is b's
// saved state.
func (x *inPlace) take(s *machine.State, b *branch, i int) {
	j := int(b.l)*s.NumFields() + b.f.ID
	x.log = append(x.log, undoR{j, s.R[j]})
	x.e.initialize(s, b.initBranches, i)
	access(s, b.l, b.f, b.k)
}

// restore makes s the saved state of b again.
func (x *inPlace) restore(s *machine.State, b *branch) {
	L, R, locs := s.L, s.R, s.Locs
	sv := &b.saved
	clearRefs := func(from, to machine.Ref) {
		for r := from; r < to; r += 3 {
			if i := int(r) + 2; i < len(sv.L) {
				L[i] = nil
			}
		}
	}
	clearRefs(sv.NextStack, s.NextStack)
	clearRefs(sv.NextInput, s.NextInput)
	clearRefs(sv.NextFresh, s.NextFresh)
	for j := len(x.log) - 1; j >= b.undo; j-- {
		R[x.log[j].i] = x.log[j].old
	}
	x.log = x.log[:b.undo]
	s.Arena.Reset(b.mark)
	*s = *sv
	// Keep the grown arrays: their first entries are the saved ones again.
	s.L, s.R, s.Locs = L[:len(sv.L)], R[:len(sv.R)], locs[:len(sv.Locs)]
}

// FieldWrite implements rules W and W′ (Engine.FieldWrite) in place.
func (x *inPlace) FieldWrite(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont) ([]machine.Succ, error) {
	rule, err := x.e.fieldWrite(s, r, fw, k, func(i int) { x.log = append(x.log, undoR{i, s.R[i]}) })
	if err != nil {
		return nil, err
	}
	return x.ret(s, rule), nil
}

// EqualsRef implements rules E and E′ (Engine.EqualsRef) in place.
func (x *inPlace) EqualsRef(s *machine.State, r0, r1 machine.Ref, _ *javalite.Equals, k *machine.Kont) ([]machine.Succ, error) {
	rule, err := x.e.equalsRef(s, r0, r1, k, x.atom)
	if err != nil {
		return nil, err
	}
	return x.ret(s, rule), nil
}

// atom is the package's atom, memoized: the same comparisons recur on
// every path through the same code, and a map of small keys is cheaper
// than hash-consing the formula again.
func (x *inPlace) atom(r0, r1 machine.Ref, eq bool) *smt.Formula {
	key := atomKey(r0, r1, eq)
	f, ok := x.atoms[key]
	if !ok {
		f = atom(r0, r1, eq)
		x.atoms[key] = f
	}
	return f
}

// Invoke implements rules Invoke and Invoke′ (Engine.Invoke) in place.
func (x *inPlace) Invoke(s *machine.State, r machine.Ref, args []machine.Value, c *javalite.Call, k *machine.Kont) ([]machine.Succ, error) {
	rule, err := x.e.invoke(s, r, args, c, k)
	if err != nil {
		return nil, err
	}
	return x.ret(s, rule), nil
}

// ruleCounter counts rule applications by name without hashing the name
// on every step: rule names are string constants, so the address of a
// name's bytes identifies it, and a small direct-mapped table on that
// address finds its counter (open addressing; past 64 names, the map).
type ruleCounter struct {
	tab   [64]ruleCount
	other map[string]int64
}

type ruleCount struct {
	name string
	n    int64
}

func (c *ruleCounter) add(rule string, n int64) {
	p := unsafe.StringData(rule)
	h := (uint64(uintptr(unsafe.Pointer(p))) * 0x9E3779B97F4A7C15) >> 58
	for probe := range c.tab {
		e := &c.tab[(h+uint64(probe))&63]
		switch {
		case e.name == "":
			e.name, e.n = rule, n
			return
		case unsafe.StringData(e.name) == p && len(e.name) == len(rule):
			e.n += n
			return
		}
	}
	if c.other == nil {
		c.other = map[string]int64{}
	}
	c.other[rule] += n
}

func (c *ruleCounter) counts() map[string]int64 {
	out := map[string]int64{}
	for _, e := range c.tab {
		if e.name != "" {
			out[e.name] += e.n
		}
	}
	for name, n := range c.other {
		out[name] += n
	}
	return out
}
