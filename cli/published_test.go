package cli

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckDefaultExplainsPublished: `lockstep check FILE` runs the default
// summary:published; when it is refuted the verdict adds one line naming the
// finding and what -variant fixed says on the same file, in -json too.
func TestCheckDefaultExplainsPublished(t *testing.T) {
	f := "../testdata/fixedbugs/published_V7_C12.jl"
	code, out, _ := runCode("check", f)
	require.Equal(t, exitViolation, code, out)
	require.Contains(t, out, "note: summary:published is the heap-summary rules as published, which lockstep refutes (docs/FINDINGS.md F2:")
	require.Contains(t, out, "-variant fixed (every proposed fix) holds on this file")

	code, out, _ = runCode("check", "-json", f)
	require.Equal(t, exitViolation, code, out)
	var doc filesJSON
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Contains(t, doc.Reports[0].Note, "F2")

	// A check that holds, or of another engine, has no note.
	code, out, _ = runCode("check", "-variant", "fixed", f)
	require.Equal(t, exitOK, code, out)
	require.NotContains(t, out, "note:")

	// Naming the published rules asks for their verdict alone: no note,
	// and no check of summary:fixed behind it.
	code, out, _ = runCode("check", "-variant", "published", f)
	require.Equal(t, exitViolation, code, out)
	require.NotContains(t, out, "note:")
}
