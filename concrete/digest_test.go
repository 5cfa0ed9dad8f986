package concrete

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/machine"
)

// TestDigestItems: a step's item is the same built behind its prefix (a
// concrete run's steps, Digests.extend) as from strings (Extend), and
// digests tell apart sequences that differ in a rule, a control, the
// order of two steps or their number.
func TestDigestItems(t *testing.T) {
	for _, c := range []string{"", "x", "(x 3) [k1 k2]", string(make([]byte, 300))} {
		for _, rule := range []string{"", "Var", "Field access (A)"} {
			var buf [256]byte
			require.Equal(t, itemOf(nil, rule, c), itemOfKey(append(itemPrefix(buf[:0], rule), c...)))
		}
	}
	seqs := [][][2]string{
		{},
		{{"Var", "a"}},
		{{"Var", "b"}},
		{{"Seq", "a"}},
		{{"Var", "a"}, {"Var", "a"}},
		{{"Var", "a"}, {"Var", "b"}},
		{{"Var", "b"}, {"Var", "a"}},
		{{"", "Vara"}},
		{{"Vara", ""}},
	}
	seen := map[Digest]int{}
	for i, seq := range seqs {
		d := Digest{}
		for _, st := range seq {
			d = d.Extend(st[0], st[1])
		}
		j, dup := seen[d]
		require.False(t, dup, "sequences %d and %d share a digest", i, j)
		seen[d] = i
	}
}

// TestMixBijective: for a given word, mix is one to one in the other (on a
// sample), the property the digests' collision bound rests on.
func TestMixBijective(t *testing.T) {
	seen := map[uint64]bool{}
	for a := range uint64(1 << 12) {
		h := mix(42, a, 7)
		require.False(t, seen[h])
		seen[h] = true
		h = mix(42, 7, a+1<<40)
		require.False(t, seen[h])
		seen[h] = true
	}
}

// TestDigestPathItems: the path item of a Field access (A) of a reference
// and of an If (sym) is the item of the control key followed by "@" and the
// location read, or "|" and the branch's fact (what sibling GSE branches
// differ in).
func TestDigestPathItems(t *testing.T) {
	prog := testutil.Program(t, "../testdata/programs/linkedlist.jl")
	s := machine.Initial(prog)
	s.SetValue(machine.RefVal(machine.RNull), nil)
	d := Digests{}.extend(machine.RuleFieldA, s)
	key := s.ControlKey()
	require.Equal(t, Digest{}.Extend(machine.RuleFieldA, key), d.Control)
	loc := s.Get(machine.RNull)
	require.NotEmpty(t, loc)
	require.Equal(t, Digest{}.Extend(machine.RuleFieldA, fmt.Sprintf("%s@%d", key, loc[0].Loc)), d.Path)
}
