package extern_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/engine/extern"
	"github.com/lockstep-dev/lockstep/examples/engines/gsefacts"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// gse-facts (examples/engines/gsefacts) is registered in this test
// binary only: the Go side of the benchmarks that compare the Python
// engine with a Go one.
func init() { engine.Register(gsefacts.Info) }

var benchFiles = []string{"swap.jl", "hasnull.jl", "alias_write_read.jl", "pose_ite_read.jl", "linkedlist.jl"}

// benchCheck checks benchFiles at k = 2 with the engine spec and reports,
// per run of all files, the messages, the time per message, and the CPU
// time of lockstep and of its engine processes.
func benchCheck(b *testing.B, spec string) {
	benchCheckFiles(b, spec, "programs", benchFiles)
}

// benchTrees are the tree programs of testdata/trees with int keys and
// bool colours (all but the two of thousands of paths at k = 2).
var benchTrees = []string{"avl_rotate.jl", "bst_delete2.jl", "bst_insert_parent.jl", "bst_removeMin.jl", "rb_flip.jl",
	"rb_rotateLeft.jl", "sorted_insert.jl", "successor.jl"}

// benchCheckFiles is benchCheck on files of testdata/dir.
func benchCheckFiles(b *testing.B, spec, dir string, files []string) {
	var progs []*javalite.Program
	for _, f := range files {
		p, err := javalite.LoadFile("../../testdata/" + dir + "/" + f)
		if err != nil {
			b.Fatal(err)
		}
		progs = append(progs, p)
	}
	solver, err := smt.NewSolver()
	if err != nil {
		b.Fatal(err)
	}
	defer solver.Close()
	var msgs, bytes atomic.Int64
	extern.Trace = func(request bool, m []byte) {
		if request {
			msgs.Add(1)
		}
		bytes.Add(int64(len(m)))
	}
	defer func() { extern.Trace = nil }()
	opt := checker.DefaultOptions()
	opt.Engine, opt.K = spec, 2
	var self0, kids0 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self0)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids0)
	start := time.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range progs {
			rep, err := checker.Run(context.Background(), p, opt, solver)
			if err != nil || rep.Verdict.Status != checker.Holds {
				b.Fatalf("%s: %v %v", p.File, err, rep.Verdict.Status)
			}
		}
	}
	b.StopTimer()
	wall := time.Since(start)
	extern.Shutdown() // the processes exit: their CPU time is counted
	var self1, kids1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self1)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids1)
	cpu := func(a, z syscall.Rusage) float64 {
		return float64((z.Utime.Nano()+z.Stime.Nano())-(a.Utime.Nano()+a.Stime.Nano())) / 1e6 / float64(b.N)
	}
	b.ReportMetric(cpu(self0, self1), "lockstep-cpu-ms/op")
	b.ReportMetric(cpu(kids0, kids1), "engine-cpu-ms/op")
	m := float64(msgs.Load()) / float64(b.N)
	b.ReportMetric(m, "msgs/op")
	if m > 0 {
		b.ReportMetric(float64(wall.Microseconds())/float64(b.N)/m, "µs/msg")
		b.ReportMetric(float64(bytes.Load())/float64(b.N)/m, "bytes/msg")
	}
}

// BenchmarkProtocol: the same checks in-process and through exec: — a Go
// engine (the summary engine; GSE with resolution facts) served by this
// test binary, and the Python GSE (docs/PERFORMANCE.md).
//
//	go test -run '^$' -bench Protocol -benchtime 3x ./engine/extern
func BenchmarkProtocol(b *testing.B) {
	self := os.Args[0]
	b.Run("summary/in-process", func(b *testing.B) { benchCheck(b, "summary:fixed") })
	b.Run("summary/exec-go", func(b *testing.B) { benchCheck(b, "exec:"+self+" serve summary#fixed") })
	b.Run("gse-facts/in-process", func(b *testing.B) { benchCheck(b, "gse-facts") })
	b.Run("gse-facts/exec-go", func(b *testing.B) { benchCheck(b, "exec:"+self+" serve gse-facts") })
	if _, err := exec.LookPath("python3"); err == nil {
		script, _ := filepath.Abs("../../examples/engines/gse.py")
		b.Run("gse-facts/exec-python", func(b *testing.B) { benchCheck(b, "exec:python3 "+script) })
	}
}

