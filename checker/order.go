package checker

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Lemma P4 (ENGINES.md §8.2 "Accounting", §8.3): the papers' ordering of
// the algorithms by path count, #summary ≤ #lazier# ≤ #lazier ≤ #GSE (seed
// 002 claims lazier# ≤ lazier ≤ lazy, seed 000 adds #summary ≤ #lazier#).
// It is a claim across engines, so no lockstep check decides it (Applicable
// leaves it out); it is reported, program by program, by Order, which
// explores every engine of the claim on its own to completion and compares
// their path counts, and hunted for on the generated stream by OrderHunt
// (`lockstep order`).
//
// How paths are counted. A path is a value end or an error end, the way
// lockstep counts paths everywhere (machine.Stats.Ends). Ends cut at the
// step bound and stuck ends (lazier's δ with no candidate, KB-3 in
// docs/FINDINGS.md) are counted apart and never added to the paths.
//
// Why the comparison is fair with cut paths. Every engine takes one
// lockstep step per rule and all of them follow the same control-flow
// sequences (C12), so a path of any engine ends or is cut at the same step
// as the GSE paths with its control-flow sequence. At one step bound, the
// value and error ends of each engine are exactly its paths whose sequence
// completes within the bound: the same set of sequences for every engine.
// The counts compared are therefore counts over the same completed
// sequences, and the cut ends, which are prefixes of longer sequences (a
// count of states at the bound, not of paths), are left out. Each claim's
// result says whether some engine was cut (OrderClaimResult.Cut), so a
// caller can keep to the papers' setting (no path cut at all); the hunt
// reports both.
//
// An exploration that could not finish (the timeout, MaxPaths, a solver
// answer unknown) makes the claims on that engine inconclusive, never a
// pass and never a failure, unless its counts, lower bounds, decide the
// claim all the same (compareClaim).

// OrderClaim is one inequality of P4: #Less ≤ #More paths.
type OrderClaim struct {
	Less, More string // engine specs, "NAME[:VARIANT]"
	// Unbounded: the claim is compared only at k < 0, because one side has
	// no k-bound (POSE-J ignores Config.K, ENGINES.md §8.4): at a finite k
	// its count would be a k = −1 count against a k-bounded one.
	Unbounded bool
}

func (c OrderClaim) String() string { return c.Less + " ≤ " + c.More }

// P4Claims are the inequalities of P4, in the order of the chain
// #summary ≤ #lazier# ≤ #lazier ≤ #GSE, with POSE-J beside summary:fixed
// (both one path per control-flow sequence at k = −1).
var P4Claims = []OrderClaim{
	{Less: "summary:fixed", More: "lazier#"},
	{Less: "pose", More: "lazier#", Unbounded: true},
	{Less: "lazier#", More: "lazier"},
	{Less: "lazier", More: "gse"},
}

// OrderOptions configure Order.
type OrderOptions struct {
	K, Steps int
	// Semantics are the common-rule readings of every engine (V10/V11).
	Semantics machine.Options
	// Claims are the inequalities to compare (nil: P4Claims).
	Claims []OrderClaim
	// MaxPaths bounds the ends of each exploration (0: none); Timeout each
	// engine's exploration (0: none). Exceeding either is inconclusive.
	MaxPaths int
	Timeout  time.Duration
}

// DefaultOrderOptions: k unbounded (P4 is a k = −1 claim), the check's step
// bound, the check's bounds on paths and time.
func DefaultOrderOptions() OrderOptions {
	d := DefaultOptions()
	return OrderOptions{K: -1, Steps: DefaultSteps, MaxPaths: d.MaxPaths, Timeout: d.Timeout}
}

func (o OrderOptions) claims() []OrderClaim {
	cs := o.Claims
	if cs == nil {
		cs = P4Claims
	}
	var out []OrderClaim
	for _, c := range cs {
		if c.Unbounded && o.K >= 0 {
			continue
		}
		out = append(out, c)
	}
	return out
}

