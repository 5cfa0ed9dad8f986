package machine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// DOT draws a state as a Graphviz graph in the style of the papers' heap
// figures: references are circles, locations are boxes (class and number,
// with l_null and l_un as distinguished boxes), a reference points to each
// location of its guarded value set with the guard as the edge label
// ("true" omitted), and a location points to the reference of each field
// with the field name as the label. The stack variables of η, the value of
// e and the operands held by k are the entry points. Only what is reachable
// from those roots is drawn, plus every input location (an input location
// nothing points to any more is still part of the represented heap). It
// works for GSE and summary states alike, since both are the same State.
func DOT(s *State, title string) string {
	d := &dotWriter{s: s, refs: map[Ref]bool{}, locs: map[Loc]bool{}, methods: indexMethods(s.Prog)}
	d.names = formulaNames{prog: s.Prog}
	d.collect()
	return d.write(title)
}

type dotWriter struct {
	s       *State
	roots   []dotRoot
	refs    map[Ref]bool
	locs    map[Loc]bool
	methods map[int]*javalite.Method // expression ID → method
	names   formulaNames

	hiddenFrames int // saved environments beyond dotOuterFrames
}

// dotOuterFrames is how many saved environments (callers and enclosing var
// scopes) are drawn; a deep recursion would otherwise bury the heap under
// its stack.
const dotOuterFrames = 2

// dotRoot is one entry point: a name and either a reference or a boolean.
type dotRoot struct {
	name  string
	val   Value
	outer bool // a variable of a suspended caller or enclosing scope
}

// collect finds the roots and everything reachable from them.
func (d *dotWriter) collect() {
	s := d.s
	names := slotNames(d.currentMethod())
	for i, v := range s.Env {
		if v != VUndef {
			d.roots = append(d.roots, dotRoot{name: names(i), val: v})
		}
	}
	switch s.Mode {
	case ModeValue:
		d.roots = append(d.roots, dotRoot{name: "e", val: s.Val})
	}
	depth := 0
	for k := s.K; k != nil; k = k.Next {
		switch k.Kind {
		case KEqR:
			d.roots = append(d.roots, dotRoot{name: "k: (• = *)", val: k.Val})
		case KCallArg:
			d.roots = append(d.roots, dotRoot{name: "k: (• @ " + k.Expr.(*javalite.Call).MethodName + " *)", val: k.Val})
			for i, v := range k.Env {
				d.roots = append(d.roots, dotRoot{name: fmt.Sprintf("k: (… @ %s arg %d)", k.Expr.(*javalite.Call).MethodName, i+1), val: v})
			}
		case KBinR:
			d.roots = append(d.roots, dotRoot{name: "k: (• " + k.Expr.(*javalite.Binary).Op.String() + " *)", val: k.Val})
		case KPop:
			depth++
			if depth > dotOuterFrames {
				d.hiddenFrames++
				continue
			}
			pn := slotNames(d.methodBelow(k.Next))
			for i, v := range k.Env {
				if v != VUndef {
					d.roots = append(d.roots, dotRoot{name: fmt.Sprintf("%s ↑%d", pn(i), depth), val: v, outer: true})
				}
			}
		}
	}
	var work []Ref
	addRef := func(r Ref) {
		if !d.refs[r] {
			d.refs[r] = true
			work = append(work, r)
		}
	}
	var addLoc func(l Loc)
	addLoc = func(l Loc) {
		if d.locs[l] {
			return
		}
		d.locs[l] = true
		if l >= 0 {
			for _, f := range s.Locs[l].Class.RefFields {
				addRef(s.Field(l, f))
			}
		}
	}
	for _, r := range d.roots {
		if r.val.IsRef() {
			addRef(r.val.Ref())
		}
	}
	for l, info := range s.Locs {
		if info.Input {
			addLoc(Loc(l))
		}
	}
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range s.Get(r) {
			addLoc(e.Loc)
		}
	}
}

