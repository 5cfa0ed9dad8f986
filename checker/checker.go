// Package checker runs an engine under test (package engine: the
// heap-summary engine by default, any registered engine by name) in
// lockstep with GSE, the reference, and checks the lemma catalog of
// RULES.md §8 (and ENGINES.md §8.3) at every step.
//
// The driver is the bisimulation of RULES.md §7. It keeps pairs (P, q) of a
// set P of GSE states and one engine state q with the same control
// (η e k), starting from ({s0}, s0). From a pair it steps every member of P
// and q once, groups the GSE successors by control, and matches groups and
// engine successors by control in both directions (forward: every group
// has an engine successor; backward: every engine successor has a group).
// The relations read the engine's View of its states, never the states
// themselves. For a OnePerControl engine each matched pair is checked for
// exactness (every GSE state of the group is represented by the View, and
// every concretization of the View is one of the group's heaps), the View
// for well formedness and determinism, and the pair is explored further;
// for a Partition engine the group is checked to be partitioned among the
// engine's states at that control (partition.go). When the engine has an
// initialization machine of its own (engine.Initializer), at a field
// access it is compared with GSE's on its own (→S* against →I*: L1 and
// L4), before the result is read.
//
// Independently of the pairing, both engines are explored on their own and
// their sets of control-flow sequences compared (C12) and counted (C13; P3
// for a Partition engine), so that a bug in the pairing itself could not
// hide a difference. versus.go compares two engines without GSE.
//
// Every failure is a Verdict naming the lemma, the rule, the step and the
// control, with both sides. A check that cannot decide (solver unknown,
// budget exhausted, timeout) makes the verdict Inconclusive, never Holds.
//
// # Using it as a library
//
// Options come from DefaultOptions: the engine under test DefaultEngine
// (summary:published) when Engine is "", k = 2, a step bound of 200, at
// most 2000 GSE states in one group, 20000 pairs and 200000 paths, and a
// time limit of 60 s per program; anything the limits cut short is
// Inconclusive. Run checks one program (a nil solver: Run makes one),
// Check and Property fail a test (*testing.T or *rapid.T) with the verdict,
// Hunt and RunSurvey check generated program streams, and Replay re-runs
// the counterexamples `lockstep check -gen -save DIR` keeps. The runnable
// examples, each compared with its Output by go test and shown by
// pkg.go.dev beside what it uses (example_function_test.go): ExampleRun (one program,
// its verdict), ExamplePropertyOf (a rapid property over generated
// programs), ExampleExplore (one engine's paths), ExampleJSONReport (a
// verdict read from -json) and ExampleReplay (kept counterexamples).
package checker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/lockstep-dev/lockstep/engine"
	_ "github.com/lockstep-dev/lockstep/engine/builtin"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/relation"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

// Options configure one check. Start from DefaultOptions (or
// FileOptions); the zero value, with only an engine named, means the same
// bounds (Resolved), and a Steps of 0 with other bounds set is refused.
type Options struct {
	// Engine names the engine under test, "NAME[:VARIANT]" of the
	// registry (engine.Lookup; `lockstep engines`): "summary:fixed",
	// "summary:kbound-assume+v7-uninit-guard", "lazier". "" is
	// DefaultEngine.
	Engine string
	// Build, if not nil, builds the engine under test instead of the
	// registry, for configurations made in code (the mutants of
	// internal/mutation: summary.Build(v)); Engine then only names it.
	Build func(engine.Config) (engine.UnderTest, error)
	// Variant is the older way to name a summary engine: a Variant with a
	// Name is the engine "summary:"+Name built from this value
	// (summary.Build). Deprecated: set Engine (or Build); setting both
	// Variant and Engine is an error.
	Variant summary.Variant
	// Versus, if not empty, names a second engine ("NAME[:VARIANT]"): the
	// check then compares the two engines with each other instead of the
	// engine with GSE (both must be OnePerControl; ENGINES.md §8.4).
	Versus string
	// Semantics are the common-rule readings V10/V11 (RULES.md §3,
	// machine.ParseSemantics) of GSE, the engine under test and the
	// concrete oracle alike; the zero value is Java. A deprecated Variant
	// carries its own (summary.Variant.WithSemantics).
	Semantics machine.Options
	// Common adds deliberate errors of the common rules
	// (machine.Mutation) to the machine options of the engine under test,
	// and so to GSE's: the mutants of a shared layer, which
	// internal/mutation hunts under every engine. Zero: none.
	Common machine.Mutation
	// K is the k-bound, the same in both engines; EngineK (what
	// DefaultOptions sets) is the engine's default (engine.Info.DefaultK:
	// the papers' k = 2 under GSE's bound, −1 for an engine without it).
	// At a finite k an engine without GSE's bound is served or refused
	// as engine.AtK says (Resolved).
	K int
	// Steps is the step bound, the same in both engines; EngineSteps
	// (what DefaultOptions sets) is DefaultSteps with a k-bound and
	// UnboundedSteps at k = −1; negative is no bound; 0 is refused unless
	// every bound is zero (then all are DefaultOptions', Resolved).
	Steps  int
	Budget relation.Budget
	// NoExactness skips the concretization direction of exactness (every
	// concretization of q is a member of P); representation of every
	// member of P is still checked.
	NoExactness bool
	// MaxGroup bounds the number of GSE states in one pair; MaxPairs the
	// number of pairs; MaxPaths the paths of the separate explorations.
	// Exceeding a bound makes the result inconclusive.
	MaxGroup, MaxPairs, MaxPaths int
	Timeout                      time.Duration
	// NoOracle skips lemma ORC; OracleMax bounds its concrete runs per
	// program (0: DefaultOracleMax, < 0: none). oracle.go.
	NoOracle  bool
	OracleMax int
	// Runner is ORC's concrete side; nil is concrete.InterpretWith
	// (jvm.ORC runs the JVM instead: check -oracle jvm).
	Runner Runner `json:"-"`
	// Also is the completeness half's second concrete side: called with
	// each program, it returns the check of every input's machine run
	// (concrete.Options.Also); nil: none. jvm.ORC.Also under -oracle jvm.
	Also AlsoRunner `json:"-"`
	// NoGPC skips lemma GPC (gsepc.go), for measuring its cost.
	NoGPC bool
	// NoInvariant skips the engine's own invariant (engine.Invariant:
	// INV-P), to see the verdict it would mask (invariant.go).
	NoInvariant bool
	// Faults, if not nil, injects solver faults (smt.Faults) in Each, the
	// seed of program i being Faults.Seed + i: for testing that no fault
	// ever becomes a verdict.
	Faults *smt.Faults
	// follow, when not nil, restricts the check to one control flow: the
	// pairs whose controls are follow's, in order from the initial pair's
	// successor, and every successor of the last (Run's re-check at
	// k = −1 of a violation at a finite k).
	follow []string
}

// DefaultEngine is the engine under test when Options name none.
const DefaultEngine = "summary:published"

// EngineK as Options.K is the default k-bound of the engine under test
// (engine.Info.DefaultK), filled in by Resolved, so that options made
// before the engine is chosen never compare an engine with GSE under a
// bound the engine does not have.
const EngineK = math.MinInt32

