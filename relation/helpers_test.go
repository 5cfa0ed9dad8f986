package relation

import (
	"fmt"
	"slices"
	"testing"

	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// linkedListSrc is the LinkedList of seed 000 Fig. 1 with the brief's null test
// on this; its text is kept once, in testdata.
var linkedListSrc = testutil.Source("../testdata/programs/linkedlist_guarded.jl")

// The shared test helpers, under the names these tests use.
var (
	mustParse = testutil.Parse
	newSolver = testutil.Solver
)

// builder makes states by hand on top of the initial state of a program:
// l0 of the entry class, s0 ↦ {(true l0)}, φ = i1 ≠ null.
type builder struct {
	tb fataler
	s  *machine.State
}

// fataler is what builder needs of testing.TB and *rapid.T alike.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

func newBuilder(tb fataler, prog *javalite.Program) *builder {
	return &builder{tb: tb, s: machine.Initial(prog)}
}

func (b *builder) class(name string) *javalite.Class {
	c := b.s.Prog.ByName[name]
	if c == nil {
		b.tb.Fatalf("no class %s", name)
	}
	return c
}

func (b *builder) field(l machine.Loc, name string) *javalite.Field {
	for _, f := range b.s.Locs[l].Class.Fields {
		if f.Name == name {
			return f
		}
	}
	b.tb.Fatalf("no field %s in %s", name, b.s.Locs[l].Class.Name)
	return nil
}

// input adds an input location with identity reference init_r() and the
// given existence guard (nil: true); its fields are r_un.
func (b *builder) input(class string, exists *smt.Formula) (machine.Loc, machine.Ref) {
	r := b.s.InitR()
	l := b.s.NewLoc(machine.LocInfo{Class: b.class(class), Input: true, Depth: 1, Identity: r, Exists: exists}, machine.RUn)
	b.s.Set(r, machine.Single(l))
	return l, r
}

// newLoc adds a location as (new C) makes it: fields r_null.
func (b *builder) newLoc(class string) machine.Loc {
	return b.s.NewLoc(machine.LocInfo{Class: b.class(class)}, machine.RNull)
}

// set makes l.f a fresh reference with value set g.
func (b *builder) set(l machine.Loc, f string, g machine.GVS) machine.Ref {
	r := b.s.FreshR()
	b.s.Set(r, g)
	b.s.SetField(l, b.field(l, f), r)
	return r
}

// to makes l.f point to {(true t)}.
func (b *builder) to(l machine.Loc, f string, t machine.Loc) machine.Ref {
	return b.set(l, f, machine.Single(t))
}

func (b *builder) and(f *smt.Formula) { b.s.Phi = smt.And(b.s.Phi, f) }

func gvs(es ...any) machine.GVS {
	var g machine.GVS
	for i := 0; i < len(es); i += 2 {
		g = g.Merge(es[i].(*smt.Formula), es[i+1].(machine.Loc))
	}
	return g
}

// allStates returns every state of the exploration of eng from the
// initial state of prog, up to bound steps, in depth-first order, each a
// clone that later steps do not touch.
func allStates(tb testing.TB, prog *javalite.Program, eng machine.Engine, bound int) []*machine.State {
	tb.Helper()
	var out []*machine.State
	work := []*machine.State{machine.Initial(prog)}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		out = append(out, s.Clone())
		if s.Terminal() || s.Steps >= bound {
			continue
		}
		succ, err := machine.Step(s, eng, eng.Options())
		if err != nil {
			tb.Fatalf("step: %v", err)
		}
		for i := len(succ) - 1; i >= 0; i-- {
			work = append(work, succ[i].S)
		}
	}
	return out
}

// dumpState prints a state for failure messages.
func dumpState(s *machine.State) string {
	out := fmt.Sprintf("φ = %v\ncontrol %s\n", s.PathCondition(), s.ControlString())
	for _, r := range s.Roots() {
		out += fmt.Sprintf("  root %s = %s\n", machine.RefString(r), gvsString(s.Get(r)))
	}
	for l, info := range s.Locs {
		out += fmt.Sprintf("  l%d %s input=%v id=%s exists=%v\n", l, info.Class.Name, info.Input, machine.RefString(info.Identity), info.Exists)
		for _, f := range info.Class.Fields {
			r := s.Field(machine.Loc(l), f)
			out += fmt.Sprintf("     .%s = %s %s\n", f.Name, machine.RefString(r), gvsString(s.Get(r)))
		}
	}
	return out
}

// canonicalSet is the sorted canonical forms of hs.
func canonicalSet(hs []*Heap) []string {
	var out []string
	for _, h := range hs {
		out = append(out, Canonical(h))
	}
	slices.Sort(out)
	return out
}