func (d *dotWriter) write(title string) string {
	s := d.s
	var b strings.Builder
	b.WriteString("digraph state {\n")
	b.WriteString("  graph [charset=\"UTF-8\", fontname=\"Helvetica\", fontsize=12, labelloc=t, labeljust=l, nodesep=0.35, ranksep=0.45, newrank=true];\n")
	b.WriteString("  node [fontname=\"Helvetica\", fontsize=11];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.7];\n")
	label := title
	if label != "" {
		label += "\n"
	}
	label += "φ = " + d.names.wrap(s.PathCondition(), 90)
	if d.hiddenFrames > 0 {
		label += fmt.Sprintf("\n(%d more saved environments not drawn)", d.hiddenFrames)
	}
	switch s.Mode {
	case ModeExpr:
		label += "\ne = " + javalite.PrintExpr(s.Expr)
	case ModeError:
		label += "\ne = error"
	}
	// \l ends a left-justified line in DOT.
	fmt.Fprintf(&b, "  label=%s;\n", dotQuoteLeft(label))

	// Entry points, on one rank at the top.
	b.WriteString("  { rank=min;\n")
	for i, r := range d.roots {
		text := r.name
		if r.val.IsPrim() {
			text += " = " + d.names.value(r.val)
		}
		color := "black"
		if r.outer {
			color = "gray40"
		}
		fmt.Fprintf(&b, "    v%d [shape=plaintext, label=%s, fontcolor=%s];\n", i, dotQuote(text), color)
	}
	b.WriteString("  }\n")
	for i, r := range d.roots {
		if r.val.IsRef() {
			style := ""
			if r.outer {
				style = ", style=dashed, color=gray40"
			}
			fmt.Fprintf(&b, "  v%d -> %s [arrowhead=vee%s];\n", i, refID(r.val.Ref()), style)
		}
	}

	// References, in number order so the output is deterministic.
	refs := make([]Ref, 0, len(d.refs))
	for r := range d.refs {
		refs = append(refs, r)
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i] < refs[j] })
	for _, r := range refs {
		fill := map[Partition]string{PartStack: "#dce9f7", PartInput: "#fdf1cf", PartFresh: "#e3f2df", PartSpecial: "#eeeeee"}[PartitionOf(r)]
		fmt.Fprintf(&b, "  %s [shape=circle, style=filled, fillcolor=%q, width=0.45, fixedsize=true, label=%s];\n",
			refID(r), fill, dotQuote(RefString(r)))
	}

	// Locations.
	locs := make([]Loc, 0, len(d.locs))
	for l := range d.locs {
		locs = append(locs, l)
	}
	sort.Slice(locs, func(i, j int) bool { return locs[i] < locs[j] })
	for _, l := range locs {
		switch l {
		case LNull, LUn:
			continue // drawn once per reference pointing at them, below
		default:
			info := s.Locs[l]
			text := fmt.Sprintf("%s : %s", l, info.Class.Name)
			style := "solid"
			if info.Input {
				text += "\nid " + RefString(info.Identity)
				if info.Exists != nil && !info.Exists.IsTrue() {
					text += "\nexists if " + d.names.wrap(info.Exists, 40)
				}
			} else {
				text += "\n(new)"
				style = "rounded"
			}
			// Primitive fields are drawn inside their location, with
			// their terms (PRIMITIVES.md §2): they are values, not edges.
			for _, f := range info.Class.PrimFields {
				if t := s.PrimField(l, f); t != nil {
					text += "\n" + f.Name + " = " + d.names.wrap(t, 40)
				} else {
					text += "\n" + f.Name + " = ⊥"
				}
			}
			fmt.Fprintf(&b, "  %s [shape=box, style=%s, label=%s];\n", locID(l), style, dotQuote(text))
		}
	}

	// Guarded edges: reference → location.
	for _, r := range refs {
		for _, e := range s.Get(r) {
			attrs := ""
			if !e.Guard.IsTrue() {
				attrs = " [label=" + dotQuote(d.names.wrap(e.Guard, 40)) + "]"
			}
			target := locID(e.Loc)
			switch e.Loc {
			case LNull:
				// One l_null box per reference keeps the many null
				// edges of a summary from converging on one node.
				target += "_" + refID(r)
				fmt.Fprintf(&b, "  %s [shape=box, style=filled, fillcolor=\"#d0d0d0\", fontsize=9, height=0.25, label=\"l_null\"];\n", target)
			case LUn:
				target += "_" + refID(r)
				fmt.Fprintf(&b, "  %s [shape=box, style=dashed, fontsize=9, height=0.25, label=\"l_un\"];\n", target)
			}
			fmt.Fprintf(&b, "  %s -> %s%s;\n", refID(r), target, attrs)
		}
	}
	// Field edges: location → reference.
	for _, l := range locs {
		if l < 0 {
			continue
		}
		for _, f := range s.Locs[l].Class.RefFields {
			fmt.Fprintf(&b, "  %s -> %s [label=%s, style=bold, color=\"#4a6fa5\", fontcolor=\"#4a6fa5\"];\n",
				locID(l), refID(s.Field(l, f)), dotQuote(f.Name))
		}
	}
	b.WriteString("}\n")
	return b.String()
}

