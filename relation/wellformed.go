package relation

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Violation names the reference and the entries that break a
// well-formedness check.
type Violation struct {
	Check   string // "deterministic", "type-consistent", "total", "stack-only-roots", "concretization"
	Ref     machine.Ref
	Entries []machine.Entry
	Reason  string
}

func (v *Violation) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", v.Check, machine.RefString(v.Ref))
	if len(v.Entries) > 0 {
		b.WriteString(" {")
		for i, e := range v.Entries {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "(%s %v)", smt.Short(e.Guard), e.Loc)
		}
		b.WriteString("}")
	}
	b.WriteString(": ")
	b.WriteString(v.Reason)
	return b.String()
}

// Names of the checks, as they appear in Violation.Check.
const (
	CheckDeterministic  = "deterministic"
	CheckTypeConsistent = "type-consistent"
	CheckTotal          = "total"
	CheckStackOnlyRoots = "stack-only-roots"
	CheckConcretization = "concretization"
)

// RefsInUse returns the references a well-formedness check looks at: the
// roots (stack references of η, e and k, and r_null if a root is null), then
// R(l,f) for every numbered location l and every field f of its class, each
// reference once, in that order. Stack references no longer on the stack and
// references overwritten by a field write are garbage: nothing can reach
// them, so nothing is required of them.
func RefsInUse(q *machine.State) []machine.Ref {
	return appendRefsInUse(make([]machine.Ref, 0, 16), q)
}

// appendRefsInUse appends RefsInUse(q) to out. It runs on every state of
// every pair, mostly GSE states whose every unset field is r_un and whose
// null fields share r_null: a reference is found met before in a bit set
// on the stack (references index L, so they are small), not by a scan of
// out or a map (a map only past refSetBits).
func appendRefsInUse(out []machine.Ref, q *machine.State) []machine.Ref {
	start := len(out)
	out = q.AppendRoots(out) // each root once
	var seen refSet
	for _, r := range out[start:] {
		seen.add(r)
	}
	nf := q.NumFields()
	for l, info := range q.Locs {
		row := q.R[l*nf : (l+1)*nf]
		for _, fd := range info.Class.Fields {
			if r := row[fd.ID]; seen.add(r) {
				out = append(out, r)
			}
		}
	}
	return out
}

// refSetBits is how many references (r_un, r_null, then 0, 1, …) refSet
// holds in its bits; a reference past them goes to a map.
const refSetBits = 1024

// refSet is a set of references: bits for the first refSetBits (a
// reference r is bit r+2, as L is indexed), a map for the others.
type refSet struct {
	bits [refSetBits / 64]uint64
	more map[machine.Ref]bool
}

// add puts r in the set and reports whether it was not there.
func (s *refSet) add(r machine.Ref) bool {
	if i := uint(int(r) + 2); i < refSetBits {
		w, b := i/64, uint64(1)<<(i%64)
		if s.bits[w]&b != 0 {
			return false
		}
		s.bits[w] |= b
		return true
	}
	if s.more[r] {
		return false
	}
	if s.more == nil {
		s.more = map[machine.Ref]bool{}
	}
	s.more[r] = true
	return true
}