// BenchmarkProtocolData: BenchmarkProtocol on the tree programs, whose
// messages carry version 2's data (docs/PROTOCOL.md §11).
//
//	go test -run '^$' -bench ProtocolData -benchtime 1x ./engine/extern
func BenchmarkProtocolData(b *testing.B) {
	self := os.Args[0]
	b.Run("summary/in-process", func(b *testing.B) { benchCheckFiles(b, "summary:fixed", "trees", benchTrees) })
	b.Run("summary/exec-go", func(b *testing.B) { benchCheckFiles(b, "exec:"+self+" serve summary#fixed", "trees", benchTrees) })
	b.Run("gse-facts/in-process", func(b *testing.B) { benchCheckFiles(b, "gse-facts", "trees", benchTrees) })
	b.Run("gse-facts/exec-go", func(b *testing.B) { benchCheckFiles(b, "exec:"+self+" serve gse-facts", "trees", benchTrees) })
	if _, err := exec.LookPath("python3"); err == nil {
		script, _ := filepath.Abs("../../examples/engines/gse.py")
		b.Run("gse-facts/exec-python", func(b *testing.B) { benchCheckFiles(b, "exec:python3 "+script, "trees", benchTrees) })
	}
}

// TestGoFactsMatchesPython: the Go gse-facts of the benchmarks is the
// Python engine's algorithm: both hold with the same paths and checks.
func TestGoFactsMatchesPython(t *testing.T) {
	spec := pythonGSE(t)
	defer extern.Shutdown()
	solver, err := smt.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer solver.Close()
	for _, f := range []string{"swap.jl", "selfref.jl"} {
		p := load(t, f)
		opt := checker.DefaultOptions()
		opt.K, opt.Engine = 2, "gse-facts"
		a, err := checker.Run(context.Background(), p, opt, solver)
		if err != nil {
			t.Fatal(err)
		}
		opt.Engine = spec
		c, err := checker.Run(context.Background(), p, opt, solver)
		if err != nil {
			t.Fatal(err)
		}
		if a.Verdict.Status != checker.Holds || c.Verdict.Status != checker.Holds || a.SummaryPaths != c.SummaryPaths || a.Pairs != c.Pairs {
			t.Fatalf("%s: Go %v %d paths %d pairs, Python %v %d paths %d pairs", f, a.Verdict.Status, a.SummaryPaths, a.Pairs, c.Verdict.Status, c.SummaryPaths, c.Pairs)
		}
	}
}

// BenchmarkDecodeAnswers: reading version 2's answers (the Python GSE's
// and the served summary engine's on testdata/trees and testdata/data at
// k = 1, recorded first) with the reader lockstep uses (go-json behind the
// bounds' prescan) and with encoding/json (docs/PROTOCOL.md §11). Measure
// CPU time: go test -run '^$' -bench DecodeAnswers -benchtime 20x.
func BenchmarkDecodeAnswers(b *testing.B) {
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("python3 is not on PATH")
	}
	var msgs [][]byte
	var size int64
	extern.Trace = func(request bool, m []byte) {
		if !request && len(m) > 200 {
			msgs = append(msgs, append([]byte(nil), m...))
			size += int64(len(m))
		}
	}
	solver, err := smt.NewSolver()
	if err != nil {
		b.Fatal(err)
	}
	defer solver.Close()
	script, _ := filepath.Abs("../../examples/engines/gse.py")
	files, _ := filepath.Glob("../../testdata/trees/*.jl")
	data, _ := filepath.Glob("../../testdata/data/*.jl")
	for _, spec := range []string{"exec:python3 " + script, "exec:" + os.Args[0] + " serve summary#fixed"} {
		for _, f := range append(files, data...) {
			p, err := javalite.LoadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			opt := checker.DefaultOptions()
			opt.Engine, opt.K = spec, 1
			if _, err := checker.Run(context.Background(), p, opt, solver); err != nil {
				b.Fatal(err)
			}
		}
	}
	extern.Trace = nil
	extern.Shutdown()
	b.Logf("%d answers, %d bytes", len(msgs), size)
	for _, c := range []struct {
		name  string
		parse func([]byte) error
	}{{"go-json", extern.ParseAnswer}, {"encoding-json", extern.ParseAnswerStd}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			var r0, r1 syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
			for i := 0; i < b.N; i++ {
				for _, m := range msgs {
					if err := c.parse(m); err != nil {
						b.Fatal(err)
					}
				}
			}
			syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
			cpu := (r1.Utime.Nano() + r1.Stime.Nano()) - (r0.Utime.Nano() + r0.Stime.Nano())
			b.ReportMetric(float64(cpu)/1e3/float64(b.N)/float64(len(msgs)), "cpu-µs/answer")
		})
	}
}
