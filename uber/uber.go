// Package uber is uber-lazy's deferred engine U-DEFER (seed 004: Person,
// Rungta, Mercer, Hillery; ENGINES.md §6.2), on the shared machine: the
// heap-summary engine (package summary, variant fixed) with its Summarize
// step deferred from the read of an uninitialized field to the first use
// of the value read.
//
// # Design
//
// A state is a summary state (guarded value sets, path condition φ) plus
// the unresolved locations of Kiasan (machine.LocInfo.Unresolved,
// MayBeNull): an input object not yet decided to be null, a new object or
// an alias.
//
//   - Field access (A) on a field l_x.f still uninitialized (l_un in
//     L(R(l_x,f)) under φ_un) does what Summarize does with θ replaced by
//     one entry: a new unresolved location l_u of the field's class, read
//     guard ψ = φ_x ∧ φ_un (kept in its Exists), and
//     L(r_f) = {(ψ, l_u)} ∪ {(¬ψ ∧ φ_o, l_o) | (φ_o l_o) ∈ L(R(l_x,f))}
//     (θ_orig as in summary:fixed), R(l_x,f) = r_f; then VS as in A. No
//     branching, no candidates, no solver question beyond pruning.
//   - The first dereference (A, W: the receiver; Invoke: the receiver, V11)
//     or comparison (E: both operands) of a reference whose value set
//     names l_u under a satisfiable guard resolves l_u first, inside the
//     same step: every entry (g, l_u) of every value set becomes the
//     Summarize θ (θ_null, θ_new, θ_alias) over ρ(C) *at that time*
//     (view.ResolveDeferred). Then the summary rule runs unchanged.
//
// So a state never branches where GSE initializes, only where the summary
// engine does (A/A′, W/W′, E/E′, Invoke/Invoke′): one state per control,
// one path per control-flow sequence, exactly the summary engine's paths.
//
// The View (view.Deferred) resolves every unresolved location of a copy in
// creation order: the state the engine would reach by resolving all now.
// At k = −1 resolving late and resolving early give the same heaps (every
// object is a candidate of every other), so the View is exact at every
// step; at finite k the candidates differ with the time of resolution and
// the engine diverges from GSE as lazier# does (ENGINES.md §3.2, KB).
//
// W, E/E′ and Invoke/Invoke′ are the summary engine's own rules
// (summary.Engine, variant fixed), called after the resolution; Field
// access is written here because its Summarize is the step deferred.
//
// # Variants
//
//   - defer (default): as above.
//   - u-noalias: resolution without θ_alias (seed 004's Field access
//     (non-null) literally: null or a fresh object). Predicted to fail at
//     the first resolution that GSE could have made an alias (T11 forward:
//     `(this $ f) = this` is never true).
//   - u-newsym: a (new C) object's fields are unresolved instead of null
//     (seed 004's New). Emulated lazily: a field of a non-input location
//     that still holds the r_null New put there is read like an
//     uninitialized one. Predicted to fail at the first read of such a
//     field (the View has non-null heaps GSE never builds).
//
// Variants compose with "+" after "defer": "defer+u-noalias".
package uber

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/engine/guarded"
	"github.com/lockstep-dev/lockstep/engine/view"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

// Variants are the choices of ENGINES.md §6.2. The zero value is U-DEFER.
type Variants struct {
	// NoAlias: U-NOALIAS, θ_alias dropped at resolution.
	NoAlias bool
	// NewSym: U-NEWSYM, New's fields unresolved.
	NewSym bool
	// KBound: GSE's k-bound. A use of an unresolved location first
	// resolves every older one (creation order is read order), so each
	// location is resolved against exactly the input objects of the reads
	// before its own, as GSE initializes at the read (RULES.md §4), with
	// no fresh object beyond k by its depth at the read.
	KBound bool
}

// VariantInfo lists the selectable variants with their documentation.
var VariantInfo = []engine.Variant{
	{Name: "defer", Doc: "U-DEFER (ENGINES.md §6.2): a read stores an unresolved location; the first use resolves it by Summarize's θ over ρ(C) at that time"},
	{Name: "defer+u-noalias", Doc: "U-NOALIAS: resolution without θ_alias (seed 004 literally: null or fresh); predicted to fail"},
	{Name: "defer+u-newsym", Doc: "U-NEWSYM: a new object's fields are unresolved (seed 004's New); predicted to fail"},
	{Name: "defer+kbound", Doc: "GSE's k-bound: a use resolves every older unresolved location first, in read order, so the candidates are those of the read (exact with GSE at every k)"},
}

