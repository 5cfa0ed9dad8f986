package extern

// wire.go is the serialization of the protocol (docs/PROTOCOL.md): the
// program, formulas, values, states, and their validation (parse.go only
// reads the JSON text of answers into the types here, data fields
// included). Decoding validates everything an engine process sends before
// it becomes a machine.State, so that a wrong answer is a failure of the
// engine (malformed), never a panic of the machine. Primitive data
// (PRIMITIVES.md §2, protocol version 2): values {"term": T}, term nodes
// int/sym/add/sub/lt/le/eqt/ite in formula trees, the heap's "prim" rows,
// the frames of Binary and Assume. A term's sort is checked on decoding
// (the smt constructors panic on a sort mismatch, a malformed answer must
// not), and so is every input symbol α(r, f): f a primitive field of that
// sort, r an input reference, and f a field of the class of the location
// whose identity r is. An engine that speaks version 1 is sent no data
// and has data in an answer refused (decoder.data).

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// jFormula is a formula tree. Reference atoms are {"op":"eq","refs":[a,b]};
// not/and/or have "args"; true/false have nothing. Data nodes (reserved):
// {"op":"int","n":N}, {"op":"sym","ref":R,"field":F,"sort":"int"|"bool"},
// add/sub/lt/le/eqt with two args, ite with three.
type jFormula struct {
	Op    string      `json:"op"`
	Refs  []int32     `json:"refs,omitempty"`
	Args  []*jFormula `json:"args,omitempty"`
	N     *int64      `json:"n,omitempty"`
	Ref   *int32      `json:"ref,omitempty"`
	Field *int        `json:"field,omitempty"`
	Sort  string      `json:"sort,omitempty"`
	I     *int        `json:"i,omitempty"`
}

// jValue is one of {"ref":R}, {"bool":B}, {"undef":true}, {"term":F}.
type jValue struct {
	Ref   *int32    `json:"ref,omitempty"`
	Bool  *bool     `json:"bool,omitempty"`
	Undef bool      `json:"undef,omitempty"`
	Term  *jFormula `json:"term,omitempty"`
}

type jLoc struct {
	Class      string    `json:"class"`
	Input      bool      `json:"input"`
	Depth      int       `json:"depth"`
	Identity   int32     `json:"identity"`
	Exists     *jFormula `json:"exists"`
	Unresolved bool      `json:"unresolved,omitempty"`
	MayBeNull  bool      `json:"may_be_null,omitempty"`
	Symbolic   bool      `json:"symbolic,omitempty"`
}

type jEntry struct {
	Guard *jFormula `json:"guard"`
	Loc   int32     `json:"loc"`
}

type jBinding struct {
	Ref int32    `json:"ref"`
	GVS []jEntry `json:"gvs"`
}

type jFrame struct {
	Kind string   `json:"kind"`
	Expr *int     `json:"expr,omitempty"`
	Val  *jValue  `json:"val,omitempty"`
	Idx  int      `json:"idx"`
	Env  []jValue `json:"env,omitempty"`
}

type jNext struct {
	Stack int32 `json:"stack"`
	Input int32 `json:"input"`
	Fresh int32 `json:"fresh"`
}

// jState is (L R φ η e k) with the bookkeeping of machine.State.
type jState struct {
	Locs     []jLoc        `json:"locs"`
	L        []jBinding    `json:"L"`
	R        [][]int32     `json:"R"`
	Prim     [][]*jFormula `json:"prim,omitempty"`
	Formulas []*jFormula   `json:"formulas,omitempty"`
	Phi      *jFormula     `json:"phi"`
	Env      []jValue      `json:"env"`
	Mode     string        `json:"mode"`
	Expr     *int          `json:"expr,omitempty"`
	Val      *jValue       `json:"val,omitempty"`
	K        []jFrame      `json:"k"`
	Next     jNext         `json:"next"`
	Steps    int           `json:"steps"`
}

var frameKinds = [...]string{
	machine.KField:    "field",
	machine.KWrite:    "write",
	machine.KEqL:      "eq_l",
	machine.KEqR:      "eq_r",
	machine.KIf:       "if",
	machine.KVar:      "var",
	machine.KCallRecv: "call_recv",
	machine.KCallArg:  "call_arg",
	machine.KAssign:   "assign",
	machine.KBegin:    "begin",
	machine.KPop:      "pop",
	machine.KPopVar:   "popvar",
	machine.KBinL:     "bin_l",
	machine.KBinR:     "bin_r",
	machine.KAssume:   "assume",
}

// frameHasVal: the frames that hold a value (val).
func frameHasVal(k machine.KKind) bool {
	return k == machine.KEqR || k == machine.KCallArg || k == machine.KPopVar || k == machine.KBinR
}

var termOps = map[smt.Op]string{smt.OpAdd: "add", smt.OpSub: "sub", smt.OpLt: "lt", smt.OpLe: "le", smt.OpEqT: "eqt", smt.OpIte: "ite"}

var modes = [...]string{machine.ModeExpr: "expr", machine.ModeValue: "value", machine.ModeError: "error"}

// ---- encoding ----

