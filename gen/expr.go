package gen

import (
	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/javalite"
)

// group generates one expression as its own rapid draw group, so that the
// shrinker can delete or simplify a whole subexpression at once.
func (b *builder) group(label string, f func() javalite.Expr) javalite.Expr {
	outer := b.t
	defer func() { b.t = outer }()
	return rapid.Custom(func(t *rapid.T) javalite.Expr {
		b.t = t
		return f()
	}).Draw(outer, label)
}

// body generates a method body. The entry body is never a bare leaf: it is
// where symbolic input is read, so it starts with a chain, a comparison or a
// composite expression.
//
// With data, the entry body may start with (assume e): the papers'
// drivers state their precondition so (PRIMITIVES.md §1), and a pruned
// path must be pruned alike by every engine.
func (b *builder) body(c ctx, ret ty) javalite.Expr {
	c.top = c.m.idx == 0
	if b.data && c.top && b.pick("assume", 2, 1) == 1 {
		a := b.group("a", func() javalite.Expr { return &javalite.Assume{X: b.assumption(c)} })
		return &javalite.Begin{Exprs: []javalite.Expr{a, b.expr(c, ret, b.cfg.MaxDepth, false)}}
	}
	return b.expr(c, ret, b.cfg.MaxDepth, false)
}

// assumption is the condition of the entry's assume: by preference a
// comparison of input data, else any bool expression (a call stands for
// an invariant such as (this @ repOK)).
func (b *builder) assumption(c ctx) javalite.Expr {
	c.top = false
	if b.pick("akind", 2, 1) == 0 {
		return b.cmp(c, 1)
	}
	return b.expr(c, tyBool, 1, false)
}

// Alternatives of expr, simplest first: drawing 0 gives a leaf. An
// alternative comes after the ones it can shrink to by lowering its draw:
// (if c a else b) is late so that an if around an interesting branch
// shrinks to that branch's kind of expression.
const (
	altLeaf = iota
	altPath
	altEq
	altBoolEq
	altWrite
	altAssign
	altVar
	altAlias
	altScope
	altBegin
	altCall
	altIf
	altGuard
	// The alternatives of programs with data come last, so that a lower
	// draw drops data, and get weight 0 without data, which leaves the
	// draws of the reference-only stream unchanged.
	altArith // (e + e), (e - e)
	altCmp   // (e < e), (e <= e), (e = e) on ints
	altBST   // (if ((x $ key) < e) … else …)
	numAlts
)

