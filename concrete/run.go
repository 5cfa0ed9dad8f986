package concrete

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"math/bits"
	"math/rand/v2"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Digest identifies a control-flow sequence: the chained hash of the rule
// name and ControlKey of every state along a path, and of how it ended.
// Equal sequences have equal digests; distinct ones collide with
// probability about 2^-128. Digests are comparable only within one process
// (the hash seeds are drawn at start-up).
type Digest [2]uint64

var (
	digestSeeds = [2]uint64{rand.Uint64(), rand.Uint64()}
	itemSeeds   = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
)

// Extend returns the digest of the sequence d followed by (rule, control).
func (d Digest) Extend(rule, control string) Digest {
	var buf [256]byte
	return d.extend(itemOf(buf[:0], rule, control))
}

// An item is one step of a sequence, (rule, control), hashed under two
// seeds: Digests extends both of its digests by the same item at most
// steps, and hashing the control once for both was half of a concrete
// run's digest time (the oracle's completeness half runs tens of thousands).
type item [2]uint64

// itemOf is the item (rule, control), its bytes built in buf (reused).
func itemOf(buf []byte, rule, control string) item {
	return itemOfKey(append(itemPrefix(buf[:0], rule), control...))
}

// itemPrefix appends to b what precedes the control in an item's bytes:
// the rule's length and the rule.
func itemPrefix(b []byte, rule string) []byte {
	b = binary.LittleEndian.AppendUint64(b, uint64(len(rule)))
	return append(b, rule...)
}

// itemOfKey is the item of its bytes (itemPrefix, then the control).
func itemOfKey(b []byte) item {
	return item{maphash.Bytes(itemSeeds[0], b), maphash.Bytes(itemSeeds[1], b)}
}

// extend chains the item x onto d: each half is a keyed hash of the
// previous half and the item's, so two sequences share a digest only if
// a half of an item or of a chain collides (about 2^-64 each, under
// independent seeds for the two halves).
func (d Digest) extend(x item) Digest {
	return Digest{mix(digestSeeds[0], d[0], x[0]), mix(digestSeeds[1], d[1], x[1])}
}

// mix is a keyed hash of the words a and b: two rounds of XXH64 from the
// seed (acc = rotl(acc + w·p₂, 31)·p₁, for a given accumulator a bijection
// of the word w and for a given word a bijection of the accumulator), then
// XXH64's avalanche. For a given a it is a bijection of b and for a given b
// one of a, so two pairs that differ in one word never collide, and pairs
// that differ in both collide with probability about 2^-64. It replaced
// hash/maphash over the sixteen bytes of the two words, which was a sixth
// of bst_insert's check (every step of every concrete run extends two
// digests).
func mix(seed, a, b uint64) uint64 {
	const p1, p2, p3 = 11400714785074694791, 14029467366897019727, 1609587929392839161
	h := bits.RotateLeft64(seed+a*p2, 31) * p1
	h = bits.RotateLeft64(h+b*p2, 31) * p1
	h ^= h >> 33
	h *= p2
	h ^= h >> 29
	h *= p3
	h ^= h >> 32
	return h
}

// Start is the digest of a path that is only its initial state.
func Start(s *machine.State) Digest { return Digest{}.Extend("", s.ControlKey()) }

// End returns the digest of a complete path: its sequence and its end kind.
func (d Digest) End(kind machine.EndKind) Digest { return d.Extend("end", kind.String()) }

// Engine is the concrete heap rules on the shared machine for one run over
// one input heap: every initialization choice of GSE (RULES.md §5) is decided
// by the heap instead of branched on. An Engine carries the state of one
// path (which location stands for which object), so use a new one per run.
type Engine struct {
	Heap *Heap
	// K is the k-bound (< 0: none). A run that has to create an input
	// location beyond it sets BeyondK and goes on.
	K   int
	Opt machine.Options

	obj     map[machine.Loc]int // input location → concrete object
	loc     map[int]machine.Loc // concrete object → input location
	BeyondK bool

	// resumer, when set, records every read of the heap (a Resumer's run).
	resumer *Resumer
}

// NewEngine returns an engine for one run over h.
func NewEngine(h *Heap, k int) *Engine {
	return &Engine{Heap: h, K: k,
		obj: map[machine.Loc]int{0: 0},
		loc: map[int]machine.Loc{0: 0}}
}

func (e *Engine) Options() machine.Options { return e.Opt }
func (e *Engine) Name() string             { return "concrete" }

var (
	_ machine.Engine   = (*Engine)(nil)
	_ machine.PathCond = (*Engine)(nil)
)

