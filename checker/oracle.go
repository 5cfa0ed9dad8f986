package checker

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Lemma ORC (docs/LEMMAS.md): the common rules are checked against an
// independent semantics.
//
// Both engines run the rules of package machine, so a wrong common rule
// (Invoke pushing the callee's environment, Begin evaluating its first
// expression twice) changes both alike and every lemma relating them still
// holds. concrete.Interpret is a plain recursive interpreter that shares no
// code with package machine. ORC runs it on the concretization of every
// terminal GSE path — the path's input heap: its input locations, each
// field that the path read holding what the read found, every other field
// null — and demands the same end kind (value, error, cut), the same step
// count and the same value. Values are compared exactly under the one
// correspondence both sides use: input location i ↦ object i (locations
// in creation order, l_0 first), and the n-th location made by (new C) ↦
// object (inputs + n), as concrete numbers them; so "the same value up to
// heap isomorphism" is a comparison of numbers.
//
// The input heap is recorded along the path, not read off the end state,
// because field writes overwrite input fields: at each Field access (A)
// step the field the initialization machine just decided is recorded with
// its target, and at each Field write (W) step a field written before it
// was ever read is recorded as null (the program never observes it).
//
// Data (PRIMITIVES.md §6). A GSE path with data stands for every input
// whose data meets its path condition. Its concretizations are the input
// heap above with the values of a valuation μ of the path's input symbols
// α(l, f) (those of its data facts and of its result), drawn from
// concrete.Domain (every literal of the program, ±1, and 0; false and true
// for bools): every μ under which the path's data facts hold is run (at
// most oracleValuations of them, from a deterministic sample of at most
// oracleCandidates valuations), and the run must end as the path does,
// with the path's result term evaluated under μ as its value. A symbol
// that is neither constrained nor returned is 0 (false): the path does not
// depend on it. A run that leaves int64 is out of range, no result; a path
// that no valuation of the domain meets is not run (the domain may be too
// small for its constraints): neither counts as checked.
//
// Budget: a program has at most opt.OracleMax runs (default
// DefaultOracleMax); beyond half of it only every oracleStride-th path is
// run (a deterministic sample). Checked[ORC] counts the runs.

// DefaultOracleMax is the default number of concrete runs per program.
const DefaultOracleMax = 2000

const oracleStride = 16

// oracleValuations bounds the concrete runs of one GSE path with data, and
// oracleCandidates the valuations of the domain tried for it.
const (
	oracleValuations = 8
	oracleCandidates = 512
)

// inputField is one decided field of the path's input heap, in a list
// shared between the paths that branch after it.
type inputField struct {
	loc    machine.Loc
	field  *javalite.Field
	target machine.Loc // LNull for null and for fields written before read
	next   *inputField
}

func (in *inputField) decided(l machine.Loc, f *javalite.Field) bool {
	for ; in != nil; in = in.next {
		if in.loc == l && in.field == f {
			return true
		}
	}
	return false
}

type oraclePath struct {
	inputs *inputField
	rule   string // the rule of the last step
}

// record adds the fields that the step by sc decided.
func (op oraclePath) record(sc machine.Succ) oraclePath {
	out := oraclePath{inputs: op.inputs, rule: sc.Rule}
	if sc.Rule != machine.RuleFieldA && sc.Rule != machine.RuleWriteW {
		return out // no other rule touches an input field
	}
	s := sc.S
	for l, info := range s.Locs {
		if !info.Input {
			continue
		}
		loc := machine.Loc(l)
		for _, f := range info.Class.RefFields {
			g := s.Get(s.Field(loc, f))
			if len(g) == 1 && g[0].Loc == machine.LUn {
				continue
			}
			if out.inputs.decided(loc, f) {
				continue
			}
			t := machine.LNull
			if sc.Rule == machine.RuleFieldA && len(g) == 1 {
				t = g[0].Loc
			}
			out.inputs = &inputField{loc: loc, field: f, target: t, next: out.inputs}
		}
	}
	return out
}

// concretization builds the input heap of a path ending in s and the
// numbering of s's locations as concrete objects.
func concretization(s *machine.State, inputs *inputField) (*concrete.Heap, map[machine.Loc]int, error) {
	obj := map[machine.Loc]int{}
	h := &concrete.Heap{}
	for l, info := range s.Locs {
		if info.Input {
			obj[machine.Loc(l)] = len(h.Objects)
			fs := make([]int, len(info.Class.Fields))
			for i := range fs {
				fs[i] = concrete.Null
			}
			o := concrete.Object{Class: info.Class, Fields: fs}
			if len(info.Class.PrimFields) > 0 {
				o.Prim = make([]int64, len(fs))
			}
			h.Objects = append(h.Objects, o)
		}
	}
	for in := inputs; in != nil; in = in.next {
		if in.target == machine.LNull {
			continue
		}
		t, ok := obj[in.target]
		if !ok {
			return nil, nil, fmt.Errorf("input field %s.%s points to %s, which is not an input location", in.loc, in.field.Name, in.target)
		}
		h.Objects[obj[in.loc]].Fields[in.field.Index] = t
	}
	n := len(h.Objects)
	for l, info := range s.Locs {
		if !info.Input {
			obj[machine.Loc(l)] = n
			n++
		}
	}
	return h, obj, nil
}

