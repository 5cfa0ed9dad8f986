package jvm

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// Options bound a differential run.
type Options struct {
	K          int // BFS depth of the input heaps (ORC's k-bound), ≥ 0
	MaxObjects int // objects per input heap, ≥ 1
	// Bound is lockstep's step bound; a run it cuts is run again with
	// EscalatedBound (default 10 × Bound) before it is compared.
	Bound, EscalatedBound int
	// MaxInputs is the number of inputs per program: all of them when the
	// heaps and valuations are fewer, else a sample drawn with Seed.
	MaxInputs int
	Seed      uint64
	Fuel      int64  // JVM calls per case (DefaultFuel when 0)
	Dir       string // work directory (a temporary one when empty)
	// ChunkPrograms is how many programs one compilation and one run take
	// (default 1,000).
	ChunkPrograms int
	// Shrink is how many of the first unexplained disagreements Diff
	// shrinks (each costs a compilation and a run per round).
	Shrink int
	// Server compiles and runs everything; Diff and Shrink start one for
	// their run when it is nil.
	Server *Server
}

// Named is a program with the name a report shows for it (a file, or
// the generator's seed).
type Named struct {
	Name string
	P    *javalite.Program
}

// Categories of explained disagreements: the two sides end differently
// for a reason that is no error of either.
const (
	// CatDiverges: lockstep cuts the run at its escalated step bound and
	// the JVM runs out of call fuel or stack: a run that does not end.
	CatDiverges = "diverges"
	// CatBound: lockstep cuts at its escalated step bound, the JVM ends:
	// a terminating run longer than the bound.
	CatBound = "step-bound-cut"
	// CatOverflow: the JVM's stack overflows, lockstep ends: a recursion
	// deeper than the driver's thread stack.
	CatOverflow = "jvm-stack-overflow"
	// CatFuel: the JVM runs out of call fuel, lockstep ends.
	CatFuel = "jvm-fuel-cut"
)

// Disagreement is one unexplained difference, with both outcomes.
type Disagreement struct {
	Name     string `json:"name"`
	Program  string `json:"program"` // the program, shrunk
	Input    string `json:"input"`   // the input heap (concrete.Heap.String)
	Lockstep string `json:"lockstep"`
	JVM      string `json:"jvm"`
	// Original is the program before shrinking, when shrinking changed it.
	Original string `json:"original,omitempty"`
}

// Report is the outcome of Diff.
type Report struct {
	Programs int   `json:"programs"`
	Pairs    int64 `json:"pairs"` // program × input runs compared
	Agree    int64 `json:"agree"`
	// Outcomes counts the agreeing runs by how they ended (value, error,
	// pruned, range).
	Outcomes map[string]int64 `json:"outcomes"`
	// Escalated counts agreeing runs that lockstep cut at Bound and
	// finished at EscalatedBound.
	Escalated int64 `json:"escalated"`
	// Explained counts the explained disagreements by category.
	Explained   map[string]int64 `json:"explained"`
	Unexplained int64            `json:"unexplained"`
	// Disagreements shows the first unexplained ones (at most 10), each
	// shrunk when Diff was asked to.
	Disagreements []Disagreement `json:"disagreements,omitempty"`
	// Time: lockstep's interpreter, javac, and the JVM runs (wall clock,
	// the JVM's start-up included).
	LockstepTime, JavacTime, JVMTime time.Duration `json:"-"`
	// CPU time (user + sys): lockstep's interpreter (this process while
	// it runs the inputs), and the server JVM's start-up, compilations and
	// runs of the cases (its own measure). Filled when Diff started the
	// server.
	CPU CPU `json:"cpu_seconds"`
}

// CPU is the CPU time of a differential's parts, in seconds.
type CPU struct {
	Lockstep   float64 `json:"lockstep"`
	JVMStart   float64 `json:"jvm_start"`
	JVMCompile float64 `json:"jvm_compile"`
	JVMRun     float64 `json:"jvm_run"`
}

// OK reports whether every pair agreed or disagreed for an explained
// reason.
func (r *Report) OK() bool { return r.Unexplained == 0 }

func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "programs=%d pairs=%d agree=%d unexplained=%d", r.Programs, r.Pairs, r.Agree, r.Unexplained)
	for _, k := range sortedKeys(r.Outcomes) {
		fmt.Fprintf(&b, " %s=%d", k, r.Outcomes[k])
	}
	fmt.Fprintf(&b, " escalated=%d", r.Escalated)
	for _, k := range sortedKeys(r.Explained) {
		fmt.Fprintf(&b, " explained:%s=%d", k, r.Explained[k])
	}
	fmt.Fprintf(&b, "\ncpu: lockstep %.2fs, jvm start %.2fs, javac %.2fs, jvm runs %.2fs", r.CPU.Lockstep, r.CPU.JVMStart, r.CPU.JVMCompile, r.CPU.JVMRun)
	for _, d := range r.Disagreements {
		fmt.Fprintf(&b, "\n\nDISAGREEMENT %s\ninput:    %s\nlockstep: %s\njvm:      %s\n%s", d.Name, d.Input, d.Lockstep, d.JVM, d.Program)
	}
	return b.String()
}

