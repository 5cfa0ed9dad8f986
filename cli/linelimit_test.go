package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLineLimiter(t *testing.T) {
	var b bytes.Buffer
	l := &lineLimiter{w: &b, max: 10}
	long := strings.Repeat("é", 20) // 40 bytes
	// Written in pieces, as fmt does.
	for _, p := range []string{"short\n", long[:7], long[7:], "\nnext", " line\n"} {
		n, err := l.Write([]byte(p))
		require.NoError(t, err)
		require.Equal(t, len(p), n)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Equal(t, "short", lines[0])
	require.Equal(t, strings.Repeat("é", 5)+"… (line cut: 30 more characters; -json prints it whole)", lines[1])
	require.Equal(t, "next line", lines[2])
}