// oracle checks ORC on a separate exploration of GSE.
func (r *run) oracle() error {
	if r.opt.NoOracle {
		return nil
	}
	maxRuns := r.opt.OracleMax
	if maxRuns == 0 {
		maxRuns = DefaultOracleMax
	}
	p := r.rep.Program
	bound := r.opt.Steps
	var paths int64
	runs := 0
	var stop error
	tooMany := false
	var domain []int64
	if r.data {
		domain = concrete.Domain(p)
	}
	// The copy-free explorer: the paths and order of machine.ExploreWith;
	// an end state is valid only during the visit (CloneDeep keeps one).
	st, err := gse.ExploreWith(r.ctx, machine.Initial(p), r.gse, r.opt.Steps, oraclePath{},
		func(parent oraclePath, _ int, sc machine.Succ) oraclePath { return parent.record(sc) },
		func(end *machine.State, op oraclePath, kind machine.EndKind) bool {
			paths++
			if r.opt.MaxPaths > 0 && paths > int64(r.opt.MaxPaths) {
				tooMany = true
				return false
			}
			if maxRuns > 0 && (runs >= maxRuns || (runs >= maxRuns/2 && paths%oracleStride != 0)) {
				return true
			}
			n, err := r.oracleRun(p, end, op, kind, bound, domain)
			runs += n
			if err != nil {
				stop = err
				return false
			}
			return true
		})
	switch {
	case stop != nil:
		return stop
	case err != nil:
		return undecided(ORC, err)
	case tooMany:
		return &inconclusive{lemma: ORC, reason: fmt.Sprintf("GSE has more than %d paths", r.opt.MaxPaths)}
	case !st.Complete:
		return &inconclusive{lemma: ORC, reason: "timeout: " + r.ctx.Err().Error()}
	}
	r.rep.Checked[ORC] += runs
	if r.data {
		return r.oracleComplete(p)
	}
	return nil
}

// oracleMaxHeaps bounds the concrete inputs (heaps × valuations) of ORC's
// completeness half on a program with data, counted when a run is a
// result; oracleMaxSkipped the inputs that are none (pruned by an assume:
// seed 002's BST methods at k = 2 prune 21,957 of 21,990, in about 1.5 s).
const (
	oracleMaxHeaps   = 4000
	oracleMaxSkipped = 50000
)

// oracleComplete is ORC's other half on a program with data: every
// concrete input (a heap within the k-bound, a valuation of its primitive
// fields over the program's domain) runs along some GSE path
// (concrete.Compare's soundness of the symbolic side). The per-path half
// runs only the inputs each GSE path admits, so a data branch that GSE
// and the engine both lose (a wrong If (sym), which they share) is seen
// here only. Without a k-bound, or past the budget, it is not checked
// (not counted), rather than guessed; stopped by the time limit, it is
// inconclusive (ORC), as the per-path half is.
func (r *run) oracleComplete(p *javalite.Program) error {
	if r.opt.K < 0 || r.opt.Steps < 0 {
		return nil
	}
	g := gseEngine(r.opt, r.mopt, r.solver)
	rep, err := concrete.Compare(r.ctx, p, g, concrete.Options{K: r.opt.K, Bound: r.opt.Steps, MaxHeaps: oracleMaxHeaps, MaxSkipped: oracleMaxSkipped, MaxPaths: int64(r.opt.MaxPaths)})
	if err != nil {
		return undecided(ORC, err)
	}
	if rep.NUnmatched > 0 {
		m := rep.Unmatched[0]
		return r.fail(Verdict{Lemma: ORC, Rule: machine.RuleIfSym, Witness: m.What,
			Reason: fmt.Sprintf("%d concrete run(s) follow no GSE path; the first ends %s on input %s", rep.NUnmatched, m.Kind, m.What)})
	}
	if rep.Complete {
		r.rep.Checked[ORC]++
		return nil
	}
	// Compare stops early for its budgets (MaxHeaps, MaxPaths: a sample,
	// documented above) and for the end of r.ctx. The time limit is not a
	// budget: every input it left unrun is unchecked, so the check could
	// not decide (it used to return nil here, and a program whose
	// enumeration of inputs ran into the limit was reported as holding).
	if err := r.ctx.Err(); err != nil {
		return &inconclusive{lemma: ORC, reason: "timeout: concrete inputs of every GSE path (ORC's other half): " + err.Error()}
	}
	return nil
}

