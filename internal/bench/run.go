package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/lockstep-dev/lockstep/engine"
	_ "github.com/lockstep-dev/lockstep/engine/builtin"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

// Status says whether an engine's exploration of a case finished.
type Status string

const (
	// Done: every path ended; the counts are exact.
	Done Status = "ok"
	// Budget: the exploration exceeded the time budget and was stopped;
	// the counts are lower bounds.
	Budget Status = "cut"
	// Skipped: not run, because the same engine exceeded its budget on an
	// earlier, smaller case of the same series (or, for an Uninterruptible
	// engine, took more than a quarter of it: Result.Note says so).
	Skipped Status = "skipped"
	// NotRun: the case does not apply to the engine (Result.Note says
	// why), e.g. a finite k-bound for an engine that has none.
	NotRun Status = "n/a"
	// NoData: the program has int or bool data (PRIMITIVES.md) and the
	// engine has no data rules yet (engine.Info.Data false, or its run
	// refused the program with engine.ErrNoData). Not a failure: the cell
	// fills in once the engine learns data.
	NoData Status = "no data"
)

// noDataNote is the note of a NoData result.
const noDataNote = "no data rules: the engine refuses programs with int and bool data (PRIMITIVES.md §4)"

// ran says whether r is the result of an exploration (finished or cut by
// the budget), so that its counts mean something.
func (r Result) ran() bool { return r.Status == Done || r.Status == Budget }

// Result is one engine's exploration of one case.
type Result struct {
	Status Status `json:"status"`
	// Paths = Value + Error + Cut + Stuck.
	Paths int64 `json:"paths"`
	Value int64 `json:"value"`
	Error int64 `json:"error"`
	Cut   int64 `json:"cut"`
	Stuck int64 `json:"stuck"`
	// Pruned counts the ends rule Assume pruned (PRIMITIVES.md §3): not
	// paths, reported beside them.
	Pruned int64 `json:"pruned"`
	// CutCyclic counts the cut paths whose end heap has a cycle through
	// fields (for the summary engine: through any entry of a guarded value
	// set, a may-cycle).
	CutCyclic int64 `json:"cut_cyclic"`
	// MaxSteps is the length of the longest path that ended by itself
	// (value, error or stuck).
	MaxSteps   int           `json:"max_steps"`
	States     int64         `json:"states"`
	Steps      int64         `json:"steps"`
	Queries    int64         `json:"solver_queries"`    // checks that reached Z3
	Decided    int64         `json:"solver_decided_go"` // checks answered by smt's Go decision procedure
	CacheHits  int64         `json:"solver_cache_hits"`
	SolverTime time.Duration `json:"solver_time_ns"`
	Wall       time.Duration `json:"wall_ns"`
	// PeakHeap is the peak Go heap during the run above the heap before
	// it, in bytes (see the package comment).
	PeakHeap uint64 `json:"peak_heap_bytes"`
	// Note says why a case was NotRun, or Skipped early.
	Note string `json:"note,omitempty"`
}

// MarshalJSON writes a result that is no exploration (n/a, skipped, no
// data) as its status and note alone: counts of 0 there would read as an
// exploration that found nothing.
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result // without the method
	if r.ran() {
		return json.Marshal(plain(r))
	}
	return json.Marshal(struct {
		Status Status `json:"status"`
		Note   string `json:"note,omitempty"`
	}{r.Status, r.Note})
}

// Completed is the number of paths that ended by themselves with a value
// or an error: the count the papers' "paths" and "traces" compare with
// (they count neither our step-bound cuts nor stuck ends).
func (r Result) Completed() int64 { return r.Value + r.Error }

// Other is the run of one more engine (Options.Also) on a case.
type Other struct {
	// Engine is the engine's spec as given in Options.Also.
	Engine string `json:"engine"`
	Result
}

