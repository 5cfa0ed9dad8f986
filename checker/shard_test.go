package checker

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestShardsCoverTheStream: the shards 0/N … N-1/N of a stream of any
// length hold every program index exactly once, in increasing order within
// each shard.
func TestShardsCoverTheStream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		total := rapid.IntRange(0, 200).Draw(t, "total")
		n := rapid.IntRange(1, 12).Draw(t, "n")
		seen := make([]int, total)
		for i := range n {
			s := Shard{I: i, N: n}
			if n > 1 { // the whole stream prints as ""
				parsed, err := ParseShard(s.String())
				require.NoError(t, err)
				require.Equal(t, s, parsed)
			}
			prev := -1
			for j := range s.Len(total) {
				x := s.Index(j)
				require.Less(t, prev, x)
				require.Less(t, x, total)
				require.Equal(t, i, x%n)
				seen[x]++
				prev = x
			}
		}
		for x, c := range seen {
			require.Equalf(t, 1, c, "program %d is in %d shards", x, c)
		}
	})
}

func TestParseShard(t *testing.T) {
	for _, bad := range []string{"", "3", "3/3", "-1/3", "1/0", "a/b", "1/3/4", " 1/3"} {
		_, err := ParseShard(bad)
		require.Error(t, err, bad)
	}
	s, err := ParseShard("2/5")
	require.NoError(t, err)
	require.Equal(t, Shard{I: 2, N: 5}, s)
	require.Equal(t, "2/5", s.String())
	whole, err := ParseShardFlag("")
	require.NoError(t, err)
	require.True(t, whole.Whole())
	require.Equal(t, 7, whole.Len(7))
	require.Equal(t, 4, whole.Index(4))
}
