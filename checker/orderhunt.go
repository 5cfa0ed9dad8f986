package checker

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// Hunting for counterexamples to P4 on the generated stream, the way Hunt
// hunts for lemma violations: program i of seed S is
// ProgramOfData(ProgramSeed(S, i), gen.DataNone) (the reference-only stream:
// lazier and lazier# have no data rules yet), checked by Order on workers with a solver
// each, and the first counterexample to each claim is handed back to rapid,
// which shrinks it while the same claim still fails (and, if it was found
// with no path cut, while no path is cut).

// OrderTally counts the outcomes of one claim over a hunt. Held and Failed
// count every decided program; HeldUncut and FailedUncut those on which no
// engine of the claim had a path cut at the step bound (the papers'
// setting).
type OrderTally struct {
	Held, Failed, Inconclusive int
	HeldUncut, FailedUncut     int
}

// OrderCounterexample is a program on which a claim fails, as found and
// shrunk.
type OrderCounterexample struct {
	Claim    OrderClaim
	Found    *OrderReport
	Shrunk   *OrderReport // == Found if it could not shrink
	IsShrunk bool
	Seed     int64 // ProgramSeed of the program as found
	Index    int
}

// OrderHuntResult is the outcome of OrderHunt.
type OrderHuntResult struct {
	Programs int
	Claims   []OrderClaim
	Tally    map[OrderClaim]*OrderTally
	// Counterexamples holds the first failure of each claim, preferring
	// one with no path cut.
	Counterexamples map[OrderClaim]*OrderCounterexample
	Elapsed         time.Duration
}