// ParseVariants reads "", "defer", or "defer" followed by "+u-noalias"
// and/or "+u-newsym" (the leading "defer" may be left out).
func ParseVariants(spec string) (Variants, error) {
	var v Variants
	if spec == "" {
		return v, nil
	}
	for i, name := range strings.Split(spec, "+") {
		switch {
		case name == "defer" && i == 0:
		case name == "u-noalias":
			v.NoAlias = true
		case name == "u-newsym":
			v.NewSym = true
		case name == "kbound":
			v.KBound = true
		default:
			return v, fmt.Errorf("uber: unknown variant %q in %q (variants: defer, defer+u-noalias, defer+u-newsym, defer+kbound, and their compositions)", name, spec)
		}
	}
	return v, nil
}

func (v Variants) String() string {
	n := "defer"
	if v.NoAlias {
		n += "+u-noalias"
	}
	if v.NewSym {
		n += "+u-newsym"
	}
	if v.KBound {
		n += "+kbound"
	}
	return n
}

// Stats are engine-level counts since the engine was created.
type Stats struct {
	Deferred int64 // unresolved locations created by Field access (A)
	Resolved int64 // resolutions (U-DEFER)
	Pruned   int64 // entries dropped as unsatisfiable with φ
}

// Engine is U-DEFER on the shared machine. It is not safe for concurrent
// use (its solver is not).
type Engine struct {
	K   int
	Var Variants
	// Mut is a single-point mutation (Mutations), MutNone for the engine
	// as specified.
	Mut Mutation

	opt    machine.Options
	solver *smt.Solver
	sum    *summary.Engine
	// sumWriteGuardPhi is summary:fixed+m-prim-write-guard-phi, built at
	// the first primitive write under MutPrimWriteGuardPhi.
	sumWriteGuardPhi *summary.Engine
	stats            Stats
}

var (
	_ machine.Engine   = (*Engine)(nil)
	_ engine.UnderTest = (*Engine)(nil)
)

// New returns the engine for a variant spec, k-bound k (k < 0: unbounded),
// common-rule options opt and a solver.
func New(variant string, k int, opt machine.Options, solver *smt.Solver) (*Engine, error) {
	v, err := ParseVariants(variant)
	if err != nil {
		return nil, err
	}
	sv, err := summary.Lookup("fixed")
	if err != nil {
		return nil, err
	}
	sv = sv.WithSemantics(opt)
	sv.InvokeExtendsEnv = opt.InvokeExtendsEnv
	return &Engine{K: k, Var: v, opt: opt, solver: solver, sum: summary.New(sv, k, solver)}, nil
}

// Options implements machine.Engine.
func (e *Engine) Options() machine.Options { return e.opt }

// Name implements machine.Engine: "uber:defer…", with "!mutation".
func (e *Engine) Name() string {
	n := "uber:" + e.Var.String()
	if e.Mut != MutNone {
		n += "!" + e.Mut.String()
	}
	return n
}

// Stats returns the counts so far.
func (e *Engine) Stats() Stats { return e.stats }

// View implements engine.UnderTest: view.Deferred (ENGINES.md §5.1 adapted
// to guarded states). u-noalias shares it: the View is the meaning of an
// unresolved location, which that variant's resolution breaks. Under
// u-newsym the fields New left null are unresolved locations first
// (newSymFields): that is the variant's New, which the machine's common
// rule cannot express.
func (e *Engine) View(s *machine.State) (*machine.State, error) {
	if e.Var.NewSym {
		s = newSymFields(s)
	}
	return view.Deferred(s, e.K)
}

// Shape implements engine.UnderTest: one state per control.
func (e *Engine) Shape() engine.Shape { return engine.OnePerControl }

func (e *Engine) sat(f *smt.Formula) (bool, error) {
	ok, err := e.solver.Sat(f)
	if err != nil {
		return false, fmt.Errorf("uber: S(%s): %w", smt.Short(f), err)
	}
	return ok, nil
}

