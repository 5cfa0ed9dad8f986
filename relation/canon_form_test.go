package relation

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestPropCanonicalForm: Canonical's string is the format spelled out
// below (R, then " ref:target" per root in reference order whatever the
// order of h.Roots, which is left as it was, then "|Class*(t1,…)" per
// location in name order) over the names canonicalNames gives.
func TestPropCanonicalForm(t *testing.T) {
	prog := mustParse(t, linkedListSrc)
	rapid.Check(t, func(t *rapid.T) {
		h := genHeap(t, prog, rapid.IntRange(0, 5).Draw(t, "n"))
		if rapid.Bool().Draw(t, "reversed") {
			slices.Reverse(h.Roots)
		}
		given := slices.Clone(h.Roots)
		got, name, _ := canonicalNames(h)
		if !slices.Equal(h.Roots, given) {
			t.Fatalf("Canonical reordered the heap's roots: %v, was %v", h.Roots, given)
		}
		roots := slices.SortedFunc(slices.Values(given), func(a, b Root) int { return int(a.Ref) - int(b.Ref) })
		var b strings.Builder
		b.WriteString("R")
		for _, r := range roots {
			b.WriteString(" " + strconv.Itoa(int(r.Ref)) + ":" + wantTarget(r.To, name))
		}
		order := make([]int, len(name))
		for l, n := range name {
			order[n] = l
		}
		for _, l := range order {
			hl := h.Locs[l]
			b.WriteString("|")
			if hl.Class != nil {
				b.WriteString(hl.Class.Name)
			}
			if hl.Input {
				b.WriteString("*")
			}
			ts := make([]string, len(hl.Fields))
			for j, t := range hl.Fields {
				ts[j] = wantTarget(t, name)
			}
			b.WriteString("(" + strings.Join(ts, ",") + ")")
		}
		if got != b.String() {
			t.Fatalf("Canonical = %q, the format gives %q", got, b.String())
		}
	})
}

// wantTarget is a target's name in the canonical string.
func wantTarget(t Target, name []int) string {
	switch {
	case t == TNull:
		return "n"
	case t == TUn:
		return "u"
	case t < 0 || int(t) >= len(name):
		return "?" + strconv.Itoa(int(t))
	}
	return strconv.Itoa(name[t])
}
