// Package engine is the interface between the checker and an engine under
// test: any symbolic-execution algorithm for Javalite that runs on the
// shared machine (package machine) and can say which GSE states each of its
// states stands for.
//
// An engine implements the heap rules of its algorithm (machine.HeapRules)
// and a View: a pure function from one of its states to a guarded state of
// the shape RULES.md §2 describes (deterministic, total, canonical
// locations), which the relations of package relation already understand.
// For the heap-summary engine the View is the identity; engines with their
// own state extensions (Kiasan's unresolved locations, POSE's symbolic
// locations) map them away in the View, so the checker never reads an
// extension.
//
// The Shape says which relation the checker verifies between an engine's
// states and GSE's:
//
//   - OnePerControl: one engine state per control; the GSE states of a
//     control are exactly the concretizations of its View (exactness,
//     RULES.md §7). Heap summaries, POSE-J.
//   - Partition: several engine states per control; the GSE states of a
//     control are partitioned among them, each GSE state represented by
//     exactly one (partition exactness, ENGINES.md §8.2). lazier, lazier#.
//
// Engines register themselves by name (Register, usually from an init
// function), and are looked up by "NAME" or "NAME:VARIANT" (Lookup, New).
package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Shape is the relation the checker verifies for an engine (see the package
// documentation).
type Shape uint8

const (
	OnePerControl Shape = iota
	Partition
)

func (s Shape) String() string {
	switch s {
	case OnePerControl:
		return "one-per-control"
	case Partition:
		return "partition"
	}
	return fmt.Sprintf("Shape(%d)", uint8(s))
}

// UnderTest is an engine the checker can run in lockstep with GSE.
type UnderTest interface {
	machine.Engine
	// View maps a state of the engine to a guarded state over canonical
	// locations (RULES.md §2 shape). It must not modify s.
	View(s *machine.State) (*machine.State, error)
	// Shape is the relation checked against GSE.
	Shape() Shape
}

// Initializer is implemented by engines with a separate initialization
// machine that can be compared with GSE's →I* on its own (the summary
// engine's →S*: lemmas L1 and L4). ok is false when only null is possible.
type Initializer interface {
	SummarizeStar(s *machine.State, r machine.Ref, f *javalite.Field) (out *machine.State, ok bool, err error)
}

// Config is what every engine is built from.
type Config struct {
	// K is the k-bound (RULES.md §4); K < 0 means unbounded.
	K int
	// Solver is the worker's solver; engines that never ask (GSE) ignore it.
	Solver *smt.Solver
	// Machine are the common-rule choices (RULES.md §3, §9), the same for
	// the reference and the engine under test.
	Machine machine.Options
	// Context, if not nil, is the run's: an engine that waits on something
	// outside lockstep (a process, exec:) stops waiting when it ends, so
	// that -timeout and a signal end the run at once. Engines that never
	// wait ignore it.
	Context context.Context
}

// Variant describes one named variant of an engine.
type Variant struct {
	Name, Doc string
}

// Info describes a registered engine.
type Info struct {
	// Name is how the engine is selected: "summary", "lazier", "pose".
	Name string
	// Doc is one line for `lockstep engines`.
	Doc string
	// Default is the variant used when none is named ("" if the engine has
	// no variants).
	Default string
	// Variants lists the selectable variants (nil if none).
	Variants func() []Variant
	// New builds the engine for a variant ("" = Default). Variants may
	// compose with "+" where the engine supports it.
	New func(variant string, cfg Config) (UnderTest, error)
	// Mutants is the engine's mutation catalog (internal/mutation), nil if
	// it has none.
	Mutants *Mutants
	// Data says the engine implements the rules on primitive data
	// (PRIMITIVES.md §3–§4: machine.PathCond, primitive fields). The
	// checker and the CLI refuse a program with data for an engine without
	// them, instead of reporting a verdict about rules it does not have.
	Data bool
	// NoData, for an engine without the data rules, says why in one line
	// (an engine process that speaks protocol version 1, which carries no
	// data); the refusal of a program with data prints it (ErrNoData).
	NoData string
	// Bound says which k-bound a variant of the engine implements (nil:
	// GSE's, for every variant). The checker compares an engine with GSE
	// at a finite k only under GSE's bound or one of the engine's own
	// (AtK).
	Bound func(variant string) Bound
	// KBound, if not empty, is the variant part that gives a variant
	// without GSE's bound GSE's bound ("kbound": "pose:world-exact+kbound"),
	// with which AtK serves a finite k.
	KBound string
}

// ErrNoData is the refusal of a program with data for an engine without
// the data rules.
type ErrNoData struct {
	Engine string
	// Why is the engine's own reason (Info.NoData), if it has one.
	Why string
}

func (e ErrNoData) Error() string {
	if e.Why != "" {
		return fmt.Sprintf("engine %s has no rules for int and bool data: %s", e.Engine, e.Why)
	}
	return fmt.Sprintf("engine %s has no rules for int and bool data (PRIMITIVES.md §4; engine.Info.Data): check a program with data with an engine that has them (every built-in engine does: lockstep engines)", e.Engine)
}

// SupportsData reports whether the engine named spec ("NAME[:VARIANT]")
// implements the data rules; an unknown name reports false.
func SupportsData(spec string) bool {
	return RefuseData(spec) == nil
}

// RefuseData is nil when the engine named spec implements the data rules,
// and otherwise the refusal of a program with data for it: an ErrNoData
// with the engine's reason. An engine named by a prefix ("exec:…") is
// resolved (an external process makes its handshake); an unknown name is
// refused.
func RefuseData(spec string) error {
	name, rest, _ := strings.Cut(spec, ":")
	mu.RLock()
	info, ok := registry[name]
	pre, isPrefix := prefixes[name]
	mu.RUnlock()
	if isPrefix {
		i, _, err := pre.Resolve(rest)
		if err != nil {
			return ErrNoData{Engine: spec, Why: err.Error()}
		}
		info, ok = i, true
		name, _ = Split(spec)
	}
	if ok && info.Data {
		return nil
	}
	return ErrNoData{Engine: name, Why: info.NoData}
}

// Bound is the k-bound an engine implements, relative to GSE's (RULES.md
// §4: a field read at depth d initializes a fresh object only if d+1 ≤ k,
// and otherwise only null or an alias of an input object existing at the
// read).
type Bound uint8

const (
	// BoundGSE is GSE's k-bound: the engine is exact with GSE at every k
	// (the summary engine; the kbound variants of POSE-J and uber).
	BoundGSE Bound = iota
	// BoundOwn is a k-bound of the engine's own, which diverges from GSE's
	// at a finite k by design (Kiasan resolves against the objects existing
	// at resolution time, GSE at read time: ENGINES.md §3.2; uber's U-DEFER
	// likewise, §6.2). Exactness is a k = −1 claim; a divergence at a
	// finite k is the checker's lemma KB, reported apart from unsoundness.
	BoundOwn
	// BoundNone is no k-bound at all: Config.K is ignored (POSE-J,
	// ENGINES.md §8.4), so the engine is comparable with GSE at k = −1 only.
	BoundNone
)

func (b Bound) String() string {
	switch b {
	case BoundGSE:
		return "gse"
	case BoundOwn:
		return "own"
	case BoundNone:
		return "none"
	}
	return fmt.Sprintf("Bound(%d)", uint8(b))
}

// PapersK is the k-bound of the papers' examples (seed 000), the default k
// of an engine with GSE's bound.
const PapersK = 2

// BoundOf is the k-bound variant implements ("" = Default).
func (i Info) BoundOf(variant string) Bound {
	if variant == "" {
		variant = i.Default
	}
	if i.Bound == nil {
		return BoundGSE
	}
	return i.Bound(variant)
}

// DefaultK is the k-bound a check of variant uses when none is given: the
// papers' k under GSE's bound, and otherwise −1 (no bound but the step
// bound), the only k at which the engine is claimed exact.
func (i Info) DefaultK(variant string) int {
	if i.BoundOf(variant) == BoundGSE {
		return PapersK
	}
	return -1
}

// AtK is the engine a comparison with GSE at k-bound k runs for spec,
// canonical. At k < 0, and for a variant with GSE's bound, it is spec
// itself. At a finite k an engine named without a variant whose default
// variant lacks GSE's bound is served by the variant with it (Info.KBound:
// "pose" at k = 2 is "pose:world-exact+kbound"), so a check at the papers'
// k compares like with like. A variant named explicitly is kept: one with
// a bound of its own is compared as it is (a divergence is KB), one with
// no bound is refused, with an error that says what to use instead.
func AtK(spec string, k int) (string, error) {
	c, err := Canonical(spec)
	if err != nil || k < 0 {
		return c, err
	}
	info, variant, _ := Lookup(spec)
	b := info.BoundOf(variant)
	if b == BoundGSE {
		return c, nil
	}
	_, named := Split(spec)
	if named == "" && info.KBound != "" {
		return Canonical(info.Name + ":" + variant + "+" + info.KBound)
	}
	if b == BoundOwn {
		return c, nil
	}
	use := "-k -1"
	if info.KBound != "" {
		use += fmt.Sprintf(", or -engine '%s+%s' for GSE's bound at k = %d", c, info.KBound, k)
	}
	return "", fmt.Errorf("%s has no k-bound (it is exact at k = −1 only): use %s", c, use)
}

// Mutants is an engine's mutation catalog: single-point errors in its
// rules, each added to one base variant, that the checker must find
// (`lockstep mutants`). Each engine fills it from its own table of
// mutations, so the registry is the one list of every engine's mutants.
type Mutants struct {
	// Base is the variant every mutant is built on: a variant that holds
	// on generated programs at K, so that a counterexample is evidence
	// about the mutation. "NAME:Base+MUTANT" must build through New.
	Base string
	// K is the k-bound of a hunt unless the caller names one: the k at
	// which Base holds (−1 where a finite k makes the engine diverge from
	// GSE by design: Kiasan's KB, ENGINES.md §8.4).
	K int
	// Steps is the step bound of a hunt unless the caller names one (0:
	// the caller's default).
	Steps int
	// List returns the mutants in catalog order.
	List func() []Mutant
}

// Mutant is one entry of a mutation catalog.
type Mutant struct {
	// Name is the mutation as a variant part: the mutant is the engine
	// "NAME:"+Base+"+"+Name.
	Name string
	// Doc says what is wrong, in the terms of the engine's rules.
	Doc string
	// Equivalent, if not empty, argues why no program can tell the mutant
	// from the base under the relations the checker verifies (at the K
	// the mutant is hunted at). Such a mutant is run all the same.
	Equivalent string
	// K, if not nil, is the k-bound this mutant is hunted at instead of
	// the catalog's K (a mutation of the k-bound itself is invisible
	// without one).
	K *int
	// Data marks a mutation of a data rule (PRIMITIVES.md: If (sym),
	// Assume, the primitive reads and writes, the initial-value symbols,
	// the data half of a relation): only programs with data reach it, and
	// kill rates are reported for data and reference mutants apart.
	Data bool
}

// Spec is the engine spec of mutant m of the engine named name:
// "lazier:default+resolve-no-alias".
func (c *Mutants) Spec(name string, m Mutant) string {
	return Join(name, c.Base+"+"+m.Name)
}

var (
	mu       sync.RWMutex
	registry = map[string]Info{}
	prefixes = map[string]Prefix{}
)

// ErrFailure marks an error of an engine's machinery rather than of its
// rules: an engine process that crashed, timed out, or answered something
// that is not an answer (package engine/extern). The checker reports it as
// inconclusive, never as a verdict about the algorithm.
var ErrFailure = errors.New("engine failure")

// Prefix resolves the engines that are not known until a spec names them:
// every spec "PREFIX:REST" (an external process, "exec:COMMAND#VARIANT":
// package engine/extern). Such an engine's name is "PREFIX:" followed by
// the part of REST that names it, and it is not listed by Engines.
type Prefix struct {
	Name string
	// Split splits REST into what names the engine and the variant
	// ("" if none is named), without starting anything.
	Split func(rest string) (name, variant string)
	// Join is Split's inverse: REST for a name part and a variant.
	Join func(name, variant string) string
	// Resolve describes the engine REST names (its Info, named
	// "PREFIX:"+name) and returns its variant (the default if none).
	Resolve func(rest string) (Info, string, error)
}

// RegisterPrefix adds a prefix of engine specs. It panics on a clash, as
// Register does.
func RegisterPrefix(p Prefix) {
	mu.Lock()
	defer mu.Unlock()
	if p.Name == "" || strings.ContainsAny(p.Name, ": ") || p.Split == nil || p.Join == nil || p.Resolve == nil {
		panic(fmt.Sprintf("engine: bad prefix registration %q", p.Name))
	}
	if _, dup := prefixes[p.Name]; dup {
		panic(fmt.Sprintf("engine: prefix %q registered twice", p.Name))
	}
	if _, dup := registry[p.Name]; dup {
		panic(fmt.Sprintf("engine: prefix %q is an engine's name", p.Name))
	}
	prefixes[p.Name] = p
}

func prefixOf(name string) (Prefix, bool) {
	mu.RLock()
	defer mu.RUnlock()
	p, ok := prefixes[name]
	return p, ok
}

// Outside reports whether spec names its engine by a registered prefix
// ("exec:COMMAND"): an engine that runs as a process of its own, whose
// resolution alone starts that process. It starts nothing.
func Outside(spec string) bool {
	pre, _, ok := strings.Cut(spec, ":")
	if !ok {
		return false
	}
	_, is := prefixOf(pre)
	return is
}

// Join makes the spec of an engine name and a variant: "NAME:VARIANT"
// ("NAME" without a variant), or the prefix's own syntax for an engine
// named by a prefix ("exec:COMMAND#VARIANT").
func Join(name, variant string) string {
	pre, rest, _ := strings.Cut(name, ":")
	if p, ok := prefixOf(pre); ok {
		return pre + ":" + p.Join(rest, variant)
	}
	if variant == "" {
		return name
	}
	return name + ":" + variant
}

// Register adds an engine. It panics on a duplicate or empty name: it is
// called from init functions, where a clash is a programming error.
func Register(info Info) {
	mu.Lock()
	defer mu.Unlock()
	if info.Name == "" || strings.ContainsAny(info.Name, ": ") || info.New == nil {
		panic(fmt.Sprintf("engine: bad registration %q", info.Name))
	}
	if _, dup := registry[info.Name]; dup {
		panic(fmt.Sprintf("engine: %q registered twice", info.Name))
	}
	if _, dup := prefixes[info.Name]; dup {
		panic(fmt.Sprintf("engine: %q is a prefix", info.Name))
	}
	registry[info.Name] = info
}

// Engines lists the registered engines by name.
func Engines() []Info {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]Info, 0, len(registry))
	for _, i := range registry {
		out = append(out, i)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// Lookup splits "NAME[:VARIANT]" and finds the engine. The variant returned
// is the one named, or the engine's default.
func Lookup(spec string) (Info, string, error) {
	name, variant, _ := strings.Cut(spec, ":")
	mu.RLock()
	info, ok := registry[name]
	pre, isPrefix := prefixes[name]
	mu.RUnlock()
	if isPrefix {
		return pre.Resolve(variant)
	}
	if !ok {
		var names []string
		for _, i := range Engines() {
			names = append(names, i.Name)
		}
		return Info{}, "", fmt.Errorf("unknown engine %q (engines: %s)", name, strings.Join(names, ", "))
	}
	if variant == "" {
		variant = info.Default
	}
	return info, variant, nil
}

// New builds the engine named by spec ("NAME[:VARIANT]").
func New(spec string, cfg Config) (UnderTest, error) {
	info, variant, err := Lookup(spec)
	if err != nil {
		return nil, err
	}
	return info.New(variant, cfg)
}

// Split splits "NAME[:VARIANT]" without looking anything up (an engine
// named by a prefix splits by the prefix's syntax: "exec:COMMAND#VARIANT"
// is "exec:COMMAND" and VARIANT).
func Split(spec string) (name, variant string) {
	name, variant, _ = strings.Cut(spec, ":")
	if p, ok := prefixOf(name); ok {
		n, v := p.Split(variant)
		return name + ":" + n, v
	}
	return name, variant
}

// Canonical returns spec with the engine's default variant filled in
// ("summary" → "summary:published"; an engine without variants is its
// name alone), so two spellings of one engine compare equal.
func Canonical(spec string) (string, error) {
	info, variant, err := Lookup(spec)
	if err != nil {
		return "", err
	}
	return Join(info.Name, variant), nil
}

// IdentityView is implemented by engines whose View returns its argument
// (the summary engine): the checker then has no View of its own to check
// (lemma VIEW), and a failure of determinism or totality is the engine's.
type IdentityView interface {
	IdentityView()
}

// Invariant is implemented by engines that state an invariant of their own
// states, beyond what the relations read through the View (POSE-J's INV-P,
// ENGINES.md §4.3: aliased symbols agree on every field initialized in
// both). The checker checks it on every engine state a step makes (the
// state itself, not its View) and reports a failure as the lemma of the
// catalog the invariant names. An engine states at most one invariant;
// several claims of one engine belong in one check under one name.
type Invariant interface {
	// InvariantName is the invariant's lemma in the checker's catalog
	// ("INV-P"); a name outside the catalog is refused when the engine is
	// built for a check.
	InvariantName() string
	// CheckInvariant checks the invariant on s, a state the engine made.
	// It returns "" when the invariant holds, else why it fails. An
	// undecided solver answer is an error (smt.Undecided), never a
	// failure; s must not be modified.
	CheckInvariant(s *machine.State) (failure string, err error)
}