// ErrOutOfRange is the error of a run whose integer data left int64: the
// case is out of range (RunWith reports it as Result.OutOfRange), never
// wrapped.
var ErrOutOfRange = errors.New("concrete: an integer left the int64 range")

// Eval evaluates a primitive term of s under the heap's values: an input
// symbol α(r, f) is field f of the object that the input location with
// identity reference r stands for, a reference atom a = b holds when a and
// b point to the same location. A bool is 0 or 1. It fails with
// ErrOutOfRange when an intermediate value leaves int64.
func (e *Engine) Eval(s *machine.State, t *smt.Formula) (int64, error) {
	var bad error
	v, ok := t.EvalData(
		func(a, b smt.Ref) bool { return sameLoc(s, a, b) },
		func(sym *smt.Formula) int64 {
			v, err := e.symValue(s, sym)
			if err != nil && bad == nil {
				bad = err
			}
			return v
		})
	if bad != nil {
		return 0, bad
	}
	if !ok {
		return 0, ErrOutOfRange
	}
	return v, nil
}

func sameLoc(s *machine.State, a, b smt.Ref) bool {
	ga, gb := s.Get(a), s.Get(b)
	return len(ga) == 1 && len(gb) == 1 && ga[0].Loc == gb[0].Loc
}

// symValue is the heap's value of the input symbol α(r, f).
func (e *Engine) symValue(s *machine.State, sym *smt.Formula) (int64, error) {
	r, fid, ok := sym.SymOf()
	if !ok {
		return 0, fmt.Errorf("concrete: %s is not an input symbol", sym)
	}
	for l, info := range s.Locs {
		if !info.Input || info.Identity != r {
			continue
		}
		o, ok := e.obj[machine.Loc(l)]
		if !ok {
			return 0, fmt.Errorf("concrete: input symbol %s of %s, which stands for no object", sym, machine.Loc(l))
		}
		if fid < 0 || fid >= len(s.Prog.Fields) {
			return 0, fmt.Errorf("concrete: input symbol %s of no field", sym)
		}
		idx := s.Prog.Fields[fid].Index
		v := e.Heap.Objects[o].Prim[idx]
		if e.resumer != nil {
			e.resumer.logRead(o, idx, true, v)
		}
		return v, nil
	}
	return 0, fmt.Errorf("concrete: input symbol %s of no input location", sym)
}

// Feasible decides If (sym) and Assume on one concrete input: S(φ ∧ t)
// holds when t is true under the heap's values (φ, made of the branches
// this run took, holds by construction).
func (e *Engine) Feasible(s *machine.State, t *smt.Formula) (bool, error) {
	v, err := e.Eval(s, t)
	return v != 0, err
}

// Strengthen keeps φ as GSE does: the run's states print the same path
// condition as the GSE path they follow.
func (e *Engine) Strengthen(s *machine.State, t *smt.Formula) { s.AddFact(t) }

func single(s *machine.State, r machine.Ref) (machine.Loc, error) {
	g := s.Get(r)
	if len(g) != 1 {
		return 0, fmt.Errorf("concrete: L(%s) has %d entries, want exactly one", machine.RefString(r), len(g))
	}
	return g[0].Loc, nil
}

// initialize makes the one initialization choice the heap dictates, with the
// reference allocation of the corresponding GSE choice.
func (e *Engine) initialize(s *machine.State, l machine.Loc, f *javalite.Field) error {
	if g := s.Get(s.Field(l, f)); len(g) != 1 || g[0].Loc != machine.LUn {
		return nil
	}
	o, ok := e.obj[l]
	if !ok {
		return fmt.Errorf("concrete: uninitialized field %s of %s, which is not an input location", f.Name, l)
	}
	t := e.Heap.Objects[o].Fields[f.Index]
	if e.resumer != nil {
		e.resumer.logRead(o, f.Index, false, int64(t))
	}
	if t == Null { // Rule: Initialize (null)
		r := s.FreshR()
		s.Set(r, machine.Single(machine.LNull))
		s.SetField(l, f, r)
		return nil
	}
	if la, ok := e.loc[t]; ok { // Rule: Initialize (alias)
		r := s.FreshR()
		s.Set(r, machine.Single(la))
		s.SetField(l, f, r)
		return nil
	}
	// Rule: Initialize (new)
	depth := s.Locs[l].Depth + 1
	if e.K >= 0 && depth > e.K {
		e.BeyondK = true
	}
	r := s.InitR()
	ln := s.NewLoc(machine.LocInfo{Class: f.Class, Input: true, Depth: depth, Identity: r}, machine.RUn)
	s.Set(r, machine.Single(ln))
	s.SetField(l, f, r)
	e.obj[ln], e.loc[t] = t, ln
	return nil
}

