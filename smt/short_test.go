package smt

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestShort: a small formula prints in full, a large one as a summary
// naming its operator and references, nil as true.
func TestShort(t *testing.T) {
	small := And(Eq(1, 4), Neq(4, Null))
	require.Equal(t, small.String(), Short(small))
	require.Equal(t, "true", Short(nil))
	var parts []*Formula
	for i := Ref(1); i < 60; i += 3 {
		parts = append(parts, Or(Eq(i, i+3), Neq(i, Null)))
	}
	big := And(parts...)
	s := Short(big)
	require.Less(t, len(s), len(big.String()))
	require.True(t, strings.HasPrefix(s, "⟨"), s)
	require.Contains(t, s, "more than 64 nodes")
	require.Contains(t, s, "r4")
}
