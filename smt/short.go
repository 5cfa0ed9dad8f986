package smt

import (
	"fmt"
	"strconv"
	"strings"
)

// ShortLimit is the number of formula nodes Short prints in full.
const ShortLimit = 64

// Short prints f, or a summary of it when printing it would be long:
// formulas share subformulas (they are DAGs), and the tree printed from a
// deep state's guard can run to megabytes. Every error or report that
// quotes a formula prints it with Short. nil prints as "true", as a missing
// guard means.
func Short(f *Formula) string { return f.Bounded(ShortLimit) }

// Bounded prints f in full when its tree has at most n nodes, and
// otherwise as "⟨OP formula of more than n nodes over REFS⟩", with "and k
// symbols" added when it has data. Counting stops at n+1, and the symbols
// are collected once per shared node, so the summary of a DAG whose tree
// is exponential is cheap.
func (f *Formula) Bounded(n int) string {
	if f == nil {
		return "true"
	}
	seen := 0
	var count func(g *Formula)
	count = func(g *Formula) {
		if seen > n {
			return
		}
		seen++
		for _, k := range g.Kids() {
			count(k)
		}
	}
	count(f)
	if seen <= n {
		return f.String()
	}
	var refs []string
	for _, r := range f.Refs() {
		refs = append(refs, r.String())
	}
	what := "formula"
	if f.sort == SortInt {
		what = "term"
	}
	over := strings.Join(refs, ",")
	if f.data {
		syms := len(f.Syms())
		switch {
		case over == "":
			over = strconv.Itoa(syms) + " symbols"
		default:
			over += " and " + strconv.Itoa(syms) + " symbols"
		}
	}
	return fmt.Sprintf("⟨%s %s of more than %d nodes over %s⟩", f.Op(), what, n, over)
}
