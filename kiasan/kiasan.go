// Package kiasan implements Kiasan's lazier and lazier# initialization
// (seed 002: Deng, Robby, Hatcliff, appendix C.2.2–C.2.3) on the shared
// machine, as ENGINES.md §3.2 adapts them to Javalite.
//
// # Design
//
// A Kiasan state is a GSE state (every L(r) a singleton {(true l)}, φ a
// list of facts) with one more kind of location: an *unresolved* location
// l_u (machine.LocInfo.Unresolved), Kiasan's symbolic location δ (lazier,
// known non-null) or symbolic reference δ̂ (lazier#, MayBeNull). It has an
// identity reference r_u = init_r() and a depth, and its fields are never
// read: every dereference or comparison of l_u first RESOLVEs it, inside
// the same step, to null (δ̂ only), to each materialized input location of
// its class, or to a fresh input location (within the k-bound), recording
// the choice as a fact over r_u. Resolution substitutes globally, as
// Kiasan's init-sym-loc / init-sym-ref do: every entry (true l_u) of every
// value set is rewritten. A fresh resolution turns l_u itself into a
// materialized input location (fields r_un); an alias or null resolution
// leaves l_u behind with Exists = false, a location of no world (the View
// maps it to an input location that never exists). Nothing else changes,
// so the View (package engine/view, Unresolved) can say which GSE heaps a
// state stands for from the state alone.
//
// Data (PRIMITIVES.md §4, data.go): primitive fields exist only on
// materialized locations. A primitive field access or write RESOLVEs an
// unresolved receiver like any dereference, then applies GSE's rule; a
// fresh materialization gives the location its initial-value symbols, an
// alias resolution reads the existing object's fields. If (sym) and
// Assume extend the fact list (machine.PathCond), of which only the data
// facts are ever in question.
//
// The engines differ from GSE only in when they branch: lazier at a read
// of an uninitialized field (null vs δ) and at the first dereference or
// comparison of each δ; lazier# only at the first dereference or
// comparison of each δ̂ and at null tests. Several Kiasan states share a
// control, so the checker verifies partition exactness (engine.Partition),
// not one-state-per-control exactness.
//
// # Rule names
//
// Every successor carries "<lockstep rule> / <seed-002 rules>": the
// machine.Rule* name of the lockstep rule the step is (so traces and the
// control-flow comparison with GSE still read "Field access (A)"), then the
// seed-002 rules applied in this step, in order, comma-separated, e.g.
// "Field access (A) / GETFIELD1-B, GETFIELD1-A, GETFIELD2-B". Where the
// seed names no rule (a field write or a call on a symbolic receiver; the
// null test of a δ̂, which appendix C leaves to the general "initialize the
// symbolic operands first" sentence), the auxiliary function is named
// instead: init-sym-ref* (δ̂ to null or δ), init-sym-loc* (δ to an object).
// machine.BaseRule strips the seed part. The code names each rule in a
// "// Rule:" comment at the place it is applied.
package kiasan

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/engine/view"
	"github.com/lockstep-dev/lockstep/machine"
)

// Mode selects the algorithm.
type Mode uint8

const (
	Lazier      Mode = iota // seed 002 §2: null vs δ at read
	LazierSharp             // seed 002 §4: δ̂ at read, null decided at use
)

func (m Mode) String() string {
	if m == LazierSharp {
		return "lazier#"
	}
	return "lazier"
}

// Variants are the selectable readings of ENGINES.md §3.2. The zero value
// is the default engine.
type Variants struct {
	// AcmpNullFull: `x = null` is resolved fully, like IF_ACMPEQ (null,
	// each alias, fresh), instead of Kiasan's IFNULL (null vs non-null
	// only, and nothing at all for a δ).
	AcmpNullFull bool
	// EqNewShortcut: an unresolved operand compared with a (new C) object
	// is unequal without resolving (an input object is never a new one).
	EqNewShortcut bool
	// StampKbound aligns the k-bound with GSE's (predicted finding KB): a δ
	// deeper than k aliases only locations stamped (Identity) older than
	// itself, and a location aliased by an older symbol takes that symbol's
	// stamp and depth.
	StampKbound bool
	// IfnullSyntactic: only a comparison with the literal null is IFNULL
	// (javac compiles x == null to IFNULL, x == y to IF_ACMPEQ whatever y
	// holds); by default a comparison with any null value is.
	IfnullSyntactic bool
	// AliasPending: RESOLVE of a location beyond the bound may also make it
	// one object with an older unresolved location of its class within the
	// bound, materializing that one (the "earlier unresolved" entries of
	// the View, which Kiasan's collect(h) cannot offer).
	AliasPending bool
}

