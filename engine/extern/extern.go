// Package extern runs an engine under test as a child process that speaks
// the process protocol of docs/PROTOCOL.md (JSON lines on its standard
// input and output): `-engine exec:COMMAND` for an engine written in any
// language.
//
// The design: lockstep keeps the machine. The common rules →J run in
// lockstep as for every engine (package machine); only when a state's
// redex is a heap rule (field access, field write, reference equality,
// invoke under V11's Java reading) does lockstep send the state to the
// process and read back the successor states, and when the checker needs
// the View of a state (unless the engine says its View is the identity).
// So an external engine implements exactly what a Go engine implements
// (machine.HeapRules and View), and the checker and the CLI see an
// engine.UnderTest like any other: the registry resolves the prefix
// "exec:" (engine.RegisterPrefix), nothing else has a special case.
//
// Requests carry whole states, so a process keeps nothing between requests
// but the program (sent once per process and program, with the variant, k
// and the common-rule options: the load message). Any process of a command
// can then serve any request, and the processes of a command form a pool
// with as many processes as there are concurrent workers.
//
// Nothing a process does is a verdict about its algorithm unless it is an
// answer: a process that cannot be started, crashes, does not answer
// within Timeout, or answers something malformed is a Failure
// (engine.ErrFailure), which the checker reports as inconclusive; the
// process is killed and a later request starts another. An answer
// {"error":{"kind":"rule"}} is the engine's own statement that its rule
// does not apply, judged as a Go engine's error is.
//
// Serve is the other side, the engine's, for an engine written in Go: a
// registered engine served through the protocol is checked exactly as it
// is in-process, which tests the serialization both ways and measures what
// the protocol costs (examples/engines/goserve).
package extern

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"weak"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// ProtocolVersion is the newest version of docs/PROTOCOL.md this package
// speaks; Versions are all of them. The handshake negotiates: lockstep
// offers Versions, the engine answers in one of them. Version 2 adds
// primitive data (terms, the heap's primitive fields) and the requests
// if_sym and assume.
const ProtocolVersion = 2

// Versions are the protocol versions this package speaks.
var Versions = []int{1, 2}

// Data rules an engine may apply itself (Hello.DataRules); lockstep
// applies the others on the engine's path condition.
const (
	DataRuleIfSym  = "if_sym"
	DataRuleAssume = "assume"
)

// helloRequest is the handshake: "protocol" 1 is what a version-1 engine
// checks, "versions" what a later one chooses from.
func helloRequest() map[string]any {
	return map[string]any{"op": "hello", "protocol": 1, "versions": Versions}
}

// Prefix selects an external engine: "exec:COMMAND[#VARIANT]".
const Prefix = "exec"

// Hello is the engine's answer to the handshake.
type Hello struct {
	Protocol     int            `json:"protocol"`
	Name         string         `json:"name"`
	Version      string         `json:"version"`
	Doc          string         `json:"doc"`
	Shape        string         `json:"shape"`
	IdentityView bool           `json:"identity_view"`
	Default      string         `json:"default"`
	Variants     []HelloVariant `json:"variants"`
	Mutants      *HelloMutants  `json:"mutants"`
	// Data (version 2): the engine has the rules on primitive data
	// (PRIMITIVES.md §4), so lockstep sends it programs with data.
	Data bool `json:"data,omitempty"`
	// DataRules (version 2, with data) are the data rules the engine
	// applies itself, among if_sym and assume.
	DataRules []string `json:"data_rules,omitempty"`
}

// HasData reports whether the engine is sent programs with data: version
// 2 and "data" in its handshake.
func (h *Hello) HasData() bool { return h.Protocol >= 2 && h.Data }

// noData says why an engine without data has none (engine.Info.NoData).
func (h *Hello) noData() string {
	if h.Protocol < 2 {
		return fmt.Sprintf("%s speaks protocol version %d, which carries no data (docs/PROTOCOL.md §6: an engine with data speaks version 2 and says \"data\": true in its handshake)", h.Name, h.Protocol)
	}
	return fmt.Sprintf("%s does not say \"data\": true in its handshake (docs/PROTOCOL.md §6)", h.Name)
}

func (h *Hello) applies(rule string) bool { return slices.Contains(h.DataRules, rule) }

// HelloVariant is one variant of the handshake.
type HelloVariant struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
}