// EngineSteps as Options.Steps is the default step bound at the check's
// k (Resolved): DefaultSteps with a k-bound, UnboundedSteps without.
const EngineSteps = math.MinInt32

// DefaultSteps is the step bound of a check with a k-bound; UnboundedSteps
// of one at k = −1, where only the step bound stops a recursion (the
// LinkedList programs) and GSE's groups grow with every call: at 100 steps
// every engine decides every program of testdata/programs and
// testdata/bench within the default time limit on two cores, at 150 the
// Kiasan engines do not (docs/PERFORMANCE.md, "Bounds and memory").
const (
	DefaultSteps   = 200
	UnboundedSteps = 100
)

// DefaultOptions are moderate bounds for generated programs, at the
// engine's own default k-bound (EngineK) and step bound (EngineSteps): a
// hunt's. The group and pair bounds are far above what the papers'
// programs reach at the engines' default k (at most 479 GSE states in a
// group and 5,621 pairs); on a stream they stop the
// one program in a hundred whose groups grow to thousands of states,
// which, decided, costs the time of the other ninety-nine (seed 1's
// program 196: 17.9 s under summary:fixed, 8.2 s under lazier, against
// 0.05 s for the median program; docs/PERFORMANCE.md, "Bounds and memory"). A hunt reports that
// share as inconclusive; a check of named programs decides them
// (FileOptions).
func DefaultOptions() Options {
	return Options{
		K:        EngineK,
		Steps:    EngineSteps,
		Budget:   relation.DefaultBudget,
		MaxGroup: 2000,
		MaxPairs: 20000,
		MaxPaths: 200000,
		Timeout:  60 * time.Second,
	}
}

// FileOptions are DefaultOptions with the group and pair bounds of a
// check of named programs (lockstep check FILE): a user who names a
// program wants its verdict, so the bounds are what the machine decides
// within the default time limit, and the time limit is the limit. Exactness
// hashes the GSE states of a group by canonical heap (relation.Exact,
// checker.partitionAt), so a group costs time linear in its size: seed 1's
// program 196 (groups of 8,320 GSE states under summary:fixed, 14,396
// pairs under lazier) is decided in 8–18 s on one core, where the hunt's
// bounds give up. Memory grows with the group (0.7 GB at 8,320 states),
// which, not time, is why the group stays bounded.
func FileOptions() Options {
	o := DefaultOptions()
	o.MaxGroup, o.MaxPairs = FileMaxGroup, FileMaxPairs
	return o
}

// FileMaxGroup and FileMaxPairs are FileOptions' bounds.
const (
	FileMaxGroup = 10000
	FileMaxPairs = 1000000
)

// EngineSpec is the engine under test as "NAME[:VARIANT]", with the
// default variant filled in when the name is registered.
func (o Options) EngineSpec() string {
	switch {
	case o.Variant.Name != "" && o.Engine == "":
		return "summary:" + o.Variant.Name
	case o.Engine == "":
		return DefaultEngine
	}
	if c, err := engine.Canonical(o.Engine); err == nil && o.Build == nil {
		return c
	}
	return o.Engine
}

// Label names the engine under test for tables: the variant alone for the
// summary engine (the columns of docs/LEMMAS.md), the whole spec
// otherwise.
func (o Options) Label() string {
	name, variant := engine.Split(o.EngineSpec())
	if name == "summary" && variant != "" {
		return variant
	}
	return o.EngineSpec()
}

// SemanticsName names the common-rule semantics of the check (V10/V11:
// "java", "paper", ...), for reports and table headers.
func (o Options) SemanticsName() string {
	if o.Variant.Name != "" {
		return o.Variant.Semantics()
	}
	return o.Semantics.SemanticsName()
}

// Resolved returns the options a run uses: K filled in from the engine
// when it is EngineK, and the engines (Engine, Versus) as engine.AtK names
// them at that k, so that an engine without GSE's k-bound is served at a
// finite k by its variant with GSE's bound ("pose" at k = 2 is
// "pose:world-exact+kbound"), or refused (an error saying what to use). An
// engine given by Build or Variant is taken as it is (by Build, at the
// registered engine's default k when Engine names one).
//
// Options whose bounds (K, Steps, Budget's HomNodes and Models, MaxGroup,
// MaxPairs, MaxPaths, Timeout) are all zero, such as
// Options{Engine: "pose"}, have DefaultOptions' bounds: the zero value is
// a check at the engine's defaults, never a check of nothing. Otherwise a
// Steps of 0, which explores no step and so would hold vacuously, is an
// error.
func (o Options) Resolved() (Options, error) {
	if o.zeroBounds() {
		d := DefaultOptions()
		o.K, o.Steps, o.MaxGroup, o.MaxPairs, o.MaxPaths, o.Timeout = d.K, d.Steps, d.MaxGroup, d.MaxPairs, d.MaxPaths, d.Timeout
		o.Budget.HomNodes, o.Budget.Models = d.Budget.HomNodes, d.Budget.Models
	}
	if o.Steps == 0 {
		return o, errors.New("checker: Options.Steps is 0, which explores no step (use DefaultOptions, EngineSteps or a positive bound; a negative one is no bound)")
	}
	o, err := o.resolveK()
	if o.Steps == EngineSteps {
		o.Steps = DefaultSteps
		if o.K < 0 {
			o.Steps = UnboundedSteps
		}
	}
	return o, err
}

// zeroBounds reports whether every bound of o is zero (Resolved).
func (o Options) zeroBounds() bool {
	return o.K == 0 && o.Steps == 0 && o.Budget.HomNodes == 0 && o.Budget.Models == 0 &&
		o.MaxGroup == 0 && o.MaxPairs == 0 && o.MaxPaths == 0 && o.Timeout == 0
}

func (o Options) resolveK() (Options, error) {
	if o.Build != nil || o.Variant.Name != "" {
		if o.K == EngineK {
			o.K = engine.PapersK
			if info, v, err := engine.Lookup(o.Engine); err == nil && o.Build != nil {
				o.K = info.DefaultK(v)
			}
		}
		return o, nil
	}
	spec := cmp.Or(o.Engine, DefaultEngine) // as given: "pose" may be served, "pose:world-exact" not
	info, v, err := engine.Lookup(spec)
	if err != nil {
		return o, err
	}
	if o.K == EngineK {
		o.K = info.DefaultK(v)
	}
	if o.Engine, err = engine.AtK(spec, o.K); err != nil {
		return o, err
	}
	if o.Versus != "" {
		if o.Versus, err = engine.AtK(o.Versus, o.K); err != nil {
			return o, err
		}
	}
	return o, nil
}

// bound is the k-bound of the engine under test (engine.Info.BoundOf);
// an engine built in code (Build, Variant) is taken to have GSE's.
func (o Options) bound() engine.Bound {
	if o.Build != nil || o.Variant.Name != "" {
		return engine.BoundGSE
	}
	info, v, err := engine.Lookup(o.EngineSpec())
	if err != nil {
		return engine.BoundGSE
	}
	return info.BoundOf(v)
}

