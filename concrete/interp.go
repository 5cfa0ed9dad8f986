package concrete

import (
	"errors"
	"fmt"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// Interpret runs p on h with a plain recursive interpreter that shares no
// code with package machine: its own heap (the input objects, then the
// objects made by (new C)), its own environments, and the evaluation order
// and step accounting of RULES.md §3 and §5 written out directly. It returns
// the same Result as Run except Seq and BeyondK (it knows nothing of
// controls or locations); Rules is always filled.
//
// The step bound works as in the explorer: a path is cut when it would take
// a step beyond bound steps. bound must be ≥ 0: the interpreter recurses
// once per nested evaluation, and the bound is what keeps that finite.
// The semantics is Java's (RULES.md §3); InterpretWith chooses it.
func Interpret(p *javalite.Program, h *Heap, bound int) (Result, error) {
	return InterpretWith(p, h, bound, machine.Options{})
}

// InterpretWith is Interpret under the V10/V11 readings of opt (only those
// two are read: V9 changes η but never a result, and this interpreter's
// environments are its own). It never reads opt.Mutation, the deliberate
// errors of the common rules, which is exactly what it exists to catch
// (the checker's lemma ORC).
func InterpretWith(p *javalite.Program, h *Heap, bound int, opt machine.Options) (Result, error) {
	if err := h.Validate(p); err != nil {
		return Result{}, err
	}
	if bound < 0 {
		return Result{}, errors.New("concrete: Interpret needs a step bound ≥ 0")
	}
	in := &interp{bound: bound, heap: h.Clone(), opt: opt}
	m := p.Entry
	env := make([]Value, m.NumSlots)
	env[javalite.SlotThis] = Value{Obj: 0}
	for _, prm := range m.Params {
		if prm.T.Kind == javalite.KindBool {
			env[prm.Slot] = Value{IsBool: true, Bool: true}
		} else {
			env[prm.Slot] = Value{Obj: Null}
		}
	}
	in.env = env
	v, st := in.eval(m.Body)
	res := Result{Steps: in.steps, Rules: in.rules}
	switch st {
	case stOK:
		res.Kind, res.Value = machine.EndValue, v
	case stError:
		res.Kind = machine.EndError
	case stCut:
		res.Kind = machine.EndCut
	default:
		return res, in.err
	}
	return res, nil
}

type status uint8

const (
	stOK status = iota
	stError
	stCut
	stBug // an internal inconsistency, in in.err
)

type interp struct {
	bound int
	steps int
	rules []string
	heap  *Heap
	env   []Value
	err   error
	opt   machine.Options
}

// step takes one step named rule, or reports that the bound cuts the path
// before it.
func (in *interp) step(rule string) bool {
	if in.steps >= in.bound {
		return false
	}
	in.steps++
	in.rules = append(in.rules, rule)
	return true
}

func (in *interp) bug(format string, args ...any) (Value, status) {
	in.err = fmt.Errorf("concrete: "+format, args...)
	return Value{}, stBug
}

// scope evaluates body in env, then takes the Pop step back to the
// environment of the caller (a var body and a method body end alike).
func (in *interp) scope(env []Value, body javalite.Expr) (Value, status) {
	saved := in.env
	in.env = env
	r, st := in.eval(body)
	if st != stOK {
		return r, st
	}
	if !in.step(machine.RulePop) {
		return Value{}, stCut
	}
	in.env = saved
	return r, stOK
}

func (in *interp) eval(e javalite.Expr) (Value, status) {
	switch e := e.(type) {
	case *javalite.Lit:
		if e.Kind != javalite.LitNull {
			// true and false are values already: no step (RULES.md §1).
			return Value{IsBool: true, Bool: e.Kind == javalite.LitTrue}, stOK
		}
		if !in.step(machine.RuleNull) {
			return Value{}, stCut
		}
		return Value{Obj: Null}, stOK
	case *javalite.Var:
		if !in.step(machine.RuleVarLookup) {
			return Value{}, stCut
		}
		return in.env[e.Slot], stOK
	case *javalite.New:
		if !in.step(machine.RuleNew) {
			return Value{}, stCut
		}
		fs := make([]int, len(e.Class.Fields))
		for i := range fs {
			fs[i] = Null
		}
		in.heap.Objects = append(in.heap.Objects, Object{Class: e.Class, Fields: fs})
		return Value{Obj: len(in.heap.Objects) - 1}, stOK
	case *javalite.FieldAccess:
		if !in.step(machine.RuleFieldEval) {
			return Value{}, stCut
		}
		v, st := in.eval(e.X)
		if st != stOK {
			return v, st
		}
		if v.IsBool {
			return in.bug("field access on a boolean at %s", e.Pos())
		}
		if v.Obj == Null {
			if !in.step(machine.RuleFieldANull) {
				return Value{}, stCut
			}
			return Value{}, stError
		}
		if !in.step(machine.RuleFieldA) {
			return Value{}, stCut
		}
		return Value{Obj: in.heap.Objects[v.Obj].Fields[e.Field.Index]}, stOK
	case *javalite.FieldWrite:
		if !in.step(machine.RuleWriteEval) {
			return Value{}, stCut
		}
		v, st := in.eval(e.Value)
		if st != stOK {
			return v, st
		}
		x := in.env[e.Slot]
		if x.Obj == Null {
			if !in.step(machine.RuleWriteWNull) {
				return Value{}, stCut
			}
			return Value{}, stError
		}
		if !in.step(machine.RuleWriteW) {
			return Value{}, stCut
		}
		in.heap.Objects[x.Obj].Fields[e.Field.Index] = v.Obj
		return v, stOK
	case *javalite.Equals:
		if !in.step(machine.RuleEqLEval) {
			return Value{}, stCut
		}
		v0, st := in.eval(e.L)
		if st != stOK {
			return v0, st
		}
		if !in.step(machine.RuleEqREval) {
			return Value{}, stCut
		}
		v1, st := in.eval(e.R)
		if st != stOK {
			return v1, st
		}
		if v0.IsBool != v1.IsBool {
			return in.bug("comparison of a boolean with a reference at %s", e.Pos())
		}
		rule := machine.RuleEqBool
		eq := v0 == v1
		if !v0.IsBool {
			rule = machine.RuleEqualsENot
			if eq {
				rule = machine.RuleEqualsE
			}
		}
		if !in.step(rule) {
			return Value{}, stCut
		}
		return Value{IsBool: true, Bool: eq}, stOK
	case *javalite.If:
		if !in.step(machine.RuleIfEval) {
			return Value{}, stCut
		}
		c, st := in.eval(e.Cond)
		if st != stOK {
			return c, st
		}
		if !c.IsBool {
			return in.bug("if on a reference at %s", e.Pos())
		}
		next, rule := e.Else, machine.RuleIfFalse
		if c.Bool {
			next, rule = e.Then, machine.RuleIfTrue
		}
		if !in.step(rule) {
			return Value{}, stCut
		}
		return in.eval(next)
	case *javalite.VarDecl:
		if !in.step(machine.RuleVarEval) {
			return Value{}, stCut
		}
		v, st := in.eval(e.Init)
		if st != stOK {
			return v, st
		}
		if !in.step(machine.RuleVar) {
			return Value{}, stCut
		}
		env := append([]Value(nil), in.env...)
		env[e.Slot] = v
		if in.opt.VarRestoresEnv {
			// V10, paper: the body runs in η[x ↦ v]; rule Pop restores η
			// as it was before the declaration, undoing assignments made
			// in the body.
			return in.scope(env, e.Body)
		}
		// V10, Java: only x gets its old binding back (rule Pop var);
		// assignments to enclosing variables stay.
		old := in.env[e.Slot]
		in.env = env
		r, st := in.eval(e.Body)
		if st != stOK {
			return r, st
		}
		if !in.step(machine.RulePopVar) {
			return Value{}, stCut
		}
		in.env = append([]Value(nil), in.env...)
		in.env[e.Slot] = old
		return r, stOK
	case *javalite.Call:
		if !in.step(machine.RuleInvokeObj) {
			return Value{}, stCut
		}
		recv, st := in.eval(e.Recv)
		if st != stOK {
			return recv, st
		}
		args := make([]Value, len(e.Args))
		for i, a := range e.Args {
			if !in.step(machine.RuleInvokeArg) {
				return Value{}, stCut
			}
			v, st := in.eval(a)
			if st != stOK {
				return v, st
			}
			args[i] = v
		}
		if !in.opt.NullCallProceeds && !recv.IsBool && recv.Obj == Null {
			// V11, Java: NullPointerException (rule Invoke′).
			if !in.step(machine.RuleInvokeNull) {
				return Value{}, stCut
			}
			return Value{}, stError
		}
		if !in.step(machine.RuleInvoke) {
			return Value{}, stCut
		}
		// Static method lookup (e.Method, resolved by the checker) and a
		// fresh environment {this, x}; under V11's paper reading a call
		// on null proceeds with this = null.
		env := make([]Value, e.Method.NumSlots)
		env[javalite.SlotThis] = recv
		for i, prm := range e.Method.Params {
			env[prm.Slot] = args[i]
		}
		return in.scope(env, e.Method.Body)
	case *javalite.Assign:
		if !in.step(machine.RuleAssignEval) {
			return Value{}, stCut
		}
		v, st := in.eval(e.Value)
		if st != stOK {
			return v, st
		}
		if !in.step(machine.RuleAssign) {
			return Value{}, stCut
		}
		in.env = append([]Value(nil), in.env...)
		in.env[e.Slot] = v
		return v, stOK
	case *javalite.Begin:
		if !in.step(machine.RuleBeginFirst) {
			return Value{}, stCut
		}
		v, st := in.eval(e.Exprs[0])
		if st != stOK {
			return v, st
		}
		for _, x := range e.Exprs[1:] {
			if !in.step(machine.RuleBeginNext) {
				return Value{}, stCut
			}
			if v, st = in.eval(x); st != stOK {
				return v, st
			}
		}
		if !in.step(machine.RuleBeginLast) {
			return Value{}, stCut
		}
		return v, stOK
	}
	return in.bug("no rule for expression %T", e)
}
