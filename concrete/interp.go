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
	res, _, err := InterpretFinal(p, h, bound, opt)
	return res, err
}

// InterpretFinal is InterpretWith that also returns the heap as the run
// left it: the input objects (same numbers) with their fields as last
// written, then every object the run made with (new C), in creation order,
// the numbering Result.Value uses. A run that ends early (error, pruned,
// out of range, cut) leaves the heap as it was at that point. Package jvm
// compares it with the heap the JVM leaves.
func InterpretFinal(p *javalite.Program, h *Heap, bound int, opt machine.Options) (Result, *Heap, error) {
	if err := h.Validate(p); err != nil {
		return Result{}, nil, err
	}
	if bound < 0 {
		return Result{}, nil, errors.New("concrete: Interpret needs a step bound ≥ 0")
	}
	in := &interp{bound: bound, heap: h.Clone(), opt: opt}
	m := p.Entry
	env := make([]Value, m.NumSlots)
	env[javalite.SlotThis] = Value{Obj: 0}
	// Entry parameters are not input: true, 0 or null (PRIMITIVES.md §2).
	for _, prm := range m.Params {
		switch prm.T.Kind {
		case javalite.KindBool:
			env[prm.Slot] = Value{IsBool: true, Bool: true}
		case javalite.KindInt:
			env[prm.Slot] = Value{IsInt: true}
		default:
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
	case stPruned:
		res.Pruned = true
	case stRange:
		res.OutOfRange = true
	default:
		return res, nil, in.err
	}
	return res, in.heap, nil
}

type status uint8

const (
	stOK status = iota
	stError
	stCut
	stPruned // (assume e) with e false: the run ends, not as a result
	stRange  // an integer left int64: the case is out of range
	stBug    // an internal inconsistency, in in.err
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
	case *javalite.IntLit:
		// Rule Int: a step of its own, unlike true and false.
		if !in.step(machine.RuleInt) {
			return Value{}, stCut
		}
		return Value{IsInt: true, Int: e.Val}, stOK
	case *javalite.Binary:
		if !in.step(machine.RuleBinLEval) {
			return Value{}, stCut
		}
		v0, st := in.eval(e.L)
		if st != stOK {
			return v0, st
		}
		if !in.step(machine.RuleBinREval) {
			return Value{}, stCut
		}
		v1, st := in.eval(e.R)
		if st != stOK {
			return v1, st
		}
		if !v0.IsInt || !v1.IsInt {
			return in.bug("%s on a non-integer at %s", e.Op, e.Pos())
		}
		if !in.step(machine.RuleBinary) {
			return Value{}, stCut
		}
		return arith(e.Op, v0.Int, v1.Int)
	case *javalite.Assume:
		if !in.step(machine.RuleAssumeEval) {
			return Value{}, stCut
		}
		v, st := in.eval(e.X)
		if st != stOK {
			return v, st
		}
		if !v.IsBool {
			return in.bug("assume on a non-boolean at %s", e.Pos())
		}
		if !v.Bool {
			// Pruned: no successor, no step; the bound cuts first, as the
			// explorer checks it before it tries a step.
			if in.steps >= in.bound {
				return Value{}, stCut
			}
			return Value{}, stPruned
		}
		if !in.step(machine.RuleAssume) {
			return Value{}, stCut
		}
		return Value{IsBool: true, Bool: true}, stOK
	case *javalite.Var:
		if !in.step(machine.RuleVarLookup) {
			return Value{}, stCut
		}
		return in.env[e.Slot], stOK
	case *javalite.New:
		if !in.step(machine.RuleNew) {
			return Value{}, stCut
		}
		// Java's defaults: null, 0, false.
		in.heap.Objects = append(in.heap.Objects, newObject(e.Class))
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
		o := in.heap.Objects[v.Obj]
		switch e.Field.T.Kind {
		case javalite.KindInt:
			return Value{IsInt: true, Int: o.Prim[e.Field.Index]}, stOK
		case javalite.KindBool:
			return Value{IsBool: true, Bool: o.Prim[e.Field.Index] != 0, Data: true}, stOK
		}
		return Value{Obj: o.Fields[e.Field.Index]}, stOK
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
		o := in.heap.Objects[x.Obj]
		switch {
		case v.IsInt:
			o.Prim[e.Field.Index] = v.Int
		case v.IsBool:
			o.Prim[e.Field.Index] = b2i(v.Bool)
		default:
			o.Fields[e.Field.Index] = v.Obj
		}
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
		if v0.IsBool != v1.IsBool || v0.IsInt != v1.IsInt {
			return in.bug("comparison of values of different types at %s", e.Pos())
		}
		switch {
		case v0.IsBool && !v0.Data && !v1.Data:
			// Two control literals: Equals (bool), a control literal.
			if !in.step(machine.RuleEqBool) {
				return Value{}, stCut
			}
			return Value{IsBool: true, Bool: v0.Bool == v1.Bool}, stOK
		case v0.IsBool || v0.IsInt:
			// Data on either side: Equals (prim), a data bool.
			if !in.step(machine.RuleEqPrim) {
				return Value{}, stCut
			}
			return Value{IsBool: true, Bool: v0.Bool == v1.Bool && v0.Int == v1.Int, Data: true}, stOK
		}
		rule := machine.RuleEqualsENot
		if v0.Obj == v1.Obj {
			rule = machine.RuleEqualsE
		}
		if !in.step(rule) {
			return Value{}, stCut
		}
		return Value{IsBool: true, Bool: v0.Obj == v1.Obj}, stOK
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
		if c.Data {
			// On data the machine names the step If (sym) unless its term
			// folded to a constant, which only the term shows; SameRules
			// takes the three names of a branch as one.
			rule = machine.RuleIfSym
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

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// arith computes v0 ⊕ v1 on mathematical integers: a sum or difference
// outside int64 aborts the run as out of range (stRange), never wraps.
func arith(op javalite.BinOp, v0, v1 int64) (Value, status) {
	switch op {
	case javalite.OpAdd:
		r := v0 + v1
		if (v1 > 0 && r < v0) || (v1 < 0 && r > v0) {
			return Value{}, stRange
		}
		return Value{IsInt: true, Int: r}, stOK
	case javalite.OpSub:
		r := v0 - v1
		if (v1 > 0 && r > v0) || (v1 < 0 && r < v0) {
			return Value{}, stRange
		}
		return Value{IsInt: true, Int: r}, stOK
	case javalite.OpLt:
		if plantLtAsLe.Load() {
			return Value{IsBool: true, Bool: v0 <= v1, Data: true}, stOK
		}
		return Value{IsBool: true, Bool: v0 < v1, Data: true}, stOK
	case javalite.OpLe:
		return Value{IsBool: true, Bool: v0 <= v1, Data: true}, stOK
	}
	return Value{}, stBug
}

// SameRules reports whether two rule sequences are the same, taking If
// (true), If (false) and If (sym) as one rule: the machine names a branch
// on a data term If (sym) unless the term folded to a constant, a
// simplification of its terms that Interpret, computing with numbers, does
// not see; the branch taken shows in the next steps anyway.
func SameRules(a, b []string) bool {
	return FirstDifference(a, b) < 0
}

// FirstDifference is the index of the first rule where a and b differ (as
// SameRules compares them), or -1.
func FirstDifference(a, b []string) int {
	isIf := func(r string) bool {
		return r == machine.RuleIfTrue || r == machine.RuleIfFalse || r == machine.RuleIfSym
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] && !(isIf(a[i]) && isIf(b[i])) {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}