// MarshalJSON writes the engine beside its result's fields (Result's own
// MarshalJSON, promoted, would drop it).
func (o Other) MarshalJSON() ([]byte, error) {
	r, err := json.Marshal(o.Result)
	if err != nil {
		return nil, err
	}
	e, err := json.Marshal(o.Engine)
	if err != nil {
		return nil, err
	}
	return append(append([]byte(`{"engine":`), e...), append([]byte{','}, r[1:]...)...), nil
}

// Row is one case with every engine's results: GSE, the engine compared
// with it (Options.Engine, the summary engine by default) and the engines
// of Options.Also, in that order.
type Row struct {
	Case
	Steps   int     `json:"step_bound"`
	GSE     Result  `json:"gse"`
	Summary Result  `json:"summary"`
	Others  []Other `json:"others,omitempty"`
	// Published are the seed papers' numbers for this case (Published).
	Published []Pub `json:"published,omitempty"`
	// LowerBound is seed 002 App. B's fewest cases for the case, if any
	// (LowerBound): no engine's completed paths can be fewer.
	LowerBound *Pub `json:"lower_bound,omitempty"`
}

// BelowBound reports whether a finished run of some engine has fewer
// completed paths than the row's lower bound: an engine that lost cases.
func (r Row) BelowBound() bool {
	if r.LowerBound == nil {
		return false
	}
	below := func(e Result) bool { return e.Status == Done && e.Completed() < r.LowerBound.Paths }
	if below(r.GSE) || below(r.Summary) {
		return true
	}
	for _, o := range r.Others {
		if below(o.Result) {
			return true
		}
	}
	return false
}

// Other returns the result of the engine spec of Options.Also, if the row
// has it.
func (r Row) Other(spec string) (Result, bool) {
	for _, o := range r.Others {
		if o.Engine == spec {
			return o.Result, true
		}
	}
	return Result{}, false
}

// PathRatio is GSE paths / summary paths, or 0 when either run did not
// finish.
func (r Row) PathRatio() float64 { return pathRatio(r.GSE, r.Summary) }

// TimeRatio is GSE wall time / summary wall time, or 0 when either run did
// not finish.
func (r Row) TimeRatio() float64 { return timeRatio(r.GSE, r.Summary) }

// BoundTooSmall reports whether an engine cut a path whose heap has no
// cycle: then the step bound, not the acyclicity of the list, ended it.
func (r Row) BoundTooSmall() bool {
	bad := func(e Result) bool { return e.Status == Done && e.Cut != e.CutCyclic }
	if bad(r.GSE) || bad(r.Summary) {
		return true
	}
	for _, o := range r.Others {
		if bad(o.Result) {
			return true
		}
	}
	return false
}

// Options configure a run.
type Options struct {
	// Root is the repository root the case files are relative to.
	Root string
	// Budget is the time limit of one exploration (per engine and case).
	Budget time.Duration
	// Steps is the step bound of both engines for the cases without their
	// own bound.
	Steps int
	// ForceSteps makes Steps the bound of every case, overriding the cases'
	// own bounds.
	ForceSteps bool
	// Engine is the engine compared with GSE, "NAME[:VARIANT]" of the
	// registry (package engine); "" is the summary engine with Variant.
	Engine string
	// Variant is the summary engine's rule variant when Engine is "".
	Variant summary.Variant
	// Semantics are the common-rule readings V10/V11 of an Engine named by
	// the registry (a Variant carries its own).
	Semantics machine.Options
	// Also are more engines ("NAME[:VARIANT]" of the registry) run on
	// every case beside GSE and Engine, each with its own solver, with the
	// same k-bound, step bound, budget and common rules as GSE. An engine
	// without a k-bound (Unbounded) runs only the cases without one.
	Also []string
	// Progress, if not nil, gets one line per finished exploration.
	Progress io.Writer
}

// DefaultSteps is the step bound of the cases without their own: far above
// the longest path of the POSE and aliasing programs, which all end by
// themselves.
const DefaultSteps = 2000

// DefaultBudget is the default time budget of one exploration.
const DefaultBudget = 60 * time.Second

