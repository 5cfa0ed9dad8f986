package jvm_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/jvm"
)

func needJDK(t *testing.T) {
	t.Helper()
	if !jvm.HaveJDK() {
		t.Skip("no javac/java on PATH (make deps installs default-jdk-headless)")
	}
}

func soak() bool { return os.Getenv("LOCKSTEP_SOAK") != "" }

// testdataPrograms loads every program of testdata/ that checks (the
// errors/ directory holds the ones that must not).
func testdataPrograms(t *testing.T) []jvm.Named {
	t.Helper()
	var out []jvm.Named
	err := filepath.WalkDir("../testdata", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jl") {
			return err
		}
		p, err := javalite.LoadFile(path)
		if err != nil {
			return nil // testdata/errors and the like: no program to export
		}
		out = append(out, jvm.Named{Name: path, P: p})
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, len(out), 50)
	return out
}

func generated(seed int64, n int) []jvm.Named {
	var out []jvm.Named
	for i, p := range gen.Programs(seed, n, gen.Default.WithData(gen.DataMixed)) {
		out = append(out, jvm.Named{Name: fmt.Sprintf("gen seed %d #%d", seed, i), P: p})
	}
	return out
}

// TestExportCompiles exports every testdata program and a stream of
// generated programs with data and compiles them with one javac: 60
// generated programs in make test, 1,000 under make soak.
func TestExportCompiles(t *testing.T) {
	needJDK(t)
	n := 60
	if soak() {
		n = 1000
	}
	progs := append(testdataPrograms(t), generated(7, n)...)
	b, err := jvm.NewBatch(t.TempDir())
	require.NoError(t, err)
	for _, np := range progs {
		_, err := b.Add(np.P)
		require.NoError(t, err, np.Name)
	}
	require.NoError(t, b.Compile(context.Background()))
}
