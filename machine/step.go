package machine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// Rule names, exactly as in RULES.md §3, §5 and §6. Traces, verdicts and
// statistics use these strings.
const (
	RuleVarLookup   = "Variable lookup"
	RuleNull        = "Null"
	RuleNew         = "New"
	RuleFieldEval   = "Field access (eval)"
	RuleWriteEval   = "Field write (eval)"
	RuleEqLEval     = "Equals (l-operand eval)"
	RuleEqREval     = "Equals (r-operand eval)"
	RuleEqBool      = "Equals (bool)"
	RuleIfEval      = "If (eval)"
	RuleIfTrue      = "If (true)"
	RuleIfFalse     = "If (false)"
	RuleVarEval     = "Var decl (eval)"
	RuleVar         = "Var decl"
	RuleInvokeObj   = "Invoke (object eval)"
	RuleInvokeArg   = "Invoke (arg eval)"
	RuleInvoke      = "Invoke"
	RuleAssignEval  = "Assign (eval)"
	RuleAssign      = "Assign"
	RuleBeginFirst  = "Begin (first)"
	RuleBeginNext   = "Begin (next)"
	RuleBeginLast   = "Begin (last)"
	RulePop         = "Pop"
	RulePopVar      = "Pop var" // V10, Java reading (RULES.md §3)
	RuleInvokeNull  = "Invoke′" // V11, Java reading: a call on null throws
	RuleFieldA      = "Field access (A)"
	RuleFieldANull  = "Field access (A′)"
	RuleWriteW      = "Field write (W)"
	RuleWriteWNull  = "Field write (W′)"
	RuleEqualsE     = "Equals (E)"
	RuleEqualsENot  = "Equals (E′)"
	RuleInitNull    = "Initialize (null)"
	RuleInitNew     = "Initialize (new)"
	RuleInitAlias   = "Initialize (alias)"
	RuleSummarize   = "Summarize"
	RuleStuckNullDR = "stuck (no rule for null dereference)"

	// PRIMITIVES.md §3: the common rules on data, the same in every engine.
	RuleInt        = "Int"
	RuleBinLEval   = "Binary (l-operand eval)"
	RuleBinREval   = "Binary (r-operand eval)"
	RuleBinary     = "Binary"
	RuleEqPrim     = "Equals (prim)"
	RuleIfSym      = "If (sym)"
	RuleAssumeEval = "Assume (eval)"
	RuleAssume     = "Assume"
)

// BaseRule is the lockstep rule of a rule string. Engines with rules of
// their own papers name a step "<lockstep rule> / <their rules>" (Kiasan's
// "Field access (A) / GETFIELD2-B"); the checker charges a step to the
// lemma of its lockstep rule.
func BaseRule(rule string) string {
	r, _, _ := strings.Cut(rule, " / ")
	return r
}

// Succ is one successor of a step and the rule that produced it.
type Succ struct {
	S    *State
	Rule string
}

// HeapRules are the engine-specific rules. Each is called on a state whose
// redex is the named heap rule and returns every successor (none when the
// state is stuck). The state passed in belongs to the callee, which may
// reuse it for one successor. Step has already counted the step.
type HeapRules interface {
	// FieldAccess: the state is (L R φ η r (* $ f → k)), fa is the access.
	FieldAccess(s *State, r Ref, fa *javalite.FieldAccess, k *Kont) ([]Succ, error)
	// FieldWrite: the state is (L R φ η r (x $ f := * → k)).
	FieldWrite(s *State, r Ref, fw *javalite.FieldWrite, k *Kont) ([]Succ, error)
	// EqualsRef: the state is (L R φ η r1 (r0 = * → k)) with references.
	EqualsRef(s *State, r0, r1 Ref, eq *javalite.Equals, k *Kont) ([]Succ, error)
	// Invoke: the state is (L R φ η v (r @ m v… * → k)), called only
	// under V11's Java reading (Options.NullCallProceeds false), with the
	// argument values in order. The engine decides whether r is null: rule
	// Invoke′ leads to (… error end) like A′/W′, rule Invoke to the state
	// EnterMethod builds.
	Invoke(s *State, r Ref, args []Value, c *javalite.Call, k *Kont) ([]Succ, error)
}