// HelloMutants is the mutation catalog of the handshake (engine.Mutants).
type HelloMutants struct {
	Base  string `json:"base"`
	K     int    `json:"k"`
	Steps int    `json:"steps"`
	List  []struct {
		Name       string `json:"name"`
		Doc        string `json:"doc"`
		Equivalent string `json:"equivalent,omitempty"`
	} `json:"list"`
}

func (h *Hello) check() error {
	if !slices.Contains(Versions, h.Protocol) {
		return fmt.Errorf("the engine speaks protocol %d, lockstep %v", h.Protocol, Versions)
	}
	for _, r := range h.DataRules {
		if r != DataRuleIfSym && r != DataRuleAssume {
			return fmt.Errorf("data_rules: %q is neither %s nor %s", r, DataRuleIfSym, DataRuleAssume)
		}
	}
	if h.Name == "" || h.Version == "" {
		return fmt.Errorf("the engine has no name or version")
	}
	if _, err := h.shape(); err != nil {
		return err
	}
	if h.Default != "" && !h.has(h.Default) {
		return fmt.Errorf("default variant %q is not among the variants", h.Default)
	}
	for _, v := range h.Variants {
		if v.Name == "" || strings.ContainsAny(v.Name, "# ") {
			return fmt.Errorf("bad variant name %q", v.Name)
		}
	}
	if h.Mutants != nil && !h.has(h.Mutants.Base) {
		return fmt.Errorf("the mutants' base %q is not among the variants", h.Mutants.Base)
	}
	return nil
}

func (h *Hello) has(v string) bool {
	for _, x := range h.Variants {
		if x.Name == v {
			return true
		}
	}
	return false
}

// variantOK: a variant is one of the named ones, or a "+" composition of
// them when the engine has mutants (the mutants are BASE+MUTANT).
func (h *Hello) variantOK(v string) bool {
	if v == "" {
		return len(h.Variants) == 0
	}
	for _, part := range strings.Split(v, "+") {
		if !h.has(part) && !h.isMutant(part) {
			return false
		}
	}
	return true
}

func (h *Hello) isMutant(m string) bool {
	if h.Mutants == nil {
		return false
	}
	for _, x := range h.Mutants.List {
		if x.Name == m {
			return true
		}
	}
	return false
}

func (h *Hello) shape() (engine.Shape, error) {
	switch h.Shape {
	case "one-per-control":
		return engine.OnePerControl, nil
	case "partition":
		return engine.Partition, nil
	}
	return 0, fmt.Errorf("shape %q is neither one-per-control nor partition", h.Shape)
}

func init() {
	engine.RegisterPrefix(engine.Prefix{Name: Prefix, Split: Split, Resolve: Resolve, Join: func(command, variant string) string {
		if variant == "" {
			return command
		}
		return command + "#" + variant
	}})
}

// Split splits "COMMAND[#VARIANT]", the part of a spec after "exec:": the
// variant follows the last '#' when something follows it that has no
// space, quote or backslash, so "exec:goserve lazier#" is the command
// "goserve lazier#" and "exec:goserve lazier##default" its variant
// default.
func Split(rest string) (command, variant string) {
	if i := strings.LastIndexByte(rest, '#'); i >= 0 && i < len(rest)-1 && !strings.ContainsAny(rest[i+1:], " \t'\"\\") {
		return strings.TrimSpace(rest[:i]), rest[i+1:]
	}
	return strings.TrimSpace(rest), ""
}

// Handshake starts the command (or reuses its pool) and returns what the
// engine says about itself.
func Handshake(command string) (*Hello, error) {
	pl, err := poolOf(command)
	if err != nil {
		return nil, err
	}
	return pl.hello, nil
}