// Engines lists, once each and in the order of the claims, the engines the
// claims compare at o.K.
func (o OrderOptions) Engines() []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range o.claims() {
		for _, e := range []string{c.Less, c.More} {
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	// The chain's order, smallest first; engines not in it keep theirs.
	rank := func(e string) int {
		if i := slices.Index(p4Chain, e); i >= 0 {
			return i
		}
		return len(p4Chain)
	}
	slices.SortStableFunc(out, func(a, b string) int { return rank(a) - rank(b) })
	return out
}

// p4Chain orders the engines of P4 by their claimed path counts.
var p4Chain = []string{"summary:fixed", "pose", "lazier#", "lazier", "gse"}

// Validate builds every engine of the claims once (unknown names, bad
// variants), as a run would.
func (o OrderOptions) Validate(solver *smt.Solver) error {
	if len(o.claims()) == 0 {
		return fmt.Errorf("order: no claim to compare at k = %d", o.K)
	}
	for _, e := range o.Engines() {
		if _, err := engine.New(e, engine.Config{K: o.K, Solver: solver, Machine: o.Semantics}); err != nil {
			return err
		}
	}
	return nil
}

// PathCounts are the ends of one engine's exploration.
type PathCounts struct {
	Value, Error, Cut, Stuck int64
	// Undecided says why the exploration could not finish ("" when it
	// did): its counts are then lower bounds.
	Undecided string
}

// Paths is the path count P4 compares: value and error ends.
func (c PathCounts) Paths() int64 { return c.Value + c.Error }

func (c PathCounts) String() string {
	s := fmt.Sprintf("%d = %dv + %de", c.Paths(), c.Value, c.Error)
	if c.Cut > 0 {
		s += fmt.Sprintf(" (+%d cut)", c.Cut)
	}
	if c.Stuck > 0 {
		s += fmt.Sprintf(" (+%d stuck)", c.Stuck)
	}
	if c.Undecided != "" {
		s += " (undecided: " + c.Undecided + ")"
	}
	return s
}

// OrderClaimResult is the outcome of one claim on one program.
type OrderClaimResult struct {
	OrderClaim
	Status Status // Holds, Violated (#Less > #More) or Inconclusive
	// Cut: some path of either side was cut at the step bound (the
	// comparison is then over the sequences that complete within it).
	Cut    bool
	Reason string
}

// OrderReport is the outcome of Order on one program.
type OrderReport struct {
	Program  *javalite.Program
	K, Steps int
	Engines  []string // in OrderOptions.Engines order
	Counts   map[string]PathCounts
	Claims   []OrderClaimResult
	Elapsed  time.Duration
}

// Status summarizes the claims: Violated if one fails, else Inconclusive
// if one is undecided, else Holds.
func (r *OrderReport) Status() Status {
	st := Holds
	for _, c := range r.Claims {
		switch c.Status {
		case Violated:
			return Violated
		case Inconclusive:
			st = Inconclusive
		}
	}
	return st
}

// Text prints the counts and the claims.
func (r *OrderReport) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "P4 ordering at k = %d, step bound %d (paths = value + error ends):\n", r.K, r.Steps)
	w := 0
	for _, e := range r.Engines {
		w = max(w, len(e))
	}
	for _, e := range r.Engines {
		fmt.Fprintf(&b, "  %-*s  %s\n", w, e, r.Counts[e])
	}
	for _, c := range r.Claims {
		fmt.Fprintf(&b, "  %-12s %s", statusWord(c.Status), c.OrderClaim)
		if c.Reason != "" {
			fmt.Fprintf(&b, ": %s", c.Reason)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func statusWord(s Status) string {
	switch s {
	case Holds:
		return "holds"
	case Violated:
		return "fails"
	}
	return "inconclusive"
}

// Order explores each engine of opt's claims on p, on its own, from the
// initial state to the step bound, and compares their path counts claim by
// claim. opt.Timeout bounds each engine's exploration. Order binds solver
// to the context of each exploration (derived from ctx) while it runs, so
// that the timeout interrupts a Z3 check in flight, and unbinds it at the
// end; a timeout cancels a solver for good (smt.SetContext), so Order goes
// on with solvers of its own, and the caller must replace a solver that
// comes back canceled (solver.Canceled()). An error is a failure of the
// tool (an engine's rule failed); an exploration that could not decide
// makes its claims inconclusive.
func Order(ctx context.Context, p *javalite.Program, opt OrderOptions, solver *smt.Solver) (*OrderReport, error) {
	start := time.Now()
	rep := &OrderReport{Program: p, K: opt.K, Steps: opt.Steps, Engines: opt.Engines(), Counts: map[string]PathCounts{}}
	s := solver
	defer func() {
		if s != solver {
			s.Close()
		}
		solver.SetContext(nil)
	}()
	for _, spec := range rep.Engines {
		if s.Canceled() && ctx.Err() == nil {
			if s != solver {
				s.Close()
			}
			var err error
			if s, err = smt.NewSolver(); err != nil {
				s = solver
				return nil, err
			}
		}
		c, err := countPathsBound(ctx, p, spec, opt, s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", spec, err)
		}
		rep.Counts[spec] = c
	}
	for _, c := range opt.claims() {
		rep.Claims = append(rep.Claims, compareClaim(c, rep.Counts[c.Less], rep.Counts[c.More]))
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// countPathsBound is countPaths under opt.Timeout, with s bound to it.
func countPathsBound(ctx context.Context, p *javalite.Program, spec string, opt OrderOptions, s *smt.Solver) (PathCounts, error) {
	if opt.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Timeout)
		defer cancel()
	}
	s.SetContext(ctx)
	// Unbound before cancel runs (defers run last in, first out): ending
	// a bound context cancels the solver for good.
	defer s.SetContext(nil)
	return countPaths(ctx, p, spec, opt, s)
}

// compareClaim decides #less ≤ #more from two explorations. The counts of
// an exploration that could not finish are lower bounds, which still
// decide the claim when the other side finished: a finished less below
// more's lower bound holds, a finished more below less's lower bound
// fails.
func compareClaim(c OrderClaim, less, more PathCounts) OrderClaimResult {
	res := OrderClaimResult{OrderClaim: c, Cut: less.Cut > 0 || more.Cut > 0}
	lessDone, moreDone := less.Undecided == "", more.Undecided == ""
	switch {
	case lessDone && less.Paths() <= more.Paths():
		res.Status = Holds
	case moreDone && less.Paths() > more.Paths():
		res.Status = Violated
		res.Reason = fmt.Sprintf("%s has %d paths, %s %d", c.Less, less.Paths(), c.More, more.Paths())
	case !lessDone:
		res.Status, res.Reason = Inconclusive, c.Less+": "+less.Undecided
	default:
		res.Status, res.Reason = Inconclusive, c.More+": "+more.Undecided
	}
	if res.Status != Inconclusive && (!lessDone || !moreDone) {
		if res.Reason != "" {
			res.Reason += "; "
		}
		res.Reason += "decided on a lower bound"
	}
	if res.Cut && res.Status != Inconclusive {
		if res.Reason != "" {
			res.Reason += "; "
		}
		res.Reason += fmt.Sprintf("cut at the step bound: %s %d, %s %d", c.Less, less.Cut, c.More, more.Cut)
	}
	return res
}

// countPaths explores one engine on p and counts its ends.
func countPaths(ctx context.Context, p *javalite.Program, spec string, opt OrderOptions, solver *smt.Solver) (PathCounts, error) {
	eng, err := engine.New(spec, engine.Config{K: opt.K, Solver: solver, Machine: opt.Semantics, Context: ctx})
	if err != nil {
		return PathCounts{}, err
	}
	var ends int64
	tooMany := false
	st, err := machine.Explore(ctx, machine.Initial(p), eng, opt.Steps, func(_ *machine.State, _ machine.EndKind) bool {
		ends++
		if opt.MaxPaths > 0 && ends > int64(opt.MaxPaths) {
			tooMany = true
			return false
		}
		return true
	})
	c := PathCounts{Value: st.Ends[machine.EndValue], Error: st.Ends[machine.EndError], Cut: st.Ends[machine.EndCut], Stuck: st.Ends[machine.EndStuck]}
	switch {
	case err != nil && (smt.Undecided(err) || errors.Is(err, engine.ErrFailure)):
		c.Undecided = err.Error()
	case err != nil:
		return c, err
	case tooMany:
		c.Undecided = fmt.Sprintf("more than %d path ends", opt.MaxPaths)
	case !st.Complete:
		why := "stopped"
		if e := ctx.Err(); e != nil {
			why = "timeout: " + e.Error()
			if errors.Is(e, context.Canceled) {
				why = "canceled"
			}
		}
		c.Undecided = why
	}
	return c, nil
}