// VariantInfo lists the variants with their one-line documentation, in the
// order they are written when composed with "+".
var VariantInfo = []engine.Variant{
	{Name: "acmp-null-full", Doc: "x = null resolves x fully (null / each alias / fresh) like IF_ACMPEQ, instead of IFNULL"},
	{Name: "eq-new-shortcut", Doc: "an unresolved operand compared with a new object is unequal without resolving"},
	{Name: "ifnull-syntactic", Doc: "only a comparison with the literal null is IFNULL (javac's reading); a null-valued operand otherwise gives IF_ACMPEQ"},
	{Name: "alias-pending", Doc: "RESOLVE beyond the bound may alias an older unresolved location within the bound, materializing it (Kiasan offers materialized objects only)"},
	{Name: "stamp-kbound", Doc: "k-bound aligned with GSE: a δ deeper than k aliases only objects of older symbols; an object takes the depth of its oldest symbol"},
}

// ParseVariants reads "" or names joined by "+".
func ParseVariants(spec string) (Variants, error) {
	var v Variants
	if spec == "" || spec == "default" {
		return v, nil
	}
	for _, name := range strings.Split(spec, "+") {
		switch name {
		case "acmp-null-full":
			v.AcmpNullFull = true
		case "eq-new-shortcut":
			v.EqNewShortcut = true
		case "stamp-kbound":
			v.StampKbound = true
		case "ifnull-syntactic":
			v.IfnullSyntactic = true
		case "alias-pending":
			v.AliasPending = true
		default:
			var names []string
			for _, i := range VariantInfo {
				names = append(names, i.Name)
			}
			return v, fmt.Errorf("kiasan: unknown variant %q (variants: %s)", name, strings.Join(names, ", "))
		}
	}
	return v, nil
}

func (v Variants) String() string {
	var names []string
	if v.AcmpNullFull {
		names = append(names, "acmp-null-full")
	}
	if v.EqNewShortcut {
		names = append(names, "eq-new-shortcut")
	}
	if v.StampKbound {
		names = append(names, "stamp-kbound")
	}
	if v.IfnullSyntactic {
		names = append(names, "ifnull-syntactic")
	}
	if v.AliasPending {
		names = append(names, "alias-pending")
	}
	sort.Strings(names)
	return strings.Join(names, "+")
}

// Engine is lazier or lazier# on the shared machine.
type Engine struct {
	Mode Mode
	// K is the k-bound: RESOLVE may make l_u a fresh location only if
	// Depth(l_u) ≤ K. K < 0 means unbounded.
	K   int
	Var Variants
	// Mut is a single-point mutation of the rules (Mutations), MutNone for
	// the engine as specified. Only for showing that the checker kills it.
	Mut Mutation
	// Opt are the common-rule choices.
	Opt machine.Options
	// Facts is the path condition for If (sym) and Assume: the fact
	// list, its data part decided by Facts.Solver (programs without data
	// never use it; when it is nil and a program with data needs it, the
	// engine makes one for itself).
	machine.Facts
}

// New returns the engine for mode, a variant spec ("" or names joined by
// "+") and k-bound k.
func New(mode Mode, variant string, k int) (*Engine, error) {
	v, err := ParseVariants(variant)
	if err != nil {
		return nil, err
	}
	return &Engine{Mode: mode, K: k, Var: v}, nil
}

var (
	_ machine.Engine   = (*Engine)(nil)
	_ engine.UnderTest = (*Engine)(nil)
)

// Options implements machine.Engine.
func (e *Engine) Options() machine.Options { return e.Opt }

// Name implements machine.Engine: "lazier", "lazier#", with ":variant"
// and "!mutation" when not the default.
func (e *Engine) Name() string {
	n := e.Mode.String()
	if v := e.Var.String(); v != "" {
		n += ":" + v
	}
	if e.Mut != MutNone {
		n += "!" + e.Mut.String()
	}
	return n
}

// View implements engine.UnderTest: ENGINES.md §5.1.
func (e *Engine) View(s *machine.State) (*machine.State, error) {
	if e.Var.StampKbound {
		return view.UnresolvedStamped(s, e.K)
	}
	return view.Unresolved(s, e.K)
}

// Shape implements engine.UnderTest: several states per control whose
// concretizations partition the GSE group.
func (e *Engine) Shape() engine.Shape { return engine.Partition }

// ruleName joins a lockstep rule and the seed-002 rules of a step.
func ruleName(lockstep string, seed []string) string {
	if len(seed) == 0 {
		return lockstep
	}
	return lockstep + " / " + strings.Join(seed, ", ")
}

// only returns the single location of a Kiasan value set.
func only(s *machine.State, r machine.Ref) (machine.Loc, error) {
	g := s.Get(r)
	if len(g) != 1 || !g[0].Guard.IsTrue() {
		return 0, fmt.Errorf("kiasan: L(%s) has %d entries, want exactly one (true l)", machine.RefString(r), len(g))
	}
	return g[0].Loc, nil
}

// unresolved reports whether l is an unresolved location.
func unresolved(s *machine.State, l machine.Loc) bool {
	return l >= 0 && s.Locs[l].Unresolved
}