// expr generates an expression of type t with at most d levels of composite
// expressions. strict leaves out expressions of the null type (the literal
// null, and ifs, vars and begins ending in it), as a receiver needs.
func (b *builder) expr(c ctx, t ty, d int, strict bool) javalite.Expr {
	return b.group("e", func() javalite.Expr {
		top := c.top
		c.top = false
		var w [numAlts]int
		composite := func(alt, weight int) {
			if d > 0 {
				w[alt] = weight
			}
		}
		switch t {
		case tyBool:
			w[altLeaf] = 2
			w[altEq] = 6 // operands are leaves or chains at depth 0, so always offered
			composite(altBoolEq, 1)
			if b.data {
				if b.pathStarts(c, tyBool) != nil {
					w[altPath] = 3 // a bool field: a colour, a flag
				}
				w[altCmp] = 6 // like altEq, always offered
			}
		case tyInt:
			w[altLeaf] = 3
			if b.pathStarts(c, tyInt) != nil {
				w[altPath] = 6
			}
			if len(b.writeTargets(c, t)) > 0 {
				// Twice the reference weight: a write of an int field
				// through a local that may alias input is the one way a
				// primitive write goes through a receiver with several
				// targets (data rule coverage, checker.DataCoverage).
				composite(altWrite, 2)
			}
			composite(altArith, 3)
		default:
			w[altLeaf] = 3
			if b.pathStarts(c, t) != nil {
				w[altPath] = 6
			}
			if len(b.writeTargets(c, t)) > 0 {
				composite(altWrite, 2)
			}
		}
		composite(altIf, 2)
		composite(altVar, 2)
		if len(b.callees(c, t)) > 0 {
			composite(altCall, 2)
		}
		if b.cfg.MaxBegin >= 2 {
			composite(altBegin, 2)
		}
		if b.guardable(c) {
			composite(altGuard, 1)
		}
		if len(b.assignable(c, t)) > 0 {
			composite(altAssign, 1)
		}
		if len(b.aliasClasses(c)) > 0 && d > 1 {
			composite(altAlias, 3)
		}
		if d > 1 {
			composite(altScope, 2)
		}
		if b.data && (b.pathStarts(c, tyInt) != nil || b.pathStarts(c, tyBool) != nil) {
			composite(altBST, 3)
		}

		if top && d > 0 {
			// The entry body: a composite that reads and writes input,
			// not a single chain or comparison.
			w[altLeaf] = 0
			w[altPath] = min(w[altPath], 1)
			w[altEq] = min(w[altEq], 1)
			w[altBoolEq] = 0
			w[altVar] *= 2
			w[altBegin] *= 2
			w[altCmp] = min(w[altCmp], 1)
			w[altBST] *= 2
		}
		switch b.pick("alt", w[:]...) {
		case altPath:
			return b.path(c, t)
		case altEq:
			return b.refEq(c, d)
		case altBoolEq:
			return &javalite.Equals{L: b.expr(c, tyBool, d-1, false), R: b.expr(c, tyBool, d-1, false)}
		case altWrite:
			return b.write(c, b.writeTargets(c, t), d)
		case altIf:
			return &javalite.If{
				Cond: b.expr(c, tyBool, d-1, false),
				Then: b.expr(c, t, d-1, strict),
				Else: b.expr(c, t, d-1, strict),
			}
		case altVar:
			return b.varDecl(c, d, func(inner ctx) javalite.Expr {
				// The body is often a begin, so the new variable gets
				// written through before the result is computed.
				if b.cfg.MaxBegin >= 2 && d > 1 && b.pick("vbody", 1, 2) == 1 {
					return b.begin(inner, t, d-1, strict)
				}
				return b.expr(inner, t, d-1, strict)
			})
		case altCall:
			return b.call(c, b.callees(c, t), d)
		case altBegin:
			return b.begin(c, t, d, strict)
		case altGuard:
			return b.guard(c, t, d, strict)
		case altAssign:
			return b.assign(c, b.assignable(c, t), d)
		case altAlias:
			return b.alias(c, t, d, strict)
		case altScope:
			return b.scope(c, t, d, strict)
		case altArith:
			op := javalite.OpAdd
			if b.pick("arith", 1, 1) == 1 {
				op = javalite.OpSub
			}
			return &javalite.Binary{Op: op, L: b.operand(c, tyInt, d-1, false), R: b.expr(c, tyInt, d-1, false)}
		case altCmp:
			return b.cmp(c, d)
		case altBST:
			return b.bst(c, t, d, strict)
		}
		return b.leaf(c, t, strict)
	})
}

// leaf is a variable, a literal or (new C): for a class, the variables of
// that class, then null, then (new C); for bool, true, false, then the bool
// variables.
func (b *builder) leaf(c ctx, t ty, strict bool) javalite.Expr {
	if t == tyInt {
		// A literal first (the simplest), then the int variables.
		vs := b.varsOf(c, tyInt)
		if i := b.intn("int", 0, len(vs)); i > 0 {
			return &javalite.Var{Name: vs[i-1].name}
		}
		return &javalite.IntLit{Val: b.literal()}
	}
	if t == tyBool {
		vs := b.varsOf(c, tyBool)
		i := b.intn("bool", 0, 1+len(vs))
		switch i {
		case 0:
			return &javalite.Lit{Kind: javalite.LitTrue}
		case 1:
			return &javalite.Lit{Kind: javalite.LitFalse}
		}
		return &javalite.Var{Name: vs[i-2].name}
	}
	vs := b.varsOf(c, t)
	n := len(vs)
	if !strict {
		n++ // null
	}
	i := b.intn("ref", 0, n)
	switch {
	case i < len(vs):
		return &javalite.Var{Name: vs[i].name}
	case i == n:
		return &javalite.New{ClassName: b.classes[t].name}
	}
	return &javalite.Lit{Kind: javalite.LitNull}
}

// literal draws a small integer literal. The draw zigzags (0, 1, -1, 2,
// -2, …) so that shrinking the draw takes the literal toward 0.
func (b *builder) literal() int64 {
	n := int64(b.intn("lit", 0, 8))
	if n%2 == 1 {
		return (n + 1) / 2
	}
	return -n / 2
}