// eachRefInUse calls f with the references RefsInUse returns, in its
// order, a reference met twice each time (HeapOf needs no set of them),
// and stops at f's first error.
func eachRefInUse(q *machine.State, f func(machine.Ref) error) error {
	for _, r := range q.Roots() {
		if err := f(r); err != nil {
			return err
		}
	}
	for l, info := range q.Locs {
		for _, fd := range info.Class.Fields {
			if err := f(q.Field(machine.Loc(l), fd)); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkState rejects states this package cannot read.
func checkState(q *machine.State) error {
	if q == nil {
		return fmt.Errorf("relation: nil state")
	}
	if q.Prog == nil {
		return fmt.Errorf("relation: state has no program")
	}
	if q.Phi == nil {
		return fmt.Errorf("relation: state has no path condition")
	}
	if len(q.R) != len(q.Locs)*q.NumFields() {
		return fmt.Errorf("relation: R has %d cells, want %d locations × %d fields", len(q.R), len(q.Locs), q.NumFields())
	}
	for l, info := range q.Locs {
		if info.Class == nil {
			return fmt.Errorf("relation: location l%d has no class", l)
		}
	}
	return nil
}

// Deterministic checks Def. 11 literally: for every reference r in use and
// distinct entries (φ l), (φ' l') of L(r), φ ∧ φ' is unsatisfiable. The path
// condition is deliberately not conjoined: the definition asks the guards
// themselves to be exclusive, which is what the determinism lemmas (L4–L7)
// claim the rules preserve.
func Deterministic(q *machine.State, solver *smt.Solver) (*Violation, error) {
	if err := checkState(q); err != nil {
		return nil, err
	}
	return deterministic(q, RefsInUse(q), solver)
}

// deterministic is Deterministic over the references in use, refs.
func deterministic(q *machine.State, refs []machine.Ref, solver *smt.Solver) (*Violation, error) {
	for _, r := range refs {
		g := q.Get(r)
		if len(g) > pairwiseUpTo {
			// One question for the whole value set: can two guards hold
			// together? Its n(n−1)/2 pairwise questions (POSE-J's Views
			// have value sets of dozens of entries) were most of a large
			// group's time. Only a yes is followed by the pairs, to name
			// the first two, as before.
			sat, err := solver.Sat(twoOfMemoized(g, q.Prog, solver))
			if err != nil {
				return nil, fmt.Errorf("deterministic: L(%s): %w", machine.RefString(r), err)
			}
			if !sat {
				continue
			}
		}
		for i := 0; i < len(g); i++ {
			for j := i + 1; j < len(g); j++ {
				sat, err := solver.SatBoth(g[i].Guard, g[j].Guard)
				if err != nil {
					return nil, fmt.Errorf("deterministic: L(%s): %w", machine.RefString(r), err)
				}
				if sat {
					return &Violation{Check: CheckDeterministic, Ref: r, Entries: []machine.Entry{g[i], g[j]},
						Reason: "the guards of two entries can hold together"}, nil
				}
			}
		}
	}
	return nil, nil
}

// A value set of more than four entries that no earlier state had is
// first given to exclusiveBySyntax (exclusive.go): the View's guards are
// exclusive by construction, a subformula one asserts and the other
// denies, and the test finds that by the formulas' IDs, with no solver.
// It shows nearly every such set of POSE-J's Views; the set it shows
// nothing of is asked as one question, as before. Before it, the history
// of the question: on the reference-only stream (-data none -k -1 -steps
// 200, seed 1) POSE-J's Views ask about 12,000 value sets of more than
// four entries; 87 % recur and are cache hits, and the other 1,600 are
// made of guards never seen before (about 6 % of their guards had been,
// and no value set equals an earlier one even up to formula structure),
// so a memo of exclusive guard pairs saves nothing. Keyed by the pieces
// of the guards, a set that extends a proven one needs only its new
// pieces asked against the other guards, but that smaller question went
// to Z3 as often, and took as long, as the whole one: the Go DPLL gave up
// on these guards (nested negated existence conditions) however they were
// split, and clause learning, which answers them, took 10–20 ms a set on
// testdata/bench/treemap_remove.jl under pose at k = 3 (3,461 new sets,
// 44 % of the check at 8942582). A tableau over the guards refuted
// every pair of program 78, but at 290 million node visits: the test
// below splits each piece once, remembers a piece by its formula's ID,
// and tests a pair by set inclusion.

// pairwiseUpTo is the largest value set whose determinism is asked pair
// by pair (each pair's answer is cached by the solver, and small sets
// recur from state to state).
const pairwiseUpTo = 4

// twoOfMemoized is twoOf(g), remembered by the solver (smt.Solver.Built)
// under the IDs of g's guards in their order, or False where
// exclusiveBySyntax shows that no two guards of g hold together: then
// twoOf(g) is unsatisfiable, so False is the same question, and the
// solver answers it without a search (exclusive.go says why the test is
// sound; a set it shows nothing of is asked as before). Most value sets asked recur
// from state to state, and the solver's cache answers them by the
// formula; but building the formula again to look it up (interning Ors of
// every piece of the guards) was three quarters of the determinism check
// on the successor tree at k = 3 (docs/PERFORMANCE.md). Formulas are
// hash-consed and an ID is never reused, so a key names one sequence of
// guards, and the formula kept is the one twoOf would build.
func twoOfMemoized(g machine.GVS, prog any, solver *smt.Solver) *smt.Formula {
	key := make([]byte, 8*len(g))
	for i, e := range g {
		binary.LittleEndian.PutUint64(key[8*i:], e.Guard.ID())
	}
	return solver.Built(string(key), func() *smt.Formula {
		if exclusiveBySyntax(g, prog) {
			if exclusiveAudit != nil {
				exclusiveAudit(g)
			}
			return smt.False()
		}
		return twoOf(g)
	})
}

// exclusiveAudit, when set (by tests, export_test.go), is given every
// value set that twoOfMemoized keeps as False, so that a test can ask the
// solver about the sets a real check met.
var exclusiveAudit func(machine.GVS)

// noneOfMemoized is ¬⋁ of the guards of g, remembered by the solver
// under the IDs of the guards (as twoOfMemoized, with a key of its own:
// a leading 'n' makes its length differ from every twoOf key's, a
// multiple of 8). Totality asks it of every reference of every state,
// and the memo of answers (TotalityMemo) is looked up by it, so most
// were built again only to find an answer kept: on
// testdata/bench/treemap_remove.jl under pose at k = 3, a twentieth of
// the check.
func noneOfMemoized(g machine.GVS, solver *smt.Solver) *smt.Formula {
	key := make([]byte, 1, 1+8*len(g))
	key[0] = 'n'
	for _, e := range g {
		key = binary.LittleEndian.AppendUint64(key, e.Guard.ID())
	}
	return solver.Built(string(key), func() *smt.Formula {
		var buf [8]*smt.Formula
		guards := buf[:0]
		for _, e := range g {
			guards = append(guards, e.Guard)
		}
		return smt.Not(smt.Or(guards...))
	})
}

// twoOf says that at least two of the guards of g hold: two in its first
// half, or two in its second, or one in each. Asked as "some g_k with one
// of the guards before it", the formula had an Or of every prefix, and
// since Or flattens the Ors it is given (a View's guards are Ors of
// pieces), n prefixes of up to n guards' pieces each: its size grew with
// the square of the value set. Halving, each level of the recursion
// holds every piece once, so the size is the pieces times log n.
func twoOf(g machine.GVS) *smt.Formula {
	guards := make([]*smt.Formula, len(g))
	for i, e := range g {
		guards[i] = e.Guard
	}
	two, _ := twoAndOne(guards)
	return two
}

// twoAndOne returns "at least two of gs hold" and "one of gs holds".
func twoAndOne(gs []*smt.Formula) (two, one *smt.Formula) {
	switch len(gs) {
	case 0:
		return smt.False(), smt.False()
	case 1:
		return smt.False(), gs[0]
	}
	m := len(gs) / 2
	twoL, oneL := twoAndOne(gs[:m])
	twoR, oneR := twoAndOne(gs[m:])
	return smt.Or(twoL, twoR, smt.And(oneL, oneR)), smt.Or(oneL, oneR)
}

// TypeConsistent checks that all numbered locations in one guarded value set
// in use have one class.
func TypeConsistent(q *machine.State) *Violation {
	if err := checkState(q); err != nil {
		return &Violation{Check: CheckTypeConsistent, Ref: machine.RUn, Reason: err.Error()}
	}
	return typeConsistent(q, RefsInUse(q))
}

// typeConsistent is TypeConsistent over the references in use, refs.
func typeConsistent(q *machine.State, refs []machine.Ref) *Violation {
	for _, r := range refs {
		var first machine.Entry
		found := false
		for _, e := range q.Get(r) {
			if e.Loc < 0 {
				continue
			}
			if int(e.Loc) >= len(q.Locs) {
				return &Violation{Check: CheckTypeConsistent, Ref: r, Entries: []machine.Entry{e},
					Reason: fmt.Sprintf("location %v does not exist (%d locations)", e.Loc, len(q.Locs))}
			}
			if !found {
				first, found = e, true
				continue
			}
			if a, b := q.ClassOf(first.Loc), q.ClassOf(e.Loc); !sameClass(a.Name, b.Name) {
				return &Violation{Check: CheckTypeConsistent, Ref: r, Entries: []machine.Entry{first, e},
					Reason: fmt.Sprintf("classes %s and %s in one value set", a.Name, b.Name)}
			}
		}
	}
	return nil
}

func sameClass(a, b string) bool { return a == b }

// Total checks that under φ every reference in use points somewhere:
// φ ∧ ¬⋁guards is unsatisfiable. An empty or missing value set is a
// violation whenever φ is satisfiable.
func Total(q *machine.State, solver *smt.Solver) (*Violation, error) {
	if err := checkState(q); err != nil {
		return nil, err
	}
	return total(q, RefsInUse(q), solver, nil)
}

// total is Total over the references in use, refs, with the answers of
// memo (nil: none) reused and kept (TotalityMemo).
func total(q *machine.State, refs []machine.Ref, solver *smt.Solver, memo *TotalityMemo) (*Violation, error) {
	if memo != nil && solver.Assumptions() > 0 {
		memo = nil // the answers are relative to the assumptions
	}
	// φ is built at the first reference that needs it, and its reference
	// part at the first question asked: a GSE state (every guard true)
	// asks nothing, its path condition is a conjunction of its facts
	// built anew, and the memo answers most questions from φ alone.
	var phi, refPhi *smt.Formula
	// With data in φ, the guards (reference formulas) nearly always
	// exclude each other's absence on φ's reference conjuncts alone.
	// Those conjuncts are implied by φ, so when they already make the
	// question unsatisfiable, so does φ, and the Go decider answers it;
	// only a satisfiable answer is asked again with the whole φ. The
	// solver's reference cases (smt/split.go) ask φ ∧ ¬⋁guards's
	// reference part first too, but within a smaller budget of the
	// decider, past which the question goes to Z3 whole; asked here, a
	// reference part past the decider's budget is Z3's reference
	// question, without the data.
refs:
	for _, r := range refs {
		g := q.Get(r)
		for _, e := range g {
			if e.Guard.IsTrue() {
				continue refs // an entry always holds (a GSE value set)
			}
		}
		none := noneOfMemoized(g, solver)
		if none.IsFalse() {
			continue
		}
		if phi == nil {
			phi = q.PathCondition()
		}
		if memo != nil && memo.implied(phi, none) {
			memo.Reused++
			continue
		}
		sat, err := true, error(nil)
		if refPhi == nil {
			refPhi = referencePart(phi)
		}
		asked := phi // the question answered last
		if refPhi != phi {
			sat, err = solver.SatBoth(refPhi, none)
			asked = refPhi
		}
		if err == nil && sat {
			sat, err = solver.SatBoth(phi, none)
			asked = phi
		}
		if err != nil {
			return nil, fmt.Errorf("total: L(%s): %w", machine.RefString(r), err)
		}
		if sat {
			return &Violation{Check: CheckTotal, Ref: r, Entries: append([]machine.Entry(nil), g...),
				Reason: "under the path condition no guard need hold"}, nil
		}
		if memo != nil {
			memo.unsat(asked, none)
		}
	}
	return nil, nil
}

// referencePart is the conjunction of φ's conjuncts without data, a formula
// φ implies; φ itself when it has no data.
func referencePart(phi *smt.Formula) *smt.Formula {
	if !phi.HasData() {
		return phi
	}
	if phi.Op() != smt.OpAnd {
		return smt.True()
	}
	var rs []*smt.Formula
	for _, k := range phi.Kids() {
		if !k.HasData() {
			rs = append(rs, k)
		}
	}
	return smt.And(rs...)
}

// StackOnlyRoots checks that η, e and k hold only stack references, r_null
// and booleans (unbound slots of η are allowed).
func StackOnlyRoots(q *machine.State) *Violation {
	// where is formatted only for a violation: the check runs on every
	// state of every pair.
	bad := func(v machine.Value, where string, args ...any) *Violation {
		if v == machine.VUndef || v.IsPrim() {
			return nil
		}
		if v.IsRef() {
			r := v.Ref()
			if r == machine.RNull || (r >= 0 && machine.PartitionOf(r) == machine.PartStack) {
				return nil
			}
			return &Violation{Check: CheckStackOnlyRoots, Ref: r, Entries: append([]machine.Entry(nil), q.Get(r)...),
				Reason: fmt.Sprintf("%s holds %s, not a stack reference", fmt.Sprintf(where, args...), machine.RefString(r))}
		}
		return &Violation{Check: CheckStackOnlyRoots, Ref: machine.RUn, Reason: fmt.Sprintf("%s holds the invalid value %s", fmt.Sprintf(where, args...), v)}
	}
	for i, v := range q.Env {
		if x := bad(v, "η slot %d", i); x != nil {
			return x
		}
	}
	if q.Mode == machine.ModeValue {
		if x := bad(q.Val, "e"); x != nil {
			return x
		}
	}
	depth := 0
	for k := q.K; k != nil; k = k.Next {
		if k.Kind == machine.KEqR || k.Kind == machine.KCallArg || k.Kind == machine.KPopVar || k.Kind == machine.KBinR {
			if x := bad(k.Val, "k frame %d", depth); x != nil {
				return x
			}
		}
		for i, v := range k.Env {
			if x := bad(v, "k frame %d (pop) slot %d", depth, i); x != nil {
				return x
			}
		}
		depth++
	}
	return nil
}

// WellFormed runs every well-formedness check of RULES.md §7 and returns the
// first violation.
func WellFormed(q *machine.State, solver *smt.Solver) (*Violation, error) {
	v, _, err := WellFormedChecks(q, solver)
	return v, err
}

// WellFormedChecks is the one well-formedness pipeline: every check of
// RULES.md §7, always in this order: stack-only roots, type consistency,
// determinism, totality (the cheap syntactic checks first, then the two
// that ask the solver). It returns the first violation, or the error of
// the first check that could not be decided, with the name of that check
// (a Check* constant; "" when everything held), so that every caller
// charges a failure to the same lemma whatever path it took.
func WellFormedChecks(q *machine.State, solver *smt.Solver) (v *Violation, check string, err error) {
	return WellFormedChecksMemo(q, solver, nil)
}

// WellFormedChecksMemo is WellFormedChecks with the totality answers of
// memo reused and kept (TotalityMemo); a nil memo is WellFormedChecks.
// The answer is the one WellFormedChecks gives, except where the solver
// could not have decided a question the memo answers (it is implied by
// one the solver decided): then the memo's answer stands, not an
// undecided check.
func WellFormedChecksMemo(q *machine.State, solver *smt.Solver, memo *TotalityMemo) (v *Violation, check string, err error) {
	if err := checkState(q); err != nil {
		return nil, "", err
	}
	if v := StackOnlyRoots(q); v != nil {
		return v, CheckStackOnlyRoots, nil
	}
	// The references in use once for the three checks that read them
	// (it runs on every state of every pair), in a buffer on the stack.
	var buf [64]machine.Ref
	refs := appendRefsInUse(buf[:0], q)
	if v := typeConsistent(q, refs); v != nil {
		return v, CheckTypeConsistent, nil
	}
	if v, err := deterministic(q, refs, solver); v != nil || err != nil {
		return v, CheckDeterministic, err
	}
	if v, err := total(q, refs, solver, memo); v != nil || err != nil {
		return v, CheckTotal, err
	}
	return nil, "", nil
}