// setPhi replaces the whole path condition of s (shared with summary and
// pose: package guarded).
var setPhi = guarded.SetPhi

func unresolved(s *machine.State, l machine.Loc) bool { return l >= 0 && s.Locs[l].Unresolved }

// resolveAt resolves every unresolved location that L(r) names under a
// guard satisfiable with φ (a use of r), and drops the entries of L(r)
// naming one under an unsatisfiable guard. s is modified in place.
func (e *Engine) resolveAt(s *machine.State, r machine.Ref) error {
	phi := s.PathCondition()
	var todo []machine.Loc
	var keep machine.GVS
	dropped := false
	for _, en := range s.Get(r) {
		if !unresolved(s, en.Loc) {
			keep = append(keep, en)
			continue
		}
		ok, err := e.sat(smt.And(en.Guard, phi))
		if err != nil {
			return err
		}
		if !ok {
			dropped = true
			e.stats.Pruned++
			continue
		}
		keep = append(keep, en)
		todo = append(todo, en.Loc)
	}
	if dropped {
		s.Set(r, keep)
	}
	if len(todo) == 0 {
		return nil
	}
	if e.Var.KBound {
		todo = e.olderFirst(s, todo)
	}
	for _, lu := range todo {
		// Rule: resolve (U-DEFER)
		before := snapshot(s, lu)
		phi = smt.And(phi, view.ResolveDeferred(s, lu, e.K, e.resolution()))
		e.stats.Resolved++
		if err := e.prune(s, before, phi); err != nil {
			return err
		}
	}
	setPhi(s, phi)
	return nil
}

// olderFirst is what a use resolves under kbound: the locations of todo
// and every unresolved location created before the youngest of them, in
// creation order. Locations are created at their reads, so a location is
// then resolved when no younger one is materialized, against the input
// objects of the reads before its own: the candidates of GSE's
// initialization at the same read (with its depth, kept since the read).
// A younger location read before an older one is resolved still sees the
// older one as a candidate, as GSE's later read sees the earlier object.
func (e *Engine) olderFirst(s *machine.State, todo []machine.Loc) []machine.Loc {
	youngest := slices.Max(todo)
	var out []machine.Loc
	for l := machine.Loc(0); l <= youngest; l++ {
		if unresolved(s, l) {
			out = append(out, l)
		}
	}
	return out
}

// resolution is the Resolution of the engine's variant and mutation.
func (e *Engine) resolution() view.Resolution {
	res := view.Resolution{NoAlias: e.Var.NoAlias}
	switch e.Mut {
	case MutDropNull:
		res.DropNull = true
	case MutNewIgnoresAliases:
		res.NewIgnoresAliases = true
	case MutNoWidenNoIdle:
		res.NoWiden, res.NoIdleNull = true, true
	case MutAliasAll:
		res.AliasAll = true
	case MutResolvePrimDefaults:
		res.NoPrimSymbols = true
	}
	return res
}

// snapshot lists the references whose value set names lu: the ones a
// resolution of lu rewrites.
func snapshot(s *machine.State, lu machine.Loc) []machine.Ref {
	var out []machine.Ref
	for i, g := range s.L {
		for _, en := range g {
			if en.Loc == lu {
				out = append(out, machine.Ref(i-2))
				break
			}
		}
	}
	return out
}

// prune drops the entries of the rewritten value sets whose guard is
// unsatisfiable with φ (RULES.md §6 allows it; it keeps later queries
// small). A value set is never left empty: if every entry goes, the
// reference is not live in any world of φ and keeps its entries.
func (e *Engine) prune(s *machine.State, refs []machine.Ref, phi *smt.Formula) error {
	for _, r := range refs {
		var ng machine.GVS
		changed := false
		for _, en := range s.Get(r) {
			ok, err := e.sat(smt.And(en.Guard, phi))
			if err != nil {
				return err
			}
			if ok {
				ng = append(ng, en)
			} else {
				changed = true
				e.stats.Pruned++
			}
		}
		if changed && len(ng) > 0 {
			s.Set(r, ng)
		}
	}
	return nil
}

