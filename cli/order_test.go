package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOrderExitCodes: lemma P4 is the property `lockstep order` checks, so
// a program on which an inequality fails exits 1 and one on which all hold
// exits 0; an exploration cut short by -max-paths is undecided (3), unless
// its lower bound decides the claim.
func TestOrderExitCodes(t *testing.T) {
	dir := t.TempDir()
	eq := filepath.Join(dir, "eq.jl")
	require.NoError(t, os.WriteFile(eq, []byte("(((class A ([A f] [A g]) ((bool main [bool x] ((this $ f) = (this $ g)))))) (A main))\n"), 0o644))
	var out, errb bytes.Buffer
	code := run([]string{"order", "-k", "-1", eq}, &out, &errb)
	assert.Equal(t, exitViolation, code, errb.String())
	assert.Contains(t, out.String(), "fails        lazier# ≤ lazier: lazier# has 10 paths, lazier 8")

	out.Reset()
	code = run([]string{"order", "-k", "-1", "-steps", "1000", "../testdata/programs/swap.jl"}, &out, &errb)
	assert.Equal(t, exitOK, code, errb.String())
	assert.Contains(t, out.String(), "lazier#        3 = 3v + 0e")

	// lazier has 8 paths: with at most 5 ends it is undecided, and so is
	// lazier ≤ gse (GSE, 10, undecided too); lazier# (10, undecided)
	// against lazier (undecided) as well.
	out.Reset()
	code = run([]string{"order", "-k", "-1", "-max-paths", "5", "-engines", "lazier,gse", eq}, &out, &errb)
	assert.Equal(t, exitInconclusive, code, out.String())
	assert.Contains(t, out.String(), "inconclusive lazier ≤ gse")

	out.Reset()
	code = run([]string{"order", "-k", "-1", "-json", eq}, &out, &errb)
	assert.Equal(t, exitViolation, code)
	var doc struct {
		Reports []orderJSON `json:"reports"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc))
	require.Len(t, doc.Reports, 1)
	j := doc.Reports[0]
	assert.Equal(t, int64(10), j.Counts["gse"].Value)
	assert.Len(t, j.Claims, 4)

	code = run([]string{"order", "-engines", "nosuch", eq}, &out, &errb)
	assert.Equal(t, exitUsage, code)
}

// TestOrderGenerated: a small hunt prints a tally line per claim, and an
// unshrunk counterexample (-shrink-steps 0) as found. Program 6 of seed 1
// fails lazier# ≤ lazier at k = 1 (docs/FINDINGS.md "P4").
func TestOrderGenerated(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"order", "-gen", "-n", "7", "-workers", "1", "-k", "1", "-steps", "60", "-shrink-steps", "0", "-engines", "lazier#,lazier"}, &out, &errb)
	require.Equal(t, exitViolation, code, errb.String())
	assert.Contains(t, out.String(), "counterexample to lazier# ≤ lazier: program 6")
	assert.Contains(t, out.String(), ", not shrunk")
	assert.True(t, strings.HasPrefix(out.String(), "P4 ordering at k = 1, step bound 60"), out.String())
	assert.Contains(t, out.String(), ": 7 programs")
}