// FieldAccess is rules A and A′ with the heap's initialization choice.
func (e *Engine) FieldAccess(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
	l, err := single(s, r)
	if err != nil {
		return nil, err
	}
	if l == machine.LNull { // Rule: Field access (A′)
		s.SetError()
		return []machine.Succ{{S: s, Rule: machine.RuleFieldANull}}, nil
	}
	if fa.Field.IsPrim() {
		// Rule: Field access (A) on a primitive field: its term, no
		// initialization (PRIMITIVES.md §4).
		s.SetValue(machine.PrimVal(s.PrimField(l, fa.Field)), k)
		return []machine.Succ{{S: s, Rule: machine.RuleFieldA}}, nil
	}
	// Rule: Field access (A)
	if err := e.initialize(s, l, fa.Field); err != nil {
		return nil, err
	}
	g := s.Get(s.Field(l, fa.Field))
	r2 := s.StackR()
	s.Set(r2, g)
	s.SetValue(machine.RefVal(r2), k)
	return []machine.Succ{{S: s, Rule: machine.RuleFieldA}}, nil
}

// FieldWrite is rules W and W′.
func (e *Engine) FieldWrite(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont) ([]machine.Succ, error) {
	l, err := single(s, s.Env[fw.Slot].Ref())
	if err != nil {
		return nil, err
	}
	if l == machine.LNull { // Rule: Field write (W′)
		s.SetError()
		return []machine.Succ{{S: s, Rule: machine.RuleWriteWNull}}, nil
	}
	if fw.Field.IsPrim() {
		// Rule: Field write (W) on a primitive field: R[(l f) ↦ t].
		s.SetPrimField(l, fw.Field, s.Val.Term())
		s.SetValue(s.Val, k)
		return []machine.Succ{{S: s, Rule: machine.RuleWriteW}}, nil
	}
	// Rule: Field write (W)
	r2 := s.FreshR()
	s.Set(r2, s.Get(r))
	s.SetField(l, fw.Field, r2)
	s.SetValue(machine.RefVal(r), k)
	return []machine.Succ{{S: s, Rule: machine.RuleWriteW}}, nil
}

// EqualsRef is rules E and E′: in a concrete heap two references are equal
// exactly when they point to the same location.
func (e *Engine) EqualsRef(s *machine.State, r0, r1 machine.Ref, eq *javalite.Equals, k *machine.Kont) ([]machine.Succ, error) {
	l0, err := single(s, r0)
	if err != nil {
		return nil, err
	}
	l1, err := single(s, r1)
	if err != nil {
		return nil, err
	}
	if l0 == l1 { // Rule: Equals (E)
		s.SetValue(machine.VTrue, k)
		return []machine.Succ{{S: s, Rule: machine.RuleEqualsE}}, nil
	}
	s.SetValue(machine.VFalse, k) // Rule: Equals (E′)
	return []machine.Succ{{S: s, Rule: machine.RuleEqualsENot}}, nil
}

// Invoke is rules Invoke and Invoke′ (V11, Java reading): a call on null
// throws.
func (e *Engine) Invoke(s *machine.State, r machine.Ref, args []machine.Value, c *javalite.Call, k *machine.Kont) ([]machine.Succ, error) {
	l, err := single(s, r)
	if err != nil {
		return nil, err
	}
	if l == machine.LNull { // Rule: Invoke′
		s.SetError()
		return []machine.Succ{{S: s, Rule: machine.RuleInvokeNull}}, nil
	}
	return []machine.Succ{machine.EnterMethod(s, r, args, c, k, e.Opt)}, nil // Rule: Invoke
}

// Value is a concrete result: a boolean, an integer, null, or an object.
// Objects number the input heap's objects first and then the objects the
// run creates with (new C), in creation order, so the two interpreters
// number them alike.
type Value struct {
	Bool   bool
	IsBool bool
	// Data marks a bool that is data (the machine's term value: read from
	// a bool field, a comparison of ints, Equals (prim)), not a control
	// literal (a literal, a reference comparison, Equals (bool) of two
	// control literals, the value of an assume).
	Data  bool
	IsInt bool
	Int   int64
	Obj   int // Null or an object number, when neither IsBool nor IsInt
}

func (v Value) String() string {
	switch {
	case v.IsInt:
		return fmt.Sprint(v.Int)
	case v.IsBool:
		return fmt.Sprint(v.Bool)
	case v.Obj == Null:
		return "null"
	}
	return fmt.Sprintf("o%d", v.Obj)
}