// PathCond is how the common data rules If (sym) and Assume (PRIMITIVES.md
// §3) read and extend an engine's own path condition φ: GSE's facts, the
// summary engine's φ_g. The rules are the same in every engine; only φ and
// S differ. An engine without it cannot run a program with data, and the
// machine says so instead of guessing.
type PathCond interface {
	// Feasible is S(φ ∧ t) for a bool term t.
	Feasible(s *State, t *smt.Formula) (bool, error)
	// Strengthen makes φ := φ ∧ t.
	Strengthen(s *State, t *smt.Formula)
}

// Facts is the PathCond of an engine whose φ is its fact list (GSE, the
// Kiasan engines): the reference facts are satisfiable by construction
// (every initialization or resolution records a consistent choice) and
// share no atom with the data facts (a symbol α(r, f) names an input, it
// is no reference atom), so only the data facts and t are in question.
// Solver is the engine's; a zero Facts makes its own on the first data
// question (the Solver's cleanup frees it with the engine).
type Facts struct {
	Solver *smt.Solver
}

// Feasible implements PathCond: S(φ ∧ t).
func (f *Facts) Feasible(s *State, t *smt.Formula) (bool, error) {
	if f.Solver == nil {
		sv, err := smt.NewSolver()
		if err != nil {
			return false, err
		}
		f.Solver = sv
	}
	return f.Solver.Sat(smt.And(append(s.DataFacts(), t)...))
}

// Strengthen implements PathCond: the fact joins the state's facts.
func (f *Facts) Strengthen(s *State, t *smt.Formula) { s.AddFact(t) }

// ErrNoData is the error of a data rule on an engine that has no PathCond.
var ErrNoData = errors.New("the engine has no rules for primitive data (PRIMITIVES.md §3)")

// Options are the rule choices of the common rules that differ between
// sources (RULES.md §9). The zero value is the default reading: V9's fresh
// environment and the Java semantics of V10 and V11 (see semantics.go for
// the named semantics sets that -semantics selects).
type Options struct {
	// InvokeExtendsEnv selects variant V9's published reading: Invoke
	// extends the caller's η instead of starting a fresh {this, x}.
	InvokeExtendsEnv bool
	// VarRestoresEnv selects V10's paper reading: rule Var decl pushes
	// (pop η k) and leaving the scope restores the whole η, undoing
	// assignments to enclosing variables. False (Java): (popvar x η(x) k).
	VarRestoresEnv bool
	// NullCallProceeds selects V11's paper reading (lockstep's earlier
	// default): Step applies Invoke itself with static lookup, also on a
	// null receiver. False (Java): Step hands the call to HeapRules.Invoke.
	NullCallProceeds bool
	// IfSymLiteralValues selects PRIMITIVES.md §3's If (sym) as written
	// together with RULES.md §1's literals-are-values: a branch that is
	// the literal true or false becomes a value at once, so the two
	// successors of (if t true else true) have one control and the
	// engine two paths for one control-flow sequence (C13; FINDINGS.md
	// D1). False (the fix): the value keeps the literal it came from as
	// part of its control (State.Origin) until the next step, so the
	// branches are two controls, as the two edges of the program's
	// control-flow graph are; no step is added.
	IfSymLiteralValues bool
	// Mutation is a deliberate error for mutation testing (mutation.go);
	// the zero value is none.
	Mutation Mutation
}

// ErrTerminal is returned by Step on a terminal state.
var ErrTerminal = errors.New("machine: step on a terminal state")

// Initial returns the initial state of RULES.md §2 for the program's entry.
func Initial(p *javalite.Program) *State {
	m := p.Entry
	s := &State{Prog: p, NextStack: 0, NextInput: 1, NextFresh: 2}
	s.Set(RNull, Single(LNull))
	s.Set(RUn, Single(LUn))
	rin0 := s.InitR()
	s0 := s.StackR()
	l0 := s.NewLoc(LocInfo{Class: m.Owner, Input: true, Depth: 0, Identity: rin0}, RUn)
	s.Set(rin0, Single(l0))
	s.Set(s0, Single(l0))
	s.Phi = smt.Neq(rin0, RNull)
	s.Env = newEnv(m)
	s.Env[javalite.SlotThis] = RefVal(s0)
	// Entry parameters are not input (RULES.md §2, PRIMITIVES.md §2): a
	// bool is true, an int 0, a reference null.
	for _, prm := range m.Params {
		s.Env[prm.Slot] = EntryParam(prm.T)
	}
	s.SetExpr(m.Body, nil)
	return s
}