// formulas encodes the formulas of one state: every compound node once,
// in the state's table "formulas" (children before parents), referred to
// as {"op":"formula","i":N}; atoms and constants inline. Guards of a heap
// summary share most of their subformulas, so trees written out in full
// grow with the number of references to a node instead of the nodes.
type formulas struct {
	index map[*smt.Formula]int
	table []*jFormula
	// inline writes compound nodes as trees, for a formula outside a
	// state (a request's cond, an invoke's args).
	inline bool
}

func (fs *formulas) enc(f *smt.Formula) *jFormula {
	switch f.Op() {
	case smt.OpTrue:
		return &jFormula{Op: "true"}
	case smt.OpFalse:
		return &jFormula{Op: "false"}
	case smt.OpEq:
		a, b := f.Atom()
		return &jFormula{Op: "eq", Refs: []int32{int32(a), int32(b)}}
	case smt.OpInt:
		n, _ := f.IntValue()
		return &jFormula{Op: "int", N: &n}
	case smt.OpSym:
		r, field, _ := f.SymOf()
		ref := int32(r)
		return &jFormula{Op: "sym", Ref: &ref, Field: &field, Sort: f.Sort().String()}
	}
	if i, ok := fs.index[f]; ok && !fs.inline {
		return &jFormula{Op: "formula", I: &i}
	}
	j := &jFormula{}
	switch f.Op() {
	case smt.OpNot:
		j.Op = "not"
	case smt.OpAnd:
		j.Op = "and"
	case smt.OpOr:
		j.Op = "or"
	default:
		op, ok := termOps[f.Op()]
		if !ok {
			panic(fmt.Sprintf("extern: formula operator %v has no encoding", f.Op()))
		}
		j.Op = op
	}
	for _, k := range f.Kids() {
		j.Args = append(j.Args, fs.enc(k))
	}
	if fs.inline {
		return j
	}
	i := len(fs.table)
	fs.table = append(fs.table, j)
	if fs.index == nil {
		fs.index = map[*smt.Formula]int{}
	}
	fs.index[f] = i
	return &jFormula{Op: "formula", I: &i}
}

func (fs *formulas) value(v machine.Value) jValue {
	switch {
	case v == machine.VUndef:
		return jValue{Undef: true}
	case v.IsBool():
		b := v == machine.VTrue
		return jValue{Bool: &b}
	case v.IsTerm():
		return jValue{Term: fs.enc(v.Term())}
	}
	r := int32(v.Ref())
	return jValue{Ref: &r}
}

func (fs *formulas) values(vs []machine.Value) []jValue {
	out := make([]jValue, len(vs))
	for i, v := range vs {
		out[i] = fs.value(v)
	}
	return out
}

// encValues encodes values outside a state (an invoke's args): terms as
// trees.
func encValues(vs []machine.Value) []jValue {
	return (&formulas{inline: true}).values(vs)
}

// encTerm encodes a term outside a state (the cond of if_sym and assume)
// as a tree.
func encTerm(t *smt.Formula) *jFormula {
	return (&formulas{inline: true}).enc(t)
}

func exprID(e javalite.Expr) *int {
	if e == nil {
		return nil
	}
	id := e.ID()
	return &id
}

// encState serializes s; φ is the whole path condition (Phi and Facts).
func encState(s *machine.State) *jState {
	fs := &formulas{}
	encFormula := fs.enc
	j := &jState{
		Phi:   encFormula(s.PathCondition()),
		Env:   fs.values(s.Env),
		Mode:  modes[s.Mode],
		Next:  jNext{Stack: int32(s.NextStack), Input: int32(s.NextInput), Fresh: int32(s.NextFresh)},
		Steps: s.Steps,
		Locs:  make([]jLoc, len(s.Locs)),
		L:     []jBinding{},
		R:     make([][]int32, len(s.Locs)),
		K:     []jFrame{},
	}
	for i, li := range s.Locs {
		j.Locs[i] = jLoc{Class: li.Class.Name, Input: li.Input, Depth: li.Depth, Identity: int32(li.Identity),
			Exists: encFormula(li.Exists), Unresolved: li.Unresolved, MayBeNull: li.MayBeNull, Symbolic: li.Symbolic}
		nf := s.NumFields()
		row := make([]int32, nf)
		for f := 0; f < nf; f++ {
			row[f] = int32(s.R[i*nf+f])
		}
		j.R[i] = row
		if s.Prim != nil {
			prow := make([]*jFormula, nf)
			for f := 0; f < nf; f++ {
				if t := s.PrimField(machine.Loc(i), s.Prog.Fields[f]); t != nil {
					prow[f] = encFormula(t)
				}
			}
			j.Prim = append(j.Prim, prow)
		}
	}
	for i, g := range s.L {
		if g == nil {
			continue
		}
		b := jBinding{Ref: int32(i - 2), GVS: make([]jEntry, len(g))}
		for n, e := range g {
			b.GVS[n] = jEntry{Guard: encFormula(e.Guard), Loc: int32(e.Loc)}
		}
		j.L = append(j.L, b)
	}
	switch s.Mode {
	case machine.ModeExpr:
		j.Expr = exprID(s.Expr)
	case machine.ModeValue:
		v := fs.value(s.Val)
		j.Val = &v
	}
	for k := s.K; k != nil; k = k.Next {
		fr := jFrame{Kind: frameKinds[k.Kind], Expr: exprID(k.Expr), Idx: k.Idx}
		if frameHasVal(k.Kind) {
			v := fs.value(k.Val)
			fr.Val = &v
		}
		if k.Kind == machine.KPop || k.Kind == machine.KCallArg {
			fr.Env = fs.values(k.Env)
		}
		j.K = append(j.K, fr)
	}
	j.Formulas = fs.table
	return j
}