// Validate builds the engines a run of these options builds (the engine
// under test, and with Versus the second engine) and makes the same checks
// a run makes before its first step, so that a caller checking many
// programs can refuse bad options once, before any of them (the CLI's exit
// 2). The solver is only lent to the engines' constructors.
func (o Options) Validate(solver *smt.Solver) error {
	o, err := o.Resolved()
	if err != nil {
		return err
	}
	eut, err := o.newEngine(solver)
	if err != nil {
		return err
	}
	if o.Versus != "" {
		_, err = versusEngine(context.Background(), o, eut, solver)
	}
	return err
}

// newEngine builds the engine under test for one run.
func (o Options) newEngine(solver *smt.Solver) (engine.UnderTest, error) {
	return o.newEngineIn(nil, solver)
}

// newEngineIn is newEngine for a run under ctx (engine.Config.Context).
func (o Options) newEngineIn(ctx context.Context, solver *smt.Solver) (engine.UnderTest, error) {
	cfg := engine.Config{K: o.K, Solver: solver, Machine: o.Semantics, Context: ctx}
	if o.Variant.Name != "" {
		cfg.Machine = o.Variant.MachineOptions()
	}
	var eut engine.UnderTest
	var err error
	switch {
	case o.Variant.Name != "" && o.Engine != "":
		return nil, fmt.Errorf("checker: both Engine (%q) and Variant (%q) are set", o.Engine, o.Variant.Name)
	case o.Build != nil:
		eut, err = o.Build(cfg)
	case o.Variant.Name != "":
		eut, err = summary.Build(o.Variant)(cfg)
	default:
		eut, err = engine.New(o.EngineSpec(), cfg)
	}
	if err != nil {
		return nil, err
	}
	if _, ref := eut.(*gse.Engine); ref {
		return nil, fmt.Errorf("checker: gse is the reference engine; it cannot be the engine under test")
	}
	if o.Common != (machine.Mutation{}) {
		inner := eut
		eut = engine.Wrap(inner, engine.Overrides{Options: func() machine.Options {
			mo := inner.Options()
			mo.Mutation = mo.Mutation.Union(o.Common)
			return mo
		}})
	}
	return eut, knownInvariant(eut)
}

// Status is the outcome of a check.
type Status uint8

const (
	Holds Status = iota
	Violated
	Inconclusive
)

func (s Status) String() string { return [...]string{"holds", "violated", "inconclusive"}[s] }

// Verdict is the outcome of checking one program, with the evidence of the
// first failure when there is one.
type Verdict struct {
	Status  Status
	Lemma   Lemma  // the claim broken (Violated) or undecided (Inconclusive)
	Rule    string // the rule that fired at the failing step
	Step    int    // the step count of the states after the failing step
	Control string // the control of the failing pair
	Reason  string
	// GSE are the GSE states of the failing group (after the step), Summary
	// the summary state; either may be empty when one side has no
	// counterpart. Before is the summary state before the step.
	GSE     []*machine.State
	Summary *machine.State
	Before  *machine.State
	// Witness describes the concrete heap that breaks exactness, if any.
	Witness string
	// Sibling is the other engine state of a P1 violation (Summary is the
	// first), or the second engine's state in an engine-against-engine
	// check (Options.Versus).
	Sibling *machine.State

	// controlOf, when Control is empty, is the state whose control the
	// verdict names: fail prints it then. A check fills a Verdict in
	// before it knows whether it fails, at every pair, and printing a
	// control there was a twentieth of a check's time.
	controlOf *machine.State
}

// Report is the result of Run on one program.
type Report struct {
	Program *javalite.Program
	// Engine is the engine under test, "NAME[:VARIANT]", and Lemmas the
	// lemmas a check of it decides (Applicable).
	Engine string
	Lemmas []Lemma
	// Versus is the second engine of an engine-against-engine check ("":
	// the engine was checked against GSE); GSEPaths then counts its paths.
	Versus  string
	Verdict Verdict
	// Checked counts, per lemma, how many times it was checked and held.
	Checked map[Lemma]int
	Pairs   int // pairs (P, q) visited
	// MaxGroup is the largest |P| seen.
	MaxGroup int
	// Paths of the separate explorations (SummaryPaths: of the engine
	// under test) and distinct control-flow sequences of GSE.
	GSEPaths, SummaryPaths, GSESequences int64
	// The ends rule Assume pruned in those explorations: not paths
	// (PRIMITIVES.md §3), reported beside them.
	GSEPruned, EnginePruned int64
	// Oracle says which halves of lemma ORC ran, on how many paths,
	// valuations and inputs (oracle.go).
	Oracle OracleStats
	// Partition engines only: EndGSE is Σ |P_end| over the pairs at the
	// engine's path ends (lemma P3), Overlaps the GSE states represented
	// by more than one sibling, each extra sibling counted (ENGINES.md
	// §8.2: counted, not a violation).
	EndGSE, Overlaps int64
	Elapsed          time.Duration
	// Faults counts the solver faults injected while checking (Options.Faults).
	Faults smt.FaultStats
	// exactReused counts the exactness answers reused (memo.go), and
	// concretizationsReused the concretizations built from cached leaves;
	// rootsBelow the replays whose new roots the leaves a search built
	// below the same leaf before resolved (relation.ConcretizationCache.Below).
	// totalReused the totality questions the run's relation.TotalityMemo
	// answered.
	exactReused, concretizationsReused, wellFormedReused, rootsBelow, totalReused int
	// exactDerived counts the exactness answers derived from the
	// predecessor pair's (derive.go), exactDerivedEq those of them after
	// an equality of references.
	exactDerived, exactDerivedEq, exactDerivedInit int
	// wellFormedDerived counts the states whose well-formedness was
	// derived (derive.go, wellFormedDerived).
	wellFormedDerived int
	// gpcCarried counts the pairs whose GPC was carried from their
	// predecessor (gsepc.go, reuseGPC); heapsReused the members whose heap
	// sum a memo key took from a record (memo.go, heapRec), heapsSummed
	// those whose heap it summed.
	gpcCarried, heapsReused, heapsSummed int
	// gseWalked is whether GSE's control-flow sequences were collected
	// along the walk (sequences.go), not explored on their own.
	gseWalked bool
	// trail is the controls of the pair at which a per-step lemma failed,
	// from the initial pair's successor on (nil: none recorded), and
	// followed whether a check restricted to Options.follow reached its
	// last pair.
	trail    []string
	followed bool
}

// errStop ends a check early; the verdict is already in the report.
var errStop = errors.New("stop")