// EntryParam is the value of an entry parameter of type t.
func EntryParam(t javalite.Type) Value {
	switch t.Kind {
	case javalite.KindBool:
		return VTrue
	case javalite.KindInt:
		return PrimVal(smt.Int(0))
	}
	return RefVal(RNull)
}

func newEnv(m *javalite.Method) []Value {
	env := make([]Value, m.NumSlots)
	for i := range env {
		env[i] = VUndef
	}
	return env
}

// newEnv is the package's newEnv allocated for s (from its Arena, if any).
func (s *State) newEnv(m *javalite.Method) []Value {
	env := s.newValues(m.NumSlots)
	for i := range env {
		env[i] = VUndef
	}
	return env
}

// bind returns η[slot ↦ v] without modifying η (environments are shared).
// A slot outside η is a state no well-typed program reaches under correct
// rules (a deliberately wrong common rule can make one: the mutant whose
// caller resumes in η_callee), so it is an error of the step, never a
// panic: the checker turns it into a verdict.
func (s *State) bind(env []Value, slot int, v Value) ([]Value, error) {
	if slot < 0 || slot >= len(env) {
		return nil, fmt.Errorf("machine: variable slot %d outside η (%d slots)", slot, len(env))
	}
	out := s.newValues(len(env))
	copy(out, env)
	out[slot] = v
	return out, nil
}

// Step applies the one rule whose redex the state has. The state belongs to
// Step: callers that still need it must Clone it first. Every successor has
// Steps one higher.
func Step(s *State, h HeapRules, opt Options) ([]Succ, error) {
	rule, succ, err := StepInPlace(s, h, opt)
	if err != nil || rule == "" {
		return succ, err
	}
	return []Succ{{S: s, Rule: rule}}, nil
}

// StepInPlace is Step without the successor list of a common rule: a
// common rule changes s in place and returns its name (and nil); a heap
// rule returns "" and the engine's successors, as Step does. Explorers
// that keep one state and undo its changes (gse.Explore) step through it
// without allocating a list per step; the rules applied are Step's.
func StepInPlace(s *State, h HeapRules, opt Options) (string, []Succ, error) {
	if s.Terminal() {
		return "", nil, ErrTerminal
	}
	s.Steps++
	if s.Mode == ModeExpr {
		rule, err := stepExpr(s, opt)
		return rule, nil, err
	}
	return stepValue(s, h, opt)
}

// heap is a heap rule's answer as stepValue's.
func heap(succ []Succ, err error) (string, []Succ, error) { return "", succ, err }

func one(_ *State, rule string) (string, []Succ, error) { return rule, nil, nil }