// uninitialized returns the guard under which L(R(l,f)) holds l_un (nil if
// it does not), and whether the field is uninitialized at all. Under
// u-newsym, a field of a (new C) location still holding the r_null New put
// there counts as uninitialized under true.
func (e *Engine) uninitialized(s *machine.State, l machine.Loc, f *javalite.Field) *smt.Formula {
	rf := s.Field(l, f)
	if e.Var.NewSym && rf == machine.RNull && !s.Locs[l].Input {
		return smt.True()
	}
	for _, en := range s.Get(rf) {
		if en.Loc == machine.LUn {
			return en.Guard
		}
	}
	return nil
}

// deferRead is Field access (A)'s initialization with Summarize deferred:
// for every non-null location l_x of L(r) (least first, as →S* takes
// min_l UN) whose field f holds l_un under φ_un with φ_x ∧ φ_un ∧ φ'_g
// satisfiable, a new unresolved location l_u with read guard
// ψ = φ_x ∧ φ_un, and R(l_x,f) = r_f with
// L(r_f) = {(ψ, l_u)} ∪ {(¬ψ ∧ φ_o, l_o) | (φ_o l_o) ∈ L(R(l_x,f))}.
func (e *Engine) deferRead(s *machine.State, r machine.Ref, f *javalite.Field, phiP *smt.Formula) error {
	entries := append(machine.GVS(nil), s.Get(r)...)
	for i := 1; i < len(entries); i++ {
		for j := i; j > 0 && entries[j].Loc < entries[j-1].Loc; j-- {
			entries[j], entries[j-1] = entries[j-1], entries[j]
		}
	}
	for _, x := range entries {
		if x.Loc < 0 {
			continue
		}
		un := e.uninitialized(s, x.Loc, f)
		if un == nil {
			continue
		}
		psi := smt.And(x.Guard, un)
		if e.Mut == MutReadGuardAccess {
			psi = x.Guard
		}
		ok, err := e.sat(smt.And(psi, phiP))
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		// Rule: Field access (A), deferred Summarize (U-DEFER)
		orig := s.Get(s.Field(x.Loc, f))
		lu := s.NewLoc(machine.LocInfo{Class: f.Class, Unresolved: true, MayBeNull: true,
			Depth: s.Locs[x.Loc].Depth + 1, Exists: psi}, machine.RUn)
		e.stats.Deferred++
		rf := s.InitR()
		g := machine.GVS{{Guard: psi, Loc: lu}}
		if e.Mut != MutDropOrig {
			for _, o := range orig {
				og := smt.And(smt.Not(psi), o.Guard)
				ok, err := e.sat(smt.And(og, phiP))
				if err != nil {
					return err
				}
				if ok {
					g = g.Merge(og, o.Loc)
				} else {
					e.stats.Pruned++
				}
			}
		}
		s.Set(rf, g)
		s.SetField(x.Loc, f, rf)
	}
	return nil
}

// nullGuards is θ_0 (the satisfiable null guards of L(r) under φ) and
// whether some non-null entry is satisfiable, after resolution
// (guarded.NullGuards); an unresolved location left in L(r) is an error.
func (e *Engine) nullGuards(s *machine.State, r machine.Ref, phi *smt.Formula) (theta0 []*smt.Formula, nonNull bool, err error) {
	return guarded.NullGuards(guarded.Asker{Name: "uber", Sat: e.sat, Check: func(s *machine.State, r machine.Ref, l machine.Loc) error {
		if unresolved(s, l) {
			return fmt.Errorf("uber: L(%s) names unresolved %v after resolution", machine.RefString(r), l)
		}
		return nil
	}}, s, r, phi)
}