type run struct {
	ctx    context.Context
	opt    Options
	solver *smt.Solver
	gse    *gse.Engine
	eut    engine.UnderTest
	// init is eut's initialization machine when it has one on its own
	// (engine.Initializer), else nil.
	init engine.Initializer
	// partition is eut.Shape() == engine.Partition; identity is whether
	// its View is the identity (engine.IdentityView).
	partition, identity bool
	// walked collects the engine's control-flow sequences along the
	// lockstep walk (sequences.go); nil when the engine is explored on its
	// own for them.
	walked *walkedSequences
	// lastPruned is the pruned ends of the last controlSequences.
	lastPruned int64
	// data is whether the program has data (machine.UsesData): then every
	// pair is also checked by the data half of exactness.
	data bool
	// other is the second engine of an engine-against-engine check.
	other engine.UnderTest
	mopt  machine.Options
	rep   *Report
	// gpcHeld memoizes part (a) of lemma GPC per fact (gsepc.go).
	gpcHeld map[*machine.Fact]bool
	// gpcImplied and gpcLift memoize part (b) of lemma GPC (gsepc.go).
	gpcImplied map[[2]*smt.Formula]bool
	gpcLift    map[*smt.Formula]*[gpcLiftWays]gpcLifting
	// gpcSeen, gpcFacts and gpcOrder are checkGPC's working sets, kept
	// between pairs so that their space is reused.
	gpcSeen  map[*machine.Fact]bool
	gpcFacts map[*smt.Formula]*machine.State
	gpcOrder []*smt.Formula
	// exactHeld memoizes the exactness checks that held (memo.go).
	exactHeld exactMemo
	// concretized keeps the concretizations' leaves for reuse (memo.go).
	concretized *relation.ConcretizationCache
	// heaps keeps the heaps of the current step's GSE states (step).
	heaps *relation.HeapCache
	// wellFormedHeld holds the fingerprints of the states found well
	// formed (memo.go).
	wellFormedHeld map[stateKey]bool
	// totality keeps the totality questions answered unsatisfiable
	// (memo.go, relation.TotalityMemo).
	totality *relation.TotalityMemo
	// keyHash is the memo keys' buffer, reused (memo.go).
	keyHash keyHash
	// sameControl is, while step checks a group, the control key every
	// member of the group has ("" elsewhere): the memo keys then need not
	// compute each member's again (exactKey).
	sameControl string
	// endPaths are the GSE paths (pair.ids) at the Partition engine's path
	// ends, each once however many siblings carried it (P3).
	endPaths map[uint64]bool
	// trails is whether pairs record their controls (pair.trail), for
	// the re-check of a violation along its control flow (Run).
	trails bool
	// gpcFrom is, while step checks a successor pair, what GPC may carry
	// from its predecessor (nil elsewhere), and gpcLast the pair checkGPC
	// last found GPC to hold for (gsepc.go).
	gpcFrom *gpcCarry
	gpcLast *gpcHeldPair
	// exactHeldLast: the exactness of the pair checkPair last checked
	// held (pair.held); derivable: the pair being checked may take its
	// exactness from its predecessor's (derive.go).
	exactHeldLast, derivable bool
	// derivableEq: derivable is about a step of an equality of
	// references; derivableInit: derivable from the initialized group.
	derivableEq, derivableInit bool
	// wfFrom is the state checked before the step whose well-formedness a
	// derived pair's q′ takes (derive.go), with the entries it may prune.
	wfFrom   *machine.State
	wfPruned pruned
	// snap is the rootSnap snapRoots fills (derive.go), reused.
	snap rootSnap
	// initHeld is what checkInit kept of the pair's initialized group for
	// the step that follows (derive.go), or nil.
	initHeld    *initHeld
	checkedLast *machine.State
	// deriveFrom is set while step checks a successor pair whose
	// exactness may be derived.
	deriveFrom *deriveFrom
	// derive is what deriveFrom points to (one per run, not one per
	// group).
	derive deriveFrom
}

// solverFor is solver, or when it is nil a new one bound to ctx, with
// what releases it (closing only a solver it made).
func solverFor(ctx context.Context, solver *smt.Solver) (*smt.Solver, func(), error) {
	if solver != nil {
		return solver, func() {}, nil
	}
	s, err := smt.NewSolver()
	if err != nil {
		return nil, nil, err
	}
	s.SetContext(ctx)
	return s, s.Close, nil
}

// Run runs the two engines in lockstep on p and checks every lemma. The
// solver belongs to the caller's goroutine. An error is returned only for
// failures of the tool itself (a rule that cannot be applied to a
// well-typed program, for instance); undecided checks are an Inconclusive
// verdict.
//
// The options are Resolved first: the engine's default k and step bound,
// and at a finite k the engine variant with GSE's bound (or an error). The
// re-check below applies to an engine with a k-bound of its own
// (engine.BoundOwn) too, whatever its shape, and runs up to the step of the
// violation.
//
// For a Partition engine at a finite k, a violation is checked again at
// k = −1 (the step bound alone): if everything holds there, the violation
// is a finite-k divergence of the two k-bounds (lemma KB, ENGINES.md §3.2),
// reported apart from exactness; if the rerun cannot decide, neither can
// this check. A violation found at a step is re-checked along its control
// flow (the controls of the pairs that led to it, and every successor of
// the last): every per-step lemma there; the lemmas of whole explorations
// (C12, C13, P3, ORC) are not claims about one flow. When k = −1 has no
// such flow, or the violation is of a whole exploration, the whole
// exploration is re-checked.
//
// A nil solver is allowed: Run then makes one for the call (a Z3 context,
// bound to ctx, closed before it returns). A caller that checks many
// programs passes its own, one per goroutine, to reuse it.
func Run(ctx context.Context, p *javalite.Program, opt Options, solver *smt.Solver) (*Report, error) {
	solver, release, err := solverFor(ctx, solver)
	if err != nil {
		return nil, err
	}
	defer release()
	opt, err = opt.Resolved()
	if err != nil {
		return nil, err
	}
	rep, err := runOnce(ctx, p, opt, solver)
	if err != nil || rep.Verdict.Status != Violated || opt.K < 0 || !slices.Contains(rep.Lemmas, KB) || rep.Verdict.Lemma == KB {
		return rep, err
	}
	unbounded := opt
	unbounded.K = -1
	// Up to the step of the violation: the claim is that the same engine
	// agrees with GSE at k = −1 where it failed at k, and without the
	// k-bound the paths beyond it may grow far past what can be decided
	// (a recursion bounded by the step bound alone).
	if v := rep.Verdict.Step; v > 0 && (unbounded.Steps < 0 || v < unbounded.Steps) {
		unbounded.Steps = v
	}
	// First along the violation's control flow alone, when a step found
	// it: the claim is about that flow, and the whole exploration at
	// k = −1 (GSE at k = ∞ on a red-black tree, to step 283) can be out of
	// reach where one flow is not. A flow that k = −1 does not have
	// (followed false) decides nothing; then the whole exploration is
	// checked, as for a violation of a lemma of whole explorations.
	where := ""
	again := (*Report)(nil)
	if rep.trail != nil {
		along := unbounded
		along.follow = rep.trail
		again, err = runOnce(ctx, p, along, solver)
		if err != nil {
			return rep, err
		}
		if again.followed || again.Verdict.Status != Holds {
			where = " on its control flow"
		} else {
			rep.Elapsed += again.Elapsed
			again = nil
		}
	}
	if again == nil {
		if again, err = runOnce(ctx, p, unbounded, solver); err != nil {
			return rep, err
		}
	}
	rep.Elapsed += again.Elapsed // the verdict took the re-checks too
	v := &rep.Verdict
	switch again.Verdict.Status {
	case Holds:
		v.Reason = fmt.Sprintf("at k = %d %s fails, at k = −1 every lemma holds%s (to step %d): %s", opt.K, v.Lemma, where, unbounded.Steps, v.Reason)
		v.Lemma = KB
	case Inconclusive:
		rep.Verdict = Verdict{Status: Inconclusive, Lemma: KB, Reason: fmt.Sprintf(
			"at k = %d %s fails (%s), and at k = −1%s %s is undecided (%s): a finite-k divergence cannot be told from an engine error",
			opt.K, v.Lemma, v.Reason, where, again.Verdict.Lemma, again.Verdict.Reason)}
	}
	return rep, nil
}