// ---- the program ----

type jProgram struct {
	File    string   `json:"file"`
	Source  string   `json:"source"`
	Entry   jEntryPt `json:"entry"`
	Classes []jClass `json:"classes"`
	Fields  []jField `json:"fields"`
	Exprs   []jExpr  `json:"exprs"`
}

type jEntryPt struct {
	Class  string `json:"class"`
	Method string `json:"method"`
}

type jClass struct {
	Name    string    `json:"name"`
	Fields  []int     `json:"fields"`
	Methods []jMethod `json:"methods"`
}

type jMethod struct {
	Name      string   `json:"name"`
	Ret       string   `json:"ret"`
	ParamType string   `json:"param_type,omitempty"` // the one parameter of a one-parameter method (protocol 1)
	Param     string   `json:"param,omitempty"`
	Params    []jParam `json:"params"` // every parameter, in order (slots 1..n)
	NumSlots  int      `json:"num_slots"`
	Body      int      `json:"body"`
}

type jParam struct {
	Type string `json:"type"`
	Name string `json:"name"`
	Slot int    `json:"slot"`
}

type jField struct {
	ID    int    `json:"id"`
	Owner string `json:"owner"`
	Name  string `json:"name"`
	Type  string `json:"type"`
}

// jExpr is one expression of the program by ID: its kind, its operands'
// IDs and what the rules need (the field, the variable slot, the method).
type jExpr struct {
	ID     int    `json:"id"`
	Kind   string `json:"kind"`
	Pos    string `json:"pos"`
	Type   string `json:"type"`
	Kids   []int  `json:"kids,omitempty"`
	Field  *int   `json:"field,omitempty"`
	Slot   *int   `json:"slot,omitempty"`
	Name   string `json:"name,omitempty"`
	Method string `json:"method,omitempty"`
	N      *int64 `json:"n,omitempty"`
}

// exprTable returns the program's expressions indexed by ID.
func exprTable(p *javalite.Program) []javalite.Expr {
	out := make([]javalite.Expr, p.NumExpr)
	var walk func(e javalite.Expr)
	walk = func(e javalite.Expr) {
		if e == nil {
			return
		}
		if id := e.ID(); id >= 0 && id < len(out) {
			out[id] = e
		}
		for _, k := range javalite.Children(e) {
			walk(k)
		}
	}
	for _, c := range p.Classes {
		for _, m := range c.Methods {
			walk(m.Body)
		}
	}
	return out
}

func encProgram(p *javalite.Program, table []javalite.Expr) *jProgram {
	j := &jProgram{File: p.File, Source: javalite.Print(p), Entry: jEntryPt{Class: p.EntryClass, Method: p.EntryMethod},
		Classes: []jClass{}, Fields: []jField{}, Exprs: []jExpr{}}
	for _, c := range p.Classes {
		jc := jClass{Name: c.Name, Fields: []int{}, Methods: []jMethod{}}
		for _, f := range c.Fields {
			jc.Fields = append(jc.Fields, f.ID)
		}
		for _, m := range c.Methods {
			jm := jMethod{Name: m.Name, Ret: m.Ret.Name, NumSlots: m.NumSlots, Body: m.Body.ID(), Params: []jParam{}}
			if len(m.Params) == 1 {
				jm.ParamType, jm.Param = m.Params[0].Type.Name, m.Params[0].Name
			}
			for _, prm := range m.Params {
				jm.Params = append(jm.Params, jParam{Type: prm.Type.Name, Name: prm.Name, Slot: prm.Slot})
			}
			jc.Methods = append(jc.Methods, jm)
		}
		j.Classes = append(j.Classes, jc)
	}
	for _, f := range p.Fields {
		j.Fields = append(j.Fields, jField{ID: f.ID, Owner: f.Owner.Name, Name: f.Name, Type: f.Type.Name})
	}
	for _, e := range table {
		if e == nil {
			continue
		}
		je := jExpr{ID: e.ID(), Pos: e.Pos().String(), Type: e.Type().String()}
		for _, k := range javalite.Children(e) {
			je.Kids = append(je.Kids, k.ID())
		}
		slot := func(n int) *int { return &n }
		switch e := e.(type) {
		case *javalite.Var:
			je.Kind, je.Name, je.Slot = "var", e.Name, slot(e.Slot)
		case *javalite.Lit:
			je.Kind, je.Name = "lit", e.Kind.String()
		case *javalite.New:
			je.Kind, je.Name = "new", e.ClassName
		case *javalite.FieldAccess:
			je.Kind, je.Name, je.Field = "field_access", e.FieldName, slot(e.Field.ID)
		case *javalite.FieldWrite:
			je.Kind, je.Name, je.Field, je.Slot = "field_write", e.FieldName, slot(e.Field.ID), slot(e.Slot)
		case *javalite.Equals:
			je.Kind = "equals"
		case *javalite.If:
			je.Kind = "if"
		case *javalite.VarDecl:
			je.Kind, je.Name, je.Slot = "var_decl", e.Name, slot(e.Slot)
		case *javalite.Call:
			je.Kind, je.Name, je.Method = "call", e.MethodName, e.Method.Owner.Name+"."+e.Method.Name
		case *javalite.Assign:
			je.Kind, je.Name, je.Slot = "assign", e.VarName, slot(e.Slot)
		case *javalite.Begin:
			je.Kind = "begin"
		case *javalite.IntLit:
			n := e.Val
			je.Kind, je.N = "int_lit", &n
		case *javalite.Binary:
			je.Kind, je.Name = "binary", e.Op.String()
		case *javalite.Assume:
			je.Kind = "assume"
		}
		j.Exprs = append(j.Exprs, je)
	}
	return j
}

