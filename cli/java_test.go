package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/jvm"
)

func TestJavaExport(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"java", "../testdata/data/bst_lookup.jl"}, &out, &errb)
	require.Equal(t, exitOK, code, errb.String())
	require.Contains(t, out.String(), "public final class Bst_lookup {")
	require.Contains(t, out.String(), "boolean m_find(long v1)")

	dir := t.TempDir()
	out.Reset()
	code = run([]string{"java", "-class", "Bst", "-d", dir, "../testdata/data/bst_lookup.jl"}, &out, &errb)
	require.Equal(t, exitOK, code, errb.String())
	src, err := os.ReadFile(filepath.Join(dir, "Bst.java"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(src), "// Bst.java"))
}

// TestJavaRefuses: the JVM has the Java semantics only, and a class name
// must be one Java and the export can use; both are usage errors.
func TestJavaRefuses(t *testing.T) {
	for _, args := range [][]string{
		{"java", "-semantics", "paper", "../testdata/data/bst_lookup.jl"},
		{"java", "-class", "int", "../testdata/data/bst_lookup.jl"},
		{"java", "-class", "C_Node", "../testdata/data/bst_lookup.jl"},
		{"java", "../testdata/errors/check.jl"},
		{"java"},
		{"jvm-diff", "-semantics", "paper-call", "../testdata/data"},
		{"jvm-diff", "-k", "-1", "-gen"},
		{"jvm-diff"},
	} {
		var out, errb bytes.Buffer
		require.Equal(t, exitUsage, run(args, &out, &errb), "%v: %s", args, errb.String())
	}
}

func TestJVMDiffCommand(t *testing.T) {
	if !jvm.HaveJDK() {
		t.Skip("no JDK")
	}
	var out, errb bytes.Buffer
	code := run([]string{"jvm-diff", "-json", "-gen", "-n", "5", "../testdata/data/bst_lookup.jl"}, &out, &errb)
	require.Equal(t, exitOK, code, errb.String())
	require.Contains(t, out.String(), `"programs": 6`)
	require.Contains(t, out.String(), `"unexplained": 0`)
}

// TestCheckOracleJVM: ORC with the JVM as its concrete side holds where
// the default ORC holds, and is refused under a semantics the JVM lacks.
func TestCheckOracleJVM(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, exitUsage, run([]string{"check", "-oracle", "jvm", "-semantics", "paper", "../testdata/data/max2.jl"}, &out, &errb))
	require.Equal(t, exitUsage, run([]string{"check", "-oracle", "python", "../testdata/data/max2.jl"}, &out, &errb))
	if !jvm.HaveJDK() {
		t.Skip("no JDK")
	}
	out.Reset()
	code := run([]string{"check", "-variant", "fixed", "-k", "2", "-oracle", "jvm", "../testdata/data/max2.jl"}, &out, &errb)
	require.Equal(t, exitOK, code, "%s\n%s", out.String(), errb.String())
	require.Contains(t, out.String(), "ORC×")
}