// Resolve is the registry's resolver of "exec:COMMAND[#VARIANT]": it makes
// the handshake and describes the engine as an engine.Info named
// "exec:COMMAND", whose variants and mutants are the engine's.
func Resolve(rest string) (engine.Info, string, error) {
	command, variant := Split(rest)
	pl, err := poolOf(command)
	if err != nil {
		return engine.Info{}, "", err
	}
	h := pl.hello
	if variant == "" {
		variant = h.Default
	}
	if !h.variantOK(variant) {
		var names []string
		for _, v := range h.Variants {
			names = append(names, v.Name)
		}
		return engine.Info{}, "", fmt.Errorf("exec:%s: engine %s has no variant %q (variants: %s)", command, h.Name, variant, strings.Join(names, ", "))
	}
	name := Prefix + ":" + command
	info := engine.Info{
		Name:    name,
		Doc:     fmt.Sprintf("%s %s (exec): %s", h.Name, h.Version, h.Doc),
		Default: h.Default,
		Data:    h.HasData(),
		New: func(v string, cfg engine.Config) (engine.UnderTest, error) {
			if v == "" {
				v = h.Default
			}
			if !h.variantOK(v) {
				return nil, fmt.Errorf("exec:%s: no variant %q", command, v)
			}
			return newEngine(pl, v, cfg)
		},
	}
	if !info.Data {
		info.NoData = h.noData()
	}
	if len(h.Variants) > 0 {
		var vs []engine.Variant
		for _, v := range h.Variants {
			vs = append(vs, engine.Variant{Name: v.Name, Doc: v.Doc})
		}
		info.Variants = func() []engine.Variant { return vs }
	}
	if m := h.Mutants; m != nil {
		info.Mutants = &engine.Mutants{Base: m.Base, K: m.K, Steps: m.Steps, List: func() []engine.Mutant {
			var out []engine.Mutant
			for _, x := range m.List {
				out = append(out, engine.Mutant{Name: x.Name, Doc: x.Doc, Equivalent: x.Equivalent})
			}
			return out
		}}
	}
	return info, variant, nil
}

// Engine is an external engine: the heap rules and the View are requests
// to a process of its pool.
type Engine struct {
	pool    *pool
	variant string
	cfg     engine.Config
	shape   engine.Shape
	key     string
	// program is the expression table of the last program seen (a weak
	// pointer, as a proc's loaded program).
	prog  weak.Pointer[javalite.Program]
	table []javalite.Expr
}

// identity is an Engine whose View is the identity (handshake
// identity_view).
type identity struct{ *Engine }

func (identity) IdentityView() {}

func (e identity) View(s *machine.State) (*machine.State, error) { return s, nil }

func newEngine(pl *pool, variant string, cfg engine.Config) (engine.UnderTest, error) {
	sh, _ := pl.hello.shape()
	e := &Engine{pool: pl, variant: variant, cfg: cfg, shape: sh,
		key: fmt.Sprintf("%s|%d|%+v", variant, cfg.K, cfg.Machine)}
	if pl.hello.IdentityView {
		return identity{e}, nil
	}
	return e, nil
}

// Name implements machine.Engine: the engine's handshake name and variant.
func (e *Engine) Name() string {
	if e.variant == "" {
		return e.pool.hello.Name
	}
	return e.pool.hello.Name + ":" + e.variant
}

// Options implements machine.Engine.
func (e *Engine) Options() machine.Options { return e.cfg.Machine }

// Shape implements engine.UnderTest.
func (e *Engine) Shape() engine.Shape { return e.shape }

// Hello is what the engine said in the handshake.
func (e *Engine) Hello() Hello { return *e.pool.hello }

// exprs returns the expression table of p.
func (e *Engine) exprs(p *javalite.Program) []javalite.Expr {
	if e.prog.Value() != p {
		e.prog, e.table = weak.Make(p), exprTable(p)
	}
	return e.table
}

// request sends one request about state s (with the program loaded first
// if the process does not have it) and returns the answer.
func (e *Engine) request(s *machine.State, req map[string]any) (*answer, error) {
	if !e.pool.hello.HasData() && hasData(s) {
		return nil, &Failure{Command: e.pool.command, Kind: "unsupported",
			Msg: "the state has primitive data, which " + e.pool.hello.noData()}
	}
	table := e.exprs(s.Prog)
	pr, err := e.pool.get(e.cfg.Context)
	if err != nil {
		return nil, err
	}
	if pr.loaded.Value() != s.Prog || pr.key != e.key {
		load := map[string]any{"op": "load", "program": encProgram(s.Prog, table), "variant": e.variant, "k": e.cfg.K,
			"semantics": map[string]bool{
				"invoke_extends_env": e.cfg.Machine.InvokeExtendsEnv,
				"var_restores_env":   e.cfg.Machine.VarRestoresEnv,
				"null_call_proceeds": e.cfg.Machine.NullCallProceeds,
			}}
		var ok struct {
			OK bool `json:"ok"`
		}
		_, raw, err := pr.call(e.cfg.Context, load)
		if err != nil {
			return nil, e.failed(pr, err)
		}
		if json.Unmarshal(raw, &ok) != nil || !ok.OK {
			pr.kill()
			return nil, e.failed(pr, pr.fail("protocol", "the load answer is not {\"ok\": true}"))
		}
		pr.loaded, pr.key = weak.Make(s.Prog), e.key
	}
	req["state"] = encState(s)
	ans, _, err := pr.call(e.cfg.Context, req)
	if err != nil {
		return nil, e.failed(pr, err)
	}
	e.pool.put(pr)
	return ans, nil
}