// ---- decoding ----

// maxRef bounds the references a state may use (L is a slice indexed by
// reference): a larger one is malformed, not an allocation of gigabytes.
const maxRef = 1 << 22

type decoder struct {
	p     *javalite.Program
	table []javalite.Expr
	nlocs int
	// shared are the decoded entries of the state's table "formulas".
	shared []*smt.Formula
	// data: primitive data is allowed (protocol version 2 with data).
	data bool
	// identity maps the identity reference of each input location of the
	// state being decoded to its class (the input symbols' check).
	identity map[int32]*javalite.Class
}

func (d *decoder) ref(r int32) (machine.Ref, error) {
	if r < int32(machine.RUn) || r > maxRef {
		return 0, fmt.Errorf("reference %d out of range", r)
	}
	return machine.Ref(r), nil
}

func (d *decoder) loc(l int32) (machine.Loc, error) {
	if l != int32(machine.LNull) && l != int32(machine.LUn) && (l < 0 || int(l) >= d.nlocs) {
		return 0, fmt.Errorf("location %d out of range (%d locations)", l, d.nlocs)
	}
	return machine.Loc(l), nil
}

func (d *decoder) formula(j *jFormula) (*smt.Formula, error) {
	if j == nil {
		return nil, fmt.Errorf("missing formula")
	}
	switch j.Op {
	case "true":
		return smt.True(), nil
	case "false":
		return smt.False(), nil
	case "eq":
		if len(j.Refs) != 2 {
			return nil, fmt.Errorf("eq needs two refs, has %d", len(j.Refs))
		}
		a, err := d.ref(j.Refs[0])
		if err != nil {
			return nil, err
		}
		b, err := d.ref(j.Refs[1])
		if err != nil {
			return nil, err
		}
		if a == machine.RUn || b == machine.RUn {
			return nil, fmt.Errorf("r_un in a formula")
		}
		return smt.Eq(a, b), nil
	case "not", "and", "or":
		var args []*smt.Formula
		for _, a := range j.Args {
			f, err := d.boolean(a)
			if err != nil {
				return nil, err
			}
			args = append(args, f)
		}
		switch {
		case j.Op == "not" && len(args) == 1:
			return smt.Not(args[0]), nil
		case j.Op == "and":
			return smt.And(args...), nil
		case j.Op == "or":
			return smt.Or(args...), nil
		}
		return nil, fmt.Errorf("not needs one arg, has %d", len(args))
	case "formula":
		if j.I == nil || *j.I < 0 || *j.I >= len(d.shared) {
			return nil, fmt.Errorf("formula reference %v outside the table's %d entries before it", j.I, len(d.shared))
		}
		return d.shared[*j.I], nil
	case "int", "sym", "add", "sub", "lt", "le", "eqt", "ite":
		if !d.data {
			return nil, fmt.Errorf("formula node %q: primitive data, which this engine's protocol (version 1, or no \"data\" in its handshake) does not carry", j.Op)
		}
		return d.term(j)
	}
	return nil, fmt.Errorf("unknown formula node %q", j.Op)
}

// boolean decodes a formula and checks that it is one (of sort bool).
func (d *decoder) boolean(j *jFormula) (*smt.Formula, error) {
	f, err := d.formula(j)
	if err == nil && f.Sort() != smt.SortBool {
		return nil, fmt.Errorf("an int term %s where a formula belongs", smt.Short(f))
	}
	return f, err
}