// runOnce is Run without the k = −1 rerun.
func runOnce(ctx context.Context, p *javalite.Program, opt Options, solver *smt.Solver) (*Report, error) {
	start := time.Now()
	if opt.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Timeout)
		defer cancel()
	}
	if machine.UsesData(p) {
		if err := RefuseData(opt); err != nil {
			return nil, err
		}
	}
	eut, err := opt.newEngineIn(ctx, solver)
	if err != nil {
		return nil, err
	}
	// What the worker's solver learned about this run's formulas ends
	// with it (memory stays flat along a stream: docs/TESTING.md "Memory").
	defer solver.Forget()
	r := &run{
		ctx: ctx, opt: opt, solver: solver, eut: eut,
		// The engine's common-rule choices (RULES.md §9) are GSE's too.
		mopt: eut.Options(),
		rep:  &Report{Program: p, Engine: opt.EngineSpec(), Checked: map[Lemma]int{}},
	}
	r.data = machine.UsesData(p)
	r.init, _ = eut.(engine.Initializer)
	_, r.identity = eut.(engine.IdentityView)
	r.partition = eut.Shape() == engine.Partition
	r.endPaths = map[uint64]bool{}
	r.rep.Lemmas = ApplicableBound(eut, opt.bound())
	if opt.K < 0 {
		// KB is a finite-k verdict (a divergence from the check at
		// k = −1, Run): at k = −1 it is no claim of the check, not one
		// that was never reached.
		r.rep.Lemmas = slices.DeleteFunc(r.rep.Lemmas, func(l Lemma) bool { return l == KB })
	}
	if !r.data {
		// L12 and L13 are claims about the data rules (PRIMITIVES.md §3):
		// a program without data never applies them, so its check makes
		// no claim about them (as a program without a field access makes
		// none about L2, but here it is known before the check).
		r.rep.Lemmas = slices.DeleteFunc(r.rep.Lemmas, func(l Lemma) bool { return l == L12 || l == L13 })
	}
	// A violation at a finite k is re-checked at k = −1 along its control
	// flow (Run), which needs the flow.
	r.trails = opt.K >= 0 && opt.follow == nil && slices.Contains(r.rep.Lemmas, KB)
	r.gse = gseEngine(opt, r.mopt, solver)
	if opt.Versus != "" {
		err = r.setVersus()
		if err != nil {
			return nil, err
		}
		err = r.versus()
	} else {
		err = r.lockstep()
		// The lemmas of whole explorations (C12, C13, P3, ORC) are not
		// claims about one control flow.
		if err == nil && opt.follow == nil {
			err = r.sequences()
		}
	}
	if err == nil && opt.follow == nil {
		err = r.oracle() // lemma ORC, oracle.go
	}
	r.rep.Elapsed = time.Since(start)
	if r.concretized != nil {
		r.rep.concretizationsReused = r.concretized.Reused()
		r.rep.rootsBelow = r.concretized.Below()
	}
	if r.totality != nil {
		r.rep.totalReused = r.totality.Reused
	}
	r.rep.heapsReused, r.rep.heapsSummed = r.keyHash.reused, r.keyHash.summed
	if errors.Is(err, errStop) {
		return r.rep, nil
	}
	if err != nil {
		var inc *inconclusive
		if errors.As(err, &inc) {
			r.rep.Verdict = Verdict{Status: Inconclusive, Lemma: inc.lemma, Reason: inc.reason}
			return r.rep, nil
		}
		return r.rep, err
	}
	r.rep.Verdict = Verdict{Status: Holds}
	return r.rep, nil
}

// gseEngine is the reference engine with the same k-bound and common-rule
// options as the engine under test.
func gseEngine(opt Options, mopt machine.Options, solver *smt.Solver) *gse.Engine {
	return &gse.Engine{K: opt.K, Opt: mopt, Facts: machine.Facts{Solver: solver}}
}

// dataPairHook, when set (by a test), sees every pair the data half of
// exactness decided, with its outcome: the brute-force property test
// compares it with an enumeration of concrete inputs.
var dataPairHook func(P []*machine.State, q *machine.State, res relation.ExactResult)

// RefuseData is the refusal of a program with data (PRIMITIVES.md) for an
// engine under test, or a -vs engine, that has no data rules: an
// engine.ErrNoData, never a verdict about rules the engine does not have.
func RefuseData(opt Options) error {
	for _, spec := range []string{opt.EngineSpec(), opt.Versus} {
		if spec != "" && (opt.Build == nil || spec == opt.Versus) {
			if err := engine.RefuseData(spec); err != nil {
				return err
			}
		}
	}
	return nil
}

// inconclusive is an error that turns into an Inconclusive verdict.
type inconclusive struct {
	lemma  Lemma
	reason string
}

func (e *inconclusive) Error() string { return fmt.Sprintf("%s inconclusive: %s", e.lemma, e.reason) }

// undecided converts an error from a relation or the solver into an
// inconclusive verdict for lemma l when it is an undecided answer, and
// returns other errors unchanged.
func undecided(l Lemma, err error) error {
	if err == nil {
		return nil
	}
	if smt.Undecided(err) || errors.Is(err, engine.ErrFailure) {
		return &inconclusive{lemma: l, reason: err.Error()}
	}
	return err
}

// fail records a violation and stops the check.
func (r *run) fail(v Verdict) error {
	v.Status = Violated
	if v.Control == "" && v.controlOf != nil {
		v.Control = v.controlOf.ControlString()
	}
	v.controlOf = nil
	r.rep.Verdict = v
	return errStop
}

type pair struct {
	P []*machine.State
	q *machine.State
	// ids name the GSE paths of P, one per member: the path of a GSE state
	// is the path of its predecessor and the index of its successor
	// (pathID), so two copies of one GSE path that two siblings of a
	// Partition engine carry down separately are one path at the end (P3).
	ids []uint64
	// key is q's control (machine.(*State).ControlKey), as matching by
	// control computed it ("" for the initial pair); depth is the number
	// of steps from the initial pair, and trail the controls of the pairs
	// on the way (when run.trails).
	key   string
	depth int
	trail *trail
	// seq is the control-flow hash of q's path up to q (seqHash), when
	// run.walked collects the engine's sequences.
	seq uint64
	// gpc is the pair itself when GPC held for it (checkGPC), for its
	// successors (gpcCarry); nil when it was not checked.
	gpc *gpcHeldPair
	// heaps are the heap sums of P's members when the pair's exactness
	// key was computed (memo.go, heapRec), for their successors and
	// initializations; nil when it was not.
	heaps []heapRec
	// held: the pair's exactness held (both halves asked), for its
	// successors (derive.go); checked is the state it was checked on (q's
	// View).
	held    bool
	checked *machine.State
}

// trail is a pair's controls back to the initial pair's successor, shared
// by the pairs below it.
type trail struct {
	key string
	up  *trail
}

// keys is the controls of t, the first step's first.
func (t *trail) keys() []string {
	var out []string
	for ; t != nil; t = t.up {
		out = append(out, t.key)
	}
	slices.Reverse(out)
	return out
}