// cmp compares two ints: (a < b), (a <= b) or (a = b), the left side by
// preference a read of an int field (data of the input); or, when a bool
// field is in reach, compares it with a bool: (x $ flag) = e, an Equals
// (prim) on a bool term, which no other idiom makes often (data rule
// coverage, checker.DataCoverage).
func (b *builder) cmp(c ctx, d int) javalite.Expr {
	l := b.operand(c, tyInt, d-1, false)
	r := b.expr(c, tyInt, d-1, false)
	flags := 0
	if b.pathStarts(c, tyBool) != nil {
		flags = 1
	}
	switch b.pick("cmp", 2, 1, 1, flags) {
	case 1:
		return &javalite.Binary{Op: javalite.OpLe, L: l, R: r}
	case 2:
		return &javalite.Equals{L: l, R: r}
	case 3:
		return &javalite.Equals{L: b.path(c, tyBool), R: b.expr(c, tyBool, d-1, false)}
	}
	return &javalite.Binary{Op: javalite.OpLt, L: l, R: r}
}

// bst is the binary search tree idiom (if ((x $ key) < e) e1 else e2), or
// the red-black tree's test of a colour (if (x $ red) e1 else e2): a
// branch on input data (If (sym)) whose branches by preference go on
// through the heap.
func (b *builder) bst(c ctx, t ty, d int, strict bool) javalite.Expr {
	var cond javalite.Expr
	ints, bools := b.pathStarts(c, tyInt) != nil, b.pathStarts(c, tyBool) != nil
	if bools && (!ints || b.pick("flag", 2, 1) == 1) {
		cond = b.path(c, tyBool)
	} else {
		key := b.path(c, tyInt)
		bound := b.expr(c, tyInt, d-1, false)
		op := javalite.OpLt
		if b.pick("bstop", 2, 1) == 1 {
			op = javalite.OpLe
		}
		cond = &javalite.Binary{Op: op, L: key, R: bound}
	}
	return &javalite.If{
		Cond: cond,
		Then: b.operand(c, t, d-1, strict),
		Else: b.operand(c, t, d-1, strict),
	}
}

func (b *builder) varsOf(c ctx, t ty) []variable {
	var vs []variable
	for _, v := range c.vars {
		if v.ty == t {
			vs = append(vs, v)
		}
	}
	return vs
}

// reaches reports whether a chain of 1..steps fields leads from class from
// to class to.
func (b *builder) reaches(from, to ty, steps int) bool {
	if steps <= 0 || isPrim(from) {
		return false
	}
	for _, f := range b.classes[from].fields {
		if f.ty == to || b.reaches(f.ty, to, steps-1) {
			return true
		}
	}
	return false
}

// pathStarts lists the variables from which a chain of at most MaxPath
// fields reaches class t, this first.
func (b *builder) pathStarts(c ctx, t ty) []variable {
	var vs []variable
	for _, v := range c.vars {
		if b.reaches(v.ty, t, b.cfg.MaxPath) {
			vs = append(vs, v)
		}
	}
	return vs
}

// path is a read chain ((v $ f1) … $ fk) of type t; the shortest chain is
// the simplest choice at every step.
func (b *builder) path(c ctx, t ty) javalite.Expr {
	starts := b.pathStarts(c, t)
	v := starts[b.intn("start", 0, len(starts)-1)]
	var e javalite.Expr = &javalite.Var{Name: v.name}
	cur := v.ty
	for left := b.cfg.MaxPath; ; left-- {
		if left < b.cfg.MaxPath && cur == t && (left == 0 || !b.reaches(cur, t, left) || b.intn("more", 0, 2) == 0) {
			return e
		}
		var next []fieldInfo
		for _, f := range b.classes[cur].fields {
			if f.ty == t || b.reaches(f.ty, t, left-1) {
				next = append(next, f)
			}
		}
		f := next[b.intn("field", 0, len(next)-1)]
		e = &javalite.FieldAccess{X: e, FieldName: f.name}
		cur = f.ty
	}
}

