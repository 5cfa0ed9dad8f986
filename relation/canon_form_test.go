package relation

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestPropCanonicalForm: Canonical's string is writeLoc's and targetName's
// format over the names canonicalNames gives, roots in reference order
// whatever the order of h.Roots (which is left as it was).
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
			b.WriteString(" " + strconv.Itoa(int(r.Ref)) + ":" + targetName(r.To, name))
		}
		order := make([]int, len(name))
		for l, n := range name {
			order[n] = l
		}
		for _, l := range order {
			writeLoc(&b, h, l, func(t Target) string { return targetName(t, name) })
		}
		if got != b.String() {
			t.Fatalf("Canonical = %q, the format gives %q", got, b.String())
		}
	})
}
