package engine

import (
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Overrides are the methods a decorator replaces (Wrap). A nil field keeps
// the inner engine's method. A rule override may call the inner engine's
// rule itself (it has the inner engine in hand) and change its answer:
// drop a successor, add a fact, rename the rule.
type Overrides struct {
	Name func() string
	// Options replaces the inner engine's common-rule options (the
	// checker adds the mutants of the common rules with it).
	Options     func() machine.Options
	FieldAccess func(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error)
	FieldWrite  func(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont) ([]machine.Succ, error)
	EqualsRef   func(s *machine.State, r0, r1 machine.Ref, eq *javalite.Equals, k *machine.Kont) ([]machine.Succ, error)
	Invoke      func(s *machine.State, r machine.Ref, args []machine.Value, c *javalite.Call, k *machine.Kont) ([]machine.Succ, error)
	// View replaces the inner View. The wrapped engine then no longer
	// claims IdentityView (the checker checks the new View: lemma VIEW)
	// unless IdentityView is set too.
	View         func(s *machine.State) (*machine.State, error)
	IdentityView bool
	Shape        func() Shape
	// SummarizeStar replaces the inner engine's →S* (and makes the
	// wrapped engine an Initializer even when the inner one is not).
	SummarizeStar func(s *machine.State, r machine.Ref, f *javalite.Field) (*machine.State, bool, error)
	// CheckInvariant replaces the inner engine's invariant check; with
	// InvariantName it makes the wrapped engine an Invariant.
	InvariantName  string
	CheckInvariant func(s *machine.State) (string, error)
	// Feasible and Strengthen replace the inner engine's path condition
	// of the data rules (machine.PathCond: If (sym), Assume); with both
	// set the wrapped engine has one even when the inner engine has not.
	Feasible   func(s *machine.State, t *smt.Formula) (bool, error)
	Strengthen func(s *machine.State, t *smt.Formula)
}

// Wrap returns inner with some of its methods replaced, keeping every
// optional interface that inner implements (Initializer, IdentityView,
// Invariant of this package, and machine.PathCond, the data rules' path
// condition) and no other.
//
// Why not embedding: a struct that embeds an UnderTest interface value
// has the interface's methods only, so `struct{ UnderTest }` around the
// summary engine is no Initializer any more, and the checker silently
// stops checking L1 and L4 (it asks the engine value which interfaces it
// has: checker.Applicable); nor a machine.PathCond, and the machine then
// refuses every If (sym) (machine.ErrNoData). Wrap builds a value of the
// type that has exactly the inner engine's optional interfaces, so a
// decorated engine is checked for every lemma the undecorated one is and
// runs every program it runs.
func Wrap(inner UnderTest, o Overrides) UnderTest {
	w := &wrapped{inner: inner, o: o}
	init, hasInit := inner.(Initializer)
	if o.SummarizeStar != nil {
		hasInit = true
	}
	_, hasID := inner.(IdentityView)
	hasID = (hasID && o.View == nil) || o.IdentityView
	inv, hasInv := inner.(Invariant)
	if o.InvariantName != "" && o.CheckInvariant != nil {
		hasInv = true
	}
	pc, hasPC := inner.(machine.PathCond)
	if o.Feasible != nil && o.Strengthen != nil {
		hasPC = true
	}
	if hasInit {
		w.init = init
	}
	if hasInv {
		w.inv = inv
	}
	if hasPC {
		w.pc = pc
	}
	const (
		mInit = 1 << iota
		mID
		mInv
		mPC
	)
	mask := 0
	for i, has := range []bool{hasInit, hasID, hasInv, hasPC} {
		if has {
			mask |= 1 << i
		}
	}
	i, v, p := wInit{w}, wInv{w}, wPC{w}
	// One struct type per combination: Go has no other way to give a value
	// exactly a set of method sets chosen at run time.
	switch mask {
	case mInit:
		return struct {
			*wrapped
			wInit
		}{w, i}
	case mID:
		return struct {
			*wrapped
			wID
		}{w, wID{}}
	case mInit | mID:
		return struct {
			*wrapped
			wInit
			wID
		}{w, i, wID{}}
	case mInv:
		return struct {
			*wrapped
			wInv
		}{w, v}
	case mInit | mInv:
		return struct {
			*wrapped
			wInit
			wInv
		}{w, i, v}
	case mID | mInv:
		return struct {
			*wrapped
			wID
			wInv
		}{w, wID{}, v}
	case mInit | mID | mInv:
		return struct {
			*wrapped
			wInit
			wID
			wInv
		}{w, i, wID{}, v}
	case mPC:
		return struct {
			*wrapped
			wPC
		}{w, p}
	case mInit | mPC:
		return struct {
			*wrapped
			wInit
			wPC
		}{w, i, p}
	case mID | mPC:
		return struct {
			*wrapped
			wID
			wPC
		}{w, wID{}, p}
	case mInit | mID | mPC:
		return struct {
			*wrapped
			wInit
			wID
			wPC
		}{w, i, wID{}, p}
	case mInv | mPC:
		return struct {
			*wrapped
			wInv
			wPC
		}{w, v, p}
	case mInit | mInv | mPC:
		return struct {
			*wrapped
			wInit
			wInv
			wPC
		}{w, i, v, p}
	case mID | mInv | mPC:
		return struct {
			*wrapped
			wID
			wInv
			wPC
		}{w, wID{}, v, p}
	case mInit | mID | mInv | mPC:
		return struct {
			*wrapped
			wInit
			wID
			wInv
			wPC
		}{w, i, wID{}, v, p}
	}
	return w
}

// Unwrap returns the engine a Wrap decorates (e itself if it is no
// wrapper).
func Unwrap(e UnderTest) UnderTest {
	if u, ok := e.(interface{ unwrap() UnderTest }); ok {
		return u.unwrap()
	}
	return e
}

type wrapped struct {
	inner UnderTest
	o     Overrides
	init  Initializer
	inv   Invariant
	pc    machine.PathCond
}

func (w *wrapped) unwrap() UnderTest { return w.inner }

func (w *wrapped) Name() string {
	if w.o.Name != nil {
		return w.o.Name()
	}
	return w.inner.Name()
}

func (w *wrapped) Options() machine.Options {
	if w.o.Options != nil {
		return w.o.Options()
	}
	return w.inner.Options()
}

func (w *wrapped) FieldAccess(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
	if w.o.FieldAccess != nil {
		return w.o.FieldAccess(s, r, fa, k)
	}
	return w.inner.FieldAccess(s, r, fa, k)
}

func (w *wrapped) FieldWrite(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont) ([]machine.Succ, error) {
	if w.o.FieldWrite != nil {
		return w.o.FieldWrite(s, r, fw, k)
	}
	return w.inner.FieldWrite(s, r, fw, k)
}

func (w *wrapped) EqualsRef(s *machine.State, r0, r1 machine.Ref, eq *javalite.Equals, k *machine.Kont) ([]machine.Succ, error) {
	if w.o.EqualsRef != nil {
		return w.o.EqualsRef(s, r0, r1, eq, k)
	}
	return w.inner.EqualsRef(s, r0, r1, eq, k)
}

func (w *wrapped) Invoke(s *machine.State, r machine.Ref, args []machine.Value, c *javalite.Call, k *machine.Kont) ([]machine.Succ, error) {
	if w.o.Invoke != nil {
		return w.o.Invoke(s, r, args, c, k)
	}
	return w.inner.Invoke(s, r, args, c, k)
}

func (w *wrapped) View(s *machine.State) (*machine.State, error) {
	if w.o.View != nil {
		return w.o.View(s)
	}
	return w.inner.View(s)
}

// IfSym implements machine.DataRules as the machine would dispatch If
// (sym) on the inner engine: an override of the path condition, else the
// inner engine's own rule (an engine process's), else the machine's rule
// on the inner path condition, else machine.ErrNoData. Every wrapped
// engine has it, so that an inner engine's own rule is never lost.
func (w *wrapped) IfSym(s *machine.State, t *smt.Formula, e *javalite.If, k *machine.Kont, opt machine.Options) ([]machine.Succ, error) {
	dr, own := w.inner.(machine.DataRules)
	switch {
	case w.o.Feasible != nil && w.o.Strengthen != nil:
		return machine.IfSymRule(s, wPC{w}, t, e, k, opt)
	case own:
		return dr.IfSym(s, t, e, k, opt)
	case w.pc != nil:
		return machine.IfSymRule(s, w.pc, t, e, k, opt)
	}
	return nil, machine.ErrNoData
}

// Assume implements machine.DataRules as IfSym does If (sym).
func (w *wrapped) Assume(s *machine.State, t *smt.Formula, k *machine.Kont) ([]machine.Succ, error) {
	dr, own := w.inner.(machine.DataRules)
	switch {
	case w.o.Feasible != nil && w.o.Strengthen != nil:
		return machine.AssumeRule(s, wPC{w}, t, k)
	case own:
		return dr.Assume(s, t, k)
	case w.pc != nil:
		return machine.AssumeRule(s, w.pc, t, k)
	}
	return nil, machine.ErrNoData
}

func (w *wrapped) Shape() Shape {
	if w.o.Shape != nil {
		return w.o.Shape()
	}
	return w.inner.Shape()
}

// wInit, wID and wInv add one optional interface each to a wrapped engine.
type wInit struct{ w *wrapped }

func (x wInit) SummarizeStar(s *machine.State, r machine.Ref, f *javalite.Field) (*machine.State, bool, error) {
	if x.w.o.SummarizeStar != nil {
		return x.w.o.SummarizeStar(s, r, f)
	}
	return x.w.init.SummarizeStar(s, r, f)
}

type wID struct{}

func (wID) IdentityView() {}

type wInv struct{ w *wrapped }

func (x wInv) InvariantName() string {
	if x.w.o.InvariantName != "" {
		return x.w.o.InvariantName
	}
	return x.w.inv.InvariantName()
}

func (x wInv) CheckInvariant(s *machine.State) (string, error) {
	if x.w.o.CheckInvariant != nil {
		return x.w.o.CheckInvariant(s)
	}
	return x.w.inv.CheckInvariant(s)
}

// wPC adds machine.PathCond: the path condition If (sym) and Assume read
// and extend.
type wPC struct{ w *wrapped }

func (x wPC) Feasible(s *machine.State, t *smt.Formula) (bool, error) {
	if x.w.o.Feasible != nil {
		return x.w.o.Feasible(s, t)
	}
	return x.w.pc.Feasible(s, t)
}

func (x wPC) Strengthen(s *machine.State, t *smt.Formula) {
	if x.w.o.Strengthen != nil {
		x.w.o.Strengthen(s, t)
		return
	}
	x.w.pc.Strengthen(s, t)
}
