package machine

import (
	"context"
	"fmt"
	"time"
)

// Engine is one symbolic-execution engine on the shared machine: its heap
// rules and its choices for the common rules.
type Engine interface {
	HeapRules
	Options() Options
	Name() string
}

// EndKind says how a path ended.
type EndKind uint8

const (
	EndValue EndKind = iota // (… v end)
	EndError                // (… error end)
	EndCut                  // the step bound was reached
	EndStuck                // no rule applies (variant V3's null dereference)
)

func (k EndKind) String() string {
	return [...]string{"value", "error", "cut", "stuck"}[k]
}

// Stats describes one exploration.
type Stats struct {
	Paths int64
	Ends  [4]int64 // by EndKind
	// Pruned counts the ends rule Assume pruned (PRIMITIVES.md §3): not
	// paths, reported beside them.
	Pruned int64
	States int64 // states created, the initial one included
	Steps  int64 // rule applications
	Rules  map[string]int64
	Wall   time.Duration
	// Complete is false when the exploration stopped early (context
	// cancelled or the visitor asked to stop): its counts are lower bounds.
	Complete bool
}

// Visitor is called at the end of every path. Returning false stops the
// exploration.
type Visitor func(end *State, kind EndKind) bool

// Explore runs eng depth-first from init with an explicit work list (no
// recursion proportional to path length) until every path ends or is cut at
// bound steps (bound < 0: no bound). init is consumed.
func Explore(ctx context.Context, init *State, eng Engine, bound int, visit Visitor) (Stats, error) {
	var v func(*State, struct{}, EndKind) bool
	if visit != nil {
		v = func(s *State, _ struct{}, k EndKind) bool { return visit(s, k) }
	}
	return ExploreWith(ctx, init, eng, bound, struct{}{}, nil, v)
}

// ExploreWith is Explore carrying a value of the caller's along every path:
// start is the value of the initial state, next(parent, i, succ) the value
// of the i-th successor of a step (called for i = 0, 1, … in order, before
// any of them is explored), and visit sees the value of each path's end.
// A trace, a control-flow digest or a path number is such a value; the
// exploration order, end conditions and counts are Explore's.
func ExploreWith[T any](ctx context.Context, init *State, eng Engine, bound int, start T,
	next func(parent T, i int, succ Succ) T, visit func(end *State, carried T, kind EndKind) bool) (Stats, error) {
	begin := time.Now()
	st := Stats{Rules: map[string]int64{}, States: 1}
	type item struct {
		s *State
		t T
	}
	work := []item{{init, start}}
	opt := eng.Options()
	n := 0
	for len(work) > 0 {
		n++
		if n&15 == 0 && ctx.Err() != nil {
			st.Wall = time.Since(begin)
			return st, nil
		}
		it := work[len(work)-1]
		work = work[:len(work)-1]
		s := it.s
		var kind EndKind
		switch {
		case s.Terminal():
			kind = EndValue
			if s.Mode == ModeError {
				kind = EndError
			}
		case bound >= 0 && s.Steps >= bound:
			kind = EndCut
		default:
			succ, err := Step(s, eng, opt)
			if err != nil {
				st.Wall = time.Since(begin)
				return st, fmt.Errorf("%s: step %d: %w", eng.Name(), s.Steps, err)
			}
			st.Steps++
			if len(succ) == 0 {
				if s.Pruned() {
					st.Pruned++
					continue
				}
				kind = EndStuck
				break
			}
			st.States += int64(len(succ))
			ts := make([]T, len(succ))
			for i, sc := range succ {
				if next != nil {
					ts[i] = next(it.t, i, sc)
				}
			}
			for i := len(succ) - 1; i >= 0; i-- {
				st.Rules[succ[i].Rule]++
				work = append(work, item{succ[i].S, ts[i]})
			}
			continue
		}
		st.Paths++
		st.Ends[kind]++
		if visit != nil && !visit(s, it.t, kind) {
			st.Wall = time.Since(begin)
			return st, nil
		}
	}
	st.Wall = time.Since(begin)
	st.Complete = true
	return st, nil
}