func sortedKeys(m map[string]int64) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// DiffDomain is the data domain of the differential: concrete.Domain(p)
// (every literal, its neighbours and 0) with -2, -1, 1 and 2, the bounds
// of int32 and of int64 and their neighbours inside. Two int inputs drawn
// from it compare every way (less, equal, greater), with each other and
// with every literal, and sums of the extreme values leave the long range.
func DiffDomain(p *javalite.Program) []int64 {
	d := append(concrete.Domain(p), -2, -1, 1, 2,
		math.MinInt32, math.MaxInt32, math.MinInt64, math.MinInt64+1, math.MaxInt64-1, math.MaxInt64)
	slices.Sort(d)
	return slices.Compact(d)
}

// maxShapes bounds the heap shapes Inputs collects for one program.
const maxShapes = 20_000

// Inputs returns the input heaps of p the differential runs: every heap
// shape of concrete.Heaps(p, MaxObjects, K) with every valuation of its
// data over DiffDomain(p) when they are at most MaxInputs, else
// MaxInputs distinct ones drawn at random (seeded): the shape uniformly,
// then every primitive field uniformly from its domain.
func Inputs(p *javalite.Program, o Options, seed uint64) []*concrete.Heap {
	dom := DiffDomain(p)
	var shapes []*concrete.Heap
	var total float64
	concrete.Heaps(p, o.MaxObjects, o.K, func(h *concrete.Heap) bool {
		shapes = append(shapes, h.Clone())
		n := 1.0
		for _, ob := range h.Objects {
			for _, f := range ob.Class.PrimFields {
				if f.T.Kind == javalite.KindInt {
					n *= float64(len(dom))
				} else {
					n *= 2
				}
			}
		}
		total += n
		return len(shapes) < maxShapes
	})
	var out []*concrete.Heap
	if total <= float64(o.MaxInputs) && len(shapes) < maxShapes {
		for _, s := range shapes {
			concrete.Valuations(s, dom, func(h *concrete.Heap) bool {
				out = append(out, h.Clone())
				return true
			})
		}
		return out
	}
	rng := rand.New(rand.NewPCG(seed, 0x6a766d))
	seen := map[string]bool{}
	for try := 0; len(out) < o.MaxInputs && try < 4*o.MaxInputs; try++ {
		h := shapes[rng.IntN(len(shapes))].Clone()
		for _, ob := range h.Objects {
			for _, f := range ob.Class.PrimFields {
				if f.T.Kind == javalite.KindInt {
					ob.Prim[f.Index] = dom[rng.IntN(len(dom))]
				} else {
					ob.Prim[f.Index] = int64(rng.IntN(2))
				}
			}
		}
		key := h.String()
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, h)
	}
	return out
}

// pair is one program × input with lockstep's outcome.
type pair struct {
	prog      int
	heap      *concrete.Heap
	lockstep  string
	escalated bool // lockstep's outcome is at EscalatedBound
}

func (o Options) withDefaults() Options {
	if o.EscalatedBound <= 0 {
		o.EscalatedBound = 10 * o.Bound
	}
	if o.ChunkPrograms <= 0 {
		o.ChunkPrograms = 1000
	}
	if o.MaxObjects < 1 {
		o.MaxObjects = 1
	}
	return o
}

// Lockstep runs p on h with lockstep's interpreter under the Java
// semantics and prints the outcome as runCase does; a run the step bound
// cuts is run again at the escalated bound.
func Lockstep(p *javalite.Program, h *concrete.Heap, o Options) (out string, escalated bool, err error) {
	o = o.withDefaults()
	res, final, err := concrete.InterpretFinal(p, h, o.Bound, machine.Options{})
	if err != nil {
		return "", false, err
	}
	if res.Kind == machine.EndCut && !res.Pruned && !res.OutOfRange {
		escalated = true
		if res, final, err = concrete.InterpretFinal(p, h, o.EscalatedBound, machine.Options{}); err != nil {
			return "", false, err
		}
	}
	return Outcome(res, final, len(h.Objects)), escalated, nil
}

