package checker

import (
	"errors"
	"fmt"
	"slices"

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
// holds. ORC has two halves.
//
// The per-path half runs a plain recursive interpreter that shares no code
// with package machine (concrete.Interpret, behind the seam Runner) on the
// concretization of every terminal GSE path — the path's input heap: its
// input locations, each field that the path read holding what the read
// found, every other field null — and demands the same end kind (value,
// error, cut), the same step count and the same value. Values are compared
// exactly under the one correspondence both sides use: input location i ↦
// object i (locations in creation order, l_0 first), and the n-th location
// made by (new C) ↦ object (inputs + n), as concrete numbers them; so "the
// same value up to heap isomorphism" is a comparison of numbers. A run the
// interpreter cannot finish (a stuck step) is a violation, as is a GSE
// step that cannot be taken (gseFailed).
//
// The input heap is recorded along the path, not read off the end state,
// because field writes overwrite input fields: at each Field access (A)
// step the field the initialization machine just decided is recorded with
// its target, and at each Field write (W) step a field written before it
// was ever read is recorded as null (the program never observes it).
//
// Data (PRIMITIVES.md §6): path-directed valuations. A GSE path with data
// stands for every input whose data meets its data facts φ_d. Its input
// symbols are α(l, f) for every primitive field f of every input location
// l of the path (read or not: an engine that reads a field without
// recording what it compared still depends on it). The valuations come
// from Z3 models, not from a fixed domain, so that a program without
// literals gets inputs that are unequal and ordered both ways:
//
//   - φ_d itself. Unsatisfiable, the path is an explored infeasible path:
//     a violation of GSE (it must test S(φ ∧ t) at If (sym) and Assume),
//     never a path to skip; unknown is inconclusive.
//   - φ_d ∧ g for the goals g not met by an earlier model: x < y, x = y,
//     x > y for every two int symbols, x < n, x = n, x > n for every int
//     symbol and integer literal n of the program, b and ¬b for every bool
//     symbol. So every comparison between two inputs, and between an input
//     and a literal, goes both ways where the path condition allows it
//     (at most oracleValuations valuations and oracleGoalQueries queries a
//     path, oracleMaxQueries a program; a goal φ_d excludes is no run).
//
// Each valuation μ is written into the input heap and run, and the run
// must end as the path does, with the path's result term evaluated under
// μ as its value. A run that leaves int64 is out of range, no result. A
// model that falsifies a fact of φ_d under the terms' own semantics
// (smt.EvalData, which the concrete engine shares) is a violation: the
// solver and the term layer disagree (a wrong translation, shared by GSE
// and the engine, that no lockstep lemma sees). A
// path whose φ_d admits one valuation only (every goal excluded) is
// counted apart (OracleStats.OneValuation): its check rests on it.
//
// The completeness half (programs with data) asks the other question:
// every concrete input runs along some GSE path (concrete.Compare: its run
// on the shared machine with the concrete heap rules has the path digest
// of a GSE path), so a branch that GSE and the engine both lose (a wrong
// If (sym), which they share) is seen. Its inputs are, first, the
// path-directed ones: for every GSE path and every data fact f_i of it (in
// the order recorded), a model of f_1 ∧ … ∧ f_{i−1} ∧ ¬f_i on the path's
// input heap, an input that leaves the path at its i-th branch and must
// follow another GSE path; then every heap of BFS depth ≤ k (without a
// k-bound: ≤ oracleDepth, at most oracleObjects objects) with every
// valuation of its primitive fields over concrete.Domain, within a budget
// (oracleMaxHeaps results, oracleMaxSkipped non-results; without a
// k-bound oracleMaxHeapsNoK and oracleMaxSkippedNoK). Without a
// k-bound, or past the budget, it is a bounded check and the report says
// so (OracleStats); stopped by the time limit, it is inconclusive. A
// concrete run there that cannot go on is a violation with its input
// (concrete.RunError). A program without data has no completeness half:
// a GSE path's input heap is then its only input, and the report says
// "not run".
//
// The concrete side of the per-path half is behind Runner (run.runner), a
// function from one input heap to an outcome, so that another
// implementation of the semantics can be put in its place.
//
// Budget: a program has at most opt.OracleMax per-path runs (default
// DefaultOracleMax); beyond half of it only every oracleStride-th path is
// run (a deterministic sample). Checked[ORC] counts the per-path runs,
// plus one for a completeness half that ran. Report.Oracle says which
// halves ran, on how many paths, valuations and inputs.

// DefaultOracleMax is the default number of concrete runs per program.
const DefaultOracleMax = 2000

const oracleStride = 16

// Budgets of the path-directed valuations: oracleValuations runs and
// oracleGoalQueries goal queries per GSE path, oracleMaxQueries solver
// queries per program (past it a path gets φ_d's model only), and
// oracleMaxDirected inputs for the completeness half.
const (
	oracleValuations  = 8
	oracleGoalQueries = 16
	oracleMaxQueries  = 1500
	oracleMaxDirected = 1000
)

// Without a k-bound the completeness half enumerates heaps of BFS depth ≤
// oracleDepth with at most oracleObjects objects.
// Its budgets are smaller than at a finite k (a bounded check either
// way), so that the default k of lazier, lazier#, pose and uber costs
// about what their lockstep check does.
const (
	oracleDepth         = 2
	oracleObjects       = 4
	oracleMaxHeapsNoK   = 1000
	oracleMaxSkippedNoK = 5000
)

// Runner is ORC's concrete side: it runs p on one input heap h (its
// primitive fields hold the valuation) for at most bound steps under the
// common-rule options opt, and returns how the run ended. An error is a
// run that could not go on (a violation of ORC). concrete.InterpretWith is
// the default; another implementation of the semantics plugs in here.
type Runner func(p *javalite.Program, h *concrete.Heap, bound int, opt machine.Options) (concrete.Result, error)

// AlsoRunner gives, for a program, ORC's completeness half a second
// concrete side (concrete.Options.Also): a check that the run of each
// input ends as the machine's run does. An error that wraps
// concrete.ErrDisagree is a violation of ORC; another one leaves it
// undecided.
type AlsoRunner func(p *javalite.Program) func(*concrete.Heap, concrete.Result) error

// OracleStats says what lemma ORC ran on a program.
type OracleStats struct {
	Ran bool `json:"ran"`
	// The per-path half: terminal GSE paths, those whose concretizations
	// ran (the others are past the budget's sample), those with data, and
	// the concrete runs (valuations) over all of them. OneValuation counts
	// the data paths whose check rests on a single valuation.
	Paths        int64 `json:"paths"`
	PathsRun     int64 `json:"paths_run"`
	DataPaths    int64 `json:"data_paths"`
	Runs         int   `json:"runs"`
	OneValuation int64 `json:"one_valuation"`
	Queries      int   `json:"solver_queries"`
	// Completeness is "ran" (every input within the k-bound), "bounded"
	// (a sample: no k-bound, or a budget), or "not run: WHY"; Inputs and
	// Directed are its enumerated and path-directed inputs, Depth the
	// heaps' BFS depth bound.
	Completeness string `json:"completeness"`
	Inputs       int64  `json:"inputs"`
	Directed     int64  `json:"directed_inputs"`
	Depth        int    `json:"depth"`
}

// String is the one-line account of ORC in a report.
func (o *OracleStats) String() string {
	if !o.Ran {
		return "ORC not run"
	}
	per := fmt.Sprintf("per-path half %d runs on %d of %d GSE paths", o.Runs, o.PathsRun, o.Paths)
	if o.DataPaths > 0 {
		per += fmt.Sprintf(" (%d with data", o.DataPaths)
		if o.OneValuation > 0 {
			per += fmt.Sprintf(", %d of them on one valuation only", o.OneValuation)
		}
		per += ")"
	}
	if o.Runs == 1 {
		per += ": rests on one run"
	}
	comp := "completeness half " + o.Completeness
	if o.Inputs+o.Directed > 0 {
		comp += fmt.Sprintf(" (%d path-directed + %d enumerated inputs, heaps to depth %d)", o.Directed, o.Inputs, o.Depth)
	}
	return "ORC: " + per + "; " + comp
}

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
	st := &r.rep.Oracle
	*st = OracleStats{Ran: true, Completeness: "not reached"}
	// The valuations are the program's alone: a worker's solver has
	// answered other programs' model questions before (smt.Solver.Model).
	r.solver.ResetModels()
	o := &oracleRun{r: r, p: p, st: st}
	if r.data {
		o.lits = concrete.Literals(p)
	}
	var stop error
	tooMany := false
	// The copy-free explorer: the paths and order of machine.ExploreWith;
	// an end state is valid only during the visit (CloneDeep keeps one).
	es, err := gse.ExploreWith(r.ctx, machine.Initial(p), r.gse, r.opt.Steps, oraclePath{},
		func(parent oraclePath, _ int, sc machine.Succ) oraclePath { return parent.record(sc) },
		func(end *machine.State, op oraclePath, kind machine.EndKind) bool {
			st.Paths++
			if r.opt.MaxPaths > 0 && st.Paths > int64(r.opt.MaxPaths) {
				tooMany = true
				return false
			}
			if maxRuns > 0 && (st.Runs >= maxRuns || (st.Runs >= maxRuns/2 && st.Paths%oracleStride != 0)) {
				return true
			}
			st.PathsRun++
			if err := o.path(end, op, kind, bound); err != nil {
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
	case !es.Complete:
		return &inconclusive{lemma: ORC, reason: "timeout: " + r.ctx.Err().Error()}
	}
	r.rep.Checked[ORC] += st.Runs
	if !r.data {
		st.Completeness = "not run: no data (a GSE path's input heap is its only input)"
		return nil
	}
	return r.oracleComplete(p, o.directed)
}

// oracleMaxHeaps bounds the enumerated inputs (heaps × valuations) of
// ORC's completeness half, counted when a run is a result;
// oracleMaxSkipped the inputs that are none (pruned by an assume: seed
// 002's BST methods at k = 2 prune 21,957 of 21,990, in about 1.5 s).
const (
	oracleMaxHeaps   = 4000
	oracleMaxSkipped = 50000
)

// oracleComplete is ORC's other half on a program with data: every
// concrete input (the path-directed inputs, then every heap within the
// k-bound, or within oracleDepth without one, with every valuation of its
// primitive fields over the program's domain) runs along some GSE path
// (concrete.Compare's soundness of the symbolic side). See the lemma's
// comment.
func (r *run) oracleComplete(p *javalite.Program, directed []*concrete.Heap) error {
	st := &r.rep.Oracle
	st.Ran = true
	if r.opt.Steps < 0 {
		st.Completeness = "not run: no step bound (a concrete run may not end)"
		return nil
	}
	co := concrete.Options{K: r.opt.K, Bound: r.opt.Steps, MaxHeaps: oracleMaxHeaps, MaxSkipped: oracleMaxSkipped,
		MaxPaths: int64(r.opt.MaxPaths), Extra: directed}
	if r.opt.Also != nil {
		co.Also = r.opt.Also(p)
	}
	st.Depth = r.opt.K
	if r.opt.K < 0 {
		co.Depth, co.MaxObjects = oracleDepth, oracleObjects
		co.MaxHeaps, co.MaxSkipped = oracleMaxHeapsNoK, oracleMaxSkippedNoK
		st.Depth = oracleDepth
	}
	g := gseEngine(r.opt, r.mopt, r.solver)
	st.Completeness = "stopped at a violation"
	rep, err := concrete.Compare(r.ctx, p, g, co)
	if rep != nil {
		st.Inputs, st.Directed = rep.Heaps, rep.Extra
	}
	var also *concrete.RunError
	if errors.Is(err, concrete.ErrDisagree) && errors.As(err, &also) {
		return r.fail(Verdict{Lemma: ORC, Witness: also.Input, Reason: also.Err.Error()})
	}
	var stuck *concrete.RunError
	if errors.As(err, &stuck) {
		return r.fail(Verdict{Lemma: ORC, Witness: stuck.Input,
			Reason: "the concrete rules cannot run this input to an end (they run every well-typed program on every well-typed heap): " + stuck.Err.Error()})
	}
	if err != nil {
		return undecided(ORC, err)
	}
	if rep.NUnmatched > 0 {
		m := rep.Unmatched[0]
		return r.fail(Verdict{Lemma: ORC, Rule: machine.RuleIfSym, Witness: m.What,
			Reason: fmt.Sprintf("%d concrete run(s) follow no GSE path; the first ends %s on input %s", rep.NUnmatched, m.Kind, m.What)})
	}
	// Compare stops early for its budgets (MaxHeaps, MaxPaths: a sample,
	// documented above) and for the end of r.ctx. The time limit is not a
	// budget: every input it left unrun is unchecked, so the check could
	// not decide (it used to return nil here, and a program whose
	// enumeration of inputs ran into the limit was reported as holding).
	if !rep.Complete {
		if err := r.ctx.Err(); err != nil {
			st.Completeness = "stopped by the time limit"
			return &inconclusive{lemma: ORC, reason: "timeout: concrete inputs of every GSE path (ORC's other half): " + err.Error()}
		}
	}
	r.rep.Checked[ORC]++
	st.Completeness = "ran"
	if r.opt.K < 0 || !rep.Complete {
		st.Completeness = "bounded"
	}
	return nil
}

// oracleRun is the per-path half of ORC on one program: its budgets and
// the path-directed inputs it collects for the completeness half.
type oracleRun struct {
	r    *run
	p    *javalite.Program
	st   *OracleStats
	lits []int64
	// directed are the completeness half's path-directed inputs; asked
	// holds the divergence queries already asked (sibling paths share
	// their prefixes).
	directed []*concrete.Heap
	asked    map[*smt.Formula]bool
}

// runner is ORC's concrete side (the seam Runner).
func (r *run) runner() Runner {
	if r.opt.Runner != nil {
		return r.opt.Runner
	}
	return concrete.InterpretWith
}

// path runs the concrete interpreter on the concretizations of one
// terminal GSE path: its input heap, and with data each path-directed
// valuation (see the lemma's comment).
func (o *oracleRun) path(end *machine.State, op oraclePath, kind machine.EndKind, bound int) error {
	r := o.r
	h, obj, err := concretization(end, op.inputs)
	if err != nil {
		return fmt.Errorf("ORC: %w", err) // a broken GSE state: a failure of the tool
	}
	if bound < 0 {
		bound = end.Steps + 1 // the GSE path ended on its own; so must the run
	}
	if !r.data {
		o.st.Runs++
		return r.oracleCase(o.p, end, op, kind, bound, h, obj, nil)
	}
	d, verr := newPathData(end, h, obj)
	if verr != "" {
		return r.fail(Verdict{Lemma: ORC, Rule: op.rule, Step: end.Steps, Control: end.ControlString(),
			GSE: []*machine.State{end.CloneDeep()}, Witness: "input heap " + h.String(), Reason: verr})
	}
	if len(d.syms) == 0 {
		o.st.Runs++
		return r.oracleCase(o.p, end, op, kind, bound, h, obj, d)
	}
	o.st.DataPaths++
	phi := smt.And(d.facts...)
	res, vals, err := o.model(phi, d.syms)
	if err != nil {
		return err
	}
	if res == smt.Unsat {
		return o.infeasible(end, op, h, d)
	}
	runs := 0
	try := func(vals []int64) error {
		if vals == nil {
			return nil
		}
		ok, bad := d.set(vals)
		if bad != nil {
			// Z3 and the terms' own semantics (smt.EvalData, which the
			// concrete engine shares) disagree on a fact: a broken term
			// layer or translation, under GSE and the engine alike.
			return r.fail(Verdict{Lemma: ORC, Rule: op.rule, Step: end.Steps, Control: end.ControlString(),
				GSE: []*machine.State{end.CloneDeep()}, Witness: "input heap " + h.String(),
				Reason: fmt.Sprintf("the solver's model of the GSE path's data facts falsifies %s under the terms' semantics: the solver and the term layer disagree", smt.Short(bad))})
		}
		if !ok {
			return nil // the valuation leaves int64 somewhere: no result
		}
		runs++
		o.st.Runs++
		return r.oracleCase(o.p, end, op, kind, bound, h, obj, d)
	}
	if err := try(vals); err != nil {
		return err
	}
	// The goals: every comparison both ways where φ_d allows it.
	goals := d.goals(o.lits)
	met := make([]bool, len(goals))
	excluded := 0
	mark := func(vals []int64) {
		d.assign(vals)
		for i, g := range goals {
			if !met[i] {
				if v, ok := d.eval(g); ok && v != 0 {
					met[i] = true
				}
			}
		}
	}
	if vals != nil {
		mark(vals)
	}
	asked := 0
	for i, g := range goals {
		if met[i] {
			continue
		}
		if runs >= oracleValuations || asked >= oracleGoalQueries || o.st.Queries >= oracleMaxQueries {
			break
		}
		asked++
		res, vals, err := o.model(smt.And(phi, g), d.syms)
		if err != nil {
			return err
		}
		if res == smt.Unsat {
			excluded++
			continue
		}
		mark(vals)
		if err := try(vals); err != nil {
			return err
		}
	}
	if runs <= 1 && excluded > 0 && excluded == len(goals)-countTrue(met) {
		o.st.OneValuation++
	}
	// The divergences: inputs that leave this path at its i-th fact.
	for i := range d.facts {
		if len(o.directed) >= oracleMaxDirected || o.st.Queries >= oracleMaxQueries {
			break
		}
		q := smt.And(append(slices.Clone(d.facts[:i]), smt.Not(d.facts[i]))...)
		if o.asked[q] {
			continue
		}
		if o.asked == nil {
			o.asked = map[*smt.Formula]bool{}
		}
		o.asked[q] = true
		res, vals, err := o.model(q, d.syms)
		if err != nil {
			return err
		}
		if res == smt.Sat {
			d.assign(vals)
			o.directed = append(o.directed, h.Clone())
		}
	}
	return nil
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// model asks the solver for a model of f over syms: an unknown answer is
// inconclusive (ORC), a model value beyond int64 is no model (nil values).
func (o *oracleRun) model(f *smt.Formula, syms []*smt.Formula) (smt.Result, []int64, error) {
	o.st.Queries++
	res, vals, err := o.r.solver.Model(f, syms)
	if errors.Is(err, smt.ErrModelRange) {
		return smt.Sat, nil, nil
	}
	if err != nil {
		return res, nil, undecided(ORC, err)
	}
	return res, vals, nil
}

// infeasible reports a GSE path whose data facts no input meets: GSE
// explored a path it should have pruned. The first fact that makes the
// prefix unsatisfiable names the step to blame.
func (o *oracleRun) infeasible(end *machine.State, op oraclePath, h *concrete.Heap, d *pathData) error {
	at := len(d.facts) - 1
	for i := range d.facts {
		res, _, err := o.model(smt.And(d.facts[:i+1]...), nil)
		if err != nil {
			return err
		}
		if res == smt.Unsat {
			at = i
			break
		}
	}
	return o.r.fail(Verdict{Lemma: ORC, Rule: machine.RuleIfSym, Step: end.Steps, Control: end.ControlString(),
		GSE: []*machine.State{end.CloneDeep()}, Witness: "input heap " + h.String(),
		Reason: fmt.Sprintf("GSE explored an infeasible path: no input meets its data facts (from fact %d of %d, %s, on φ is unsatisfiable); If (sym) and Assume must test S(φ ∧ t)",
			at+1, len(d.facts), smt.Short(d.facts[at]))})
}

// oracleCase runs the concrete interpreter on one concretization h of a
// GSE path (with d's valuation set in h, d nil without data) and compares
// the ends.
func (r *run) oracleCase(p *javalite.Program, end *machine.State, op oraclePath, kind machine.EndKind, bound int, h *concrete.Heap, obj map[machine.Loc]int, d *pathData) error {
	witness := "input heap " + h.String()
	res, err := r.runner()(p, h, bound, r.mopt)
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
// each lives in the concretization, and its data facts (oldest first,
// reference atoms decided by the path's heap).
type pathData struct {
	end    *machine.State
	h      *concrete.Heap
	syms   []*smt.Formula
	slot   []*int64 // where each symbol's value goes in h
	facts  []*smt.Formula
	values map[*smt.Formula]int64
}

// newPathData collects the path's data; a symbol of its facts or result
// that belongs to no input location (no input heap gives it a value) is a
// violation, returned as its reason.
func newPathData(end *machine.State, h *concrete.Heap, obj map[machine.Loc]int) (*pathData, string) {
	d := &pathData{end: end, h: h, values: map[*smt.Formula]int64{}}
	seen := map[*smt.Formula]bool{}
	for l, info := range end.Locs {
		if !info.Input {
			continue
		}
		o := &h.Objects[obj[machine.Loc(l)]]
		for _, f := range info.Class.PrimFields {
			sym := machine.InitialValue(info.Identity, f)
			seen[sym] = true
			d.syms = append(d.syms, sym)
			d.slot = append(d.slot, &o.Prim[f.Index])
		}
	}
	var terms []*smt.Formula
	for f := end.Facts; f != nil; f = f.Next {
		if f.F.HasData() {
			d.facts = append(d.facts, f.F)
			terms = append(terms, f.F)
		}
	}
	slices.Reverse(d.facts)
	if end.Mode == machine.ModeValue && end.Val.IsTerm() {
		terms = append(terms, end.Val.Term())
	}
	for _, t := range terms {
		for _, sym := range t.Syms() {
			if !seen[sym] {
				return nil, fmt.Sprintf("the GSE path's data mention %s, the initial value of no input location's field: no input gives it a value", sym)
			}
		}
	}
	// Reference atoms are decided by the path's heap: GSE's locations are
	// concrete, so each atom is true or false on the path.
	atoms := map[[2]smt.Ref]bool{}
	for _, f := range d.facts {
		refs := f.Refs()
		for i, a := range refs {
			for _, b := range refs[i+1:] {
				k := [2]smt.Ref{min(a, b), max(a, b)}
				ga, gb := end.Get(a), end.Get(b)
				atoms[k] = len(ga) == 1 && len(gb) == 1 && ga[0].Loc == gb[0].Loc
			}
		}
	}
	if len(atoms) > 0 {
		d.facts = smt.SubstAtoms(d.facts, atoms)
	}
	return d, ""
}

// goals lists the comparisons a path's valuations should make go both
// ways: every two int symbols (<, =, >), every int symbol and literal of
// the program (<, =, >), every bool symbol (true, false).
func (d *pathData) goals(lits []int64) []*smt.Formula {
	var ints []*smt.Formula
	var out []*smt.Formula
	for _, s := range d.syms {
		if s.Sort() == smt.SortInt {
			ints = append(ints, s)
		} else {
			out = append(out, s, smt.Not(s))
		}
	}
	for i, x := range ints {
		for _, y := range ints[i+1:] {
			out = append(out, smt.Lt(x, y), smt.EqT(x, y), smt.Lt(y, x))
		}
	}
	for _, x := range ints {
		for _, n := range lits {
			c := smt.Int(n)
			out = append(out, smt.Lt(x, c), smt.EqT(x, c), smt.Lt(c, x))
		}
	}
	return out
}

// assign records a valuation (aligned with syms) for eval and writes it
// into the heap.
func (d *pathData) assign(vals []int64) {
	clear(d.values)
	for j, v := range vals {
		*d.slot[j] = v
		d.values[d.syms[j]] = v
	}
}

// set assigns a model of φ_d and reports whether the path's data facts
// hold under it within int64; a fact the model falsifies is returned (the
// solver and the terms' semantics disagree: a violation).
func (d *pathData) set(vals []int64) (bool, *smt.Formula) {
	d.assign(vals)
	for _, f := range d.facts {
		v, ok := d.eval(f)
		if !ok {
			return false, nil
		}
		if v == 0 {
			return false, f
		}
	}
	return true, nil
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