// pathID is the identity of the i-th GSE successor of the state on path
// id (splitmix64 of the pair: distinct paths collide with probability
// 2⁻⁶⁴ per pair).
func pathID(id uint64, i int) uint64 {
	z := id*0x9e3779b97f4a7c15 + uint64(i) + 1
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// lockstep is the bisimulation driver, depth-first over pairs.
func (r *run) lockstep() error {
	p0 := machine.Initial(r.rep.Program)
	q0 := machine.Initial(r.rep.Program)
	P0 := []*machine.State{p0}
	if err := r.checkPair(P0, q0, nil, "initial state"); err != nil {
		return err
	}
	work := []pair{{P: P0, q: q0, ids: []uint64{0}, gpc: r.gpcLast, heaps: r.keyHash.recsFor(P0), held: r.exactHeldLast, checked: r.checkedLast}}
	if !r.partition && r.opt.follow == nil && !noWalkedSequences {
		r.walked = &walkedSequences{seqs: map[uint64]int{}, gse: &walkedSequences{seqs: map[uint64]int{}}}
		work[0].seq = seqHash(0, q0.ControlKey())
	}
	for len(work) > 0 {
		if err := r.timedOut(); err != nil {
			return err
		}
		pr := work[len(work)-1]
		work = work[:len(work)-1]
		r.rep.Pairs++
		if r.opt.MaxPairs > 0 && r.rep.Pairs > r.opt.MaxPairs {
			return &inconclusive{lemma: T11, reason: fmt.Sprintf("more than %d pairs", r.opt.MaxPairs)}
		}
		if len(pr.P) > r.rep.MaxGroup {
			r.rep.MaxGroup = len(pr.P)
		}
		if pr.q.Terminal() || (r.opt.Steps >= 0 && pr.q.Steps >= r.opt.Steps) {
			if r.walked != nil {
				r.walked.endPair(pr, r.opt.Steps)
			}
			r.rep.EndGSE += int64(len(pr.P))
			if r.partition {
				for _, id := range pr.ids {
					r.endPaths[id] = true
				}
			}
			continue
		}
		if r.opt.follow != nil && pr.depth == len(r.opt.follow) {
			r.rep.followed = true
		}
		if err := r.checkInit(pr); err != nil {
			return r.failedAt(pr, err)
		}
		next, err := r.step(pr)
		if err != nil {
			return r.failedAt(pr, err)
		}
		if r.opt.follow != nil {
			next = r.along(pr, next)
		}
		for i := len(next) - 1; i >= 0; i-- {
			next[i].depth = pr.depth + 1
			if r.walked != nil {
				next[i].seq = seqHash(pr.seq, next[i].key)
			}
			if r.trails {
				next[i].trail = &trail{key: next[i].key, up: pr.trail}
			}
			work = append(work, next[i])
		}
	}
	return nil
}

// failedAt passes err on, and when it is a violation (errStop with the
// verdict set) notes the controls that led to pr, where it was found.
func (r *run) failedAt(pr pair, err error) error {
	if r.trails && errors.Is(err, errStop) && r.rep.Verdict.Status == Violated {
		r.rep.trail = pr.trail.keys()
		if r.rep.trail == nil {
			r.rep.trail = []string{}
		}
	}
	return err
}

// along keeps the successors of pr on Options.follow: those with the
// control of the next step of the flow, none beyond its last pair.
func (r *run) along(pr pair, next []pair) []pair {
	if pr.depth >= len(r.opt.follow) {
		return nil
	}
	want := r.opt.follow[pr.depth]
	return slices.DeleteFunc(next, func(n pair) bool { return n.key != want })
}

// group is the GSE successors at one control, and the rule that made the
// first of them.
type group struct {
	states []*machine.State
	ids    []uint64 // the GSE path of each state (pair.ids)
	rule   string
	// from is, per state, the index of its predecessor in the stepped
	// pair's P (for what the pair knew of it: pair.heaps).
	from []int32
}

// step advances one pair by one step on both sides and matches the
// successors by control (RULES.md §7, Bisimulation; for a Partition engine
// ENGINES.md §8.2).
func (r *run) step(pr pair) ([]pair, error) {
	// The heaps of this step's GSE states, each built once for the
	// questions about it (relation.Budget.Heaps); the states of the next
	// step are new ones.
	if r.heaps == nil {
		r.heaps = relation.NewHeapCache()
	} else {
		r.heaps.Reset() // nothing holds the last step's cache past it
	}
	// What a successor's exactness may be derived from (derive.go), taken
	// before the members are stepped in place.
	snap := r.snapRoots(pr)
	init := r.initHeld
	r.initHeld = nil
	groups := map[string]*group{}
	var order []string
	for pi, p := range pr.P {
		// A GSE state belongs to the one pair that holds it, except under
		// a Partition engine, whose siblings share their group's states
		// (partitionAt): there it is stepped as a copy. Elsewhere nothing
		// reads p after this step, so it is stepped in place, as GSE's own
		// explorer does; copying every GSE state of every group at every
		// step was a tenth of a check. A step that fails is reported on
		// the state as it was (before: the rules that fail do so before
		// they change the heap, and the control and step count are in the
		// struct copied here, on the stack).
		saved := *p
		if r.partition {
			p = p.Clone()
		}
		succ, err := machine.Step(p, r.gse, r.mopt)
		if err != nil {
			before := saved
			return nil, r.gseFailed(&before, err) // oracle.go
		}
		if len(succ) == 0 {
			r.walked.noSuccessor(pr, p.Pruned()) // sequences.go
		}
		for si, s := range succ {
			// The key's bytes on the stack; a string is made only for a
			// new group (a lookup by string(kb) makes none).
			var buf [256]byte
			kb := s.S.AppendControlKey(buf[:0])
			g := groups[string(kb)]
			if g == nil {
				key := string(kb)
				g = &group{rule: s.Rule}
				if len(order) == 0 {
					// The first group is sized for every member: most
					// steps make one group of them all, which grew by
					// doubling (three slices a pair).
					n := len(pr.P) - pi
					g.states, g.ids, g.from = make([]*machine.State, 0, n), make([]uint64, 0, n), make([]int32, 0, n)
				}
				groups[key] = g
				order = append(order, key)
			}
			g.states = append(g.states, s.S)
			g.ids = append(g.ids, pathID(pr.ids[pi], si))
			g.from = append(g.from, int32(pi))
		}
	}
	qc := pr.q.Clone()
	qsucc, err := machine.Step(qc, r.eut, r.mopt)
	if err != nil {
		return nil, r.engineFailed(representationLemmaOfRedex(pr.q), pr.q, err)
	}
	if len(qsucc) == 0 && qc.Pruned() {
		// Rule: Assume pruned the engine's state: every GSE state it
		// represents must be pruned too (L12), and the pair ends without
		// a path on either side.
		if err := r.forward(pr, groups, order, func(string) bool { return false }); err != nil {
			return nil, err
		}
		if r.walked != nil {
			r.walked.pruned++
		}
		return nil, nil
	}
	if len(qsucc) == 0 {
		// The engine is stuck (summary variant V3): whatever GSE does here
		// has no counterpart.
		rule := machine.RuleStuckNullDR
		var gs []*machine.State
		if len(order) > 0 {
			rule = groups[order[0]].rule
			gs = groups[order[0]].states
		}
		return nil, r.fail(Verdict{
			Lemma: representationLemma(rule), Rule: rule, Step: pr.q.Steps + 1,
			Control: pr.q.ControlString(), GSE: gs, Before: pr.q,
			Reason: "the " + r.eut.Name() + " engine has no rule for this state (stuck) while GSE steps by " + rule,
		})
	}
	if r.partition {
		return r.stepPartition(pr, groups, order, qsucc)
	}
	byKey := map[string]machine.Succ{}
	keys := make([]string, len(qsucc))
	for i, s := range qsucc {
		key := s.S.ControlKey()
		keys[i] = key
		if _, dup := byKey[key]; dup {
			return nil, r.fail(Verdict{
				Lemma: C13, Rule: s.Rule, Step: s.S.Steps, Control: s.S.ControlString(),
				Summary: s.S, Before: pr.q,
				Reason: fmt.Sprintf("two %[1]s successors have the same control, so one control-flow sequence has two %[1]s paths", r.eut.Name()),
			})
		}
		byKey[key] = s
	}
	if err := r.forward(pr, groups, order, func(key string) bool { _, ok := byKey[key]; return ok }); err != nil {
		return nil, err
	}
	var out []pair
	for i, s := range qsucc {
		g, err := r.backward(pr, groups, s, keys[i])
		if err != nil {
			return nil, err
		}
		r.sameControl = keys[i] // every member of g has it: grouped by it above
		if pr.gpc != nil && pr.heaps != nil {
			r.gpcFrom = &gpcCarry{held: pr.gpc, recs: pr.heaps, from: g.from}
		}
		// Each state's record is its predecessor's (heapRec).
		r.keyHash.prev, r.keyHash.from = pr.heaps, g.from
		if snap != nil || init != nil {
			r.derive = deriveFrom{pr: pr, snap: snap, g: g, init: init}
			r.deriveFrom = &r.derive
		}
		err = r.checkPair(g.states, s.S, pr.q, s.Rule)
		r.sameControl, r.gpcFrom, r.keyHash.prev, r.keyHash.from, r.deriveFrom = "", nil, nil, nil, nil
		r.derive = deriveFrom{} // holds nothing of this step past it
		if err != nil {
			return nil, err
		}
		out = append(out, pair{P: g.states, q: s.S, ids: g.ids, key: keys[i], gpc: r.gpcLast, heaps: r.keyHash.recsFor(g.states), held: r.exactHeldLast, checked: r.checkedLast})
	}
	r.rep.Checked[T11]++
	return out, nil
}

// forward is the forward half of matching by control (RULES.md §7,
// Bisimulation): every GSE group, in order, has an engine successor with
// its control (has(key)); the first that has none breaks its rule's lemma.
func (r *run) forward(pr pair, groups map[string]*group, order []string, has func(key string) bool) error {
	for _, key := range order {
		if has(key) {
			continue
		}
		g := groups[key]
		return r.fail(Verdict{
			Lemma: representationLemma(g.rule), Rule: g.rule, Step: g.states[0].Steps,
			Control: g.states[0].ControlString(), GSE: g.states, Before: pr.q,
			Reason: fmt.Sprintf("forward: %d GSE state(s) reach this control by %s; no %s successor does", len(g.states), g.rule, r.eut.Name()),
		})
	}
	return nil
}

// backward is the backward half: the engine successor s, whose control is
// key, has a GSE group with its control, which is returned; a group larger
// than MaxGroup is inconclusive.
func (r *run) backward(pr pair, groups map[string]*group, s machine.Succ, key string) (*group, error) {
	g, ok := groups[key]
	if !ok {
		return nil, r.fail(Verdict{
			Lemma: representationLemma(s.Rule), Rule: s.Rule, Step: s.S.Steps,
			Control: s.S.ControlString(), Summary: s.S, Before: pr.q,
			Reason: fmt.Sprintf("backward: the %s engine reaches this control by %s; no GSE state does", r.eut.Name(), s.Rule),
		})
	}
	if r.opt.MaxGroup > 0 && len(g.states) > r.opt.MaxGroup {
		return nil, &inconclusive{lemma: T11, reason: fmt.Sprintf("a group of %d GSE states exceeds the bound %d", len(g.states), r.opt.MaxGroup)}
	}
	return g, nil
}

// engineFailed turns an error of the summary engine into a verdict. An
// undecided solver answer is inconclusive; any other failure (a rule that
// cannot be applied to a state of a well-typed program, such as →S* that
// reaches no fixpoint under a broken variant) means the rules as configured
// have no successor for a state they produced, which breaks the lemma of
// the rule: a violation, so that it shrinks like any other.
func (r *run) engineFailed(l Lemma, q *machine.State, err error) error {
	if u := undecided(l, err); u != err {
		return u
	}
	return r.fail(Verdict{Lemma: l, Step: q.Steps + 1, Control: q.ControlString(), Before: q,
		Reason: "the " + r.eut.Name() + " engine cannot apply its rule here: " + err.Error()})
}

// representationLemmaOfRedex names the lemma of the heap rule a state is
// about to apply, for attributing solver failures.
func representationLemmaOfRedex(s *machine.State) Lemma {
	if s.Mode != machine.ModeValue || s.K == nil {
		return T11
	}
	switch s.K.Kind {
	case machine.KField:
		return L2
	case machine.KWrite:
		return L3
	case machine.KEqR:
		return L9
	case machine.KCallArg, machine.KCallRecv:
		return L11
	case machine.KIf, machine.KAssume:
		return L12
	}
	return T11
}

// checkPair checks a matched pair after a step by rule: well-formedness
// (determinism charged to the rule's lemma) of the View of q, and
// exactness of (P, View(q)).
func (r *run) checkPair(P []*machine.State, eq, before *machine.State, rule string) error {
	r.gpcLast, r.keyHash.lastQ, r.exactHeldLast, r.checkedLast = nil, nil, false, nil
	step := eq.Steps
	if err := r.checkInvariant(Verdict{Rule: rule, Step: step, controlOf: eq, GSE: P, Before: before}, eq); err != nil {
		return err // INV-P, invariant.go
	}
	q, err := r.view(P, eq, before, rule)
	if err != nil {
		return err
	}
	// Whether the pair's exactness, and then its well-formedness, are
	// derived (derive.go): both read q only.
	if d := r.deriveFrom; d != nil {
		r.derivable = r.derivesExact(d, q)
	}
	if r.derivable && r.wellFormedDerived(q) {
		r.countWellFormed(determinismLemma(rule))
	} else if err := r.wellFormed(Verdict{Rule: rule, Step: step, controlOf: q, GSE: P, Summary: q, Before: before}, q, determinismLemma(rule)); err != nil {
		r.derivable, r.derivableEq, r.derivableInit, r.wfFrom, r.wfPruned = false, false, false, nil, pruned{}
		return err
	}
	lemma := representationLemma(rule)
	res := r.exact(P, q)
	r.derivable, r.derivableEq, r.derivableInit, r.wfFrom, r.wfPruned = false, false, false, nil, pruned{}
	r.exactHeldLast, r.checkedLast = res.Outcome == relation.Holds && !r.opt.NoExactness, q
	if res.Outcome == relation.Holds && r.data {
		// The data half (PRIMITIVES.md §5): same heap shapes, now the
		// same slot values input by input.
		if v := relation.SortConsistent(q); v != nil {
			return r.fail(Verdict{Lemma: WF, Rule: rule, Step: step, Control: q.ControlString(),
				GSE: P, Summary: q, Before: before, Reason: "sort consistency: " + v.Error()})
		}
		res = r.exactDataMemoized(P, q, res.Leaves)
		if dataPairHook != nil {
			dataPairHook(P, q, res)
		}
	}
	switch res.Outcome {
	case relation.Holds:
		r.rep.Checked[lemma]++
		return r.checkGPC(P, q, before, rule) // lemma GPC, gsepc.go
	case relation.Inconclusive:
		return r.undecidedExact(lemma, res)
	}
	return r.fail(Verdict{
		Lemma: lemma, Rule: rule, Step: step, Control: q.ControlString(),
		GSE: P, Summary: q, Before: before, Reason: res.Reason, Witness: r.witness(res),
	})
}

// exact checks P ⊏ q: both directions of RULES.md §7, or only (a) with
// NoExactness. q's well-formedness has been checked by then (checkPair,
// checkInit), so it is not checked again.
//
// A pair that held before with the same heaps is not checked again
// (memo.go).
func (r *run) exact(P []*machine.State, q *machine.State) relation.ExactResult {
	return r.exactMemoized(P, q) // memo.go
}

// undecidedExact is the inconclusive verdict of an exactness check that
// could not decide: the time limit's (T11, as lockstep reports it between
// pairs) when the check was stopped by it, else lemma l's.
func (r *run) undecidedExact(l Lemma, res relation.ExactResult) error {
	if err := r.timedOut(); err != nil {
		return err
	}
	return &inconclusive{lemma: l, reason: res.Reason}
}

// timedOut is the inconclusive T11 verdict when the run's time limit has
// passed (between pairs, or inside a check it stopped), else nil.
func (r *run) timedOut() error {
	if err := r.ctx.Err(); err != nil {
		return &inconclusive{lemma: T11, reason: "timeout: " + err.Error()}
	}
	return nil
}

// view is the engine's View of its state q (the identity for the summary
// engine). A View that fails on a state the engine made is a View bug:
// lemma VIEW.
func (r *run) view(P []*machine.State, q, before *machine.State, rule string) (*machine.State, error) {
	v, err := r.eut.View(q)
	if err != nil {
		if u := undecided(VIEW, err); u != err {
			return nil, u
		}
		return nil, r.fail(Verdict{Lemma: VIEW, Rule: rule, Step: q.Steps, Control: q.ControlString(), GSE: P, Summary: q, Before: before,
			Reason: "the View of the " + r.eut.Name() + " state fails: " + err.Error()})
	}
	return v, nil
}

// side names the engine state whose concretizations are checked: "the
// summary state", "the View of the pose state".
func (r *run) side() string {
	name, _ := engine.Split(r.rep.Engine)
	if r.identity {
		return "the " + name + " state"
	}
	return "the View of the " + name + " state"
}

// witness describes the evidence of a failed exactness check, naming the
// engine whose state (its View) was concretized.
func (r *run) witness(res relation.ExactResult) string {
	switch {
	case res.Heap != nil:
		return "concretization of " + r.side() + " matching no GSE state: " + res.Heap.String()
	case res.PIndex >= 0:
		return fmt.Sprintf("GSE state %d of the group is not represented", res.PIndex+1)
	}
	return ""
}

// checkInit compares the initialization machines on their own when the pair
// is at a field access: →I* on every GSE state whose receiver is not null
// against →S* on the summary state (L1), and →S* for determinism (L4).
func (r *run) checkInit(pr pair) error {
	q := pr.q
	r.initHeld = nil
	if r.init == nil {
		return nil
	}
	if q.Mode != machine.ModeValue || q.K == nil || q.K.Kind != machine.KField {
		return nil
	}
	fa := q.K.Expr.(*javalite.FieldAccess)
	if fa.Field.IsPrim() {
		return nil // a primitive field is never initialized (PRIMITIVES.md §2)
	}
	rv := q.Val.Ref()
	var P []*machine.State
	// from is, per member of P, the index in pr.P of the member it is, or
	// was initialized from (its record is that one's, heapRec: the member
	// is read as it is, an initialization is made from a clone of it).
	var from []int32
	var own []bool
	for j, p := range pr.P {
		l := p.Get(rv)[0].Loc
		if l == machine.LNull {
			continue
		}
		n := len(P)
		if !gse.Uninitialized(p, l, fa.Field) {
			// →I* leaves an initialized field as it is (gse.Initialize
			// returns the state itself), and nothing here changes a GSE
			// state: p is its own initialization, read as it is. Cloning
			// every member for that was a twentieth of a check.
			P = append(P, p)
		} else {
			P = append(P, r.gse.Initialize(p.Clone(), l, fa.Field)...)
		}
		for _, pi := range P[n:] {
			from = append(from, int32(j))
			own = append(own, pi == p)
		}
	}
	eqs, ok, err := r.init.SummarizeStar(q.Clone(), rv, fa.Field)
	if err != nil {
		return r.engineFailed(L1, q, err)
	}
	if !ok || len(P) == 0 {
		// Only null is possible here (A′ alone): nothing is initialized.
		return nil
	}
	// The group bound holds here as at every step: the GSE states of the
	// step that follows are these initializations, so a group over the
	// bound here is one there too, and exactness on it would only be
	// computed before the same inconclusive verdict.
	if r.opt.MaxGroup > 0 && len(P) > r.opt.MaxGroup {
		return &inconclusive{lemma: T11, reason: fmt.Sprintf("a group of %d initialized GSE states exceeds the bound %d", len(P), r.opt.MaxGroup)}
	}
	rule := machine.RuleSummarize
	r.keyHash.lastQ = nil
	qs, err := r.view(P, eqs, q, rule)
	if err != nil {
		return err
	}
	// The one well-formedness pipeline, with determinism charged to L4.
	if err := r.wellFormed(Verdict{Rule: rule, Step: q.Steps, controlOf: q, GSE: P, Summary: qs, Before: q}, qs, L4); err != nil {
		return err
	}
	// Every member of P has the control of pr's group (→I* changes only
	// the heap): the memo key compares only qs's with it (exactKey).
	r.sameControl = pr.key
	r.keyHash.prev, r.keyHash.from = pr.heaps, from
	res := r.exact(P, qs)
	r.sameControl, r.keyHash.prev, r.keyHash.from = "", nil, nil
	switch res.Outcome {
	case relation.Holds:
		r.rep.Checked[L1]++
		r.initHeld = r.snapInit(P, qs, from, own)
		return nil
	case relation.Inconclusive:
		return r.undecidedExact(L1, res)
	}
	return r.fail(Verdict{
		Lemma: L1, Rule: rule, Step: q.Steps, Control: q.ControlString(),
		GSE: P, Summary: qs, Before: q, Reason: res.Reason, Witness: r.witness(res),
	})
}