// oracleRun runs the concrete interpreter on the concretizations of one
// terminal GSE path: its input heap, and with data each valuation of the
// domain that meets its data facts (see the lemma's comment). It returns
// the number of runs.
func (r *run) oracleRun(p *javalite.Program, end *machine.State, op oraclePath, kind machine.EndKind, bound int, domain []int64) (int, error) {
	h, obj, err := concretization(end, op.inputs)
	if err != nil {
		return 0, fmt.Errorf("ORC: %w", err) // a broken GSE state: a failure of the tool
	}
	if bound < 0 {
		bound = end.Steps + 1 // the GSE path ended on its own; so must the run
	}
	if !r.data {
		return 1, r.oracleCase(p, end, op, kind, bound, h, obj, nil)
	}
	d, err := newPathData(end, h, obj, domain)
	if err != nil {
		return 0, fmt.Errorf("ORC: %w", err)
	}
	runs := 0
	for _, i := range d.candidates() {
		if runs == oracleValuations {
			break
		}
		if !d.set(i) {
			continue // μ misses the path's data facts, or leaves int64
		}
		runs++
		if err := r.oracleCase(p, end, op, kind, bound, h, obj, d); err != nil {
			return runs, err
		}
	}
	return runs, nil
}

// oracleCase runs the concrete interpreter on one concretization h of a
// GSE path (with d's valuation set in h, d nil without data) and compares
// the ends.
func (r *run) oracleCase(p *javalite.Program, end *machine.State, op oraclePath, kind machine.EndKind, bound int, h *concrete.Heap, obj map[machine.Loc]int, d *pathData) error {
	witness := "input heap " + h.String()
	res, err := concrete.InterpretWith(p, h, bound, r.mopt)
	if err != nil {
		return r.fail(Verdict{Lemma: ORC, Rule: op.rule, Step: end.Steps, Control: end.ControlString(),
			GSE: []*machine.State{end.CloneDeep()}, Witness: witness,
			Reason: "the concrete interpreter cannot run the concretization of this GSE path: " + err.Error()})
	}
	if res.OutOfRange {
		return nil // an integer left int64: the case is no result
	}
	want := gseEnd{kind: kind, steps: end.Steps}
	if kind == machine.EndValue {
		v, ok := gseValue(end, obj, d)
		if !ok {
			return nil // the result term leaves int64 under μ
		}
		want.value = v
	}
	got := gseEnd{kind: res.Kind, steps: res.Steps, value: res.Value, pruned: res.Pruned}
	if got.kind != machine.EndValue || got.pruned {
		got.value = concrete.Value{}
	}
	if want == got {
		return nil
	}
	return r.fail(Verdict{Lemma: ORC, Rule: op.rule, Step: end.Steps, Control: end.ControlString(),
		GSE: []*machine.State{end.CloneDeep()}, Witness: witness,
		Reason: fmt.Sprintf("the GSE path ends %s; the concrete interpreter on its input heap ends %s", want, got)})
}

// pathData is the data of one GSE path for ORC: its input symbols, where
// each lives in the concretization, and its data facts.
type pathData struct {
	end    *machine.State
	h      *concrete.Heap
	syms   []*smt.Formula
	slot   []*int64 // where each symbol's value goes in h
	vals   [][]int64
	facts  []*smt.Formula
	values map[*smt.Formula]int64
}

func newPathData(end *machine.State, h *concrete.Heap, obj map[machine.Loc]int, domain []int64) (*pathData, error) {
	d := &pathData{end: end, h: h, values: map[*smt.Formula]int64{}}
	var terms []*smt.Formula
	for f := end.Facts; f != nil; f = f.Next {
		if f.F.HasData() {
			d.facts = append(d.facts, f.F)
			terms = append(terms, f.F)
		}
	}
	if end.Mode == machine.ModeValue && end.Val.IsTerm() {
		terms = append(terms, end.Val.Term())
	}
	seen := map[*smt.Formula]bool{}
	for _, t := range terms {
		for _, sym := range t.Syms() {
			if seen[sym] {
				continue
			}
			seen[sym] = true
			id, fid, _ := sym.SymOf()
			l, ok := identityLoc(end, id)
			if !ok {
				return nil, fmt.Errorf("input symbol %s of no input location", sym)
			}
			f := end.Prog.Fields[fid]
			o := &h.Objects[obj[l]]
			vals := domain
			if f.T.Kind == javalite.KindBool {
				vals = []int64{0, 1}
			}
			d.syms = append(d.syms, sym)
			d.slot = append(d.slot, &o.Prim[f.Index])
			d.vals = append(d.vals, vals)
		}
	}
	return d, nil
}