// OrderHunt compares the claims of opt on h.N programs of the stream
// h.Seed (h.Shard, h.Workers, h.ShrinkSteps, h.ShrinkTime and h.Progress
// as in Hunt; the hunt never stops at a failure, P4 being reported, not
// enforced). h.ShrinkSteps < 0 skips shrinking.
func OrderHunt(ctx context.Context, opt OrderOptions, h HuntOptions) (*OrderHuntResult, error) {
	start := time.Now()
	res := &OrderHuntResult{Claims: opt.claims(), Tally: map[OrderClaim]*OrderTally{}, Counterexamples: map[OrderClaim]*OrderCounterexample{}}
	for _, c := range res.Claims {
		res.Tally[c] = &OrderTally{}
	}
	var done, holds, inconcl atomic.Int64
	var mu sync.Mutex
	err := OrderEach(ctx, opt, h.Shard.Len(h.N), h.Workers,
		func(j int) (*javalite.Program, string) {
			i := h.Shard.Index(j)
			ps := ProgramSeed(h.Seed, i)
			return ProgramOfData(ps, gen.DataNone), fmt.Sprintf("program %d (seed %d)", i, ps)
		},
		func(j int, rep *OrderReport) {
			i := h.Shard.Index(j)
			mu.Lock()
			for _, c := range rep.Claims {
				t := res.Tally[c.OrderClaim]
				switch c.Status {
				case Holds:
					t.Held++
					if !c.Cut {
						t.HeldUncut++
					}
				case Violated:
					t.Failed++
					if !c.Cut {
						t.FailedUncut++
					}
					if old := res.Counterexamples[c.OrderClaim]; old == nil || (claimCut(old.Found, c.OrderClaim) && !c.Cut) {
						res.Counterexamples[c.OrderClaim] = &OrderCounterexample{Claim: c.OrderClaim, Found: rep, Shrunk: rep, Seed: ProgramSeed(h.Seed, i), Index: i}
					}
				case Inconclusive:
					t.Inconclusive++
				}
			}
			switch rep.Status() {
			case Inconclusive:
				inconcl.Add(1)
			case Holds:
				holds.Add(1)
			}
			mu.Unlock()
			d := done.Add(1)
			if h.Progress != nil {
				h.Progress(d, holds.Load(), inconcl.Load())
			}
		})
	if err != nil {
		return nil, err
	}
	res.Programs = int(done.Load())
	if h.ShrinkSteps >= 0 {
		for _, c := range res.Claims {
			cx := res.Counterexamples[c]
			if cx == nil {
				continue
			}
			cx.Shrunk, cx.IsShrunk = ShrinkOrder(ctx, opt, c, cx.Seed, ShrinkBound{Steps: h.ShrinkSteps, Time: h.ShrinkTime}, cx.Found)
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// OrderEach runs Order on programs 0..n-1 (program(i) gives the i-th and
// a name for it) on workers goroutines and hands every report to visit as
// it completes (concurrently: visit synchronizes itself), like Each (the
// same pool, eachProgram), with a solver per worker, replaced when a
// timeout has canceled it (Order). A failure of the tool stops the run and
// is returned; programs cut short because ctx ended are not reported.
func OrderEach(ctx context.Context, opt OrderOptions, n, workers int, program func(i int) (*javalite.Program, string), visit func(i int, rep *OrderReport)) error {
	return eachProgram(ctx, n, workers, func(ctx context.Context) (func(i int) (*OrderReport, bool, error), func(), error) {
		var s *smt.Solver
		stop := func() {
			if s != nil {
				s.Close()
			}
		}
		check := func(i int) (*OrderReport, bool, error) {
			if s == nil {
				var err error
				if s, err = smt.NewSolver(); err != nil {
					return nil, false, err
				}
			}
			p, name := program(i)
			rep, err := Order(ctx, p, opt, s)
			if s.Canceled() {
				s.Close()
				s = nil
			}
			if err != nil {
				if ctx.Err() != nil {
					return nil, false, nil // cut short by the caller
				}
				return nil, false, fmt.Errorf("%s: %w\n%s", name, err, javalite.Print(p))
			}
			return rep, ctx.Err() == nil || rep.Status() != Inconclusive, nil
		}
		return check, stop, nil
	}, visit)
}

// claimCut reports whether claim c of rep was compared with cut paths.
func claimCut(rep *OrderReport, c OrderClaim) bool {
	for _, r := range rep.Claims {
		if r.OrderClaim == c {
			return r.Cut
		}
	}
	return false
}

// claimFails reports whether claim c fails in rep, with no path cut if
// uncut.
func claimFails(rep *OrderReport, c OrderClaim, uncut bool) bool {
	for _, r := range rep.Claims {
		if r.OrderClaim == c {
			return r.Status == Violated && (!uncut || !r.Cut)
		}
	}
	return false
}

// ShrinkOrder regenerates the program of seed inside rapid and lets rapid
// shrink it while claim c still fails under opt (with no path cut if orig
// had none). Only the two engines of c are explored. It returns the report
// of the smallest such program (all of opt's claims, for the record), and
// false when rapid could not reproduce the failure (then orig).
func ShrinkOrder(ctx context.Context, opt OrderOptions, c OrderClaim, seed int64, bound ShrinkBound, orig *OrderReport) (*OrderReport, bool) {
	uncut := !claimCut(orig, c)
	one := opt
	one.Claims = []OrderClaim{c}
	var mu sync.Mutex
	var smallest *javalite.Program
	shrinkWithRapid(ctx, seed, bound, func(tb *shrinkTB) func(*rapid.T) {
		return OrderProperty(ctx, tb, one, c, uncut, func(p *javalite.Program) {
			mu.Lock()
			defer mu.Unlock()
			if smallest == nil || Lines(p) <= Lines(smallest) {
				smallest = p
			}
		})
	})
	mu.Lock()
	p := smallest
	mu.Unlock()
	if p == nil {
		return orig, false
	}
	// The record: every claim of opt on the shrunk program.
	s, err := smt.NewSolver()
	if err != nil {
		return orig, false
	}
	defer s.Close()
	rep, err := Order(context.Background(), p, opt, s)
	if err != nil || !claimFails(rep, c, uncut) {
		return orig, false
	}
	return rep, true
}

// OrderProperty is a rapid property that draws a program from gen.Program
// and fails when claim c fails on it (with no path cut, if uncut); a
// program on which c is inconclusive is skipped (rapid counts it invalid).
// onFail sees every failing program; rapid's last one is the shrunk one.
func OrderProperty(ctx context.Context, t TB, opt OrderOptions, c OrderClaim, uncut bool, onFail func(*javalite.Program)) func(*rapid.T) {
	var solver *smt.Solver
	t.Cleanup(func() {
		if solver != nil {
			solver.Close()
		}
	})
	return func(rt *rapid.T) {
		if solver == nil {
			var err error
			if solver, err = smt.NewSolver(); err != nil {
				rt.Fatalf("lockstep: %v", err)
			}
		}
		p := gen.ProgramWith(gen.NoData).Draw(rt, "program")
		if ctx.Err() != nil {
			rt.Skipf("interrupted")
		}
		rep, err := Order(ctx, p, opt, solver)
		if solver.Canceled() { // the timeout: a canceled solver is finished
			solver.Close()
			solver = nil
		}
		if err != nil {
			if ctx.Err() != nil {
				rt.Skipf("interrupted")
			}
			rt.Fatalf("lockstep: internal error: %v\n%s", err, javalite.Print(p))
		}
		if claimFails(rep, c, uncut) {
			if onFail != nil {
				onFail(p)
			}
			rt.Fatalf("%s fails:\n%s", c, rep.Text())
		}
		if rep.Status() == Inconclusive {
			rt.Skipf("inconclusive")
		}
	}
}