// stepExpr applies the rules whose redex is an expression.
func stepExpr(s *State, opt Options) (string, error) {
	k := s.K
	switch e := s.Expr.(type) {
	case *javalite.Var: // Rule: Variable lookup
		// A slot beyond η is unbound too: only a broken common rule (an
		// Invoke that resumes the caller in the callee's shorter
		// environment) gets here, and it is an error of the step, which
		// the checker reports, never a panic.
		if e.Slot >= len(s.Env) {
			return "", fmt.Errorf("%s: variable %s unbound", e.Pos(), e.Name)
		}
		v := s.Env[e.Slot]
		if v == VUndef {
			return "", fmt.Errorf("%s: variable %s unbound", e.Pos(), e.Name)
		}
		s.SetValue(v, k)
		return RuleVarLookup, nil
	case *javalite.IntLit: // Rule: Int
		// A step of its own (unlike true and false, which are control
		// literals): an int value is a slot, and two branches of an If
		// (sym) that end in different literals must not meet at one
		// control before they took a step apart.
		s.SetValue(PrimVal(smt.Int(e.Val)), k)
		return RuleInt, nil
	case *javalite.Binary: // Rule: Binary (l-operand eval)
		s.SetExpr(e.L, s.kont(Kont{Kind: KBinL, Expr: e, Next: k}))
		return RuleBinLEval, nil
	case *javalite.Assume: // Rule: Assume (eval)
		s.SetExpr(e.X, s.kont(Kont{Kind: KAssume, Expr: e, Next: k}))
		return RuleAssumeEval, nil
	case *javalite.Lit: // Rule: Null (true and false never reach here)
		s.SetValue(RefVal(RNull), k)
		return RuleNull, nil
	case *javalite.New: // Rule: New
		r := s.StackR()
		l := s.NewLoc(LocInfo{Class: e.Class}, RNull)
		if opt.Mutation.NewPrimSymbolic {
			// mutant: symbols (of an identity no input object has)
			// instead of Java's defaults
			for _, f := range e.Class.PrimFields {
				s.SetPrimField(l, f, InitialValue(Ref(1<<20+int(l)), f))
			}
		}
		s.Set(r, Single(l))
		s.SetValue(RefVal(r), k)
		return RuleNew, nil
	case *javalite.FieldAccess: // Rule: Field access (eval)
		s.SetExpr(e.X, s.kont(Kont{Kind: KField, Expr: e, Next: k}))
		return RuleFieldEval, nil
	case *javalite.FieldWrite: // Rule: Field write (eval)
		s.SetExpr(e.Value, s.kont(Kont{Kind: KWrite, Expr: e, Next: k}))
		return RuleWriteEval, nil
	case *javalite.Equals: // Rule: Equals (l-operand eval)
		s.SetExpr(e.L, s.kont(Kont{Kind: KEqL, Expr: e, Next: k}))
		return RuleEqLEval, nil
	case *javalite.If: // Rule: If (eval)
		s.SetExpr(e.Cond, s.kont(Kont{Kind: KIf, Expr: e, Next: k}))
		return RuleIfEval, nil
	case *javalite.VarDecl: // Rule: Var decl (eval)
		s.SetExpr(e.Init, s.kont(Kont{Kind: KVar, Expr: e, Next: k}))
		return RuleVarEval, nil
	case *javalite.Call: // Rule: Invoke (object eval)
		s.SetExpr(e.Recv, s.kont(Kont{Kind: KCallRecv, Expr: e, Next: k}))
		return RuleInvokeObj, nil
	case *javalite.Assign: // Rule: Assign (eval)
		s.SetExpr(e.Value, s.kont(Kont{Kind: KAssign, Expr: e, Next: k}))
		return RuleAssignEval, nil
	case *javalite.Begin: // Rule: Begin (first)
		next := 1
		if opt.Mutation.BeginFirstTwice {
			next = 0 // mutant: the first expression runs again
		}
		s.SetExpr(e.Exprs[0], s.kont(Kont{Kind: KBegin, Expr: e, Idx: next, Next: k}))
		return RuleBeginFirst, nil
	}
	return "", fmt.Errorf("machine: no rule for expression %T", s.Expr)
}