// refEq compares two references of one class: by preference chains of a
// class that some variable reaches, the right side often null.
func (b *builder) refEq(c ctx, d int) javalite.Expr {
	var cands []ty
	for i := range b.classes {
		if b.pathStarts(c, ty(i)) != nil {
			cands = append(cands, ty(i))
		}
	}
	if cands == nil {
		for i := range b.classes {
			cands = append(cands, ty(i))
		}
	}
	cl := cands[b.intn("eqclass", 0, len(cands)-1)]
	l := b.operand(c, cl, d-1, false)
	var r javalite.Expr
	if b.pick("eqr", 1, 3) == 0 {
		r = &javalite.Lit{Kind: javalite.LitNull}
	} else {
		r = b.operand(c, cl, d-1, false)
	}
	return &javalite.Equals{L: l, R: r}
}

// operand is an expression of class t that is by preference a read chain:
// used where a reference is compared, bound to a variable or called on.
func (b *builder) operand(c ctx, t ty, d int, strict bool) javalite.Expr {
	if b.pathStarts(c, t) != nil && b.pick("operand", 1, 2) == 1 {
		return b.path(c, t)
	}
	return b.expr(c, t, d, strict)
}

// target is a field write receiver: a variable and one of its fields.
type target struct {
	v variable
	f fieldInfo
}

// writeTargets lists (x, f) with f a field of x's class of type t, or of any
// type when t is anyType.
func (b *builder) writeTargets(c ctx, t ty) []target {
	var ts []target
	for _, v := range c.vars {
		if isPrim(v.ty) {
			continue
		}
		for _, f := range b.classes[v.ty].fields {
			if t == anyType || f.ty == t {
				ts = append(ts, target{v, f})
			}
		}
	}
	return ts
}

// anyType asks for candidates of every type, in statement position.
const anyType ty = -2

// write is (x $ f := e). A local receiver is preferred, as it may alias
// input, and a (new C) value, which puts a non-input location into the
// input heap.
func (b *builder) write(c ctx, ts []target, d int) javalite.Expr {
	var locals []target
	for _, tg := range ts {
		if tg.v.local {
			locals = append(locals, tg)
		}
	}
	// An int field (programs with data only) goes by preference through
	// a local: a receiver that may alias input is where a primitive
	// write has several targets (checker.DataCoverage).
	prefer := 2
	if len(ts) > 0 && ts[0].f.ty == tyInt {
		prefer = 6
	}
	if len(locals) > 0 && b.pick("local", 1, prefer) == 1 {
		ts = locals
	}
	tg := ts[b.intn("target", 0, len(ts)-1)]
	var v javalite.Expr
	if !isPrim(tg.f.ty) && b.pick("wval", 3, 1) == 1 {
		v = &javalite.New{ClassName: b.classes[tg.f.ty].name}
	} else if tg.f.ty == tyInt && b.pick("wcount", 1, 1) == 1 {
		// The update of a counter or a size: (x $ n := ((x $ n) ± c)).
		op := javalite.OpAdd
		if b.pick("wop", 2, 1) == 1 {
			op = javalite.OpSub
		}
		read := &javalite.FieldAccess{X: &javalite.Var{Name: tg.v.name}, FieldName: tg.f.name}
		v = &javalite.Binary{Op: op, L: read, R: b.expr(c, tyInt, d-1, false)}
	} else {
		v = b.expr(c, tg.f.ty, d-1, false)
	}
	return &javalite.FieldWrite{VarName: tg.v.name, FieldName: tg.f.name, Value: v}
}

// assignable lists the locals of type t (any type for anyType); this and
// parameters are never assigned, which keeps recursion guards valid.
func (b *builder) assignable(c ctx, t ty) []variable {
	var vs []variable
	for _, v := range c.vars {
		if v.local && (t == anyType || v.ty == t) {
			vs = append(vs, v)
		}
	}
	return vs
}

func (b *builder) assign(c ctx, vs []variable, d int) javalite.Expr {
	v := vs[b.intn("avar", 0, len(vs)-1)]
	return &javalite.Assign{VarName: v.name, Value: b.expr(c, v.ty, d-1, false)}
}

// varDecl declares a fresh local, a class first (to alias through it), then
// bool, initialized by an expression of its type (by preference a chain).
func (b *builder) varDecl(c ctx, d int, body func(ctx) javalite.Expr) javalite.Expr {
	vt := b.varType()
	name := localName(b.locals)
	b.locals++
	var init javalite.Expr
	if vt == tyBool {
		init = b.expr(c, vt, d-1, false)
	} else {
		init = b.operand(c, vt, d-1, false)
	}
	return &javalite.VarDecl{
		DeclType: javalite.TypeName{Name: b.typeName(vt)},
		Name:     name,
		Init:     init,
		Body:     body(c.with(variable{name: name, ty: vt, local: true})),
	}
}