// CheckAlso builds every engine of also once, so that an unknown engine
// or variant is an error before any case runs.
func CheckAlso(also []string) error {
	if len(also) == 0 {
		return nil
	}
	sol, err := smt.NewSolver()
	if err != nil {
		return err
	}
	defer sol.Close()
	for _, spec := range also {
		if _, err := engine.New(spec, engine.Config{K: -1, Solver: sol}); err != nil {
			return fmt.Errorf("bench: -also %s: %w", spec, err)
		}
	}
	return nil
}

// unbounded says whether spec names an engine variant with no k-bound
// (engine.BoundNone: POSE-J's world-exact, which ignores Config.K). On a
// case with a finite k such an engine would explore lists bounded only by
// the step bound, which neither compares with the other engines nor stays
// within memory (LinkedList×5 at k = 3 passed 5 GiB), so those cases are
// NotRun for it; its kbound variant (-also pose:kbound) runs them.
func unbounded(spec string) bool {
	info, variant, err := engine.Lookup(spec)
	return err == nil && info.BoundOf(variant) == engine.BoundNone
}

// Uninterruptible are the engines of the registry whose heap rules do not
// look at the context within one rule application, so the budget stops
// them only between rules, and a single application can outlast it by
// far: uber-lazy on LinkedList×5 at k = 5 was still inside one rule after
// five minutes with 8 GiB of heap (the summary engine, on the same case,
// is cut at the budget); POSE-J on LinkedList×3 at k = 3 likewise. For
// them a series stops early: once a run takes more than a quarter of the
// budget, the later (in these series ×5–10 costlier) cases of the series
// are Skipped, with a note.
var Uninterruptible = map[string]bool{"uber": true, "pose": true}

// endsSeries says whether run r of engine name ends its series (the later
// cases are Skipped), and why when not because of the budget: a run cut by
// the budget does, and so does a finished run of an Uninterruptible
// engine (early) that took more than a quarter of the budget.
func endsSeries(name string, early bool, r Result, budget time.Duration) (bool, string) {
	if r.Status == Budget {
		return true, ""
	}
	if early && r.Status == Done && r.Wall > budget/4 {
		return true, fmt.Sprintf("an earlier case took %v > budget/4 and %s does not stop within a rule", FormatDuration(r.Wall), name)
	}
	return false, ""
}

// applies says whether an engine of Options.Also runs case c, and if not,
// why.
func applies(spec string, c Case) (bool, string) {
	name, _ := engine.Split(spec)
	if unbounded(spec) && c.K >= 0 {
		return false, name + " has no k-bound"
	}
	return true, ""
}