func refID(r Ref) string {
	switch r {
	case RNull:
		return "r_null"
	case RUn:
		return "r_un"
	}
	return fmt.Sprintf("r%d", int32(r))
}

func locID(l Loc) string {
	switch l {
	case LNull:
		return "l_null"
	case LUn:
		return "l_un"
	}
	return fmt.Sprintf("l%d", int32(l))
}

// dotQuote quotes a label for DOT; newlines become centered line breaks.
func dotQuote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	s = strings.ReplaceAll(s, "\n", `\n`)
	return `"` + s + `"`
}

// dotQuoteLeft quotes a multi-line label whose lines are left-justified
// (DOT ends such a line with \l instead of \n).
func dotQuoteLeft(s string) string {
	q := dotQuote(s + "\n")
	return strings.ReplaceAll(q, `\n`, `\l`)
}

// FormulaString prints a formula with references named the way the machine
// names them (s3, i4, f5, null), which is how the pictures and traces show
// states. Data atoms and terms print as `lockstep run -paths` prints them
// (α(i1.f0) for the initial value of field 0 of i1's location, "(a < b)",
// "ite(c, a, b)"); DOT names the fields.
func FormulaString(f *smt.Formula) string {
	var b strings.Builder
	formulaNames{}.write(&b, f, false)
	return b.String()
}

// formulaNames prints formulas for the pictures; with a program it names a
// symbol's field (α(i1.key)) instead of numbering it.
type formulaNames struct {
	prog *javalite.Program
}

func (n formulaNames) write(b *strings.Builder, f *smt.Formula, nested bool) {
	atom := func(g *smt.Formula, rel string) {
		// Larger reference first, null last: "i7 = i4", "i7 ≠ null", the
		// way the rules write r_f = r_a.
		x, y := g.Atom()
		if x < y {
			x, y = y, x
		}
		b.WriteString(refName(x) + rel + refName(y))
	}
	switch f.Op() {
	case smt.OpTrue:
		b.WriteString("true")
	case smt.OpFalse:
		b.WriteString("false")
	case smt.OpEq:
		atom(f, " = ")
	case smt.OpNot:
		k := f.Kids()[0]
		if k.Op() == smt.OpEq {
			atom(k, " ≠ ")
			return
		}
		b.WriteString("¬")
		n.write(b, k, true)
	case smt.OpAnd, smt.OpOr:
		sep := " ∧ "
		if f.Op() == smt.OpOr {
			sep = " ∨ "
		}
		if nested {
			b.WriteByte('(')
		}
		for i, k := range f.Kids() {
			if i > 0 {
				b.WriteString(sep)
			}
			n.write(b, k, true)
		}
		if nested {
			b.WriteByte(')')
		}
	case smt.OpInt:
		v, _ := f.IntValue()
		b.WriteString(strconv.FormatInt(v, 10))
	case smt.OpSym:
		// Rule Initialize's initial-value symbol of a primitive field
		// (PRIMITIVES.md §2): the field of the input location whose
		// identity is r.
		r, field, _ := f.SymOf()
		b.WriteString("α(" + refName(Ref(r)) + "." + n.field(field) + ")")
	case smt.OpAdd, smt.OpSub, smt.OpLt, smt.OpLe:
		k := f.Kids()
		b.WriteByte('(')
		n.write(b, k[0], true)
		b.WriteString(" " + f.Op().String() + " ")
		n.write(b, k[1], true)
		b.WriteByte(')')
	case smt.OpEqT:
		// The operands are kept in creation order: print a constant on
		// the right, else the two sides in text order (as smt does).
		k := f.Kids()
		var x, y strings.Builder
		n.write(&x, k[0], true)
		n.write(&y, k[1], true)
		l, r := x.String(), y.String()
		if k[0].Op() == smt.OpInt || (k[1].Op() != smt.OpInt && l > r) {
			l, r = r, l
		}
		b.WriteString("(" + l + " = " + r + ")")
	case smt.OpIte:
		k := f.Kids()
		b.WriteString("ite(")
		n.write(b, k[0], false)
		b.WriteString(", ")
		n.write(b, k[1], false)
		b.WriteString(", ")
		n.write(b, k[2], false)
		b.WriteByte(')')
	default:
		// A new kind of formula still shows up in the picture, if not
		// in the machine's naming.
		b.WriteString(f.String())
	}
}