// failed returns pr to the pool if the error was the engine's own rule
// error (the process is fine), and drops it otherwise (call killed it).
func (e *Engine) failed(pr *proc, err error) error {
	if _, rule := err.(*RuleError); rule {
		e.pool.put(pr)
		return err
	}
	e.pool.drop(pr)
	return err
}

type jSucc struct {
	Rule  string  `json:"rule"`
	State *jState `json:"state"`
	Enter bool    `json:"enter"`
}

// heap sends a heap-rule request and decodes its successors; rules lists
// the lockstep rules the answer may name (a successor's rule may add the
// engine's own after " / ", as Go engines do).
func (e *Engine) heap(s *machine.State, op string, args map[string]any, rules []string, enter func(*machine.State) machine.Succ) ([]machine.Succ, error) {
	args["op"] = op
	ans, err := e.request(s, args)
	if err != nil {
		return nil, err
	}
	fail := func(format string, a ...any) error {
		return &Failure{Command: e.pool.command, Kind: "malformed", Msg: op + " answer: " + fmt.Sprintf(format, a...)}
	}
	if ans.Successors == nil {
		return nil, fail("no successors field")
	}
	d := e.decoder(s.Prog)
	var out []machine.Succ
	for i, js := range *ans.Successors {
		ok := false
		for _, r := range rules {
			ok = ok || machine.BaseRule(js.Rule) == r
		}
		if !ok {
			return nil, fail("successor %d: rule %q is not one of %s", i, js.Rule, strings.Join(rules, ", "))
		}
		if js.Enter {
			if enter == nil {
				return nil, fail("successor %d: enter is only an answer to invoke", i)
			}
			if machine.BaseRule(js.Rule) != machine.RuleInvoke {
				return nil, fail("successor %d: enter with rule %q", i, js.Rule)
			}
			t, err := d.enterState(js.State, s)
			if err != nil {
				return nil, fail("successor %d: %v", i, err)
			}
			sc := enter(t)
			sc.Rule = js.Rule
			out = append(out, sc)
			continue
		}
		t, err := d.state(js.State, s, false)
		if err != nil {
			return nil, fail("successor %d: %v", i, err)
		}
		out = append(out, machine.Succ{S: t, Rule: js.Rule})
	}
	return out, nil
}

// FieldAccess implements rules A and A′ by request field_access.
func (e *Engine) FieldAccess(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
	return e.heap(s, "field_access", map[string]any{"ref": r, "field": fa.Field.ID, "expr": fa.ID()},
		[]string{machine.RuleFieldA, machine.RuleFieldANull}, nil)
}

// FieldWrite implements rules W and W′ by request field_write.
func (e *Engine) FieldWrite(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont) ([]machine.Succ, error) {
	args := map[string]any{"var": fw.Slot, "field": fw.Field.ID, "expr": fw.ID()}
	if s.Val.IsRef() {
		args["ref"] = r
	} else {
		// A primitive field (version 2): the value written is a term.
		args["value"] = encValues([]machine.Value{s.Val})[0]
	}
	return e.heap(s, "field_write", args,
		[]string{machine.RuleWriteW, machine.RuleWriteWNull}, nil)
}

// EqualsRef implements rules E and E′ by request equals_ref.
func (e *Engine) EqualsRef(s *machine.State, r0, r1 machine.Ref, eq *javalite.Equals, k *machine.Kont) ([]machine.Succ, error) {
	return e.heap(s, "equals_ref", map[string]any{"left": r0, "right": r1, "expr": eq.ID()},
		[]string{machine.RuleEqualsE, machine.RuleEqualsENot}, nil)
}

// Invoke implements rules Invoke and Invoke′ (V11, Java reading) by
// request invoke: the engine decides whether the receiver is null; for a
// successor it marks "enter", lockstep applies rule Invoke
// (machine.EnterMethod) to the state it returns.
func (e *Engine) Invoke(s *machine.State, r machine.Ref, args []machine.Value, c *javalite.Call, k *machine.Kont) ([]machine.Succ, error) {
	return e.heap(s, "invoke", map[string]any{"receiver": r, "args": encValues(args), "expr": c.ID()},
		[]string{machine.RuleInvoke, machine.RuleInvokeNull}, func(t *machine.State) machine.Succ {
			return machine.EnterMethod(t, r, args, c, k, e.cfg.Machine)
		})
}

