package extern

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Serve is the engine's side of the protocol for an engine written in Go:
// it reads requests from r and writes answers to w until r ends, applying
// the heap rules and the View of the engine build makes (for the variant,
// k and semantics of each load). hello is what the handshake says (its
// protocol is filled in). A Go engine run through exec: is the same engine
// as in-process, so Serve is what measures the protocol's own cost
// (docs/PERFORMANCE.md) and what tests the serialization both ways; it is
// also a way to run a Go engine in a process of its own.
func Serve(r io.Reader, w io.Writer, hello Hello, build func(variant string, cfg engine.Config) (engine.UnderTest, error)) error {
	solver, err := smt.NewSolver()
	if err != nil {
		return err
	}
	defer solver.Close()
	sv := &server{hello: hello, build: build, solver: solver}
	in := bufio.NewReaderSize(r, 1<<16)
	out := bufio.NewWriterSize(w, 1<<16)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			ans := sv.handle(line)
			b, merr := json.Marshal(ans)
			if merr != nil {
				return merr
			}
			out.Write(b)
			out.WriteByte('\n')
			if err := out.Flush(); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

type server struct {
	// hello is the engine's handshake; its Protocol is the version
	// negotiated (the newest both speak), Data only in version 2.
	hello  Hello
	build  func(string, engine.Config) (engine.UnderTest, error)
	solver *smt.Solver
	eng    engine.UnderTest
	prog   *javalite.Program
	table  []javalite.Expr
}

type request struct {
	ID        *int64          `json:"id"`
	Op        string          `json:"op"`
	Protocol  int             `json:"protocol"`
	Program   *jProgram       `json:"program"`
	Variant   string          `json:"variant"`
	K         int             `json:"k"`
	Semantics map[string]bool `json:"semantics"`
	State     *jState         `json:"state"`
	Ref       int32           `json:"ref"`
	Var       int             `json:"var"`
	Left      int32           `json:"left"`
	Right     int32           `json:"right"`
	Receiver  int32           `json:"receiver"`
	Args      []jValue        `json:"args"`
	Versions  []int           `json:"versions"`
	Cond      *jFormula       `json:"cond"`
	ThenSat   bool            `json:"then_sat"`
	ElseSat   bool            `json:"else_sat"`
	Sat       bool            `json:"sat"`
}

func (sv *server) handle(line []byte) map[string]any {
	req, err := parseRequest(line)
	if err != nil {
		return map[string]any{"id": nil, "error": errAnswer{Kind: "internal", Message: "request is not valid: " + err.Error()}}
	}
	ans, err := sv.answer(req)
	if err != nil {
		kind := "internal"
		if _, rule := err.(*RuleError); rule {
			kind = "rule"
		}
		ans = map[string]any{"error": errAnswer{Kind: kind, Message: err.Error()}}
	}
	ans["id"] = req.ID
	return ans
}

func (sv *server) answer(req *request) (map[string]any, error) {
	switch req.Op {
	case "hello":
		// The newest version both sides speak: lockstep's "versions"
		// (version 1 sends only "protocol").
		offered := append([]int{req.Protocol}, req.Versions...)
		v := 0
		for _, x := range Versions {
			if slices.Contains(offered, x) {
				v = x
			}
		}
		if v == 0 {
			return nil, fmt.Errorf("protocol %v not spoken (%v are)", offered, Versions)
		}
		sv.hello.Protocol = v
		h := sv.hello
		if v < 2 {
			h.Data, h.DataRules = false, nil
		}
		b, _ := json.Marshal(h)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		return m, nil
	case "load":
		if req.Program == nil {
			return nil, fmt.Errorf("load without a program")
		}
		p, err := javalite.ParseAndCheck(req.Program.File, []byte(req.Program.Source))
		if err != nil {
			return nil, fmt.Errorf("the program's source: %v", err)
		}
		if p.NumExpr != len(req.Program.Exprs) {
			return nil, fmt.Errorf("the program's source has %d expressions, its table %d", p.NumExpr, len(req.Program.Exprs))
		}
		cfg := engine.Config{K: req.K, Solver: sv.solver, Machine: machine.Options{
			InvokeExtendsEnv: req.Semantics["invoke_extends_env"],
			VarRestoresEnv:   req.Semantics["var_restores_env"],
			NullCallProceeds: req.Semantics["null_call_proceeds"],
		}}
		eng, err := sv.build(req.Variant, cfg)
		if err != nil {
			return nil, err
		}
		sv.eng, sv.prog, sv.table = eng, p, exprTable(p)
		return map[string]any{"ok": true}, nil
	}
	if sv.eng == nil {
		return nil, fmt.Errorf("%s before load", req.Op)
	}
	data := sv.hello.HasData()
	d := &decoder{p: sv.prog, table: sv.table, data: data}
	s, err := d.state(req.State, nil, false)
	if err != nil {
		return nil, fmt.Errorf("the request's state: %v", err)
	}
	if req.Op == "view" {
		v, err := sv.eng.View(s)
		if err != nil {
			return nil, &RuleError{Msg: err.Error()}
		}
		return map[string]any{"state": encState(v)}, nil
	}
	if s.Mode != machine.ModeValue || s.K == nil {
		return nil, fmt.Errorf("%s on a state whose e is no value with a frame", req.Op)
	}
	f, val := s.K, s.Val
	var succ []machine.Succ
	switch {
	case req.Op == "field_access" && f.Kind == machine.KField:
		succ, err = sv.eng.FieldAccess(s, machine.Ref(req.Ref), f.Expr.(*javalite.FieldAccess), f.Next)
	case req.Op == "field_write" && f.Kind == machine.KWrite:
		r := machine.Ref(req.Ref)
		if !val.IsRef() {
			r = val.Ref() // a primitive write: what the machine passes
		}
		succ, err = sv.eng.FieldWrite(s, r, f.Expr.(*javalite.FieldWrite), f.Next)
	case req.Op == "equals_ref" && f.Kind == machine.KEqR:
		succ, err = sv.eng.EqualsRef(s, machine.Ref(req.Left), machine.Ref(req.Right), f.Expr.(*javalite.Equals), f.Next)
	case data && req.Op == DataRuleIfSym && f.Kind == machine.KIf && val.IsTerm():
		succ, err = sv.ifSym(s, val.Term(), f.Expr.(*javalite.If), f.Next)
	case data && req.Op == DataRuleAssume && f.Kind == machine.KAssume && val.IsTerm():
		succ, err = sv.assume(s, val.Term(), f.Next)
	case req.Op == "invoke" && (f.Kind == machine.KCallArg || f.Kind == machine.KCallRecv):
		// The arguments: those evaluated before (the frame's env) and the
		// value in e; a call without arguments has the receiver in e.
		c := f.Expr.(*javalite.Call)
		recv, args := f.Val.Ref(), append(append([]machine.Value(nil), f.Env...), s.Val)
		if f.Kind == machine.KCallRecv {
			if len(c.Args) != 0 {
				return nil, fmt.Errorf("invoke before the arguments are evaluated")
			}
			recv, args = s.Val.Ref(), nil
		}
		succ, err = sv.eng.Invoke(s, recv, args, c, f.Next)
	default:
		return nil, fmt.Errorf("request %s on a state whose frame is %s", req.Op, frameKinds[f.Kind])
	}
	if err != nil {
		return nil, &RuleError{Msg: err.Error()}
	}
	out := make([]map[string]any, len(succ))
	for i, sc := range succ {
		if !data && hasData(sc.S) {
			return nil, fmt.Errorf("a successor has primitive data, which protocol version %d without data does not carry", sv.hello.Protocol)
		}
		t, enter := sc.S, false
		if req.Op == "invoke" {
			t, enter = entered(t, val, f)
		}
		js := encState(t)
		if req.Op == DataRuleIfSym {
			branchControl(js, t, f.Expr.(*javalite.If))
		}
		m := map[string]any{"rule": sc.Rule, "state": js}
		if enter {
			m["enter"] = true
		}
		out[i] = m
	}
	return map[string]any{"successors": out}, nil
}

// ifSym applies the served engine's If (sym): its own (machine.DataRules)
// or the machine's rule on its path condition, as in-process.
func (sv *server) ifSym(s *machine.State, t *smt.Formula, e *javalite.If, k *machine.Kont) ([]machine.Succ, error) {
	opt := sv.eng.Options()
	if dr, ok := sv.eng.(machine.DataRules); ok {
		return dr.IfSym(s, t, e, k, opt)
	}
	pc, ok := sv.eng.(machine.PathCond)
	if !ok {
		return nil, machine.ErrNoData
	}
	return machine.IfSymRule(s, pc, t, e, k, opt)
}

// assume applies the served engine's Assume, as ifSym If (sym).
func (sv *server) assume(s *machine.State, t *smt.Formula, k *machine.Kont) ([]machine.Succ, error) {
	if dr, ok := sv.eng.(machine.DataRules); ok {
		return dr.Assume(s, t, k)
	}
	pc, ok := sv.eng.(machine.PathCond)
	if !ok {
		return nil, machine.ErrNoData
	}
	return machine.AssumeRule(s, pc, t, k)
}

// branchControl writes the control of a branch of If (sym) as the
// protocol has it, e the branch's expression: a branch that is a literal
// is a value in the machine at once (SetBranch, State.Origin).
func branchControl(js *jState, t *machine.State, e *javalite.If) {
	if t.Mode != machine.ModeValue || !t.Val.IsBool() {
		return
	}
	x := t.Origin
	if x == nil {
		for _, b := range []javalite.Expr{e.Then, e.Else} {
			if lit, ok := b.(*javalite.Lit); ok && lit.Kind != javalite.LitNull && (lit.Kind == javalite.LitTrue) == (t.Val == machine.VTrue) {
				x = b
				break
			}
		}
	}
	if x != nil {
		js.Mode, js.Expr, js.Val = "expr", exprID(x), nil
	}
}

// entered turns a successor of a Go engine's Invoke that entered the
// method (machine.EnterMethod: the callee's η, its body, (pop η k)) back
// into the state before the entry, which the protocol answers with
// "enter": lockstep enters the method itself.
func entered(t *machine.State, v machine.Value, call *machine.Kont) (*machine.State, bool) {
	if t.Mode != machine.ModeExpr || t.K == nil || t.K.Kind != machine.KPop {
		return t, false
	}
	pre := t.Clone()
	pre.Env = t.K.Env
	pre.SetValue(v, call)
	return pre, true
}

// ServeRegistered serves the registered engine spec names (its variants
// and mutants as its handshake's) on r and w: a Go engine of the registry
// through the protocol, named "go:" and its name. The caller links the
// engines (engine/builtin).
func ServeRegistered(spec string, r io.Reader, w io.Writer) error {
	info, _, err := engine.Lookup(spec)
	if err != nil {
		return err
	}
	solver, err := smt.NewSolver()
	if err != nil {
		return err
	}
	eut, err := info.New(info.Default, engine.Config{K: 2, Solver: solver})
	solver.Close()
	if err != nil {
		return err
	}
	_, id := eut.(engine.IdentityView)
	h := Hello{Name: "go:" + info.Name, Version: "1", Doc: info.Doc, Shape: eut.Shape().String(), IdentityView: id, Default: info.Default,
		Data: info.Data}
	if info.Data {
		// The Go engine applies If (sym) and Assume itself, so that the
		// requests are served both ways.
		h.DataRules = []string{DataRuleIfSym, DataRuleAssume}
	}
	if info.Variants != nil {
		for _, v := range info.Variants() {
			h.Variants = append(h.Variants, HelloVariant{Name: v.Name, Doc: v.Doc})
		}
	}
	if h.Default != "" && len(h.Variants) == 0 {
		h.Variants = []HelloVariant{{Name: h.Default}}
	}
	if m := info.Mutants; m != nil {
		h.Mutants = &HelloMutants{Base: m.Base, K: m.K, Steps: m.Steps}
		for _, x := range m.List() {
			h.Mutants.List = append(h.Mutants.List, struct {
				Name       string `json:"name"`
				Doc        string `json:"doc"`
				Equivalent string `json:"equivalent,omitempty"`
			}{x.Name, x.Doc, x.Equivalent})
		}
	}
	return Serve(r, w, h, info.New)
}
