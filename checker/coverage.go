package checker

import (
	"context"
	"fmt"
	"io"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Rule coverage of a program stream: which data rules of PRIMITIVES.md a
// stream reaches, in which outcome. A data rule the generator never
// reaches is a rule no hunt checks: a mutant there survives every stream.
//
// Each program is explored, without the checker, by three engines: GSE at
// CoverageOptions.K for the common rules (PRIMITIVES.md §3: Int, Binary,
// Equals (prim), If (sym), Assume, the same in every engine), the summary
// engine (summary:fixed) at K for the heap rules on primitive fields
// (§4: a read or a write through a receiver with several targets shows as
// an ite over their guards), and POSE-J (pose:world-exact, k = −1) for the
// terms its View builds (an ite on a negated condition, which smt.Ite
// rewrites: counted by smt.IteNegations, so DataCoverage must not run
// beside other work that builds terms in the same process). Every step's
// redex and successors are classified into the items of CoverageItems.

// CoverageItem is one data rule in one outcome.
type CoverageItem struct {
	Name   string // short key, as printed
	Rule   string // the rule of PRIMITIVES.md
	Engine string // the engine whose steps show it
	What   string // the outcome
}

// CoverageItems are the items measured, in table order.
var CoverageItems = []CoverageItem{
	{"int", machine.RuleInt, "gse", "an integer literal evaluated"},
	{"add", machine.RuleBinary, "gse", "+ on a symbolic operand (a term)"},
	{"sub", machine.RuleBinary, "gse", "- on a symbolic operand (a term)"},
	{"lt", machine.RuleBinary, "gse", "< on a symbolic operand (a term)"},
	{"le", machine.RuleBinary, "gse", "<= on a symbolic operand (a term)"},
	{"binary-fold", machine.RuleBinary, "gse", "an operation on two literals, folded"},
	{"eq-int", machine.RuleEqPrim, "gse", "= on int operands, a term"},
	{"eq-bool", machine.RuleEqPrim, "gse", "= on bool operands, a term"},
	{"eq-fold", machine.RuleEqPrim, "gse", "= on two literals, folded"},
	{"if-both", machine.RuleIfSym, "gse", "both branches feasible (two successors)"},
	{"if-then", machine.RuleIfSym, "gse", "only the then branch feasible"},
	{"if-else", machine.RuleIfSym, "gse", "only the else branch feasible"},
	{"assume-kept", machine.RuleAssume, "gse", "a symbolic condition, feasible: the path goes on"},
	{"assume-pruned", machine.RuleAssume, "gse", "a symbolic condition, infeasible: the path is pruned"},
	{"assume-literal", machine.RuleAssume, "gse", "a literal condition (true goes on, false prunes)"},
	{"read-prim", machine.RuleFieldA, "summary:fixed", "a primitive field read through a receiver with one target"},
	{"read-prim-aliased", machine.RuleFieldA, "summary:fixed", "a primitive field read through a possibly aliased receiver (an ite over its targets)"},
	{"write-prim", machine.RuleWriteW, "summary:fixed", "a primitive field written through a receiver with one target"},
	{"write-prim-aliased", machine.RuleWriteW, "summary:fixed", "a primitive field written through a possibly aliased receiver (a guarded ite)"},
	{"view-ite-not", "View", "pose", "the View of a POSE-J state builds an ite on a negated condition (smt.Ite's rewriting)"},
}

// CoverageOptions bound the explorations of DataCoverage.
type CoverageOptions struct {
	K         int // k-bound of GSE and the summary engine (0: 2, the papers')
	Steps     int // step bound of every engine (0: 150)
	MaxStates int // states explored per engine and program (0: 20000)
}

// Coverage is the rule coverage of a stream.
type Coverage struct {
	Programs int
	// Reached counts, per item name, the programs that reach it, and
	// First is the index of the first one (absent: never reached).
	Reached map[string]int
	First   map[string]int
	// Cut counts the explorations stopped by MaxStates (their programs
	// may reach more than counted).
	Cut int
}

// Missing lists the items no program reached, in table order.
func (c *Coverage) Missing() []string {
	var out []string
	for _, it := range CoverageItems {
		if c.Reached[it.Name] == 0 {
			out = append(out, it.Name)
		}
	}
	return out
}

// Write prints the coverage table.
func (c *Coverage) Write(w io.Writer) {
	fmt.Fprintf(w, "data rule coverage of %d programs (%d explorations cut by the state bound):\n", c.Programs, c.Cut)
	fmt.Fprintf(w, "  %-19s %-19s %-14s %8s %6s  %s\n", "item", "rule", "engine", "programs", "first", "outcome")
	for _, it := range CoverageItems {
		first := "–"
		if f, ok := c.First[it.Name]; ok {
			first = fmt.Sprint(f)
		}
		fmt.Fprintf(w, "  %-19s %-19s %-14s %8d %6s  %s\n", it.Name, it.Rule, it.Engine, c.Reached[it.Name], first, it.What)
	}
	if m := c.Missing(); len(m) > 0 {
		fmt.Fprintf(w, "not reached: %v\n", m)
	}
}

// DataCoverage measures the rule coverage of progs (in order: First is an
// index into progs). A nil solver is allowed.
func DataCoverage(ctx context.Context, progs []*javalite.Program, opt CoverageOptions, solver *smt.Solver) (*Coverage, error) {
	if opt.K == 0 {
		opt.K = engine.PapersK
	}
	if opt.Steps == 0 {
		opt.Steps = 150
	}
	if opt.MaxStates == 0 {
		opt.MaxStates = 20000
	}
	solver, release, err := solverFor(ctx, solver)
	if err != nil {
		return nil, err
	}
	defer release()
	cov := &Coverage{Programs: len(progs), Reached: map[string]int{}, First: map[string]int{}}
	for i, p := range progs {
		if !machine.UsesData(p) {
			continue // no data rule can apply
		}
		seen := map[string]bool{}
		for _, e := range []struct {
			spec string
			k    int
		}{{"gse", opt.K}, {"summary:fixed", opt.K}, {"pose:world-exact", -1}} {
			eng, err := engine.New(e.spec, engine.Config{K: e.k, Solver: solver})
			if err != nil {
				return nil, err
			}
			cut, err := coverProgram(ctx, p, eng, e.spec, opt, seen)
			if err != nil {
				return nil, fmt.Errorf("program %d under %s: %w", i, e.spec, err)
			}
			if cut {
				cov.Cut++
			}
		}
		for name := range seen {
			cov.Reached[name]++
			if _, ok := cov.First[name]; !ok {
				cov.First[name] = i
			}
		}
	}
	return cov, nil
}

// coverProgram explores p with eng depth first and marks in seen the
// items its steps show; cut reports that MaxStates stopped it.
func coverProgram(ctx context.Context, p *javalite.Program, eng engine.UnderTest, spec string, opt CoverageOptions, seen map[string]bool) (cut bool, err error) {
	mopt := eng.Options()
	isPose := spec == "pose:world-exact"
	work := []*machine.State{machine.Initial(p)}
	states := 0
	for len(work) > 0 {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if s.Terminal() || s.Mode == machine.ModePruned || s.Steps >= opt.Steps {
			continue
		}
		if states++; states > opt.MaxStates {
			return true, nil
		}
		succ, err := machine.Step(s.Clone(), eng, mopt)
		if err != nil {
			// A stuck state or an engine's refusal ends this path; the
			// coverage of the others still counts.
			continue
		}
		switch spec {
		case "gse":
			coverCommon(s, succ, seen)
		case "summary:fixed":
			coverHeap(s, succ, seen)
		}
		for _, x := range succ {
			if isPose {
				before := smt.IteNegations()
				if _, err := eng.View(x.S); err == nil && smt.IteNegations() > before {
					seen["view-ite-not"] = true
				}
			}
			work = append(work, x.S)
		}
	}
	return false, nil
}

// literal reports whether a primitive value is a literal (true, false, an
// integer), not a term over input symbols.
func literal(v machine.Value) bool {
	return v.IsBool() || (v.IsTerm() && v.Term().Op() == smt.OpInt)
}

// coverCommon classifies one GSE step by the common data rules.
func coverCommon(s *machine.State, succ []machine.Succ, seen map[string]bool) {
	if s.Mode == machine.ModeExpr {
		if _, ok := s.Expr.(*javalite.IntLit); ok && len(succ) == 1 && succ[0].Rule == machine.RuleInt {
			seen["int"] = true
		}
		return
	}
	if s.Mode != machine.ModeValue || s.K == nil {
		return
	}
	k := s.K
	switch k.Kind {
	case machine.KBinR:
		b, ok := k.Expr.(*javalite.Binary)
		if !ok || len(succ) != 1 || succ[0].Rule != machine.RuleBinary {
			return
		}
		if literal(k.Val) && literal(s.Val) {
			seen["binary-fold"] = true
			return
		}
		seen[[...]string{javalite.OpAdd: "add", javalite.OpSub: "sub", javalite.OpLt: "lt", javalite.OpLe: "le"}[b.Op]] = true
	case machine.KEqR:
		if len(succ) != 1 || succ[0].Rule != machine.RuleEqPrim {
			return
		}
		switch {
		case literal(k.Val) && literal(s.Val):
			seen["eq-fold"] = true
		case s.Val.IsBool() || (s.Val.IsTerm() && s.Val.Term().Sort() == smt.SortBool):
			seen["eq-bool"] = true
		default:
			seen["eq-int"] = true
		}
	case machine.KIf:
		if !s.Val.IsTerm() || literal(s.Val) {
			return
		}
		e, ok := k.Expr.(*javalite.If)
		if !ok {
			return
		}
		switch {
		case len(succ) == 2:
			seen["if-both"] = true
		case len(succ) == 1 && succ[0].S.Mode == machine.ModeExpr && succ[0].S.Expr == e.Then:
			seen["if-then"] = true
		case len(succ) == 1:
			seen["if-else"] = true
		}
	case machine.KAssume:
		switch {
		case literal(s.Val):
			seen["assume-literal"] = true
		case len(succ) == 0:
			seen["assume-pruned"] = true
		default:
			seen["assume-kept"] = true
		}
	}
}

// coverHeap classifies one summary-engine step by the heap rules on
// primitive fields: a read whose value is an ite over the receiver's
// targets, a write that leaves a guarded ite in a field.
func coverHeap(s *machine.State, succ []machine.Succ, seen map[string]bool) {
	for _, x := range succ {
		switch x.Rule {
		case machine.RuleFieldA:
			if x.S.Mode != machine.ModeValue || !x.S.Val.IsPrim() {
				continue
			}
			if x.S.Val.IsTerm() && hasOp(x.S.Val.Term(), smt.OpIte) {
				seen["read-prim-aliased"] = true
			} else {
				seen["read-prim"] = true
			}
		case machine.RuleWriteW:
			if s.Mode != machine.ModeValue || !s.Val.IsPrim() {
				continue
			}
			aliased := false
			for i, t := range x.S.Prim {
				if t != nil && (i >= len(s.Prim) || s.Prim[i] != t) && hasOp(t, smt.OpIte) {
					aliased = true
				}
			}
			if aliased {
				seen["write-prim-aliased"] = true
			} else {
				seen["write-prim"] = true
			}
		}
	}
}

// hasOp reports whether op occurs in f (formulas are shared DAGs: each
// node is visited once).
func hasOp(f *smt.Formula, op smt.Op) bool {
	return anyNode(f, func(g *smt.Formula) bool { return g.Op() == op })
}

func anyNode(f *smt.Formula, pred func(*smt.Formula) bool) bool {
	seen := map[*smt.Formula]bool{}
	var walk func(g *smt.Formula) bool
	walk = func(g *smt.Formula) bool {
		if seen[g] {
			return false
		}
		seen[g] = true
		if pred(g) {
			return true
		}
		for _, k := range g.Kids() {
			if walk(k) {
				return true
			}
		}
		return false
	}
	return walk(f)
}