// varType draws a local's type: a class, then bool, then (with data) int.
func (b *builder) varType() ty {
	hi := len(b.classes)
	if b.data {
		hi++
	}
	switch vt := b.intn("vtype", 0, hi); vt {
	case len(b.classes):
		return tyBool
	case len(b.classes) + 1:
		return tyInt
	default:
		return ty(vt)
	}
}

// callees lists the methods a call of type t may target from c: those
// later in the global order (the call graph is a DAG), and the current
// method itself under a guard. t == anyType accepts every return type.
func (b *builder) callees(c ctx, t ty) []*methodInfo {
	var ms []*methodInfo
	if c.selfOK && (t == anyType || c.m.ret == t) {
		ms = append(ms, c.m)
	}
	for _, m := range b.methods[c.m.idx+1:] {
		if t == anyType || m.ret == t {
			ms = append(ms, m)
		}
	}
	return ms
}

func (b *builder) call(c ctx, ms []*methodInfo, d int) javalite.Expr {
	m := ms[b.intn("callee", 0, len(ms)-1)]
	return b.callOf(c, m, d)
}

func (b *builder) callOf(c ctx, m *methodInfo, d int) javalite.Expr {
	recv := b.operand(c, m.owner, d-1, true)
	call := &javalite.Call{Recv: recv, MethodName: m.name}
	for i, pt := range m.params {
		var arg javalite.Expr
		switch {
		case i == 0 && m == c.m && pt == tyBool:
			// Rule of the guard: a self-call passes false, so the callee
			// cannot pass its own guard.
			arg = &javalite.Lit{Kind: javalite.LitFalse}
		case i == 0 && m == c.m:
			// A counted bound: the self-call passes (x + 1) under
			// (if (x < n) …), so x reaches n and the recursion stops.
			arg = &javalite.Binary{Op: javalite.OpAdd, L: &javalite.Var{Name: paramName}, R: &javalite.IntLit{Val: 1}}
		case i == 0 && m.counted:
			arg = &javalite.IntLit{Val: int64(b.intn("count", 0, 1))}
		default:
			arg = b.expr(c, pt, d-1, false)
		}
		call.Args = append(call.Args, arg)
	}
	return call
}

// guardable: the current method's first parameter is bool or a counted
// int, and it is not already inside a guard.
func (b *builder) guardable(c ctx) bool {
	if c.selfOK || len(c.m.params) == 0 {
		return false
	}
	return c.m.params[0] == tyBool || c.m.counted
}

// guard is (if x R else E) where R may call the current method recursively
// (with false) and E may not. The recursive call usually comes first in R:
// a structural recursion on a field of this.
func (b *builder) guard(c ctx, t ty, d int, strict bool) javalite.Expr {
	var cond javalite.Expr = &javalite.Var{Name: paramName}
	if c.m.params[0] == tyInt {
		// The integer guard (if (x < n) R else E): x is a counted bound,
		// never symbolic, and R's self-call passes (x + 1).
		// The bound 1 gives one round from 0, as a bool guard does: a
		// larger one multiplies path lengths when counted methods nest
		// (a self-call in an argument of a call of another counted
		// method), and paths must end well within the step bound.
		cond = &javalite.Binary{Op: javalite.OpLt, L: cond, R: &javalite.IntLit{Val: 1}}
	}
	in := c
	in.selfOK = true
	var then javalite.Expr
	if b.pick("rec", 1, 3) == 0 {
		then = b.expr(in, t, d-1, strict)
	} else {
		then = b.recursion(in, t, d-1, strict)
	}
	return &javalite.If{
		Cond: cond,
		Then: then,
		Else: b.expr(c, t, d-1, strict),
	}
}

// recursion is a self-call adapted to type t: the call itself when the
// method returns t, compared with something when t is bool, or followed by
// an expression of type t.
func (b *builder) recursion(c ctx, t ty, d int, strict bool) javalite.Expr {
	call := b.callOf(c, c.m, d)
	switch {
	case c.m.ret == t:
		return call
	case t == tyBool && c.m.ret == tyInt:
		return b.compareInt(c, call, d-1)
	case t == tyBool && c.m.ret != tyBool:
		var r javalite.Expr = &javalite.Lit{Kind: javalite.LitNull}
		if b.pick("recr", 1, 1) == 1 {
			r = b.expr(c, c.m.ret, d-1, false)
		}
		return &javalite.Equals{L: call, R: r}
	}
	return &javalite.Begin{Exprs: []javalite.Expr{call, b.expr(c, t, d-1, strict)}}
}

