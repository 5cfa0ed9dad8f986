package concrete

import (
	"context"
	"strconv"

	"github.com/lockstep-dev/lockstep/machine"
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
// Path adds, at every Field access (A) of a reference field, the location
// the read yielded, and at every If (sym) the branch's fact. GSE branches
// only there, and sibling branches yield different locations or facts
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
	var kb [256]byte
	return d.extendIn(kb[:0], rule, s)
}

// extendIn is extend with the item's bytes (the rule's prefix, then the
// control key appended in place behind it) built in buf: a concrete run
// digests every one of its steps, and passes the same buffer every time
// (a new one on the stack was a twentieth of the digests' time, zeroed).
func (d Digests) extendIn(buf []byte, rule string, s *machine.State) Digests {
	b := s.AppendControlKey(itemPrefix(buf[:0], rule))
	x := itemOfKey(b)
	out := Digests{Control: d.Control.extend(x)}
	// The path's item, when it is not the control's, is the item of the
	// control key followed by what the step chose: its bytes are b's
	// followed by that.
	switch {
	case rule == machine.RuleFieldA && s.Val.IsRef():
		// A read of a primitive field branches nowhere: its value is the
		// field's term, the same on every path through the read.
		b = append(b, '@')
		x = itemOfKey(strconv.AppendInt(b, int64(s.Get(s.Val.Ref())[0].Loc), 10))
	case rule == machine.RuleIfSym && s.Facts != nil:
		// The branch an If (sym) took: its fact, t or ¬t, the newest of
		// φ. The control does not show it when both branches are values
		// of one sort ((if c 4 else 0): a term is keyed by its sort).
		b = append(b, '|')
		x = itemOfKey(append(b, s.Facts.F.String()...))
	}
	out.Path = d.Path.extend(x)
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
	st, err := machine.ExploreWith(ctx, init, eng, bound, startDigests(init),
		func(parent Digests, _ int, sc machine.Succ) Digests { return parent.extend(sc.Rule, sc.S) },
		func(end *machine.State, d Digests, kind machine.EndKind) bool { return visit(end, kind, d.end(kind)) })
	if err != nil {
		return st.Paths, false, err
	}
	return st.Paths, st.Complete, nil
}