// FieldAccess implements Field access (A) and (A′) (RULES.md §6) with the
// receiver resolved first and the read's Summarize deferred.
func (e *Engine) FieldAccess(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
	f := fa.Field
	if !f.IsPrim() || e.Mut != MutPrimReadNoResolve {
		if err := e.resolveAt(s, r); err != nil {
			return nil, err
		}
	}
	if f.IsPrim() {
		// Rule: Field access (A) on a primitive field — summary:fixed's
		// (PRIMITIVES.md §4: uber is heap summaries there; nothing to
		// defer, a primitive field holds its term from the start).
		return e.sum.FieldAccess(s, r, fa, k)
	}
	return guarded.Pair(s, r, e.nullGuards, func(sa *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		// Rule: Field access (A)
		phiP := p.PhiPrime() // φ'_g
		if err := e.deferRead(sa, r, f, phiP); err != nil {
			return nil, err
		}
		var vs machine.GVS // VS(L,R,φ'_g,r,f)
		for _, en := range sa.Get(r) {
			if en.Loc < 0 {
				continue
			}
			for _, en2 := range sa.Get(sa.Field(en.Loc, f)) {
				g := smt.And(en.Guard, en2.Guard)
				ok, err := e.sat(smt.And(g, phiP))
				if err != nil {
					return nil, err
				}
				if ok {
					vs = vs.Merge(g, en2.Loc)
				}
			}
		}
		r2 := sa.StackR()
		sa.Set(r2, vs)
		setPhi(sa, phiP)
		sa.SetValue(machine.RefVal(r2), k)
		return []machine.Succ{{S: sa, Rule: machine.RuleFieldA}}, nil
	}, func(s *machine.State, p guarded.Premises) ([]machine.Succ, error) {
		// Rule: Field access (A′)
		guarded.ErrorEnd(s, p.PhiG, p.Theta0, false)
		return []machine.Succ{{S: s, Rule: machine.RuleFieldANull}}, nil
	})
}

// FieldWrite implements Field write (W) and (W′): the receiver is resolved
// (a dereference), the written value is not (it is only copied, as in
// Kiasan; seed 004's resolution of the written value is a use nothing
// needs), then summary:fixed's W/W′.
func (e *Engine) FieldWrite(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont) ([]machine.Succ, error) {
	rx, err := guarded.WriteReceiver("uber", s, fw)
	if err != nil {
		return nil, err
	}
	if e.Mut != MutWriteNoResolve {
		if err := e.resolveAt(s, rx); err != nil {
			return nil, err
		}
	}
	// Rule: Field write (W), Field write (W′) — summary:fixed's
	if e.Mut == MutPrimWriteGuardPhi && fw.Field.IsPrim() {
		return e.writeGuardPhi().FieldWrite(s, r, fw, k)
	}
	return e.sum.FieldWrite(s, r, fw, k)
}

// writeGuardPhi is the summary engine of MutPrimWriteGuardPhi: summary's
// own mutant of W on a primitive field, which in uber is that rule.
func (e *Engine) writeGuardPhi() *summary.Engine {
	if e.sumWriteGuardPhi == nil {
		v := e.sum.Variant()
		v.Mutation.PrimWriteGuardPhi = true
		e.sumWriteGuardPhi = summary.New(v, e.K, e.solver)
	}
	return e.sumWriteGuardPhi
}

// Feasible implements machine.PathCond (If (sym), Assume): summary:fixed's.
func (e *Engine) Feasible(s *machine.State, t *smt.Formula) (bool, error) {
	return e.sum.Feasible(s, t)
}

// Strengthen implements machine.PathCond: summary:fixed's.
func (e *Engine) Strengthen(s *machine.State, t *smt.Formula) { e.sum.Strengthen(s, t) }

// EqualsRef implements Equals (E) and (E′): both operands are resolved
// (left first), then summary:fixed's E/E′.
func (e *Engine) EqualsRef(s *machine.State, r0, r1 machine.Ref, eq *javalite.Equals, k *machine.Kont) ([]machine.Succ, error) {
	if err := e.resolveAt(s, r0); err != nil {
		return nil, err
	}
	if e.Mut != MutEqualsLeftOnly {
		if err := e.resolveAt(s, r1); err != nil {
			return nil, err
		}
	}
	// Rule: Equals (E), Equals (E′) — summary:fixed's
	return e.sum.EqualsRef(s, r0, r1, eq, k)
}

// Invoke implements Invoke and Invoke′ (RULES.md §3, V11 Java reading):
// the receiver is resolved (a call is a use of it: θ_0 needs its null
// case), then summary:fixed's θ_0 over its value set: Invoke′ to error
// under φ ∧ ⋁θ_0, Invoke (machine.EnterMethod) under φ ∧ ⋀¬θ_0.
func (e *Engine) Invoke(s *machine.State, r machine.Ref, args []machine.Value, c *javalite.Call, k *machine.Kont) ([]machine.Succ, error) {
	if err := e.resolveAt(s, r); err != nil {
		return nil, err
	}
	// Rule: Invoke, Invoke′ — summary:fixed's
	return e.sum.Invoke(s, r, args, c, k)
}
