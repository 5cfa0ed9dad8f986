// Package gen generates small, well-typed Javalite programs that stress
// aliasing and data, for property tests of the engines (and of the front
// end).
//
// # Design
//
// Generation is type-directed: every expression is drawn for a wanted type
// (bool, int or a class) in a scope of typed variables, and only alternatives that
// can produce that type are offered, so every generated program passes
// javalite.Check by construction (tests assert it over many programs).
// Receivers of field accesses and calls must have a class type, never the
// type of the literal null, so they are drawn in a "strict" mode that leaves
// null out.
//
// The program shape follows where symbolic input comes from (RULES.md §2):
// only the fields of the entry receiver `this` are input, so the entry class
// always has fields and reads start from `this` by preference. Field types
// are drawn among the program's classes with the entry class A first, which
// makes self-reference (A.f : A) the common case and back references
// (B.g : A) likely: the heap shapes on which lazy initialization branches on
// aliasing. The weights favour what the engines treat differently: reads
// through chains ((this $ f) $ g), writes through variables bound to such
// chains, reference comparisons (often with null), and (new C) objects
// written into input fields.
//
// Data (PRIMITIVES.md §6, Config.Data): by default (the zero Config.Data,
// DataMixed: Program, Source, Default and a Config that says nothing)
// programs mix the reference idioms with int and bool fields, integer
// literals, arithmetic and comparisons, the BST idiom (if ((x $ key) < k) … else …), a bool
// field tested by if, counter updates (x $ n := ((x $ n) + c)), several
// parameters, and (assume e) at the entry. Every data alternative is drawn
// after the reference alternatives and has weight 0 without data, so
// DataNone makes exactly the draws of the generator before data: the same
// program for the same seed (pinned by testdata/nodata_seed1.golden).
//
// Termination: Javalite has no loops, so recursion needs a guard. Calls go
// only to methods later in a global order (a DAG), except a method may call
// itself inside the then-branch of a guard on its first parameter x: on a
// bool x, (if x … else …) with the argument false; on an int x that is a
// counted bound, (if (x < 1) … else …) with the argument (x + 1). A
// counted x is never symbolic: every other call passes a
// literal 0 or 1 and an entry parameter is 0 (at most one round). Parameters are never assigned,
// so every generated program terminates on every path (the engines' step
// bound is a safety net, not the normal way a path ends). Recursion on
// symbolic data (the BST's descent while key < k) is not generated: its
// paths end only at the step bound.
//
// Shrinking: rapid shrinks draws toward zero and deletes groups of draws.
// Every choice is laid out so that zero is the simplest option (a variable,
// null, true; the first class; the shortest chain; one statement), counts
// are drawn from their minimum up, integer literals zigzag from 0 (0, 1,
// -1, 2, …) so they shrink toward 0, data alternatives come after the
// reference ones so that lower draws drop data, and each expression is one
// draw group, so a failing program shrinks to a few printed lines (measured in
// docs/TESTING.md, "gen: shrinking").
package gen

import (
	"fmt"
	"math/bits"
	"strings"

	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/javalite"
)

// Config bounds the shape of generated programs. Values out of range are
// clamped by ProgramWith (Validate reports them); the zero Config is clamped
// to the smallest programs.
type Config struct {
	MinClasses, MaxClasses int // classes per program, 1..MaxClassLimit
	MinEntryFields         int // fields of the entry class at least (input enters only there)
	MaxFields              int // fields per class, 0..MaxFields
	MinMethods, MaxMethods int // methods per class, at least 1
	MaxDepth               int // nesting depth of composite expressions in a body
	MaxBegin               int // expressions in a (begin …), at least 2 when begins are allowed
	MaxPath                int // fields in one read chain ((x $ f) $ g), at least 1
	// Data selects whether programs have primitive data (int and bool
	// fields, arithmetic, comparisons, several parameters, assume). The
	// zero value is DataMixed, the stream with data that `check -gen`
	// draws for an engine with the data rules; DataNone is the
	// reference-only stream of the generator before data existed, draw
	// for draw, which every seed-indexed result recorded before data
	// names (the CLI's -data none).
	Data DataMode
}

// DataMode is the switch between programs with data and the
// reference-only stream (PRIMITIVES.md §6, the CLI's -data flag).
type DataMode int

const (
	// DataMixed mixes int and bool fields, arithmetic, comparisons, the
	// BST idiom, integer-guarded recursion, several parameters and an
	// assume at the entry with the reference idioms. It is the zero
	// value: a Config or a hunt that says nothing draws data.
	DataMixed DataMode = iota
	// DataNone generates exactly the programs of the generator before
	// data: the same draws, hence the same program for the same seed.
	DataNone
)

func (d DataMode) String() string {
	switch d {
	case DataMixed:
		return "mixed"
	case DataNone:
		return "none"
	}
	return fmt.Sprintf("DataMode(%d)", int(d))
}

// ParseDataMode reads the CLI's spelling of a DataMode: "none" or "mixed".
func ParseDataMode(s string) (DataMode, error) {
	switch s {
	case "mixed":
		return DataMixed, nil
	case "none":
		return DataNone, nil
	}
	return 0, fmt.Errorf("unknown -data %q (want none or mixed)", s)
}

// Limits of Config; they keep names short and the search small.
const (
	MaxClassLimit = 3
	MaxFieldLimit = 4
)

