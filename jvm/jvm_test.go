package jvm_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/jvm"
	"github.com/lockstep-dev/lockstep/machine"
)

func needJDK(t *testing.T) {
	t.Helper()
	if !jvm.HaveJDK() {
		t.Skip("no javac/java on PATH (make deps installs default-jdk-headless)")
	}
}

func soak() bool { return os.Getenv("LOCKSTEP_SOAK") != "" }

// One server JVM for the package's tests: its start and javac's warm-up
// are paid once.
var (
	srvOnce sync.Once
	srv     *jvm.Server
	srvErr  error
	srvDir  string
)

func server(t *testing.T) *jvm.Server {
	t.Helper()
	srvOnce.Do(func() {
		srvDir, srvErr = os.MkdirTemp("", "lockstep-jvm-test-")
		if srvErr == nil {
			srv, srvErr = jvm.StartServer(context.Background(), srvDir)
		}
	})
	require.NoError(t, srvErr)
	return srv
}

func TestMain(m *testing.M) {
	code := m.Run()
	if srv != nil {
		srv.Close()
	}
	if srvDir != "" {
		os.RemoveAll(srvDir)
	}
	os.Exit(code)
}

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
// generated programs with data and compiles them in one compilation: 20
// generated programs in make test (in the server JVM), 1,000 under make
// soak (with javac and java processes of the batch's own, which then run
// one case of every program).
func TestExportCompiles(t *testing.T) {
	needJDK(t)
	n := 20
	if soak() {
		n = 1000
	}
	progs := append(testdataPrograms(t), generated(7, n)...)
	b, err := jvm.NewBatch(t.TempDir())
	require.NoError(t, err)
	if !soak() {
		b.Server = server(t)
	}
	var cases []jvm.Case
	var want []string
	for _, np := range progs {
		name, err := b.Add(np.P)
		require.NoError(t, err, np.Name)
		h := jvm.Inputs(np.P, jvm.Options{K: 0, MaxObjects: 1, MaxInputs: 1}, 1)[0]
		cases = append(cases, jvm.Case{Class: name, Input: jvm.Encode(np.P, h)})
		out, _, err := jvm.Lockstep(np.P, h, jvm.Options{Bound: 2000})
		require.NoError(t, err)
		want = append(want, out)
	}
	require.NoError(t, b.Compile(context.Background()))
	if !soak() {
		return
	}
	got, err := b.Run(context.Background(), cases)
	require.NoError(t, err)
	for i := range got {
		if c := jvm.Classify(want[i], got[i]); c != "" && c != jvm.CatDiverges {
			t.Errorf("%s: lockstep %s, jvm %s (%s)", progs[i].Name, want[i], got[i], c)
		}
	}
}

// TestDiffAgrees runs the differential on every testdata program and on
// generated programs with data (40 in make test, 2,000 under make soak):
// every disagreement must be explained.
func TestDiffAgrees(t *testing.T) {
	needJDK(t)
	n, inputs := 40, 24
	progs := generated(11, n)
	if soak() {
		n, inputs = 2000, 64
		progs = append(testdataPrograms(t), generated(11, n)...)
	}
	o := jvm.Options{K: 2, MaxObjects: 3, Bound: 2000, MaxInputs: inputs, Seed: 11, Dir: t.TempDir(), Shrink: 1, Server: server(t)}
	rep, err := jvm.Diff(context.Background(), progs, o, nil)
	require.NoError(t, err)
	t.Log(rep)
	require.True(t, rep.OK(), "%s", rep)
	require.Greater(t, rep.Pairs, int64(n))
	require.Positive(t, rep.Outcomes["value"])
	require.Positive(t, rep.Outcomes["error"])
	require.Positive(t, rep.Outcomes["pruned"])
}