// Classify compares lockstep's outcome with the JVM's: "" when they
// agree, an explained category, or "unexplained".
func Classify(lockstep, jvm string) string {
	ljCut := lockstep == "cut"
	if lockstep == jvm && !ljCut {
		return ""
	}
	jvmStop := jvm == "cut" || jvm == "overflow"
	switch {
	case ljCut && jvmStop:
		return CatDiverges
	case ljCut:
		return CatBound
	case jvm == "overflow":
		return CatOverflow
	case jvm == "cut":
		return CatFuel
	}
	return "unexplained"
}

func outcomeKind(s string) string {
	k, _, _ := strings.Cut(s, " ")
	return k
}

// Diff runs every program on its inputs (Inputs) on lockstep's
// interpreter and on the JVM and compares outcomes and final heaps. The
// first o.Shrink unexplained disagreements are shrunk (Shrink) before they
// are reported. progress, when not nil, is called after
// each chunk of programs.
func Diff(ctx context.Context, progs []Named, o Options, progress func(*Report)) (*Report, error) {
	o = o.withDefaults()
	dir := o.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "lockstep-jvm-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	rep := &Report{Outcomes: map[string]int64{}, Explained: map[string]int64{}}
	if o.Server == nil {
		srv, err := StartServer(ctx, dir)
		if err != nil {
			return nil, err
		}
		defer srv.Close()
		o.Server = srv
		defer func() {
			rep.CPU.JVMStart, rep.CPU.JVMCompile, rep.CPU.JVMRun = srv.StartCPU.Seconds(), srv.CompileCPU.Seconds(), srv.RunCPU.Seconds()
		}()
	}
	type found struct {
		prog  Named
		input *concrete.Heap
		lj, j string
	}
	var first []found
	for start, chunk := 0, 0; start < len(progs); start, chunk = start+o.ChunkPrograms, chunk+1 {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		part := progs[start:min(len(progs), start+o.ChunkPrograms)]
		b, err := NewBatch(filepath.Join(dir, fmt.Sprintf("chunk%d", chunk)))
		if err != nil {
			return rep, err
		}
		b.Fuel, b.Server = o.Fuel, o.Server
		var pairs []pair
		var cases []Case
		t0, c0 := time.Now(), selfCPU()
		for i, np := range part {
			name, err := b.Add(np.P)
			if err != nil {
				return rep, fmt.Errorf("%s: %w", np.Name, err)
			}
			for _, h := range Inputs(np.P, o, o.Seed^uint64(start+i)*0x9e3779b97f4a7c15) {
				out, esc, err := Lockstep(np.P, h, o)
				if err != nil {
					return rep, fmt.Errorf("%s: %s: %w", np.Name, h, err)
				}
				pairs = append(pairs, pair{prog: i, heap: h, lockstep: out, escalated: esc})
				cases = append(cases, Case{Class: name, Input: Encode(np.P, h)})
			}
		}
		rep.LockstepTime += time.Since(t0)
		rep.CPU.Lockstep += (selfCPU() - c0).Seconds()
		t0 = time.Now()
		if err := b.Compile(ctx); err != nil {
			return rep, err
		}
		rep.JavacTime += time.Since(t0)
		t0 = time.Now()
		outs, err := b.Run(ctx, cases)
		if err != nil {
			return rep, err
		}
		rep.JVMTime += time.Since(t0)
		rep.Programs += len(part)
		for i, pr := range pairs {
			rep.Pairs++
			switch cat := Classify(pr.lockstep, outs[i]); cat {
			case "":
				rep.Agree++
				rep.Outcomes[outcomeKind(pr.lockstep)]++
				if pr.escalated {
					rep.Escalated++
				}
			case "unexplained":
				rep.Unexplained++
				if len(first) < 10 {
					first = append(first, found{part[pr.prog], pr.heap, pr.lockstep, outs[i]})
				}
			default:
				rep.Explained[cat]++
			}
		}
		os.RemoveAll(b.Dir)
		if progress != nil {
			progress(rep)
		}
	}
	for i, f := range first {
		d := Disagreement{Name: f.prog.Name, Program: javalite.Print(f.prog.P), Input: f.input.String(), Lockstep: f.lj, JVM: f.j}
		if i < o.Shrink {
			s, err := Shrink(ctx, f.prog.P, f.input, o, filepath.Join(dir, fmt.Sprintf("shrink%d", i)))
			if err != nil {
				return rep, err
			}
			if s != nil {
				d.Original = d.Program
				d.Program, d.Input, d.Lockstep, d.JVM = javalite.Print(s.P), s.Input.String(), s.Lockstep, s.JVM
			}
		}
		rep.Disagreements = append(rep.Disagreements, d)
	}
	return rep, nil
}

// selfCPU is the CPU time (user + sys) of this process so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