// stepValue applies the rules whose redex is a value and the top frame of k:
// a common rule returns its name, a heap rule "" and the engine's successors.
func stepValue(s *State, h HeapRules, opt Options) (string, []Succ, error) {
	v, f := s.Val, s.K
	k := f.Next
	switch f.Kind {
	case KField:
		return heap(h.FieldAccess(s, v.Ref(), f.Expr.(*javalite.FieldAccess), k))
	case KWrite:
		return heap(h.FieldWrite(s, v.Ref(), f.Expr.(*javalite.FieldWrite), k))
	case KEqL: // Rule: Equals (r-operand eval)
		eq := f.Expr.(*javalite.Equals)
		s.SetExpr(eq.R, s.kont(Kont{Kind: KEqR, Expr: eq, Val: v, Next: k}))
		return one(s, RuleEqREval)
	case KEqR:
		if v.IsBool() && f.Val.IsBool() { // Rule: Equals (bool)
			s.SetValue(BoolVal(v == f.Val), k)
			return one(s, RuleEqBool)
		}
		if v.IsPrim() { // Rule: Equals (prim)
			if !f.Val.IsPrim() || f.Val.Term().Sort() != v.Term().Sort() {
				return "", nil, fmt.Errorf("machine: %s = %s compares values of different sorts", f.Val, v)
			}
			s.SetValue(PrimVal(smt.EqT(f.Val.Term(), v.Term())), k)
			return one(s, RuleEqPrim)
		}
		return heap(h.EqualsRef(s, f.Val.Ref(), v.Ref(), f.Expr.(*javalite.Equals), k))
	case KIf:
		e := f.Expr.(*javalite.If)
		t := v.Term()
		if t == nil || t.Sort() != smt.SortBool {
			return "", nil, fmt.Errorf("machine: if on %s, not a bool", v)
		}
		// A data condition that folded to a constant takes its branch
		// as If (sym) would (SetBranch): whether a term folds depends on
		// the engine (GSE's α < α is false, the summary engine's
		// ite(φ, α, β) < α is not), the control of a branch must not.
		if t.IsTrue() { // Rule: If (true)
			s.enterBranch(e.Then, k, v, opt)
			return one(s, RuleIfTrue)
		}
		if t.IsFalse() { // Rule: If (false)
			s.enterBranch(e.Else, k, v, opt)
			return one(s, RuleIfFalse)
		}
		return heap(ifSym(s, h, t, e, k, opt))
	case KBinL: // Rule: Binary (r-operand eval)
		b := f.Expr.(*javalite.Binary)
		s.SetExpr(b.R, s.kont(Kont{Kind: KBinR, Expr: b, Val: v, Next: k}))
		return one(s, RuleBinREval)
	case KBinR: // Rule: Binary
		b := f.Expr.(*javalite.Binary)
		if err := ints(f.Val, v); err != nil {
			return "", nil, err
		}
		op := b.Op
		if op == javalite.OpLe && opt.Mutation.BinaryLeAsLt {
			op = javalite.OpLt // mutant: <= built as <
		}
		s.SetValue(PrimVal(binaryTerm(op, f.Val.Term(), v.Term())), k)
		return one(s, RuleBinary)
	case KAssume:
		if !v.IsPrim() || v.Term().Sort() != smt.SortBool {
			return "", nil, fmt.Errorf("machine: assume of %s, not a bool", v)
		}
		return heap(assume(s, h, v.Term(), k, opt))
	case KVar:
		d := f.Expr.(*javalite.VarDecl)
		saved := s.Env
		env, err := s.bind(s.Env, d.Slot, v)
		if err != nil {
			return "", nil, err
		}
		s.Env = env
		if opt.VarRestoresEnv {
			// Rule: Var decl (V10, paper reading): (pop η k).
			s.SetExpr(d.Body, s.kont(Kont{Kind: KPop, Env: saved, Next: k}))
			return one(s, RuleVar)
		}
		// Rule: Var decl (V10, Java reading): (popvar x η(x) k).
		s.SetExpr(d.Body, s.kont(Kont{Kind: KPopVar, Expr: d, Idx: d.Slot, Val: saved[d.Slot], Next: k}))
		return one(s, RuleVar)
	case KCallRecv:
		c := f.Expr.(*javalite.Call)
		if len(c.Args) == 0 {
			return invoke(s, h, v.Ref(), nil, c, k, opt)
		}
		// Rule: Invoke (arg eval): the first argument.
		s.SetExpr(c.Args[0], s.kont(Kont{Kind: KCallArg, Expr: c, Val: v, Idx: 1, Next: k}))
		return one(s, RuleInvokeArg)
	case KCallArg:
		c := f.Expr.(*javalite.Call)
		args := s.newValues(len(f.Env) + 1)
		copy(args, f.Env)
		args[len(f.Env)] = v
		if f.Idx < len(c.Args) {
			// Rule: Invoke (arg eval): the next argument, left to right.
			s.SetExpr(c.Args[f.Idx], s.kont(Kont{Kind: KCallArg, Expr: c, Val: f.Val, Env: args, Idx: f.Idx + 1, Next: k}))
			return one(s, RuleInvokeArg)
		}
		return invoke(s, h, f.Val.Ref(), args, c, k, opt)
	case KAssign: // Rule: Assign
		a := f.Expr.(*javalite.Assign)
		env, err := s.bind(s.Env, a.Slot, v)
		if err != nil {
			return "", nil, err
		}
		s.Env = env
		s.SetValue(v, k)
		return one(s, RuleAssign)
	case KBegin:
		b := f.Expr.(*javalite.Begin)
		if f.Idx == len(b.Exprs) { // Rule: Begin (last)
			s.SetValue(v, k)
			return one(s, RuleBeginLast)
		}
		// Rule: Begin (next)
		s.SetExpr(b.Exprs[f.Idx], s.kont(Kont{Kind: KBegin, Expr: b, Idx: f.Idx + 1, Next: k}))
		return one(s, RuleBeginNext)
	case KPop: // Rule: Pop
		s.Env = f.Env
		s.SetValue(v, k)
		return one(s, RulePop)
	case KPopVar: // Rule: Pop var (V10, Java reading)
		env, err := s.bind(s.Env, f.Idx, f.Val)
		if err != nil {
			return "", nil, err
		}
		s.Env = env
		s.SetValue(v, k)
		return one(s, RulePopVar)
	}
	return "", nil, fmt.Errorf("machine: no rule for frame kind %d", f.Kind)
}

