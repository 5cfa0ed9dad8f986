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
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// gse-facts is examples/engines/gse.py in Go, registered in this test
// binary only (docs/ENGINES.md "A worked example": the checker's factGSE),
// built with engine.Wrap over the built-in GSE: the Go side of the
// benchmarks that compare the Python engine with a Go one.
func init() {
	engine.Register(engine.Info{
		Name: "gse-facts",
		Doc:  "GSE with resolution facts (test binary only)",
		New: func(_ string, cfg engine.Config) (engine.UnderTest, error) {
			g := &gse.Engine{K: cfg.K, Opt: cfg.Machine}
			return engine.Wrap(g, engine.Overrides{
				Name:        func() string { return "gse-facts" },
				Shape:       func() engine.Shape { return engine.Partition },
				FieldAccess: factAccess(g),
			}), nil
		},
	})
}

func factAccess(g *gse.Engine) func(*machine.State, machine.Ref, *javalite.FieldAccess, *machine.Kont) ([]machine.Succ, error) {
	return func(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
		l := s.Get(r)[0].Loc
		f := fa.Field
		uninit := l != machine.LNull && s.Get(s.Field(l, f))[0].Loc == machine.LUn
		before := len(s.Locs)
		succ, err := g.FieldAccess(s, r, fa, k)
		if err != nil || !uninit {
			return succ, err
		}
		for _, sc := range succ {
			t := sc.S
			got := t.Get(t.Field(l, f))[0].Loc
			var cands []machine.Entry2
			for _, a := range t.InputLocs(f.Class) {
				if int(a.Loc) < before {
					cands = append(cands, a)
				}
			}
			var facts []*smt.Formula
			for i, a := range cands {
				facts = append(facts, smt.Neq(a.Ref, machine.RNull))
				for _, b := range cands[:i] {
					facts = append(facts, smt.Neq(a.Ref, b.Ref))
				}
			}
			switch {
			case got == machine.LNull:
				facts = append(facts, smt.Eq(t.InitR(), machine.RNull))
			case int(got) >= before:
				ru := t.Locs[got].Identity
				facts = append(facts, smt.Neq(ru, machine.RNull))
				for _, a := range cands {
					facts = append(facts, smt.Neq(ru, a.Ref))
				}
			default:
				ru := t.InitR()
				facts = append(facts, smt.Neq(ru, machine.RNull), smt.Eq(ru, t.Locs[got].Identity))
			}
			t.AddFact(smt.And(facts...))
		}
		return succ, nil
	}
}

var benchFiles = []string{"swap.jl", "hasnull.jl", "alias_write_read.jl", "pose_ite_read.jl", "linkedlist.jl"}

// benchCheck checks benchFiles at k = 2 with the engine spec and reports,
// per run of all files, the messages, the time per message, and the CPU
// time of lockstep and of its engine processes.
func benchCheck(b *testing.B, spec string) {
	var progs []*javalite.Program
	for _, f := range benchFiles {
		p, err := javalite.LoadFile("../../testdata/programs/" + f)
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