// Run runs every case of the suite through GSE, the compared engine and
// the engines of Options.Also, in order. It stops early only when ctx is
// cancelled or a case cannot be loaded or an engine fails (a solver
// unknown, a rule error): a budget overrun is a result, not an error.
func Run(ctx context.Context, s Suite, opt Options) ([]Row, error) {
	if opt.Budget <= 0 {
		return nil, errors.New("bench: the time budget must be positive")
	}
	if opt.Steps <= 0 {
		return nil, errors.New("bench: the step bound must be positive")
	}
	if opt.Variant.Name == "" {
		opt.Variant = summary.Variants()[0]
	}
	if err := CheckAlso(opt.Also); err != nil {
		return nil, err
	}
	// A lane is one engine's column of results: it is cut for a series
	// once a run of it exceeds the budget.
	type lane struct {
		name string
		run  func(p *javalite.Program, k, steps int) (Result, error)
		res  func(*Row) *Result
		cut  map[string]bool
		// early: the lane is Uninterruptible; cut then also holds a
		// series after a run over Budget/4.
		early bool
		note  map[string]string
	}
	// data says whether a lane's engine has the data rules: GSE and the
	// summary engine do; a registry engine says so in engine.Info.Data.
	data := map[string]bool{"gse": true, "summary": opt.Engine == "" || engine.SupportsData(opt.Engine)}
	for _, spec := range opt.Also {
		data[spec] = engine.SupportsData(spec)
	}
	lanes := []*lane{
		{name: "gse", res: func(r *Row) *Result { return &r.GSE },
			run: func(p *javalite.Program, k, steps int) (Result, error) { return runGSE(ctx, p, k, steps, opt) }},
		{name: "summary", res: func(r *Row) *Result { return &r.Summary },
			run: func(p *javalite.Program, k, steps int) (Result, error) { return runSummary(ctx, p, k, steps, opt) }},
	}
	for i, spec := range opt.Also {
		name, _ := engine.Split(spec)
		lanes = append(lanes, &lane{name: spec, res: func(r *Row) *Result { return &r.Others[i].Result },
			run:   func(p *javalite.Program, k, steps int) (Result, error) { return runOther(ctx, p, spec, k, steps, opt) },
			early: Uninterruptible[name]})
	}
	for _, l := range lanes {
		l.cut = map[string]bool{}
		l.note = map[string]string{}
	}
	// stop records whether lane l's run r ends series of its lane.
	stop := func(l *lane, series string, r Result) {
		l.cut[series], l.note[series] = endsSeries(l.name, l.early, r, opt.Budget)
	}
	progs := map[string]*javalite.Program{}
	// A case that appears in two series (LinkedList×5 at k = CallsK) is
	// run once: the second row reuses the results of the engines that ran
	// it.
	type key struct {
		file     string
		k, steps int
	}
	seen := map[key]Row{}
	var rows []Row
	for _, c := range s.Cases {
		if err := ctx.Err(); err != nil {
			return rows, err
		}
		p, ok := progs[c.File]
		if !ok {
			var err error
			p, err = javalite.LoadFile(filepath.Join(opt.Root, c.File))
			if err != nil {
				return rows, fmt.Errorf("bench: %w", err)
			}
			progs[c.File] = p
		}
		steps := opt.Steps
		if c.Steps > 0 && !opt.ForceSteps {
			steps = c.Steps
		}
		row := Row{Case: c, Steps: steps, Published: Published(c)}
		if lb, ok := LowerBound(c); ok {
			row.LowerBound = &lb
		}
		for _, spec := range opt.Also {
			row.Others = append(row.Others, Other{Engine: spec})
		}
		prev, again := seen[key{c.File, c.K, steps}]
		hasData := machine.UsesData(p)
		for i, l := range lanes {
			out := l.res(&row)
			if i >= 2 {
				if ok, why := applies(l.name, c); !ok {
					*out = Result{Status: NotRun, Note: why}
					continue
				}
			}
			if hasData && !data[l.name] {
				*out = Result{Status: NoData, Note: noDataNote}
				continue
			}
			if l.cut[c.Series] {
				out.Status, out.Note = Skipped, l.note[c.Series]
				continue
			}
			if again {
				if r := *l.res(&prev); r.Status == Done || r.Status == Budget {
					*out = r
					stop(l, c.Series, r)
					continue
				}
			}
			r, err := l.run(p, c.K, steps)
			if nd := (engine.ErrNoData{}); errors.As(err, &nd) || errors.Is(err, machine.ErrNoData) {
				*out = Result{Status: NoData, Note: noDataNote}
				continue
			}
			if err != nil {
				return rows, fmt.Errorf("bench: %s k=%s %s: %w", c.Program, KString(c.K), l.name, err)
			}
			*out = r
			stop(l, c.Series, r)
			progress(opt.Progress, l.name, c, r)
		}
		if !again {
			seen[key{c.File, c.K, steps}] = row
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func progress(w io.Writer, eng string, c Case, r Result) {
	if w == nil {
		return
	}
	pruned := ""
	if r.Pruned > 0 {
		pruned = fmt.Sprintf("; %d pruned", r.Pruned)
	}
	fmt.Fprintf(w, "%-16s k=%-2s %-8s %-3s paths %d (value %d, error %d, cut %d, stuck %d%s) in %v\n",
		c.Program, KString(c.K), eng, r.Status, r.Paths, r.Value, r.Error, r.Cut, r.Stuck, pruned, r.Wall.Round(time.Millisecond))
}

// KString prints a k-bound, "∞" for none.
func KString(k int) string {
	if k < 0 {
		return "∞"
	}
	return fmt.Sprint(k)
}

func runGSE(ctx context.Context, p *javalite.Program, k, steps int, opt Options) (Result, error) {
	eng := gse.New(k)
	mopt, err := opt.machineOptions()
	if err != nil {
		return Result{}, err
	}
	eng.Opt = mopt
	return explore(ctx, p, eng, nil, steps, opt.Budget)
}

// newEngine builds the engine compared with GSE.
func (opt Options) newEngine(k int, sol *smt.Solver) (machine.Engine, error) {
	if opt.Engine == "" {
		return summary.New(opt.Variant, k, sol), nil
	}
	return engine.New(opt.Engine, engine.Config{K: k, Solver: sol, Machine: opt.Semantics})
}

// machineOptions are the common-rule choices of the engine compared with
// GSE, which GSE runs with too.
func (opt Options) machineOptions() (machine.Options, error) {
	eng, err := opt.newEngine(0, nil)
	if err != nil {
		return machine.Options{}, err
	}
	return eng.Options(), nil
}

// runOther runs one engine of Options.Also on its own solver.
func runOther(ctx context.Context, p *javalite.Program, spec string, k, steps int, opt Options) (Result, error) {
	sol, err := smt.NewSolver()
	if err != nil {
		return Result{}, err
	}
	defer sol.Close()
	// The common rules are GSE's, which are the compared engine's.
	mopt, err := opt.machineOptions()
	if err != nil {
		return Result{}, err
	}
	eng, err := engine.New(spec, engine.Config{K: k, Solver: sol, Machine: mopt})
	if err != nil {
		return Result{}, err
	}
	return explore(ctx, p, eng, sol, steps, opt.Budget)
}

func runSummary(ctx context.Context, p *javalite.Program, k, steps int, opt Options) (Result, error) {
	sol, err := smt.NewSolver()
	if err != nil {
		return Result{}, err
	}
	defer sol.Close()
	eng, err := opt.newEngine(k, sol)
	if err != nil {
		return Result{}, err
	}
	return explore(ctx, p, eng, sol, steps, opt.Budget)
}

// budgeted makes every heap rule check the context first. machine.Explore
// looks at its context once every 1024 states, which is often enough for
// GSE but not for the summary engine, whose few states can each take
// seconds of solver time; a heap rule is where that time goes.
type budgeted struct {
	machine.Engine
	ctx context.Context
}

// budgetedData is budgeted for an engine with the data rules: the wrapper
// must keep the engine's machine.PathCond visible, or the machine would
// take the engine for one without data (machine.ErrNoData).
type budgetedData struct {
	budgeted
	machine.PathCond
}

// withBudget wraps eng in budgeted, keeping its PathCond if it has one.
func withBudget(ctx context.Context, eng machine.Engine) machine.Engine {
	b := budgeted{eng, ctx}
	if pc, ok := eng.(machine.PathCond); ok {
		return budgetedData{b, pc}
	}
	return b
}

func (b budgeted) FieldAccess(s *machine.State, r machine.Ref, fa *javalite.FieldAccess, k *machine.Kont) ([]machine.Succ, error) {
	if err := b.ctx.Err(); err != nil {
		return nil, err
	}
	return b.Engine.FieldAccess(s, r, fa, k)
}

func (b budgeted) FieldWrite(s *machine.State, r machine.Ref, fw *javalite.FieldWrite, k *machine.Kont) ([]machine.Succ, error) {
	if err := b.ctx.Err(); err != nil {
		return nil, err
	}
	return b.Engine.FieldWrite(s, r, fw, k)
}

func (b budgeted) EqualsRef(s *machine.State, r0, r1 machine.Ref, eq *javalite.Equals, k *machine.Kont) ([]machine.Succ, error) {
	if err := b.ctx.Err(); err != nil {
		return nil, err
	}
	return b.Engine.EqualsRef(s, r0, r1, eq, k)
}

// explore runs one exploration under the budget, sampling the heap.
func explore(ctx context.Context, p *javalite.Program, eng machine.Engine, sol *smt.Solver, steps int, budget time.Duration) (Result, error) {
	var res Result
	visit := func(s *machine.State, kind machine.EndKind) bool {
		switch kind {
		case machine.EndCut:
			if hasCycle(s) {
				res.CutCyclic++
			}
		default:
			res.MaxSteps = max(res.MaxSteps, s.Steps)
		}
		return true
	}
	runtime.GC()
	base := heapBytes()
	stop := sampleHeap()
	bctx, cancel := context.WithTimeout(ctx, budget)
	if sol != nil {
		// A Z3 check in flight when the budget or ctx ends is interrupted.
		sol.SetContext(bctx)
	}
	start := time.Now()
	var st machine.Stats
	var err error
	if g, ok := eng.(*gse.Engine); ok {
		// GSE never blocks inside a rule: the copy-free explorer (same
		// paths, counts and order as machine.Explore) checks ctx itself.
		st, err = gse.Explore(bctx, machine.Initial(p), g, steps, visit)
	} else {
		st, err = machine.Explore(bctx, machine.Initial(p), withBudget(bctx, eng), steps, visit)
	}
	wall := time.Since(start)
	overrun := bctx.Err() != nil
	cancel()
	peak := stop()
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	if err != nil && !(overrun && (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, smt.ErrCanceled))) {
		return res, err
	}
	if err != nil {
		// The budget stopped a heap rule: st holds the counts so far.
		st.Complete = false
	}
	res.Status = Done
	if !st.Complete {
		res.Status = Budget
	}
	res.Paths = st.Paths
	res.Value = st.Ends[machine.EndValue]
	res.Error = st.Ends[machine.EndError]
	res.Cut = st.Ends[machine.EndCut]
	res.Stuck = st.Ends[machine.EndStuck]
	res.Pruned = st.Pruned
	res.States, res.Steps, res.Wall = st.States, st.Steps, wall
	if peak > base {
		res.PeakHeap = peak - base
	}
	if sol != nil {
		ss := sol.Stats()
		res.Queries, res.CacheHits, res.SolverTime = ss.Queries, ss.CacheHits, ss.SolverTime
		res.Decided = ss.Decided
	}
	return res, nil
}

// hasCycle reports whether the heap of s has a cycle of numbered
// locations through fields, following every entry of every guarded value
// set (in a GSE state each set has one entry, so this is the heap's own
// graph).
func hasCycle(s *machine.State) bool {
	n := len(s.Locs)
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, n)
	succ := func(l machine.Loc) []machine.Loc {
		var out []machine.Loc
		for _, f := range s.Locs[l].Class.Fields {
			for _, e := range s.Get(s.Field(l, f)) {
				if e.Loc >= 0 {
					out = append(out, e.Loc)
				}
			}
		}
		return out
	}
	// Iterative DFS: a list of k nodes is short, but a generated heap need
	// not be, and a cycle check must not be what overflows.
	type frame struct {
		l    machine.Loc
		next []machine.Loc
	}
	for root := 0; root < n; root++ {
		if color[root] != white {
			continue
		}
		color[root] = grey
		stack := []frame{{machine.Loc(root), succ(machine.Loc(root))}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if len(top.next) == 0 {
				color[top.l] = black
				stack = stack[:len(stack)-1]
				continue
			}
			m := top.next[0]
			top.next = top.next[1:]
			switch color[m] {
			case grey:
				return true
			case white:
				color[m] = grey
				stack = append(stack, frame{m, succ(m)})
			}
		}
	}
	return false
}

var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

func heapBytes() uint64 {
	s := make([]metrics.Sample, 1)
	copy(s, heapSample)
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// sampleHeap samples the heap every 5 ms until the returned function is
// called, which returns the peak.
func sampleHeap() func() uint64 {
	var (
		mu   sync.Mutex
		peak = heapBytes()
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				h := heapBytes()
				mu.Lock()
				peak = max(peak, h)
				mu.Unlock()
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		h := heapBytes()
		mu.Lock()
		defer mu.Unlock()
		return max(peak, h)
	}
}