// term decodes a term node (PRIMITIVES.md §2), checking every operand's
// sort before the smt constructor sees it.
func (d *decoder) term(j *jFormula) (*smt.Formula, error) {
	switch j.Op {
	case "int":
		if j.N == nil {
			return nil, fmt.Errorf("int without n")
		}
		return smt.Int(*j.N), nil
	case "sym":
		if j.Ref == nil || j.Field == nil {
			return nil, fmt.Errorf("sym needs ref and field")
		}
		r, f := *j.Ref, *j.Field
		if r < 1 || r > maxRef || r%3 != 1 {
			return nil, fmt.Errorf("sym: %d is not an input reference", r)
		}
		if f < 0 || f >= len(d.p.Fields) || !d.p.Fields[f].Type.IsPrim() {
			return nil, fmt.Errorf("sym: field %d is not a primitive field", f)
		}
		fld := d.p.Fields[f]
		sort := machine.Sort(fld.T)
		if j.Sort != sort.String() {
			return nil, fmt.Errorf("sym: field %s.%s has sort %s, not %q", fld.Owner.Name, fld.Name, sort, j.Sort)
		}
		if c, ok := d.identity[r]; ok && c != fld.Owner {
			return nil, fmt.Errorf("sym: the input location with identity %d is a %s, which has no field %s.%s", r, c.Name, fld.Owner.Name, fld.Name)
		}
		return smt.Sym(machine.Ref(r), f, sort), nil
	}
	args := make([]*smt.Formula, len(j.Args))
	for i, a := range j.Args {
		f, err := d.formula(a)
		if err != nil {
			return nil, err
		}
		args[i] = f
	}
	want := 2
	if j.Op == "ite" {
		want = 3
	}
	if len(args) != want {
		return nil, fmt.Errorf("%s needs %d args, has %d", j.Op, want, len(args))
	}
	ints := func() error {
		for _, a := range args {
			if a.Sort() != smt.SortInt {
				return fmt.Errorf("%s of a bool operand %s", j.Op, smt.Short(a))
			}
		}
		return nil
	}
	switch j.Op {
	case "add", "sub", "lt", "le":
		if err := ints(); err != nil {
			return nil, err
		}
		switch j.Op {
		case "add":
			return smt.Add(args[0], args[1]), nil
		case "sub":
			return smt.Sub(args[0], args[1]), nil
		case "lt":
			return smt.Lt(args[0], args[1]), nil
		}
		return smt.Le(args[0], args[1]), nil
	case "eqt":
		if args[0].Sort() != args[1].Sort() {
			return nil, fmt.Errorf("eqt between an %s and a %s term", args[0].Sort(), args[1].Sort())
		}
		return smt.EqT(args[0], args[1]), nil
	}
	if args[0].Sort() != smt.SortBool || args[1].Sort() != args[2].Sort() {
		return nil, fmt.Errorf("ite needs a formula and two terms of one sort")
	}
	return smt.Ite(args[0], args[1], args[2]), nil
}

func (d *decoder) value(j *jValue) (machine.Value, error) {
	if j == nil {
		return machine.Value{}, fmt.Errorf("missing value")
	}
	n := 0
	for _, set := range []bool{j.Ref != nil, j.Bool != nil, j.Undef, j.Term != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return machine.Value{}, fmt.Errorf("a value is exactly one of ref, bool, undef, term")
	}
	switch {
	case j.Ref != nil:
		r, err := d.ref(*j.Ref)
		if err != nil {
			return machine.Value{}, err
		}
		return machine.RefVal(r), nil
	case j.Bool != nil:
		return machine.BoolVal(*j.Bool), nil
	case j.Undef:
		return machine.VUndef, nil
	}
	if !d.data {
		return machine.Value{}, fmt.Errorf("a term value: primitive data, which this engine's protocol (version 1, or no \"data\" in its handshake) does not carry")
	}
	t, err := d.formula(j.Term)
	if err != nil {
		return machine.Value{}, err
	}
	return machine.PrimVal(t), nil
}

