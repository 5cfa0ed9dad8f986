package concrete

import (
	"context"
	"fmt"

	"lockstep/machine"
)

// PathVisitor is called at the end of every symbolic path with the end state,
// how it ended and the digests of its control-flow sequence and of its path.
// Returning false stops the exploration.
type PathVisitor func(end *machine.State, kind machine.EndKind, seq Digests) bool

// Digests identifies a path two ways.
//
// Control is the control-flow sequence: rule names and controls (η e k)
// only, what RULES.md §7 Corollaries 12 and 13 compare between engines.
// Different GSE paths can share it: the control does not show the heap
// (reading a null field and reading a fresh object give the same η e k).
//
// Path adds, at every Field access (A), the location the read yielded. GSE
// branches only there, and sibling branches yield different locations
// (l_null, the new location, or one distinct alias each), so distinct GSE
// paths have distinct Path digests, and a concrete run making the same
// initialization choices has the same one: locations are numbered in
// creation order on the shared machine.
type Digests struct {
	Control, Path Digest
}

func startDigests(s *machine.State) Digests {
	d := Start(s)
	return Digests{d, d}
}

func (d Digests) extend(rule string, s *machine.State) Digests {
	key := s.ControlKey()
	out := Digests{Control: d.Control.Extend(rule, key)}
	if rule == machine.RuleFieldA {
		key = fmt.Sprintf("%s@%d", key, s.Get(s.Val.Ref())[0].Loc)
	}
	out.Path = d.Path.Extend(rule, key)
	return out
}

func (d Digests) end(kind machine.EndKind) Digests {
	return Digests{d.Control.End(kind), d.Path.End(kind)}
}

// Sequences explores eng from init depth-first, like machine.Explore (same
// end conditions, same step bound), and hands every path's control-flow
// digest to visit. It returns the number of paths and whether the
// exploration ran to the end (ctx not cancelled, visit never said stop).
func Sequences(ctx context.Context, init *machine.State, eng machine.Engine, bound int, visit PathVisitor) (int64, bool, error) {
	type item struct {
		s *machine.State
		d Digests
	}
	work := []item{{init, startDigests(init)}}
	opt := eng.Options()
	var paths int64
	for n := 0; len(work) > 0; n++ {
		if n&1023 == 0 && ctx.Err() != nil {
			return paths, false, nil
		}
		it := work[len(work)-1]
		work = work[:len(work)-1]
		s := it.s
		var kind machine.EndKind
		switch {
		case s.Terminal():
			kind = machine.EndValue
			if s.Mode == machine.ModeError {
				kind = machine.EndError
			}
		case bound >= 0 && s.Steps >= bound:
			kind = machine.EndCut
		default:
			succ, err := machine.Step(s, eng, opt)
			if err != nil {
				return paths, false, fmt.Errorf("%s: step %d: %w", eng.Name(), s.Steps, err)
			}
			if len(succ) == 0 {
				kind = machine.EndStuck
				break
			}
			for i := len(succ) - 1; i >= 0; i-- {
				work = append(work, item{succ[i].S, it.d.extend(succ[i].Rule, succ[i].S)})
			}
			continue
		}
		paths++
		if !visit(s, kind, it.d.end(kind)) {
			return paths, false, nil
		}
	}
	return paths, true, nil
}