// invoke applies rule Invoke once the receiver and every argument are
// values.
func invoke(s *State, h HeapRules, r Ref, args []Value, c *javalite.Call, k *Kont, opt Options) (string, []Succ, error) {
	if !opt.NullCallProceeds {
		// Rules: Invoke and Invoke′ (V11, Java reading): the engine
		// decides whether the receiver is null.
		return heap(h.Invoke(s, r, args, c, k))
	}
	// Rule: Invoke (V11, paper reading): static lookup, also on null.
	return EnterMethod(s, r, args, c, k, opt).Rule, nil, nil
}

// binaryTerm is the term of v0 ⊕ v1; the smt constructors fold literals.
func binaryTerm(op javalite.BinOp, a, b *smt.Formula) *smt.Formula {
	switch op {
	case javalite.OpAdd:
		return smt.Add(a, b)
	case javalite.OpSub:
		return smt.Sub(a, b)
	case javalite.OpLt:
		return smt.Lt(a, b)
	}
	return smt.Le(a, b)
}

// DataRules is implemented by an engine that applies the data rules If
// (sym) and Assume itself, instead of having the machine apply them on its
// PathCond: an engine process that implements them (package
// engine/extern). The rules' successors are the engine's answer, judged
// by the checker like any other step (lemma L12).
type DataRules interface {
	// IfSym: the state is (L R φ η t (if * e1 else e2 → k)), t a bool
	// term that is not literal. Each successor is a branch, made with
	// SetBranch.
	IfSym(s *State, t *smt.Formula, e *javalite.If, k *Kont, opt Options) ([]Succ, error)
	// Assume: the state is (L R φ η t (assume * → k)), t not literal. No
	// successor prunes the path: the engine leaves s pruned (SetPruned).
	Assume(s *State, t *smt.Formula, k *Kont) ([]Succ, error)
}

// ifSym applies If (sym): the engine's own (DataRules) or IfSymRule on
// its path condition.
func ifSym(s *State, h HeapRules, t *smt.Formula, e *javalite.If, k *Kont, opt Options) ([]Succ, error) {
	if dr, ok := h.(DataRules); ok {
		return dr.IfSym(s, t, e, k, opt)
	}
	pc, ok := h.(PathCond)
	if !ok {
		return nil, ErrNoData
	}
	return IfSymRule(s, pc, t, e, k, opt)
}