// Result is the outcome of one concrete run.
type Result struct {
	Kind  machine.EndKind // value, error or cut
	Value Value           // when Kind == EndValue
	Steps int
	// Seq is the digest of the run's control-flow sequence and path, as
	// Sequences computes them for symbolic paths.
	Seq Digests
	// Rules is every rule applied, in order, when recording was asked for.
	Rules []string
	// BeyondK: the run first reached some object along an access path longer
	// than the k-bound, so GSE with that k has no path for it.
	BeyondK bool
	// Pruned: an (assume e) found e false; the run is no result (no
	// engine counts it as a path), and Kind, Value and Seq mean nothing.
	// Steps counts the steps before the assume.
	Pruned bool
	// OutOfRange: an integer left int64; the case is aborted, and Kind,
	// Value, Steps and Seq mean nothing. Interpret checks every sum; Run's
	// terms are mathematical and are evaluated only where a branch, an
	// assume or the result needs them, so one may abort a case the other
	// finishes: either way the case is no result.
	OutOfRange bool
}

// Run executes p on h with the machine and the concrete heap rules, until
// the run ends or is cut at bound steps (bound < 0: none). k is the k-bound
// against which BeyondK is judged. With rules set, every rule name is kept.
// The common rules are the default reading (Java semantics); RunWith
// chooses them.
func Run(p *javalite.Program, h *Heap, k, bound int, rules bool) (Result, error) {
	return RunWith(p, h, k, bound, rules, machine.Options{})
}

// RunWith is Run with the common-rule choices opt (RULES.md §9: V9–V11).
func RunWith(p *javalite.Program, h *Heap, k, bound int, rules bool, opt machine.Options) (Result, error) {
	if err := h.Validate(p); err != nil {
		return Result{}, err
	}
	e := NewEngine(h, k)
	e.Opt = opt
	s := machine.Initial(p)
	var res Result
	d := startDigests(s)
	var buf [256]byte // every step's item bytes (Digests.extendIn)
	for {
		if s.Terminal() {
			res.Kind = machine.EndValue
			if s.Mode == machine.ModeError {
				res.Kind = machine.EndError
			} else {
				v, err := valueOf(s, e, len(h.Objects))
				if errors.Is(err, ErrOutOfRange) {
					res.OutOfRange = true
					res.Steps = s.Steps
					return res, nil
				}
				if err != nil {
					return res, err
				}
				res.Value = v
			}
			break
		}
		if bound >= 0 && s.Steps >= bound {
			res.Kind = machine.EndCut
			break
		}
		succ, err := machine.Step(s, e, e.Opt)
		if errors.Is(err, ErrOutOfRange) {
			res.OutOfRange = true
			res.Steps = s.Steps - 1
			return res, nil
		}
		if err != nil {
			return res, err
		}
		if len(succ) == 0 && s.Pruned() {
			// Rule Assume pruned the run: the attempted step is no step.
			res.Pruned = true
			res.Steps = s.Steps - 1
			res.BeyondK = e.BeyondK
			return res, nil
		}
		if len(succ) != 1 {
			return res, fmt.Errorf("concrete: step %d has %d successors, want 1", s.Steps, len(succ))
		}
		s = succ[0].S
		d = d.extendIn(buf[:0], succ[0].Rule, s)
		if rules {
			res.Rules = append(res.Rules, succ[0].Rule)
		}
	}
	res.Steps = s.Steps
	res.Seq = d.end(res.Kind)
	res.BeyondK = e.BeyondK
	return res, nil
}

// valueOf maps a terminal value to the concrete numbering; a term is
// evaluated under the heap's values.
func valueOf(s *machine.State, e *Engine, nInput int) (Value, error) {
	v := s.Val
	if v.IsBool() {
		return Value{IsBool: true, Bool: v == machine.VTrue}, nil
	}
	if v.IsTerm() {
		n, err := e.Eval(s, v.Term())
		if err != nil {
			return Value{}, err
		}
		if v.Term().Sort() == smt.SortInt {
			return Value{IsInt: true, Int: n}, nil
		}
		return Value{IsBool: true, Bool: n != 0, Data: true}, nil
	}
	g := s.Get(v.Ref())
	l := g[0].Loc
	if l == machine.LNull {
		return Value{Obj: Null}, nil
	}
	if o, ok := e.obj[l]; ok {
		return Value{Obj: o}, nil
	}
	n := nInput
	for i := 0; i < int(l); i++ {
		if !s.Locs[i].Input {
			n++
		}
	}
	return Value{Obj: n}, nil
}
