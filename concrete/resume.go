package concrete

import (
	"errors"
	"fmt"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// A Resumer runs one program on a sequence of inputs, as RunWith runs it
// on each (RunWith stays the reference; a test compares the two on every
// input of several programs), but resumes each run from the longest
// prefix it shares with the previous run instead of starting it afresh.
// The oracle's completeness half runs tens of thousands of inputs that
// Inputs enumerates in odometer order, and consecutive ones differ in a
// field or two: most of a run is the previous run again.
//
// Why resuming is exact. A run reads the input heap only through its
// Engine, and only at two places: the Initialize rules read the target of
// a reference field of an input object (Engine.initialize), and the
// evaluation of a term reads the value of a primitive field of one
// (Engine.symValue). Everything else a step does is a function of the
// machine state and of the Engine's own state (which location stands for
// which object, BeyondK), and that state is itself made by the earlier
// steps: the aliasing decision of Initialize compares the target it read
// with the objects already mapped, which earlier reads mapped. So by
// induction on the steps, the state before a step is a function of the
// values of the reads made before it, and which field of which object a
// read reads is too. Two inputs on which the reads r₁ … rᵢ₋₁ of a run
// give the same values therefore lead that run through the same states up
// to the step that makes read rᵢ, and the state before that step,
// recorded on the first input, is the state the run on the second input
// has there. The Resumer records, as it runs, a checkpoint (a clone of the
// machine state, the Engine's state and the digests) before every step
// that may read the heap for the first time (mayRead, a cheap test of the
// state; a step it misses is no error, only a resumption from an earlier
// checkpoint), and the reads each step made, each with the latest
// checkpoint before it. On the next input it finds the first recorded read
// whose value differs there and resumes from that read's checkpoint; if
// none differs, the run's steps are the previous run's, and only its end
// is computed again: the value of a run that ended on a value reads
// primitive fields (a term's value) and the number of input objects (the
// numbering of the objects the run made), both of the new input.
//
// A Resumer is not safe for concurrent use.
type Resumer struct {
	p     *javalite.Program
	k     int
	bound int
	opt   machine.Options

	valid bool         // the fields below describe the previous input's run
	reads []read       // its first reads of each field, in order
	cps   []checkpoint // its checkpoints, in step order
	end   Result       // its result, but the value of a run ended on one
	// endS and endE are the terminal state and engine of a run that ended
	// on a value (end.Kind == EndValue, not out of range): the value is
	// computed again for each input, under its heap.
	endS *machine.State
	endE *Engine
	eng  *Engine // the engine of every run

	// syms caches the input symbols of the terms mayRead looks at.
	syms map[*smt.Formula][]*smt.Formula

	// How the runs started: afresh, from a checkpoint, or not at all
	// (every read the previous run's); for the tests.
	fresh, resumed, reused int
}

// read is one first read of a field of an input object: object o's field
// (Field.Index) f, a primitive field's value or a reference field's target
// (Null or an object number), read during a step after checkpoint cp (-1:
// none, the run's start).
type read struct {
	o, f int
	prim bool
	v    int64
	cp   int
}

// checkpoint is a run before one of its steps.
type checkpoint struct {
	s *machine.State
	// objs is the engine's map of input locations to objects (its map of
	// objects to locations is the inverse: the two are only ever set
	// together).
	objs    []locObj
	beyondK bool
	d       Digests
	nreads  int // reads made before it
}

type locObj struct {
	l machine.Loc
	o int
}

// NewResumer returns a Resumer of p under RunWith's k, bound and opt (no
// rule recording).
func NewResumer(p *javalite.Program, k, bound int, opt machine.Options) *Resumer {
	return &Resumer{p: p, k: k, bound: bound, opt: opt}
}

// logRead records a read of the run on e, unless the run read that field
// before (a later read of one field of one input yields what the first
// did).
func (r *Resumer) logRead(o, f int, prim bool, v int64) {
	if r.logged(o, f, prim) {
		return
	}
	r.reads = append(r.reads, read{o: o, f: f, prim: prim, v: v, cp: len(r.cps) - 1})
}

// differs reports whether x reads another value on h.
func (x read) differs(h *Heap) bool {
	if x.o >= len(h.Objects) {
		return true
	}
	ob := &h.Objects[x.o]
	if x.prim {
		return x.f >= len(ob.Prim) || ob.Prim[x.f] != x.v
	}
	return x.f >= len(ob.Fields) || int64(ob.Fields[x.f]) != x.v
}

// Run is RunWith(p, h, k, bound, false, opt) for the Resumer's p, k,
// bound and opt.
func (r *Resumer) Run(h *Heap) (Result, error) {
	if err := h.Validate(r.p); err != nil {
		return Result{}, err
	}
	first := -1 // the first read that differs on h
	if r.valid {
		for i, x := range r.reads {
			if x.differs(h) {
				first = i
				break
			}
		}
		if first < 0 {
			r.reused++
			return r.again(h)
		}
	}
	// One engine serves every run: its maps are refilled, not made anew.
	e := r.eng
	if e == nil {
		e = NewEngine(h, r.k)
		e.Opt = r.opt
		r.eng = e
	}
	e.Heap, e.resumer = h, r
	clear(e.obj)
	clear(e.loc)
	var s *machine.State
	var d Digests
	if first >= 0 && r.reads[first].cp >= 0 {
		cp := r.reads[first].cp
		c := &r.cps[cp]
		s = c.s.Clone()
		for _, x := range c.objs {
			e.obj[x.l], e.loc[x.o] = x.o, x.l
		}
		e.BeyondK = c.beyondK
		d = c.d
		r.reads = r.reads[:c.nreads]
		r.cps = r.cps[:cp+1]
		r.resumed++
	} else {
		r.fresh++
		e.obj[0], e.loc[0] = 0, 0
		e.BeyondK = false
		s = machine.Initial(r.p)
		d = startDigests(s)
		r.reads, r.cps = r.reads[:0], r.cps[:0]
	}
	r.valid = false
	r.endS, r.endE = nil, nil
	res, err := r.run(s, e, d)
	if err != nil {
		return res, err
	}
	r.valid = true
	return r.again(h)
}

// run is RunWith's loop from s, recording reads and checkpoints; it leaves
// the run's end in r.end (and r.endS, r.endE).
func (r *Resumer) run(s *machine.State, e *Engine, d Digests) (Result, error) {
	var res Result
	var buf [256]byte
	for {
		if s.Terminal() {
			res.Kind = machine.EndValue
			if s.Mode == machine.ModeError {
				res.Kind = machine.EndError
			} else {
				e.resumer = nil // the end's reads are again's, for every input
				r.endS, r.endE = s, e
			}
			break
		}
		if r.bound >= 0 && s.Steps >= r.bound {
			res.Kind = machine.EndCut
			break
		}
		if r.mayRead(s, e) && (len(r.cps) == 0 || r.cps[len(r.cps)-1].s.Steps != s.Steps) {
			objs := make([]locObj, 0, len(e.obj))
			for l, o := range e.obj {
				objs = append(objs, locObj{l, o})
			}
			r.cps = append(r.cps, checkpoint{s: s.Clone(), objs: objs, beyondK: e.BeyondK, d: d, nreads: len(r.reads)})
		}
		succ, err := machine.Step(s, e, e.Opt)
		if errors.Is(err, ErrOutOfRange) {
			r.end = Result{OutOfRange: true, Steps: s.Steps - 1}
			return r.end, nil
		}
		if err != nil {
			return res, err
		}
		if len(succ) == 0 && s.Pruned() {
			r.end = Result{Pruned: true, Steps: s.Steps - 1, BeyondK: e.BeyondK}
			return r.end, nil
		}
		if len(succ) != 1 {
			return res, fmt.Errorf("concrete: step %d has %d successors, want 1", s.Steps, len(succ))
		}
		s = succ[0].S
		d = d.extendIn(buf[:0], succ[0].Rule, s)
	}
	res.Steps = s.Steps
	res.Seq = d.end(res.Kind)
	res.BeyondK = e.BeyondK
	r.end = res
	return res, nil
}

// again is the previous run's result on h, whose reads all read what the
// previous input's did: its end, with the value of a run that ended on one
// computed under h.
func (r *Resumer) again(h *Heap) (Result, error) {
	if r.endS == nil {
		return r.end, nil
	}
	r.endE.Heap = h
	v, err := valueOf(r.endS, r.endE, len(h.Objects))
	if errors.Is(err, ErrOutOfRange) {
		return Result{Kind: machine.EndValue, OutOfRange: true, Steps: r.endS.Steps}, nil
	}
	if err != nil {
		r.valid = false
		return Result{Kind: machine.EndValue}, err
	}
	res := r.end
	res.Value = v
	return res, nil
}

// mayRead reports whether the step from s may read a field of the input
// heap that the run on e has not read yet: a field access of a reference
// field not yet initialized (Initialize), or an If or an assume on a term
// with a symbol whose field is unread (its value). A step it misses only
// makes a resumption start from an earlier checkpoint.
func (r *Resumer) mayRead(s *machine.State, e *Engine) bool {
	if s.Mode != machine.ModeValue || s.K == nil {
		return false
	}
	switch s.K.Kind {
	case machine.KField:
		fa, ok := s.K.Expr.(*javalite.FieldAccess)
		if !ok || fa.Field.IsPrim() || !s.Val.IsRef() {
			return ok
		}
		g := s.Get(s.Val.Ref())
		if len(g) != 1 {
			return true
		}
		if g[0].Loc == machine.LNull {
			return false
		}
		f := s.Get(s.Field(g[0].Loc, fa.Field))
		return len(f) == 1 && f[0].Loc == machine.LUn
	case machine.KIf, machine.KAssume:
		return s.Val.IsTerm() && r.unread(s, e, s.Val.Term())
	}
	return false
}

// unread reports whether the term t may have a symbol whose field the run
// on e has not read yet: a symbol of an input location that stands for
// no object (the step then fails, as it would anyway) counts as one.
func (r *Resumer) unread(s *machine.State, e *Engine, t *smt.Formula) bool {
	syms, ok := r.syms[t]
	if !ok {
		syms = t.Syms()
		if r.syms == nil {
			r.syms = map[*smt.Formula][]*smt.Formula{}
		}
		r.syms[t] = syms
	}
	for _, sym := range syms {
		id, fid, _ := sym.SymOf()
		o, found := -1, false
		for l, info := range s.Locs {
			if info.Input && info.Identity == id {
				o, found = e.obj[machine.Loc(l)]
				break
			}
		}
		if !found || fid < 0 || fid >= len(s.Prog.Fields) || !r.logged(o, s.Prog.Fields[fid].Index, true) {
			return true
		}
	}
	return false
}

// logged reports whether the run read field f of object o already.
func (r *Resumer) logged(o, f int, prim bool) bool {
	for i := len(r.reads) - 1; i >= 0; i-- {
		if x := r.reads[i]; x.o == o && x.f == f && x.prim == prim {
			return true
		}
	}
	return false
}