// identityLoc is the input location whose identity reference is id.
func identityLoc(s *machine.State, id smt.Ref) (machine.Loc, bool) {
	for l, info := range s.Locs {
		if info.Input && info.Identity == id {
			return machine.Loc(l), true
		}
	}
	return 0, false
}

// candidates lists the indices of the valuations to try, in mixed radix
// over the symbols' domains: all of them, or a deterministic sample of
// oracleCandidates spread over all of them.
func (d *pathData) candidates() []uint64 {
	total := uint64(1)
	for _, v := range d.vals {
		if len(v) == 0 {
			return nil
		}
		if total > 1<<40/uint64(len(v)) {
			total = 1 << 40 // enough to sample from
			break
		}
		total *= uint64(len(v))
	}
	n := min(total, oracleCandidates)
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(i) * (total / n)
	}
	return out
}

// set writes valuation i into the heap and reports whether the path's
// data facts hold under it (and can be evaluated within int64).
func (d *pathData) set(i uint64) bool {
	clear(d.values)
	for j := len(d.syms) - 1; j >= 0; j-- {
		n := uint64(len(d.vals[j]))
		v := d.vals[j][i%n]
		i /= n
		*d.slot[j] = v
		d.values[d.syms[j]] = v
	}
	for _, f := range d.facts {
		v, ok := d.eval(f)
		if !ok || v == 0 {
			return false
		}
	}
	return true
}

// eval evaluates a term of the path under the current valuation.
func (d *pathData) eval(t *smt.Formula) (int64, bool) {
	return t.EvalData(
		func(a, b smt.Ref) bool {
			ga, gb := d.end.Get(a), d.end.Get(b)
			return len(ga) == 1 && len(gb) == 1 && ga[0].Loc == gb[0].Loc
		},
		func(sym *smt.Formula) int64 { return d.values[sym] })
}

type gseEnd struct {
	kind   machine.EndKind
	steps  int
	value  concrete.Value
	pruned bool
}

func (e gseEnd) String() string {
	if e.pruned {
		return fmt.Sprintf("pruned by an assume after %d steps", e.steps)
	}
	if e.kind == machine.EndValue {
		return fmt.Sprintf("with value %s after %d steps", e.value, e.steps)
	}
	return fmt.Sprintf("%s after %d steps", e.kind, e.steps)
}

// gseValue is the terminal value of a GSE state as a concrete value: a
// term evaluated under d's valuation (false when it leaves int64).
func gseValue(s *machine.State, obj map[machine.Loc]int, d *pathData) (concrete.Value, bool) {
	if s.Val.IsBool() {
		return concrete.Value{IsBool: true, Bool: s.Val == machine.VTrue}, true
	}
	if s.Val.IsTerm() {
		if d == nil {
			return concrete.Value{}, false
		}
		v, ok := d.eval(s.Val.Term())
		if s.Val.Term().Sort() == smt.SortInt {
			return concrete.Value{IsInt: true, Int: v}, ok
		}
		return concrete.Value{IsBool: true, Bool: v != 0, Data: true}, ok
	}
	l := s.Get(s.Val.Ref())[0].Loc
	if l == machine.LNull {
		return concrete.Value{Obj: concrete.Null}, true
	}
	return concrete.Value{Obj: obj[l]}, true
}

// gseFailed turns a GSE step that cannot be taken into a violation of ORC:
// the rules as configured have no successor for a state they produced from
// a well-typed program, while the concrete interpreter runs every
// well-typed program to an end (a value, an error, or the step bound). Only
// a broken common or GSE rule gets here (an Invoke that resumes the caller
// in the callee's environment leaves the caller's locals unbound), and as a
// verdict it shrinks like any other.
func (r *run) gseFailed(p *machine.State, err error) error {
	// GSE asks the solver at If (sym) and Assume: an answer it could not
	// get (unknown, a cancellation, the time limit) decides nothing.
	if u := undecided(ORC, err); u != err {
		return u
	}
	return r.fail(Verdict{Lemma: ORC, Step: p.Steps + 1, Control: p.ControlString(),
		GSE:    []*machine.State{p},
		Reason: "GSE cannot take a step the concrete interpreter takes (it runs every well-typed program to an end): " + err.Error()})
}