// aliasClasses lists the classes with fields that a read chain reaches:
// a variable bound to such a chain may alias other input.
func (b *builder) aliasClasses(c ctx) []ty {
	var cs []ty
	for i, ci := range b.classes {
		if len(ci.fields) > 0 && b.pathStarts(c, ty(i)) != nil {
			cs = append(cs, ty(i))
		}
	}
	return cs
}

// alias is the write-through-an-alias idiom
//
//	(var C y := chain in (begin (y $ g := e) … e_t))
//
// after which a read of g along another chain sees the write exactly when
// the two chains alias.
func (b *builder) alias(c ctx, t ty, d int, strict bool) javalite.Expr {
	cs := b.aliasClasses(c)
	vt := cs[b.intn("aclass", 0, len(cs)-1)]
	name := localName(b.locals)
	b.locals++
	init := b.path(c, vt)
	in := c.with(variable{name: name, ty: vt, local: true})
	fs := b.classes[vt].fields
	f := fs[b.intn("afield", 0, len(fs)-1)]
	var val javalite.Expr
	if !isPrim(f.ty) && b.pick("aval", 1, 1) == 1 {
		val = &javalite.New{ClassName: b.classes[f.ty].name}
	} else {
		val = b.expr(in, f.ty, d-2, false)
	}
	es := []javalite.Expr{&javalite.FieldWrite{VarName: name, FieldName: f.name, Value: val}}
	for range b.intn("astmts", 0, max(b.cfg.MaxBegin-2, 0)) {
		es = append(es, b.stmt(in, d-2))
	}
	if read := b.readBack(in, vt, f, t, d-2); read != nil && b.pick("aend", 1, 2) == 1 {
		es = append(es, read)
	} else {
		es = append(es, b.expr(in, t, d-2, strict))
	}
	return &javalite.VarDecl{
		DeclType: javalite.TypeName{Name: b.typeName(vt)},
		Name:     name,
		Init:     init,
		Body:     &javalite.Begin{Exprs: es},
	}
}

// scope is the assignment-across-scopes idiom
//
//	(var T y := e in (begin (var T' z := e' in (begin … (y := e''))) … y))
//
// an inner block assigns the variable of an enclosing one, which is read
// after the inner block is left. Java keeps the assignment; the papers'
// rule Pop undoes it (RULES.md §3, V10), so the two semantics part here.
// y's type is t when t is a class (by preference), else drawn like varDecl.
func (b *builder) scope(c ctx, t ty, d int, strict bool) javalite.Expr {
	var vt ty
	if t != tyBool && b.pick("stype", 1, 2) == 1 {
		vt = t
	} else {
		vt = b.varType()
	}
	y := variable{name: localName(b.locals), ty: vt, local: true}
	b.locals++
	var init javalite.Expr
	if vt == tyBool {
		init = b.expr(c, vt, d-2, false)
	} else {
		init = b.operand(c, vt, d-2, false)
	}
	outer := c.with(y)
	inner := b.varDecl(outer, d-1, func(in ctx) javalite.Expr {
		var val javalite.Expr
		if vt == tyBool {
			val = b.expr(in, vt, d-2, false)
		} else {
			val = b.operand(in, vt, d-2, false)
		}
		as := &javalite.Assign{VarName: y.name, Value: val}
		if b.cfg.MaxBegin >= 2 && b.pick("sstmt", 2, 1) == 1 {
			return &javalite.Begin{Exprs: []javalite.Expr{b.stmt(in, d-2), as}}
		}
		return as
	})
	var final javalite.Expr
	read := &javalite.Var{Name: y.name}
	switch {
	case t == vt:
		final = read
	case t == tyBool && vt == tyInt:
		final = b.compareInt(outer, read, d-2)
	case t == tyBool:
		var r javalite.Expr = &javalite.Lit{Kind: javalite.LitNull}
		if b.pick("sr", 1, 1) == 1 {
			r = b.operand(outer, vt, d-2, false)
		}
		final = &javalite.Equals{L: read, R: r}
	default:
		final = b.expr(outer, t, d-2, strict)
	}
	return &javalite.VarDecl{
		DeclType: javalite.TypeName{Name: b.typeName(vt)},
		Name:     y.name,
		Init:     init,
		Body:     &javalite.Begin{Exprs: []javalite.Expr{inner, final}},
	}
}