// Default yields small programs (typically 5–25 printed lines) with a few
// classes whose fields alias each other, with data (DataMixed, the zero
// Data); NoData is the reference-only stream.
var Default = Config{
	MinClasses:     1,
	MaxClasses:     3,
	MinEntryFields: 1,
	MaxFields:      3,
	MinMethods:     1,
	MaxMethods:     3,
	MaxDepth:       3,
	MaxBegin:       3,
	MaxPath:        2,
}

// NoData is Default without data: the reference-only stream of the
// generator before data existed (seed for seed the programs Default drew
// then), for the engines that do not run data and for results recorded
// before data.
var NoData = Default.WithData(DataNone)

// WithData returns c with its Data switch set to d.
func (c Config) WithData(d DataMode) Config {
	c.Data = d
	return c
}

// Validate reports the first out-of-range value of c.
func (c Config) Validate() error {
	switch {
	case c.MinClasses < 1 || c.MinClasses > MaxClassLimit:
		return fmt.Errorf("gen: MinClasses %d out of range 1..%d", c.MinClasses, MaxClassLimit)
	case c.MaxClasses < c.MinClasses || c.MaxClasses > MaxClassLimit:
		return fmt.Errorf("gen: MaxClasses %d out of range %d..%d", c.MaxClasses, c.MinClasses, MaxClassLimit)
	case c.MaxFields < 0 || c.MaxFields > MaxFieldLimit:
		return fmt.Errorf("gen: MaxFields %d out of range 0..%d", c.MaxFields, MaxFieldLimit)
	case c.MinEntryFields < 0 || c.MinEntryFields > c.MaxFields:
		return fmt.Errorf("gen: MinEntryFields %d out of range 0..%d (MaxFields)", c.MinEntryFields, c.MaxFields)
	case c.MinMethods < 1:
		return fmt.Errorf("gen: MinMethods %d, want at least 1 (the entry method)", c.MinMethods)
	case c.MaxMethods < c.MinMethods:
		return fmt.Errorf("gen: MaxMethods %d below MinMethods %d", c.MaxMethods, c.MinMethods)
	case c.MaxDepth < 0:
		return fmt.Errorf("gen: MaxDepth %d is negative", c.MaxDepth)
	case c.MaxBegin < 0:
		return fmt.Errorf("gen: MaxBegin %d is negative", c.MaxBegin)
	case c.MaxPath < 1:
		return fmt.Errorf("gen: MaxPath %d, want at least 1", c.MaxPath)
	case c.Data != DataMixed && c.Data != DataNone:
		return fmt.Errorf("gen: Data %v, want DataMixed or DataNone", c.Data)
	}
	return nil
}

// clamp returns c with every value moved into its range.
func (c Config) clamp() Config {
	c.MinClasses = clampInt(c.MinClasses, 1, MaxClassLimit)
	c.MaxClasses = clampInt(c.MaxClasses, c.MinClasses, MaxClassLimit)
	c.MaxFields = clampInt(c.MaxFields, 0, MaxFieldLimit)
	c.MinEntryFields = clampInt(c.MinEntryFields, 0, c.MaxFields)
	c.MinMethods = max(c.MinMethods, 1)
	c.MaxMethods = max(c.MaxMethods, c.MinMethods)
	c.MaxDepth = max(c.MaxDepth, 0)
	c.MaxBegin = max(c.MaxBegin, 0)
	c.MaxPath = max(c.MaxPath, 1)
	if c.Data != DataNone {
		c.Data = DataMixed
	}
	return c
}

func clampInt(v, lo, hi int) int { return min(max(v, lo), hi) }

// Program generates checked programs with the Default config: with data,
// as `check -gen` draws them for an engine with the data rules.
func Program() *rapid.Generator[*javalite.Program] { return ProgramWith(Default) }

// ProgramWith generates programs within cfg (clamped). Every program has
// passed javalite.Check, so all fields that Check sets are filled in.
func ProgramWith(cfg Config) *rapid.Generator[*javalite.Program] {
	cfg = cfg.clamp()
	return rapid.Custom(func(t *rapid.T) *javalite.Program {
		b := &builder{t: t, cfg: cfg}
		p := b.program()
		if err := javalite.Check(p); err != nil {
			// A generator bug, not bad input: every alternative is typed.
			panic(fmt.Sprintf("gen: generated program does not check: %v\n%s", err, javalite.Print(p)))
		}
		return p
	})
}

// Source generates the canonical text of programs from Program.
func Source() *rapid.Generator[string] { return SourceWith(Default) }

// SourceWith generates the canonical text of programs from ProgramWith(cfg).
func SourceWith(cfg Config) *rapid.Generator[string] {
	return rapid.Map(ProgramWith(cfg), javalite.Print)
}

// Programs returns n programs drawn from ProgramWith(cfg), deterministically
// from seed (the same seed, n and cfg give the same programs), for use
// outside rapid property tests (the CLI). Program i depends only on seed, i
// and cfg, so a longer batch extends a shorter one.
func Programs(seed int64, n int, cfg Config) []*javalite.Program {
	g := ProgramWith(cfg)
	out := make([]*javalite.Program, 0, max(n, 0))
	for i := range max(n, 0) {
		out = append(out, g.Example(exampleSeed(seed, i)))
	}
	return out
}

// exampleSeed mixes seed and i (splitmix64) so that the batches of
// neighbouring seeds do not share programs, as seed+i would.
func exampleSeed(seed int64, i int) int {
	z := uint64(seed) + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	// rapid takes an int seed; keep it non-negative and full width.
	return int(z >> (65 - bits.UintSize))
}

// Lines is the number of lines of the canonical text of p: the size measure
// for shrinking quality.
func Lines(p *javalite.Program) int { return strings.Count(javalite.Print(p), "\n") }
