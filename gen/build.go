package gen

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/javalite"
)

// ty is a generator-side type: tyBool, tyInt or a class index.
type ty int

const (
	tyBool ty = -1
	tyInt  ty = -3 // -2 is anyType
)

// isPrim reports whether t is a primitive type (bool or int), not a class.
func isPrim(t ty) bool { return t == tyBool || t == tyInt }

// builder holds one program under construction. Types are kept as small
// integers, not javalite.Type, because Check only runs on the finished tree.
type builder struct {
	t       *rapid.T
	cfg     Config
	data    bool // cfg.Data == DataMixed: every data draw is behind it
	classes []*classInfo
	methods []*methodInfo // global call order: calls go forward only
	locals  int           // locals declared so far in the current method
}

type classInfo struct {
	name   string
	fields []fieldInfo
	c      *javalite.Class
}

type fieldInfo struct {
	name string
	ty   ty
}

type methodInfo struct {
	idx    int // position in builder.methods
	owner  ty
	name   string
	ret    ty
	params []ty // params[0] is x, the guard parameter; without data always exactly x
	// counted: x is an int bound, never symbolic: callers pass a literal
	// 0 or 1, the method's self-call passes (x + 1) under (if (x < n) …),
	// so integer-guarded recursion terminates on every path.
	counted bool
	m       *javalite.Method
}

// variable is one variable in scope.
type variable struct {
	name  string
	ty    ty
	local bool // declared by var, hence assignable (this and parameters never are)
}

// ctx is where an expression is generated.
type ctx struct {
	m      *methodInfo
	vars   []variable
	selfOK bool // inside the then-branch of (if x …): m may call itself with false
	top    bool // the entry method's body itself (not a subexpression)
}

func (c ctx) with(v variable) ctx {
	c.vars = append(c.vars[:len(c.vars):len(c.vars)], v)
	return c
}

// Names are short and fixed, so a shrunk program reads like a hand-written
// one: classes A B C, fields f g h …, methods main m1 m2 …, the parameter x,
// locals y z u w ….
var (
	classNames = []string{"A", "B", "C"}
	fieldNames = []string{"f", "g", "h", "k", "n", "p", "q", "r", "s", "t", "a", "b"}
	localNames = []string{"y", "z", "u", "w", "v"}
)

const paramName = "x"

// paramNames are the parameters' names in order: x, the guard parameter,
// then the extra parameters of programs with data.
var paramNames = []string{paramName, "i", "j"}

func localName(i int) string {
	if i < len(localNames) {
		return localNames[i]
	}
	return fmt.Sprintf("%s%d", localNames[i%len(localNames)], i/len(localNames))
}

func (b *builder) intn(label string, lo, hi int) int {
	if lo >= hi {
		return lo
	}
	return rapid.IntRange(lo, hi).Draw(b.t, label)
}

// pick draws one of the alternatives with positive weight, in proportion to
// the weights. Drawing 0 picks the first available alternative, which is why
// alternatives are always listed simplest first.
func (b *builder) pick(label string, weights ...int) int {
	total := 0
	for _, w := range weights {
		total += max(w, 0)
	}
	if total == 0 {
		panic("gen: pick with no alternative") // every caller offers a leaf
	}
	n := b.intn(label, 0, total-1)
	for i, w := range weights {
		if w <= 0 {
			continue
		}
		if n < w {
			return i
		}
		n -= w
	}
	panic("unreachable")
}

func (b *builder) typeName(t ty) string {
	switch t {
	case tyBool:
		return "bool"
	case tyInt:
		return "int"
	}
	return b.classes[t].name
}

// drawType draws bool (0, the simplest) or a class, and with data int
// (the last choice, so that shrinking drops it).
func (b *builder) drawType(label string) ty {
	if !b.data {
		return ty(b.intn(label, 0, len(b.classes)) - 1)
	}
	t := ty(b.intn(label, 0, len(b.classes)+1) - 1)
	if int(t) == len(b.classes) {
		return tyInt
	}
	return t
}

// drawPrim draws bool (the simplest) or int.
func (b *builder) drawPrim(label string) ty {
	if b.intn(label, 0, 1) == 1 {
		return tyInt
	}
	return tyBool
}