// TestDiffFindsPlantedMistake plants `<` read as `<=` in lockstep's
// interpreter: the differential must report it on a testdata program and
// shrink it to a smaller program that still has a `<` (under make soak,
// also on generated programs).
func TestDiffFindsPlantedMistake(t *testing.T) {
	needJDK(t)
	defer concrete.PlantLtAsLe(true)()
	p, err := javalite.LoadFile("../testdata/data/bst_lookup.jl")
	require.NoError(t, err)
	progs := []jvm.Named{{Name: p.File, P: p}}
	o := jvm.Options{K: 0, MaxObjects: 1, Bound: 2000, MaxInputs: 64, Seed: 3, Dir: t.TempDir(), Shrink: 1, Server: server(t)}
	if soak() {
		o.K, o.MaxObjects, o.MaxInputs = 1, 2, 24
		progs = nil
		for _, np := range generated(3, 200) {
			if strings.Contains(javalite.Print(np.P), " < ") {
				progs = append(progs, np)
			}
			if len(progs) == 8 {
				break
			}
		}
	}
	rep, err := jvm.Diff(context.Background(), progs, o, nil)
	require.NoError(t, err)
	require.False(t, rep.OK(), "the planted mistake went unnoticed: %s", rep)
	d := rep.Disagreements[0]
	t.Logf("shrunk from %d to %d lines:\n%s\ninput %s\nlockstep %s\njvm      %s", strings.Count(d.Original, "\n"), strings.Count(d.Program, "\n"), d.Program, d.Input, d.Lockstep, d.JVM)
	require.NotEmpty(t, d.Original, "not shrunk")
	require.Less(t, len(d.Program), len(d.Original))
	require.Contains(t, d.Program, "<")
	require.NotEqual(t, d.Lockstep, d.JVM)
}

// TestORCRunner: the JVM as ORC's concrete side ends every input as
// lockstep's interpreter does (its Result, steps taken from the
// interpreter), and disagrees where the interpreter has a planted mistake.
func TestORCRunner(t *testing.T) {
	needJDK(t)
	orc := jvm.NewORCWith(server(t), t.TempDir())
	defer orc.Close()
	for _, f := range []string{"../testdata/data/bst_lookup.jl", "../testdata/programs/linkedlist.jl"} {
		p, err := javalite.LoadFile(f)
		require.NoError(t, err)
		o := jvm.Options{K: 1, MaxObjects: 2, MaxInputs: 40, Seed: 1}
		for _, h := range jvm.Inputs(p, o, 1) {
			want, err := concrete.InterpretWith(p, h, 300, machine.Options{})
			require.NoError(t, err)
			got, err := orc.Run(p, h, 300, machine.Options{})
			require.NoError(t, err)
			want.Rules, got.Rules = nil, nil
			require.Equal(t, want, got, "%s on %s", f, h)
		}
	}
	// The completeness half: each input's machine run (the GSE path it
	// follows) against the JVM.
	p, err := javalite.LoadFile("../testdata/data/bst_lookup.jl")
	require.NoError(t, err)
	also := orc.Also(p)
	for _, h := range jvm.Inputs(p, jvm.Options{K: 1, MaxObjects: 2, MaxInputs: 40, Seed: 2}, 2) {
		res, err := concrete.Run(p, h, 1, 300, false)
		require.NoError(t, err)
		if res.Kind == machine.EndCut && !res.Pruned {
			continue
		}
		require.NoError(t, also(h, res), "%s", h)
		if res.Kind == machine.EndValue && !res.Pruned && !res.OutOfRange {
			res.Value.Bool = !res.Value.Bool
			require.ErrorIs(t, also(h, res), concrete.ErrDisagree, "%s", h)
		}
	}
	checked, _ := orc.Counts()
	require.Positive(t, checked)
	h := &concrete.Heap{Objects: []concrete.Object{{Class: p.Entry.Owner, Fields: []int{concrete.Null, concrete.Null, concrete.Null, concrete.Null}, Prim: []int64{0, 0, 0, 0}}}}
	defer concrete.PlantLtAsLe(true)()
	want, err := concrete.InterpretWith(p, h, 300, machine.Options{})
	require.NoError(t, err)
	got, err := orc.Run(p, h, 300, machine.Options{})
	require.NoError(t, err)
	require.False(t, want.Pruned)
	require.True(t, got.Pruned, "key 0: (assume (0 < 0)) prunes on the JVM")
	_, err = orc.Run(p, h, 300, machine.Options{VarRestoresEnv: true})
	require.Error(t, err)
}

// TestExportRegressions: the programs of testdata/jvm broke the export
// once; each must compile and agree with lockstep on its inputs.
func TestExportRegressions(t *testing.T) {
	needJDK(t)
	files, err := filepath.Glob("../testdata/jvm/*.jl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var progs []jvm.Named
	for _, f := range files {
		p, err := javalite.LoadFile(f)
		require.NoError(t, err)
		progs = append(progs, jvm.Named{Name: f, P: p})
	}
	o := jvm.Options{K: 1, MaxObjects: 2, Bound: 2000, MaxInputs: 32, Seed: 1, Dir: t.TempDir(), Server: server(t)}
	rep, err := jvm.Diff(context.Background(), progs, o, nil)
	require.NoError(t, err)
	require.True(t, rep.OK(), "%s", rep)
}