// View implements engine.UnderTest by request view.
func (e *Engine) View(s *machine.State) (*machine.State, error) {
	ans, err := e.request(s, map[string]any{"op": "view"})
	if err != nil {
		return nil, err
	}
	d := e.decoder(s.Prog)
	v, err := d.state(ans.State, s, true)
	if err != nil {
		return nil, &Failure{Command: e.pool.command, Kind: "malformed", Msg: "view answer: " + err.Error()}
	}
	return v, nil
}

func (e *Engine) decoder(p *javalite.Program) *decoder {
	return &decoder{p: p, table: e.table, data: e.pool.hello.HasData()}
}

// Feasible implements machine.PathCond: S(φ ∧ t) on the state's whole
// path condition, by the worker's solver. It is what lockstep tells the
// engine in if_sym and assume requests, and the premise of the data rules
// lockstep applies itself for an engine that does not (Hello.DataRules).
func (e *Engine) Feasible(s *machine.State, t *smt.Formula) (bool, error) {
	if e.cfg.Solver == nil {
		sv, err := smt.NewSolver()
		if err != nil {
			return false, err
		}
		e.cfg.Solver = sv
	}
	return e.cfg.Solver.Sat(smt.And(s.PathCondition(), t))
}

// Strengthen implements machine.PathCond: φ := φ ∧ t (the state's φ is
// the engine's, as it sent it).
func (e *Engine) Strengthen(s *machine.State, t *smt.Formula) { s.AddFact(t) }

// IfSym implements machine.DataRules: request if_sym to an engine that
// applies the rule itself, with lockstep's S(φ ∧ t) and S(φ ∧ ¬t);
// otherwise the machine's rule on the engine's φ.
func (e *Engine) IfSym(s *machine.State, t *smt.Formula, ie *javalite.If, k *machine.Kont, opt machine.Options) ([]machine.Succ, error) {
	if !e.pool.hello.HasData() {
		return nil, machine.ErrNoData
	}
	if !e.pool.hello.applies(DataRuleIfSym) {
		return machine.IfSymRule(s, e, t, ie, k, opt)
	}
	yes, err := e.Feasible(s, t)
	if err != nil {
		return nil, err
	}
	no, err := e.Feasible(s, smt.Not(t))
	if err != nil {
		return nil, err
	}
	// Rule: If (sym), the engine's
	ans, err := e.request(s, map[string]any{"op": DataRuleIfSym, "cond": encTerm(t), "expr": ie.ID(), "then_sat": yes, "else_sat": no})
	if err != nil {
		return nil, err
	}
	fail := func(format string, a ...any) error {
		return &Failure{Command: e.pool.command, Kind: "malformed", Msg: "if_sym answer: " + fmt.Sprintf(format, a...)}
	}
	if ans.Successors == nil {
		return nil, fail("no successors field")
	}
	d := e.decoder(s.Prog)
	var out []machine.Succ
	for i, js := range *ans.Successors {
		if machine.BaseRule(js.Rule) != machine.RuleIfSym || js.Enter {
			return nil, fail("successor %d: rule %q (want %s, no enter)", i, js.Rule, machine.RuleIfSym)
		}
		b, err := d.branch(js.State, s, ie, k, opt)
		if err != nil {
			return nil, fail("successor %d: %v", i, err)
		}
		out = append(out, machine.Succ{S: b, Rule: js.Rule})
	}
	return out, nil
}

// Assume implements machine.DataRules: request assume to an engine that
// applies the rule itself, with lockstep's S(φ ∧ t); no successor prunes
// the path. Otherwise the machine's rule on the engine's φ.
func (e *Engine) Assume(s *machine.State, t *smt.Formula, k *machine.Kont) ([]machine.Succ, error) {
	if !e.pool.hello.HasData() {
		return nil, machine.ErrNoData
	}
	if !e.pool.hello.applies(DataRuleAssume) {
		return machine.AssumeRule(s, e, t, k)
	}
	sat, err := e.Feasible(s, t)
	if err != nil {
		return nil, err
	}
	// Rule: Assume, the engine's
	succ, err := e.heap(s, DataRuleAssume, map[string]any{"cond": encTerm(t), "expr": s.K.Expr.ID(), "sat": sat},
		[]string{machine.RuleAssume}, nil)
	if err == nil && len(succ) == 0 {
		s.SetPruned()
	}
	return succ, err
}

var (
	_ engine.UnderTest  = (*Engine)(nil)
	_ machine.PathCond  = (*Engine)(nil)
	_ machine.DataRules = (*Engine)(nil)
)
