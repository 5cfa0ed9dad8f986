package relation

import (
	"fmt"
	"strings"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// ConcreteStates is the brute-force counterpart of the data half of
// exactness, for tests: the concrete states a state stands for, input by
// input, enumerated without a solver. Every partition of the references
// the state mentions is a reference world (Bell-many: keep states small),
// and every valuation of its input symbols over dom is a data input; a
// pair whose path condition evaluates true gives one concrete state,
// printed as its canonical heap, then for every location (by canonical
// name) the initial values of an input object's primitive fields (the
// input) and their current values, then the slot values. Two states
// stand for the same (input, state) pairs exactly when these sets are
// equal (over dom). ambiguous reports a heap with unreachable locations of
// one class, whose canonical names, hence strings, are not unique; ok is
// false when the enumeration would exceed limit cases.
func ConcreteStates(st *machine.State, dataFacts *smt.Formula, dom []int64, limit int) (out map[string]bool, ambiguous, ok bool, err error) {
	refSet := map[smt.Ref]bool{}
	symSet := map[*smt.Formula]bool{}
	note := func(f *smt.Formula) {
		if f == nil {
			return
		}
		for _, r := range f.Refs() {
			if r != smt.Null {
				refSet[r] = true
			}
		}
		for _, y := range f.Syms() {
			symSet[y] = true
		}
	}
	note(dataFacts)
	for _, a := range ConcretizationAtoms(st) {
		note(a)
	}
	for l, info := range st.Locs {
		if info.Input {
			for _, f := range info.Class.PrimFields {
				symSet[machine.InitialValue(info.Identity, f)] = true
			}
		}
		for _, f := range info.Class.PrimFields {
			note(st.PrimField(machine.Loc(l), f))
		}
	}
	for _, t := range st.Slots() {
		note(t)
	}
	var refs []smt.Ref
	for r := range refSet {
		refs = append(refs, r)
	}
	if len(refs) > 7 {
		return nil, false, false, nil // Bell(9) worlds and more: too many to enumerate
	}
	var syms []*smt.Formula
	for y := range symSet {
		syms = append(syms, y)
	}
	cases := 1
	for range syms {
		cases *= len(dom)
		if cases > limit {
			return nil, false, false, nil
		}
	}
	out = map[string]bool{}
	var perr error
	total := 0
	partitions(append([]smt.Ref{smt.Null}, refs...), func(rep map[smt.Ref]smt.Ref) bool {
		same := func(a, b smt.Ref) bool { return rep[a] == rep[b] }
		holds := func(f *smt.Formula) bool { return f == nil || f.Eval(same) }
		phi := dataFacts
		if phi == nil {
			phi = st.PathCondition()
		}
		h, err := buildHeap(st, holds, nil)
		if err != nil {
			// No heap in this world: fine if φ is false for every data
			// input (checked at each leaf below), an error otherwise.
			h = nil
		}
		key, names, reach := "", []int(nil), 0
		if h != nil {
			key, names, reach = canonicalNames(h)
			seen := map[string]int{}
			for i, hl := range h.Locs {
				if names[i] >= reach && hl.Class != nil {
					seen[hl.Class.Name]++
					if seen[hl.Class.Name] > 1 {
						ambiguous = true
					}
				}
			}
		}
		val := make(map[*smt.Formula]int64, len(syms))
		var rec func(i int) bool
		rec = func(i int) bool {
			if i < len(syms) {
				for _, v := range dom {
					if syms[i].Sort() == smt.SortBool && v != 0 && v != 1 {
						continue
					}
					val[syms[i]] = v
					if !rec(i + 1) {
						return false
					}
				}
				return true
			}
			total++
			if total > limit {
				return false
			}
			get := func(y *smt.Formula) int64 { return val[y] }
			b, okb := phi.EvalData(same, get)
			if !okb || b == 0 {
				return true
			}
			if h == nil {
				perr = fmt.Errorf("a world where φ holds builds no heap")
				return false
			}
			var sb strings.Builder
			sb.WriteString(key)
			byName := make([]int, len(h.Locs))
			for i := range h.Locs {
				byName[names[i]] = i
			}
			for _, i := range byName {
				hl := h.Locs[i]
				fmt.Fprintf(&sb, " #%d{", names[i])
				for _, f := range hl.Class.PrimFields {
					if hl.Input {
						fmt.Fprintf(&sb, "%s0=%d ", f.Name, val[machine.InitialValue(st.Locs[hl.Orig].Identity, f)])
					}
					v, okv := st.PrimField(hl.Orig, f).EvalData(same, get)
					if !okv {
						perr = fmt.Errorf("a field term overflows")
						return false
					}
					fmt.Fprintf(&sb, "%s=%d ", f.Name, v)
				}
				sb.WriteString("}")
			}
			sb.WriteString(" slots")
			for _, t := range st.Slots() {
				v, okv := t.EvalData(same, get)
				if !okv {
					perr = fmt.Errorf("a slot term overflows")
					return false
				}
				fmt.Fprintf(&sb, " %d", v)
			}
			out[sb.String()] = true
			return true
		}
		return rec(0)
	})
	if perr != nil {
		return nil, ambiguous, false, perr
	}
	return out, ambiguous, total <= limit, nil
}

// partitions calls yield with every set partition of rs (each ref mapped
// to its class's first member), until yield returns false.
func partitions(rs []smt.Ref, yield func(map[smt.Ref]smt.Ref) bool) {
	rep := map[smt.Ref]smt.Ref{}
	var classes []smt.Ref
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(rs) {
			return yield(rep)
		}
		for _, c := range classes {
			rep[rs[i]] = c
			if !rec(i + 1) {
				return false
			}
		}
		rep[rs[i]] = rs[i]
		classes = append(classes, rs[i])
		ok := rec(i + 1)
		classes = classes[:len(classes)-1]
		return ok
	}
	rec(0)
}