func (d *decoder) values(js []jValue) ([]machine.Value, error) {
	out := make([]machine.Value, len(js))
	for i := range js {
		v, err := d.value(&js[i])
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// state decodes a successor of the heap rule applied to req (or req's
// View). A heap rule never changes η and only pops frames, so the
// successor's η must have req's length and its k must be a suffix of
// req's continuation, which is then shared (as a Go engine shares it);
// its e is a value or error (the machine's common rules make expressions).
// With req nil (Serve: a state lockstep sent) every frame is decoded and
// e may be an expression.
func (d *decoder) state(j *jState, req *machine.State, view bool) (*machine.State, error) {
	s, err := d.heap(j, req)
	if err != nil {
		return nil, err
	}
	if req == nil {
		return d.control(s, j)
	}
	return d.answerControl(s, j, req, view)
}

// heap decodes everything of a state but its control (e and k): the
// locations, L, R and the primitive fields, φ, η (checked against req's,
// if any) and the counters.
func (d *decoder) heap(j *jState, req *machine.State) (*machine.State, error) {
	if j == nil {
		return nil, fmt.Errorf("missing state")
	}
	if len(j.Prim) > 0 && !d.data {
		return nil, fmt.Errorf("prim: primitive data, which this engine's protocol (version 1, or no \"data\" in its handshake) does not carry")
	}
	d.identity = map[int32]*javalite.Class{}
	for _, jl := range j.Locs {
		if c := d.p.ByName[jl.Class]; c != nil && jl.Input {
			d.identity[jl.Identity] = c
		}
	}
	d.shared = d.shared[:0]
	for i, jf := range j.Formulas {
		f, err := d.formula(jf) // refers only to earlier entries
		if err != nil {
			return nil, fmt.Errorf("formulas[%d]: %w", i, err)
		}
		d.shared = append(d.shared, f)
	}
	s := &machine.State{Prog: d.p, Steps: j.Steps}
	if req != nil {
		s.Steps = req.Steps
	}
	d.nlocs = len(j.Locs)
	nf := len(d.p.Fields)
	if len(j.R) != len(j.Locs) {
		return nil, fmt.Errorf("R has %d rows for %d locations", len(j.R), len(j.Locs))
	}
	for i, jl := range j.Locs {
		c := d.p.ByName[jl.Class]
		if c == nil {
			return nil, fmt.Errorf("location %d: unknown class %q", i, jl.Class)
		}
		ex, err := d.boolean(jl.Exists)
		if err != nil {
			return nil, fmt.Errorf("location %d: exists: %w", i, err)
		}
		id, err := d.ref(jl.Identity)
		if err != nil {
			return nil, fmt.Errorf("location %d: identity: %w", i, err)
		}
		if jl.Depth < 0 {
			return nil, fmt.Errorf("location %d: negative depth", i)
		}
		s.Locs = append(s.Locs, machine.LocInfo{Class: c, Input: jl.Input, Depth: jl.Depth, Identity: id, Exists: ex,
			Unresolved: jl.Unresolved, MayBeNull: jl.MayBeNull, Symbolic: jl.Symbolic})
		if len(j.R[i]) != nf {
			return nil, fmt.Errorf("R row %d has %d entries, the program has %d fields", i, len(j.R[i]), nf)
		}
		for _, r := range j.R[i] {
			rr, err := d.ref(r)
			if err != nil {
				return nil, fmt.Errorf("R row %d: %w", i, err)
			}
			s.R = append(s.R, rr)
		}
	}
	for _, b := range j.L {
		r, err := d.ref(b.Ref)
		if err != nil {
			return nil, fmt.Errorf("L: %w", err)
		}
		if s.Get(r) != nil {
			return nil, fmt.Errorf("L binds %s twice", machine.RefString(r))
		}
		g := make(machine.GVS, 0, len(b.GVS))
		for _, e := range b.GVS {
			gf, err := d.boolean(e.Guard)
			if err != nil {
				return nil, fmt.Errorf("L(%s): %w", machine.RefString(r), err)
			}
			l, err := d.loc(e.Loc)
			if err != nil {
				return nil, fmt.Errorf("L(%s): %w", machine.RefString(r), err)
			}
			g = append(g, machine.Entry{Guard: gf, Loc: l})
		}
		if len(g) == 0 {
			return nil, fmt.Errorf("L(%s) is empty", machine.RefString(r))
		}
		s.Set(r, g)
	}
	if err := d.prim(s, j); err != nil {
		return nil, err
	}
	phi, err := d.boolean(j.Phi)
	if err != nil {
		return nil, fmt.Errorf("phi: %w", err)
	}
	s.Phi = phi
	if s.Env, err = d.values(j.Env); err != nil {
		return nil, fmt.Errorf("env: %w", err)
	}
	if req != nil && len(s.Env) != len(req.Env) {
		return nil, fmt.Errorf("env has %d slots, the state it came from %d (heap rules do not change η)", len(s.Env), len(req.Env))
	}
	for _, v := range s.Env {
		if v.IsRef() && s.Get(v.Ref()) == nil {
			return nil, fmt.Errorf("env: %s is not bound in L", v)
		}
	}
	if j.Next.Stack%3 != 0 || j.Next.Input%3 != 1 || j.Next.Fresh%3 != 2 || j.Next.Stack < 0 || j.Next.Stack > maxRef || j.Next.Input > maxRef || j.Next.Fresh > maxRef {
		return nil, fmt.Errorf("next: counters %+v are not in their partitions", j.Next)
	}
	s.NextStack, s.NextInput, s.NextFresh = machine.Ref(j.Next.Stack), machine.Ref(j.Next.Input), machine.Ref(j.Next.Fresh)
	return s, nil
}

// prim decodes the primitive fields: one row per location, a term of the
// field's sort in every primitive field of the location's class, null
// elsewhere. A state with a location of a class with primitive fields
// must have them.
func (d *decoder) prim(s *machine.State, j *jState) error {
	nf := len(d.p.Fields)
	if len(j.Prim) == 0 {
		for i, li := range s.Locs {
			if len(li.Class.PrimFields) > 0 {
				return fmt.Errorf("prim: location %d (a %s) has primitive fields and the state has no prim rows", i, li.Class.Name)
			}
		}
		return nil
	}
	if len(j.Prim) != len(s.Locs) {
		return fmt.Errorf("prim has %d rows for %d locations", len(j.Prim), len(s.Locs))
	}
	s.Prim = make([]*smt.Formula, len(s.Locs)*nf)
	for i, row := range j.Prim {
		if len(row) != nf {
			return fmt.Errorf("prim row %d has %d entries, the program has %d fields", i, len(row), nf)
		}
		c := s.Locs[i].Class
		for f, jt := range row {
			fld := d.p.Fields[f]
			mine := fld.Owner == c && fld.Type.IsPrim()
			switch {
			case jt == nil && !mine:
				continue
			case jt == nil:
				return fmt.Errorf("prim row %d: field %s.%s has no term", i, c.Name, fld.Name)
			case !mine:
				return fmt.Errorf("prim row %d: a term in column %d, which is no primitive field of %s", i, f, c.Name)
			}
			t, err := d.formula(jt)
			if err != nil {
				return fmt.Errorf("prim row %d, field %s: %w", i, fld.Name, err)
			}
			if t.Sort() != machine.Sort(fld.T) {
				return fmt.Errorf("prim row %d: field %s.%s holds an %s term", i, c.Name, fld.Name, t.Sort())
			}
			s.Prim[i*nf+f] = t
		}
	}
	return nil
}

// answerControl decodes the control of a heap rule's successor, or of a
// View, of req (see state).
func (d *decoder) answerControl(s *machine.State, j *jState, req *machine.State, view bool) (*machine.State, error) {
	k, err := d.suffix(j.K, req.K)
	if err != nil {
		return nil, err
	}
	if view {
		// A View keeps the control: the relations compare it literally.
		if k != req.K || j.Mode != modes[req.Mode] {
			return nil, fmt.Errorf("the View changed the control (mode %s, %d frames)", j.Mode, len(j.K))
		}
		if req.Mode == machine.ModeExpr {
			if j.Expr == nil || *j.Expr != req.Expr.ID() {
				return nil, fmt.Errorf("the View changed the expression")
			}
			s.Mode, s.Expr, s.K = machine.ModeExpr, req.Expr, k
			return s, nil
		}
	}
	switch j.Mode {
	case "value":
		v, err := d.value(j.Val)
		if err != nil {
			return nil, fmt.Errorf("val: %w", err)
		}
		if v == machine.VUndef {
			return nil, fmt.Errorf("val: ⊥ is not a value")
		}
		if v.IsRef() && s.Get(v.Ref()) == nil {
			return nil, fmt.Errorf("val: %s is not bound in L", v)
		}
		s.SetValue(v, k)
	case "error":
		if k != nil {
			return nil, fmt.Errorf("an error state has k = end, this one has %d frames", len(j.K))
		}
		s.SetError()
	default:
		return nil, fmt.Errorf("mode %q: a heap rule makes a value or error", j.Mode)
	}
	return s, nil
}

// suffix finds the frames js among the suffixes of k and returns that
// suffix of k.
func (d *decoder) suffix(js []jFrame, k *machine.Kont) (*machine.Kont, error) {
	n := 0
	for f := k; f != nil; f = f.Next {
		n++
	}
	if len(js) > n {
		return nil, fmt.Errorf("k has %d frames, the state it came from %d (heap rules only pop frames)", len(js), n)
	}
	for i := 0; i < n-len(js); i++ {
		k = k.Next
	}
	for i, f := 0, k; f != nil; i, f = i+1, f.Next {
		if !d.sameFrame(js[i], f) {
			return nil, fmt.Errorf("k frame %d (%s) is not the frame of the state it came from (heap rules only pop frames)", i, js[i].Kind)
		}
	}
	return k, nil
}

func (d *decoder) sameFrame(j jFrame, f *machine.Kont) bool {
	if j.Kind != frameKinds[f.Kind] || j.Idx != f.Idx {
		return false
	}
	if (j.Expr == nil) != (f.Expr == nil) || (j.Expr != nil && *j.Expr != f.Expr.ID()) {
		return false
	}
	if frameHasVal(f.Kind) {
		v, err := d.value(j.Val)
		if err != nil || v != f.Val {
			return false
		}
	}
	if f.Kind == machine.KPop || f.Kind == machine.KCallArg {
		env, err := d.values(j.Env)
		if err != nil || len(env) != len(f.Env) {
			return false
		}
		for i := range env {
			if env[i] != f.Env[i] {
				return false
			}
		}
	}
	return true
}

// enterState decodes the state of an "enter" successor of invoke: the
// engine's decision (its heap and φ) with the control of the request, to
// which lockstep applies rule Invoke.
func (d *decoder) enterState(j *jState, req *machine.State) (*machine.State, error) {
	return d.state(j, req, true)
}

// frameExpr checks that a frame's expression is of the node type the
// machine's rule for that frame expects (stepValue's type assertions).
func frameExpr(kind machine.KKind, e javalite.Expr) bool {
	switch kind {
	case machine.KField:
		_, ok := e.(*javalite.FieldAccess)
		return ok
	case machine.KWrite:
		_, ok := e.(*javalite.FieldWrite)
		return ok
	case machine.KEqL, machine.KEqR:
		_, ok := e.(*javalite.Equals)
		return ok
	case machine.KIf:
		_, ok := e.(*javalite.If)
		return ok
	case machine.KVar, machine.KPopVar:
		_, ok := e.(*javalite.VarDecl)
		return ok
	case machine.KCallRecv, machine.KCallArg:
		_, ok := e.(*javalite.Call)
		return ok
	case machine.KAssign:
		_, ok := e.(*javalite.Assign)
		return ok
	case machine.KBegin:
		b, ok := e.(*javalite.Begin)
		return ok && b != nil
	case machine.KPop:
		return e == nil
	case machine.KBinL, machine.KBinR:
		_, ok := e.(*javalite.Binary)
		return ok
	case machine.KAssume:
		_, ok := e.(*javalite.Assume)
		return ok
	}
	return false
}

// branch decodes a successor of If (sym) applied to req, whose top frame
// is the if e: its heap (as state's), and its control, which must be a
// branch of e with the rest of req's continuation, k. SetBranch makes it
// the machine's own branch state.
func (d *decoder) branch(j *jState, req *machine.State, e *javalite.If, k *machine.Kont, opt machine.Options) (*machine.State, error) {
	s, err := d.heap(j, req)
	if err != nil {
		return nil, err
	}
	if j.Mode != "expr" || j.Expr == nil || (*j.Expr != e.Then.ID() && *j.Expr != e.Else.ID()) {
		return nil, fmt.Errorf("a successor of If (sym) has e the expression of a branch (%d or %d), this one mode %q", e.Then.ID(), e.Else.ID(), j.Mode)
	}
	got, err := d.suffix(j.K, req.K)
	if err != nil {
		return nil, err
	}
	if got != k {
		return nil, fmt.Errorf("a successor of If (sym) has k the continuation after the if frame (%d frames), this one %d", kLen(k), len(j.K))
	}
	x := e.Then
	if *j.Expr == e.Else.ID() {
		x = e.Else
	}
	s.SetBranch(x, k, opt)
	return s, nil
}

func kLen(k *machine.Kont) int {
	n := 0
	for ; k != nil; k = k.Next {
		n++
	}
	return n
}

// control decodes e and k of a state lockstep sent (Serve), every frame.
func (d *decoder) control(s *machine.State, j *jState) (*machine.State, error) {
	expr := func(id *int) (javalite.Expr, error) {
		if id == nil {
			return nil, nil
		}
		if *id < 0 || *id >= len(d.table) || d.table[*id] == nil {
			return nil, fmt.Errorf("expression %d is not in the program", *id)
		}
		return d.table[*id], nil
	}
	// envLen[i] is the size of the η frame i runs in: the state's, or
	// below a pop frame the η it restores (a caller's).
	envLen := make([]int, len(j.K))
	cur := len(s.Env)
	for i, jf := range j.K {
		envLen[i] = cur
		if jf.Kind == frameKinds[machine.KPop] {
			cur = len(jf.Env)
		}
	}
	var k *machine.Kont
	for i := len(j.K) - 1; i >= 0; i-- {
		jf := j.K[i]
		kind := -1
		for n, name := range frameKinds {
			if name == jf.Kind {
				kind = n
			}
		}
		if kind < 0 {
			return nil, fmt.Errorf("k frame %d: unknown kind %q", i, jf.Kind)
		}
		f := &machine.Kont{Kind: machine.KKind(kind), Idx: jf.Idx, Next: k}
		e, err := expr(jf.Expr)
		if err != nil {
			return nil, fmt.Errorf("k frame %d: %w", i, err)
		}
		if !frameExpr(f.Kind, e) {
			return nil, fmt.Errorf("k frame %d (%s): wrong expression", i, jf.Kind)
		}
		f.Expr = e
		if frameHasVal(f.Kind) {
			if f.Val, err = d.value(jf.Val); err != nil {
				return nil, fmt.Errorf("k frame %d: %w", i, err)
			}
		}
		if f.Kind == machine.KPop || f.Kind == machine.KCallArg {
			if f.Env, err = d.values(jf.Env); err != nil {
				return nil, fmt.Errorf("k frame %d: %w", i, err)
			}
		}
		if b, ok := e.(*javalite.Begin); ok && (f.Idx < 0 || f.Idx > len(b.Exprs)) {
			return nil, fmt.Errorf("k frame %d: begin index %d", i, f.Idx)
		}
		if f.Kind == machine.KPopVar && (f.Idx < 0 || f.Idx >= envLen[i]) {
			return nil, fmt.Errorf("k frame %d: popvar slot %d", i, f.Idx)
		}
		k = f
	}
	switch j.Mode {
	case "expr":
		e, err := expr(j.Expr)
		if err != nil || e == nil {
			return nil, fmt.Errorf("expr: %v", err)
		}
		s.Mode, s.Expr, s.K = machine.ModeExpr, e, k
	case "value":
		v, err := d.value(j.Val)
		if err != nil {
			return nil, fmt.Errorf("val: %w", err)
		}
		s.SetValue(v, k)
	case "error":
		s.SetError()
	default:
		return nil, fmt.Errorf("unknown mode %q", j.Mode)
	}
	return s, nil
}

// hasData reports whether s holds primitive data (PRIMITIVES.md §2): a
// primitive field or a term value. This lockstep's protocol carries none
// yet (the schema has room for it), so such a state is not sent.
func hasData(s *machine.State) bool {
	if s.Prim != nil {
		return true
	}
	term := func(vs ...machine.Value) bool {
		for _, v := range vs {
			if v.IsTerm() {
				return true
			}
		}
		return false
	}
	if term(s.Env...) || (s.Mode == machine.ModeValue && term(s.Val)) {
		return true
	}
	for k := s.K; k != nil; k = k.Next {
		if term(k.Val) || term(k.Env...) {
			return true
		}
	}
	return false
}