// IfSymRule is rule If (sym) on the path condition pc: t is not literal;
// the then branch under φ ∧ t when S(φ ∧ t), the else branch under φ ∧
// ¬t when S(φ ∧ ¬t); both may fire. It is the one new branching point
// (PRIMITIVES.md §3).
func IfSymRule(s *State, pc PathCond, t *smt.Formula, e *javalite.If, k *Kont, opt Options) ([]Succ, error) {
	yes, err := pc.Feasible(s, t)
	if err != nil {
		return nil, err
	}
	nt := smt.Not(t)
	no, err := pc.Feasible(s, nt)
	if err != nil {
		return nil, err
	}
	if yes && no && opt.Mutation.IfSymThenOnly {
		no = false // mutant: the else branch is lost when both are feasible
	}
	var out []Succ
	if yes {
		y := s
		if no {
			y = s.Clone()
		}
		pc.Strengthen(y, t)
		y.SetBranch(e.Then, k, opt)
		out = append(out, Succ{S: y, Rule: RuleIfSym})
	}
	if no {
		pc.Strengthen(s, nt)
		s.SetBranch(e.Else, k, opt)
		out = append(out, Succ{S: s, Rule: RuleIfSym})
	}
	return out, nil
}

// assume applies Assume: literal conditions here, the others by the
// engine's own rule (DataRules) or AssumeRule on its path condition.
func assume(s *State, h HeapRules, t *smt.Formula, k *Kont, opt Options) ([]Succ, error) {
	// Rule: Assume
	switch {
	case t.IsTrue():
		s.SetValue(VTrue, k)
		return []Succ{{S: s, Rule: RuleAssume}}, nil
	case t.IsFalse():
		s.SetPruned()
		return nil, nil
	}
	if dr, ok := h.(DataRules); ok {
		return dr.Assume(s, t, k)
	}
	pc, ok := h.(PathCond)
	if !ok {
		return nil, ErrNoData
	}
	if opt.Mutation.GSEAssumeNoStrengthen {
		pc = unrecorded{pc} // mutant: the assumption is tested, never recorded
	}
	return AssumeRule(s, pc, t, k)
}

// AssumeRule is rule Assume on the path condition pc for a term t that is
// not literal: the path goes on with the value true when S(φ ∧ t), and is
// pruned otherwise: no successor, and s is left in ModePruned so that an
// explorer counts a pruned end, never a path (PRIMITIVES.md §3).
func AssumeRule(s *State, pc PathCond, t *smt.Formula, k *Kont) ([]Succ, error) {
	yes, err := pc.Feasible(s, t)
	if err != nil {
		return nil, err
	}
	if !yes {
		s.SetPruned()
		return nil, nil
	}
	pc.Strengthen(s, t)
	s.SetValue(VTrue, k)
	return []Succ{{S: s, Rule: RuleAssume}}, nil
}

// unrecorded is a PathCond whose Strengthen records nothing: the mutant
// GSEAssumeNoStrengthen.
type unrecorded struct{ PathCond }

func (unrecorded) Strengthen(*State, *smt.Formula) {}

// ints is the premise of rule Binary: both operands are int terms. A
// deliberately wrong common rule (a mutant) can make a state that breaks
// it; that is an error of the step, which the checker reports, never a
// panic.
func ints(a, b Value) error {
	for _, v := range []Value{a, b} {
		if !v.IsTerm() || v.Term().Sort() != smt.SortInt {
			return fmt.Errorf("machine: arithmetic on %s, not an int", v)
		}
	}
	return nil
}

// enterBranch enters the branch an If with condition v takes: a control
// literal condition (every reference-only program) as it always did, a
// data condition as If (sym) does (SetBranch).
func (s *State) enterBranch(x javalite.Expr, k *Kont, v Value, opt Options) {
	if v.IsTerm() {
		s.SetBranch(x, k, opt)
		return
	}
	s.SetExpr(x, k)
}

// SetBranch is SetExpr for a branch of If (sym): a literal true or false
// becomes a value at once (RULES.md §1) that remembers the literal it came
// from (State.Origin) until the next step, unless the as-written reading
// is selected (Options.IfSymLiteralValues; FINDINGS.md D1).
func (s *State) SetBranch(x javalite.Expr, k *Kont, opt Options) {
	s.SetExpr(x, k)
	if lit, ok := x.(*javalite.Lit); ok && lit.Kind != javalite.LitNull && !opt.IfSymLiteralValues {
		s.Origin = lit
	}
}
