package checker

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
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
// Budget: a program has at most opt.OracleMax paths run (default
// DefaultOracleMax); beyond half of it only every oracleStride-th path is
// run (a deterministic sample). Checked[ORC] counts the paths run.

// DefaultOracleMax is the default number of concrete runs per program.
const DefaultOracleMax = 2000

const oracleStride = 16

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
		for _, f := range info.Class.Fields {
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
			h.Objects = append(h.Objects, concrete.Object{Class: info.Class, Fields: fs})
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

// concreteData says whether the concrete interpreter runs programs with
// data (PRIMITIVES.md §6). Until it does, ORC is not checked on them (not
// counted either, so a report never claims it), rather than reporting the
// interpreter's missing rules as violations.
const concreteData = false

// oracle checks ORC on a separate exploration of GSE.
func (r *run) oracle() error {
	if r.opt.NoOracle || (r.data && !concreteData) {
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
			runs++
			if err := r.oracleRun(p, end, op, kind, bound); err != nil {
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
	return nil
}

// oracleRun runs the concrete interpreter on one terminal GSE path.
func (r *run) oracleRun(p *javalite.Program, end *machine.State, op oraclePath, kind machine.EndKind, bound int) error {
	h, obj, err := concretization(end, op.inputs)
	if err != nil {
		return fmt.Errorf("ORC: %w", err) // a broken GSE state: a failure of the tool
	}
	if bound < 0 {
		bound = end.Steps + 1 // the GSE path ended on its own; so must the run
	}
	res, err := concrete.InterpretWith(p, h, bound, r.mopt)
	if err != nil {
		return r.fail(Verdict{Lemma: ORC, Rule: op.rule, Step: end.Steps, Control: end.ControlString(),
			GSE: []*machine.State{end.CloneDeep()}, Witness: "input heap " + h.String(),
			Reason: "the concrete interpreter cannot run the concretization of this GSE path: " + err.Error()})
	}
	want := gseEnd{kind: kind, steps: end.Steps}
	if kind == machine.EndValue {
		want.value = gseValue(end, obj)
	}
	got := gseEnd{kind: res.Kind, steps: res.Steps, value: res.Value}
	if got.kind != machine.EndValue {
		got.value = concrete.Value{}
	}
	if want == got {
		return nil
	}
	return r.fail(Verdict{Lemma: ORC, Rule: op.rule, Step: end.Steps, Control: end.ControlString(),
		GSE: []*machine.State{end.CloneDeep()}, Witness: "input heap " + h.String(),
		Reason: fmt.Sprintf("the GSE path ends %s; the concrete interpreter on its input heap ends %s", want, got)})
}

type gseEnd struct {
	kind  machine.EndKind
	steps int
	value concrete.Value
}

func (e gseEnd) String() string {
	if e.kind == machine.EndValue {
		return fmt.Sprintf("with value %s after %d steps", e.value, e.steps)
	}
	return fmt.Sprintf("%s after %d steps", e.kind, e.steps)
}

// gseValue is the terminal value of a GSE state as a concrete value.
func gseValue(s *machine.State, obj map[machine.Loc]int) concrete.Value {
	if s.Val.IsBool() {
		return concrete.Value{IsBool: true, Bool: s.Val == machine.VTrue}
	}
	l := s.Get(s.Val.Ref())[0].Loc
	if l == machine.LNull {
		return concrete.Value{Obj: concrete.Null}
	}
	return concrete.Value{Obj: obj[l]}
}

// gseFailed turns a GSE step that cannot be taken into a violation of ORC:
// the rules as configured have no successor for a state they produced from
// a well-typed program, while the concrete interpreter runs every
// well-typed program to an end (a value, an error, or the step bound). Only
// a broken common or GSE rule gets here (an Invoke that resumes the caller
// in the callee's environment leaves the caller's locals unbound), and as a
// verdict it shrinks like any other.
func (r *run) gseFailed(p *machine.State, err error) error {
	return r.fail(Verdict{Lemma: ORC, Step: p.Steps + 1, Control: p.ControlString(),
		GSE:    []*machine.State{p},
		Reason: "GSE cannot take a step the concrete interpreter takes (it runs every well-typed program to an end): " + err.Error()})
}