// field names field ID i of the program, or "f<i>" without a program.
func (n formulaNames) field(i int) string {
	if n.prog != nil && i >= 0 && i < len(n.prog.Fields) {
		return n.prog.Fields[i].Name
	}
	return "f" + strconv.Itoa(i)
}

// value prints a primitive value of a root (a literal or a term).
func (n formulaNames) value(v Value) string {
	if t := v.Term(); t != nil {
		return n.wrap(t, 60)
	}
	return v.String()
}

func refName(r Ref) string {
	if r == RNull {
		return "null"
	}
	return RefString(r)
}

// wrap prints f and breaks the text after a top-level connective when a
// line would pass width characters, so long guards stay readable as edge
// labels.
func (n formulaNames) wrap(f *smt.Formula, width int) string {
	if f.Op() != smt.OpAnd && f.Op() != smt.OpOr {
		var b strings.Builder
		n.write(&b, f, false)
		return b.String()
	}
	sep := " ∧"
	if f.Op() == smt.OpOr {
		sep = " ∨"
	}
	var lines []string
	cur := ""
	for i, k := range f.Kids() {
		var kb strings.Builder
		n.write(&kb, k, true)
		part := kb.String()
		if i < len(f.Kids())-1 {
			part += sep
		}
		if cur != "" && len([]rune(cur))+1+len([]rune(part)) > width {
			lines = append(lines, cur)
			cur = part
		} else if cur == "" {
			cur = part
		} else {
			cur += " " + part
		}
	}
	lines = append(lines, cur)
	return strings.Join(lines, "\n")
}

// currentMethod returns the method whose body the current η belongs to,
// or nil when the state does not tell (e is a value returning through a
// pop frame, which does not record whether it closes a var scope or a call).
func (d *dotWriter) currentMethod() *javalite.Method {
	if d.s.Mode == ModeExpr {
		return d.methods[d.s.Expr.ID()]
	}
	return d.methodBelow(d.s.K)
}

// methodBelow returns the method of the first frame of k that carries an
// expression, provided no pop frame comes first; at the end of k it is the
// entry method, the only one running with nothing left to return to.
func (d *dotWriter) methodBelow(k *Kont) *javalite.Method {
	for ; k != nil && k.Kind != KPop; k = k.Next {
		if k.Expr != nil {
			return d.methods[k.Expr.ID()]
		}
	}
	if k == nil {
		return d.s.Prog.Entry
	}
	return nil
}

// indexMethods maps every expression ID of p to its method.
func indexMethods(p *javalite.Program) map[int]*javalite.Method {
	m := map[int]*javalite.Method{}
	for _, c := range p.Classes {
		for _, meth := range c.Methods {
			javalite.Walk(meth.Body, func(x javalite.Expr) { m[x.ID()] = meth })
		}
	}
	return m
}

// slotNames returns a function naming the slots of m's environment: this,
// the parameter, and the var declarations; η[i] when m is unknown.
func slotNames(m *javalite.Method) func(int) string {
	names := map[int]string{javalite.SlotThis: "this"}
	if m != nil {
		for _, prm := range m.Params {
			names[prm.Slot] = prm.Name
		}
		javalite.Walk(m.Body, func(x javalite.Expr) {
			if d, ok := x.(*javalite.VarDecl); ok {
				names[d.Slot] = d.Name
			}
		})
	}
	return func(i int) string {
		if n, ok := names[i]; ok {
			return n
		}
		return fmt.Sprintf("η[%d]", i)
	}
}