// readBack reads field f of class vt again through a chain, as an
// expression of type t: the read itself, or (for bool) compared with
// something. It returns nil when t allows neither.
func (b *builder) readBack(c ctx, vt ty, f fieldInfo, t ty, d int) javalite.Expr {
	if t != tyBool && t != f.ty {
		return nil
	}
	read := &javalite.FieldAccess{X: b.path(c, vt), FieldName: f.name}
	if t == f.ty {
		return read
	}
	if f.ty == tyInt {
		return b.compareInt(c, read, d)
	}
	var r javalite.Expr = &javalite.Lit{Kind: javalite.LitNull}
	if b.pick("rbr", 1, 2) == 1 {
		r = b.operand(c, f.ty, d, false)
	}
	return &javalite.Equals{L: read, R: r}
}

// begin is 1..MaxBegin-1 statements followed by an expression of type t.
func (b *builder) begin(c ctx, t ty, d int, strict bool) javalite.Expr {
	n := b.intn("stmts", 1, max(b.cfg.MaxBegin-1, 1))
	es := make([]javalite.Expr, 0, n+1)
	for range n {
		es = append(es, b.stmt(c, d-1))
	}
	return &javalite.Begin{Exprs: append(es, b.expr(c, t, d-1, strict))}
}

// Alternatives of stmt.
const (
	stmtExpr = iota
	stmtWrite
	stmtCall
	stmtAssign
	stmtIf
	numStmts
)

// stmt is an expression evaluated for its effect: by preference a field
// write, else a call, an assignment or a conditional effect.
func (b *builder) stmt(c ctx, d int) javalite.Expr {
	return b.group("s", func() javalite.Expr {
		e, _ := b.stmtTyped(c, d)
		return e
	})
}

func (b *builder) stmtTyped(c ctx, d int) (javalite.Expr, ty) {
	var w [numStmts]int
	w[stmtExpr] = 1
	ts := b.writeTargets(c, anyType)
	if len(ts) > 0 {
		w[stmtWrite] = 6
	}
	ms := b.callees(c, anyType)
	if len(ms) > 0 && d > 0 {
		w[stmtCall] = 3
	}
	vs := b.assignable(c, anyType)
	if len(vs) > 0 {
		w[stmtAssign] = 1
	}
	if d > 0 {
		w[stmtIf] = 2
	}
	switch b.pick("stmt", w[:]...) {
	case stmtWrite:
		e := b.write(c, ts, d).(*javalite.FieldWrite)
		return e, b.fieldType(c, e)
	case stmtCall:
		m := ms[b.intn("callee", 0, len(ms)-1)]
		return b.callOf(c, m, d), m.ret
	case stmtAssign:
		v := vs[b.intn("avar", 0, len(vs)-1)]
		return &javalite.Assign{VarName: v.name, Value: b.expr(c, v.ty, d-1, false)}, v.ty
	case stmtIf:
		cond := b.expr(c, tyBool, d-1, false)
		then, t := b.stmtTyped(c, d-1)
		return &javalite.If{Cond: cond, Then: then, Else: b.expr(c, t, d-1, false)}, t
	}
	return b.expr(c, tyBool, d, false), tyBool
}

// fieldType is the type of the field written by e.
func (b *builder) fieldType(c ctx, e *javalite.FieldWrite) ty {
	for i := len(c.vars) - 1; i >= 0; i-- {
		if v := c.vars[i]; v.name == e.VarName {
			for _, f := range b.classes[v.ty].fields {
				if f.name == e.FieldName {
					return f.ty
				}
			}
		}
	}
	panic("gen: write target not in scope")
}

// compareInt makes a bool of the int expression l: (l < e) or (l = e).
func (b *builder) compareInt(c ctx, l javalite.Expr, d int) javalite.Expr {
	r := b.expr(c, tyInt, d, false)
	if b.pick("cmpi", 1, 1) == 1 {
		return &javalite.Equals{L: l, R: r}
	}
	return &javalite.Binary{Op: javalite.OpLt, L: l, R: r}
}