// drawFieldType draws a field's type. Without data: a class, class 0
// first. With data, a reference field still by preference (the heap is
// what the engines differ on), then int (keys, counters), then bool (a
// colour, a flag); the classes come first so that shrinking drops data.
func (b *builder) drawFieldType() ty {
	n := len(b.classes)
	if !b.data {
		return ty(b.intn("ftype", 0, n-1))
	}
	switch b.pick("fkind", 3, 2, 1) {
	case 1:
		return tyInt
	case 2:
		return tyBool
	}
	return ty(b.intn("ftype", 0, n-1))
}

func (b *builder) program() *javalite.Program {
	cfg := b.cfg
	b.data = cfg.Data == DataMixed
	n := b.intn("classes", cfg.MinClasses, cfg.MaxClasses)
	nf := 0
	for i := range n {
		b.classes = append(b.classes, &classInfo{name: classNames[i]})
	}
	for i, ci := range b.classes {
		lo := 0
		if i == 0 {
			lo = cfg.MinEntryFields
		}
		for range b.intn("fields", lo, cfg.MaxFields) {
			// Class 0 first: for A that is a self-reference, for the other
			// classes a back reference to the entry class.
			ci.fields = append(ci.fields, fieldInfo{name: fieldNames[nf], ty: b.drawFieldType()})
			nf++
		}
	}
	for i := range b.classes {
		for range b.intn("methods", cfg.MinMethods, cfg.MaxMethods) {
			mi := &methodInfo{idx: len(b.methods), owner: ty(i)}
			if mi.idx == 0 {
				mi.name = "main"
			} else {
				mi.name = fmt.Sprintf("m%d", mi.idx)
			}
			mi.ret = b.drawType("ret")
			// The entry parameter is not input (RULES.md §2: true or null),
			// so a class-typed one could only be null; a bool one can
			// guard recursion.
			if !b.data {
				mi.params = []ty{tyBool}
				if mi.idx > 0 {
					mi.params[0] = b.drawType("param")
				}
			} else {
				b.drawParams(mi)
			}
			b.methods = append(b.methods, mi)
		}
	}

	p := &javalite.Program{EntryClass: b.classes[0].name, EntryMethod: b.methods[0].name}
	for _, ci := range b.classes {
		ci.c = &javalite.Class{Name: ci.name}
		for _, f := range ci.fields {
			ci.c.Fields = append(ci.c.Fields, &javalite.Field{Name: f.name, Type: javalite.TypeName{Name: b.typeName(f.ty)}})
		}
		p.Classes = append(p.Classes, ci.c)
	}
	for _, mi := range b.methods {
		mi.m = &javalite.Method{
			Name: mi.name,
			Ret:  javalite.TypeName{Name: b.typeName(mi.ret)},
		}
		for i, pt := range mi.params {
			mi.m.Params = append(mi.m.Params, &javalite.Param{Type: javalite.TypeName{Name: b.typeName(pt)}, Name: paramNames[i]})
		}
		b.classes[mi.owner].c.Methods = append(b.classes[mi.owner].c.Methods, mi.m)
	}
	for _, mi := range b.methods {
		b.locals = 0
		c := ctx{m: mi, vars: []variable{{name: "this", ty: mi.owner}}}
		for i, pt := range mi.params {
			c.vars = append(c.vars, variable{name: paramNames[i], ty: pt})
		}
		mi.m.Body = b.body(c, mi.ret)
	}
	prune(p)
	return p
}

// drawParams draws the parameters of a method of a program with data:
// one (x, the common case and the simplest draw), two, none or three.
// The entry method's parameters are primitive: an entry parameter is not
// input (0, true or null, PRIMITIVES.md §2), so a class-typed one could
// only be null. An int x is by chance a counted bound (see
// methodInfo.counted).
func (b *builder) drawParams(mi *methodInfo) {
	n := []int{1, 2, 0, 3}[b.intn("nparams", 0, 3)]
	for i := range n {
		var t ty
		if mi.idx == 0 {
			t = b.drawPrim("pprim")
		} else {
			t = b.drawType("param")
		}
		mi.params = append(mi.params, t)
		if i == 0 && t == tyInt {
			mi.counted = b.pick("counted", 1, 1) == 1
		}
	}
}
