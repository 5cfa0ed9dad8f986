package kiasan

import (
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// RuleInvokeNull is RULES.md §3's Invoke′ (Java reading V11), as the
// machine names it.
const RuleInvokeNull = machine.RuleInvokeNull

// Names of the steps the seed gives no rule for (see the package doc).
const (
	initSymRef = "init-sym-ref*"
	initSymLoc = "init-sym-loc*"
)

func one(s *machine.State, rule string) []machine.Succ {
	return []machine.Succ{{S: s, Rule: rule}}
}

// resolveNames are the seed-002 rules of resolving l_u at an instruction
// whose rules are named base-A (lazier's δ) and base-B (lazier#'s δ̂): a δ̂
// is first init-sym-ref*'d (base-B), then init-sym-loc*'d (base-A). A δ̂
// known non-null after a null test is a δ.
func resolveNames(s *machine.State, lu machine.Loc, base string) []string {
	if s.Locs[lu].MayBeNull {
		return []string{base + "-B", base + "-A"}
	}
	return []string{base + "-A"}
}

// symNames are resolveNames for instructions the seed names no rule for.
func symNames(s *machine.State, lu machine.Loc) []string {
	if s.Locs[lu].MayBeNull {
		return []string{initSymRef, initSymLoc}
	}
	return []string{initSymLoc}
}

func with(pre []string, more ...string) []string {
	return append(append([]string(nil), pre...), more...)
}

// FieldAccess implements A and A′ of ENGINES.md §3.2.
func (e *Engine) FieldAccess(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
	l, err := only(s, r)
	if err != nil {
		return nil, err
	}
	if l == machine.LNull {
		// Rule: Field access (A′) / GETFIELD7-S
		s.SetError()
		return one(s, ruleName(machine.RuleFieldANull, []string{"GETFIELD7-S"})), nil
	}
	prim := fa.Field.IsPrim()
	if !unresolved(s, l) {
		if prim {
			return []machine.Succ{readPrim(s, l, fa.Field, k, nil)}, nil
		}
		return e.read(s, l, fa.Field, k, nil), nil
	}
	if prim && e.Mut == MutPrimNoResolve {
		// Mutant prim-read-no-resolve: no RESOLVE, the δ's own α(l_u, f).
		s.SetValue(machine.PrimVal(machine.InitialValue(s.Locs[l].Identity, fa.Field)), k)
		return one(s, ruleName(machine.RuleFieldA, []string{"GETFIELD1-S"})), nil
	}
	// Rule: Field access (A) / GETFIELD1-A (lazier: init-sym-loc* on δ)
	// Rule: Field access (A) / GETFIELD1-B, GETFIELD1-A (lazier#: init-sym-ref* on δ̂, then init-sym-loc*)
	maybeNull := s.Locs[l].MayBeNull
	pre := resolveNames(s, l, "GETFIELD1")
	var out []machine.Succ
	for _, res := range e.resolve(s, l, r, maybeNull) {
		if res.null {
			// Rule: Field access (A′) / GETFIELD1-B, GETFIELD7-S
			res.s.SetError()
			out = append(out, machine.Succ{S: res.s, Rule: ruleName(machine.RuleFieldANull, []string{"GETFIELD1-B", "GETFIELD7-S"})})
			continue
		}
		if prim {
			// Rule: Field access (A) on a primitive field / GETFIELD1-A, GETFIELD1-S
			out = append(out, readPrim(res.s, res.to, fa.Field, k, pre))
			continue
		}
		out = append(out, e.read(res.s, res.to, fa.Field, k, pre)...)
	}
	return out, nil
}

// read is getfield on a location l that is not unresolved: the value of a
// defined field (GETFIELD1-S), or the lazier / lazier# initialization of an
// uninitialized one. The result is r' = stack_r() with L(r') = L(R(l,f)).
func (e *Engine) read(s *machine.State, l machine.Loc, f *javalite.Field, k *machine.Kont, pre []string) []machine.Succ {
	result := func(b *machine.State, rf machine.Ref, rule string) machine.Succ {
		r2 := b.StackR()
		b.Set(r2, b.Get(rf))
		b.SetValue(machine.RefVal(r2), k)
		return machine.Succ{S: b, Rule: ruleName(machine.RuleFieldA, with(pre, rule))}
	}
	cur := s.Field(l, f)
	if g := s.Get(cur); len(g) != 1 || g[0].Loc != machine.LUn {
		// Rule: Field access (A) / GETFIELD1-S
		return []machine.Succ{result(s, cur, "GETFIELD1-S")}
	}
	ru := s.InitR()
	var out []machine.Succ
	if e.Mode == Lazier && e.Mut != MutNoNullAtRead {
		// Rule: Field access (A) / GETFIELD3-S (lazier: the field is NULL)
		b := s.Clone()
		rn := b.FreshR()
		b.Set(rn, machine.Single(machine.LNull))
		b.SetField(l, f, rn)
		b.AddFact(smt.Eq(ru, machine.RNull))
		out = append(out, result(b, rn, "GETFIELD3-S"))
	}
	// Rule: Field access (A) / GETFIELD2-A (lazier: a fresh δ^{m−1,k}, non-null)
	// Rule: Field access (A) / GETFIELD2-B (lazier#: a fresh δ̂^{m−1,k}, maybe null)
	// Created even beyond the k-bound, as in Kiasan: the bound only
	// removes "fresh" at RESOLVE.
	sharp := e.Mode == LazierSharp
	lu := s.NewLoc(machine.LocInfo{Class: f.Class, Unresolved: true, MayBeNull: sharp, Depth: s.Locs[l].Depth + 1}, machine.RUn)
	s.Locs[lu].Identity = ru // NewLoc clears it for non-input locations
	s.Set(ru, machine.Single(lu))
	rf := s.FreshR()
	s.Set(rf, machine.Single(lu))
	s.SetField(l, f, rf)
	rule := "GETFIELD2-B"
	if !sharp {
		s.AddFact(smt.Neq(ru, machine.RNull))
		rule = "GETFIELD2-A"
	}
	return append(out, result(s, rf, rule))
}

// FieldWrite implements W and W′ of ENGINES.md §3.2. The written value is
// never resolved: seed 002's Figs. 4 and 6 keep the swapped values
// symbolic (ê₀, ê₁), although C.2.2's prose says all symbolic operands are
// initialized first (see docs/KIASAN.md).
func (e *Engine) FieldWrite(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont) ([]machine.Succ, error) {
	rx := s.Env[fw.Slot].Ref()
	l, err := only(s, rx)
	if err != nil {
		return nil, err
	}
	if l == machine.LNull {
		// Rule: Field write (W′) / PUTFIELD2-S
		s.SetError()
		return one(s, ruleName(machine.RuleWriteWNull, []string{"PUTFIELD2-S"})), nil
	}
	if !unresolved(s, l) {
		if fw.Field.IsPrim() {
			return []machine.Succ{writePrim(s, l, fw.Field, k, nil)}, nil
		}
		return []machine.Succ{write(s, l, r, fw.Field, k, nil)}, nil
	}
	// Rule: Field write (W) / init-sym-loc*, PUTFIELD1-S (a δ receiver)
	// Rule: Field write (W) / init-sym-ref*, init-sym-loc*, PUTFIELD1-S (a δ̂ receiver)
	maybeNull := s.Locs[l].MayBeNull
	pre := symNames(s, l)
	var out []machine.Succ
	for _, res := range e.resolve(s, l, rx, maybeNull) {
		if res.null {
			// Rule: Field write (W′) / init-sym-ref*, PUTFIELD2-S
			res.s.SetError()
			out = append(out, machine.Succ{S: res.s, Rule: ruleName(machine.RuleWriteWNull, []string{initSymRef, "PUTFIELD2-S"})})
			continue
		}
		if fw.Field.IsPrim() {
			// Rule: Field write (W) on a primitive field / init-sym-loc*, PUTFIELD1-S
			out = append(out, writePrim(res.s, res.to, fw.Field, k, pre))
			continue
		}
		out = append(out, write(res.s, res.to, r, fw.Field, k, pre))
	}
	return out, nil
}

// write is GSE's W on a resolved receiver l.
func write(s *machine.State, l machine.Loc, r machine.Ref, f *javalite.Field, k *machine.Kont, pre []string) machine.Succ {
	// Rule: Field write (W) / PUTFIELD1-S
	r2 := s.FreshR()
	s.Set(r2, s.Get(r))
	s.SetField(l, f, r2)
	s.SetValue(machine.RefVal(r), k)
	return machine.Succ{S: s, Rule: ruleName(machine.RuleWriteW, with(pre, "PUTFIELD1-S"))}
}

func isNullLit(x javalite.Expr) bool {
	lit, ok := x.(*javalite.Lit)
	return ok && lit.Kind == javalite.LitNull
}

// isNew reports whether l was made by (new C).
func isNew(s *machine.State, l machine.Loc) bool {
	return l >= 0 && !s.Locs[l].Input && !s.Locs[l].Unresolved
}

func equal(s *machine.State, r0, r1 machine.Ref, k *machine.Kont, seed ...string) machine.Succ {
	s.AddFact(smt.Eq(r0, r1))
	s.SetValue(machine.VTrue, k)
	return machine.Succ{S: s, Rule: ruleName(machine.RuleEqualsE, seed)}
}

func unequal(s *machine.State, r0, r1 machine.Ref, k *machine.Kont, seed ...string) machine.Succ {
	s.AddFact(smt.Neq(r0, r1))
	s.SetValue(machine.VFalse, k)
	return machine.Succ{S: s, Rule: ruleName(machine.RuleEqualsENot, seed)}
}

// EqualsRef implements E and E′ of ENGINES.md §3.2. A comparison in
// which one operand is null (l_null) is Kiasan's IFNULL on the other; any
// other reference comparison is IF_ACMPEQ. Variant ifnull-syntactic takes
// javac's reading instead: only a comparison with the literal null is
// IFNULL (see docs/KIASAN.md); acmp-null-full makes every comparison
// IF_ACMPEQ.
func (e *Engine) EqualsRef(s *machine.State, r0, r1 machine.Ref, eq *javalite.Equals, k *machine.Kont) ([]machine.Succ, error) {
	l0, err := only(s, r0)
	if err != nil {
		return nil, err
	}
	l1, err := only(s, r1)
	if err != nil {
		return nil, err
	}
	if !e.Var.AcmpNullFull {
		null0, null1 := l0 == machine.LNull, l1 == machine.LNull
		if e.Var.IfnullSyntactic {
			null0, null1 = isNullLit(eq.L), isNullLit(eq.R)
		}
		if null0 || null1 {
			x, rx := l0, r0
			if null0 {
				x, rx = l1, r1
			}
			return e.nullTest(s, r0, r1, x, rx, k), nil
		}
	}
	return e.acmpeq(s, r0, r1, l0, l1, k), nil
}

// nullTest is IFNULL on the operand x (held by rx).
func (e *Engine) nullTest(s *machine.State, r0, r1 machine.Ref, x machine.Loc, rx machine.Ref, k *machine.Kont) []machine.Succ {
	switch {
	case x == machine.LNull:
		// Rule: Equals (E) / IFNULL2-S
		return []machine.Succ{equal(s, r0, r1, k, "IFNULL2-S")}
	case !unresolved(s, x):
		// Rule: Equals (E′) / IFNULL1-S
		return []machine.Succ{unequal(s, r0, r1, k, "IFNULL1-S")}
	case !s.Locs[x].MayBeNull || e.Mut == MutMayBeNullAsNonNull:
		// Rule: Equals (E′) / IFNULL-A (a δ is non-null: nothing resolved)
		return []machine.Succ{unequal(s, r0, r1, k, "IFNULL-A")}
	}
	// A δ̂: init-sym-ref* (NULL or a δ), then IFNULL2-S / IFNULL-A.
	ru := s.Locs[x].Identity
	// Rule: Equals (E) / init-sym-ref*, IFNULL2-S
	b := s.Clone()
	e.substitute(b, x, machine.LNull, rx)
	b.AddFact(smt.Eq(ru, machine.RNull))
	isNull := equal(b, r0, r1, k, initSymRef, "IFNULL2-S")
	// Rule: Equals (E′) / init-sym-ref*, IFNULL-A
	if e.Mut != MutForgetNonNull {
		s.Locs[x].MayBeNull = false
		s.AddFact(smt.Neq(ru, machine.RNull))
	}
	return []machine.Succ{isNull, unequal(s, r0, r1, k, initSymRef, "IFNULL-A")}
}

// acmpeq is IF_ACMPEQ: unresolved operands are resolved, the left one
// first (IF_ACMPEQ2-A/-B: ω = v :: δ, the left operand is below the top),
// then the right one (IF_ACMPEQ3-A/-B), then compared (IF_ACMPEQ2-S equal,
// IF_ACMPEQ1-S unequal).
func (e *Engine) acmpeq(s *machine.State, r0, r1 machine.Ref, l0, l1 machine.Loc, k *machine.Kont) []machine.Succ {
	if l0 == l1 {
		if !unresolved(s, l0) {
			// Rule: Equals (E) / IF_ACMPEQ2-S
			return []machine.Succ{equal(s, r0, r1, k, "IF_ACMPEQ2-S")}
		}
		name := "IF_ACMPEQ1-A"
		if s.Locs[l0].MayBeNull {
			name = "IF_ACMPEQ1-B"
		}
		if e.Mut == MutSameUnequal {
			return []machine.Succ{unequal(s, r0, r1, k, name)}
		}
		// Rule: Equals (E) / IF_ACMPEQ1-A (δ = δ), IF_ACMPEQ1-B (δ̂ = δ̂)
		return []machine.Succ{equal(s, r0, r1, k, name)}
	}
	if e.Var.EqNewShortcut && ((unresolved(s, l0) && isNew(s, l1)) || (unresolved(s, l1) && isNew(s, l0))) {
		// Rule: Equals (E′) / eq-new-shortcut (variant: an input object or
		// null is never a new object)
		return []machine.Succ{unequal(s, r0, r1, k, "eq-new-shortcut")}
	}
	type cur struct {
		s     *machine.State
		names []string
	}
	work := []cur{{s: s}}
	for i, r := range []machine.Ref{r0, r1} {
		base := "IF_ACMPEQ2"
		if i == 1 {
			base = "IF_ACMPEQ3"
		}
		var next []cur
		for _, c := range work {
			l, _ := only(c.s, r)
			if !unresolved(c.s, l) {
				next = append(next, c)
				continue
			}
			// Rule: Equals (E/E′) / IF_ACMPEQ2-A, IF_ACMPEQ3-A (lazier: init-sym-loc* on δ)
			// Rule: Equals (E/E′) / IF_ACMPEQ2-B, IF_ACMPEQ2-A, … (lazier#: init-sym-ref* on δ̂ first)
			maybeNull := c.s.Locs[l].MayBeNull
			names := with(c.names, resolveNames(c.s, l, base)...)
			for _, res := range e.resolve(c.s, l, r, maybeNull) {
				next = append(next, cur{s: res.s, names: names})
			}
		}
		work = next
	}
	var out []machine.Succ
	for _, c := range work {
		a, _ := only(c.s, r0)
		b, _ := only(c.s, r1)
		if a == b {
			// Rule: Equals (E) / … IF_ACMPEQ2-S
			out = append(out, equal(c.s, r0, r1, k, with(c.names, "IF_ACMPEQ2-S")...))
		} else {
			// Rule: Equals (E′) / … IF_ACMPEQ1-S
			out = append(out, unequal(c.s, r0, r1, k, with(c.names, "IF_ACMPEQ1-S")...))
		}
	}
	return out
}

// Invoke is the per-engine rule of the Java reading V11 (RULES.md §3): the
// state is (L R φ η v (r @ m * → k)). A null receiver is Invoke′, an error
// end like A′. A δ̂ receiver is init-sym-ref*'d: null (Invoke′) or a δ
// (MayBeNull cleared); a δ is non-null and stays unresolved, since static
// dispatch needs no object (ENGINES.md §2: nothing is resolved at Invoke).
func (e *Engine) Invoke(s *machine.State, r machine.Ref, args []machine.Value, c *javalite.Call, k *machine.Kont) ([]machine.Succ, error) {
	l, err := only(s, r)
	if err != nil {
		return nil, err
	}
	if l == machine.LNull {
		// Rule: Invoke′
		s.SetError()
		return one(s, RuleInvokeNull), nil
	}
	if !unresolved(s, l) || !s.Locs[l].MayBeNull {
		// Rule: Invoke
		machine.EnterMethod(s, r, args, c, k, e.Opt)
		return one(s, machine.RuleInvoke), nil
	}
	ru := s.Locs[l].Identity
	// Rule: Invoke′ / init-sym-ref*
	b := s.Clone()
	e.substitute(b, l, machine.LNull, r)
	b.AddFact(smt.Eq(ru, machine.RNull))
	b.SetError()
	// Rule: Invoke / init-sym-ref*
	s.Locs[l].MayBeNull = false
	s.AddFact(smt.Neq(ru, machine.RNull))
	machine.EnterMethod(s, r, args, c, k, e.Opt)
	return []machine.Succ{
		{S: b, Rule: ruleName(RuleInvokeNull, []string{initSymRef})},
		{S: s, Rule: ruleName(machine.RuleInvoke, []string{initSymRef})},
	}, nil
}
