package concrete

import (
	"context"
	"errors"
	"fmt"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// Options bound a comparison.
type Options struct {
	K     int // the k-bound of the symbolic engine (≥ 0)
	Bound int // the step bound (≥ 0)
	// MaxObjects bounds the heaps' size; 0 means the most input locations
	// any symbolic path has, which is enough for every symbolic path to have
	// its heap, but for the other direction it only covers heaps as large as
	// the symbolic side ever builds.
	MaxObjects int
	// MaxPaths and MaxHeaps are budgets (≤ 0: none), and MaxSkipped one
	// of the inputs that are no result (pruned, beyond k, out of range),
	// which MaxHeaps, counted when a run is a result, does not stop.
	// Reaching one makes the report incomplete: inconclusive, never a
	// pass.
	MaxPaths, MaxHeaps, MaxSkipped int64
	// Depth bounds the BFS depth of the enumerated heaps when K < 0 (no
	// k-bound: every run is within it, so the enumeration needs a bound of
	// its own, and the report is then a bounded check, never complete over
	// all inputs). At K ≥ 0 the heaps go to depth K and Depth is unused.
	Depth int
	// Extra are inputs run before the enumeration and judged as its
	// inputs are (soundness of the symbolic side): the caller's
	// path-directed inputs, e.g. a model of a prefix of a symbolic path's
	// condition with its next fact negated, which the small domain of
	// Inputs may never produce.
	Extra []*Heap
	// Also, when set, is called with every input and the machine's run on
	// it (not cut by the step bound) as it is judged: a second concrete
	// side checks that its run ends as the machine's (check -oracle jvm).
	// An error it returns stops Compare and is returned: one that wraps
	// ErrDisagree (the two sides disagree) inside a RunError with the input.
	Also func(h *Heap, res Result) error
}

// RunError is a concrete run that could not go on (a step with no rule,
// a heap the program cannot run on): Compare returns it, with the input,
// instead of a report. The concrete rules run every well-typed program on
// every well-typed heap to an end, so it is the symbolic side's verdict
// to give (a broken common rule), not a failure of the tool.
type RunError struct {
	Input string // the input heap
	Err   error
}

// ErrDisagree is wrapped by an error of Options.Also that is a
// disagreement between the machine's run and the second concrete side.
var ErrDisagree = errors.New("the second concrete side disagrees with the machine")

func (e *RunError) Error() string { return fmt.Sprintf("%s: %v", e.Input, e.Err) }
func (e *RunError) Unwrap() error { return e.Err }

// Report is the outcome of Compare.
type Report struct {
	Paths     int64 // symbolic paths
	Sequences int   // distinct control-flow sequences among them (RULES.md §7, C13)
	// DupPaths counts symbolic paths whose path digest an earlier path had:
	// two branches that never differ in any control or read location.
	DupPaths  int64
	MaxInputs int   // most input locations on one symbolic path
	Heaps     int64 // concrete inputs enumerated (heap shapes × valuations of their data)
	Extra     int64 // inputs of Options.Extra run
	BeyondK   int64 // runs that left the k-bound (not checked against GSE)
	// Pruned counts the runs an (assume e) pruned and OutOfRange the runs
	// whose integers left int64: neither is a result, neither is checked.
	Pruned, OutOfRange int64
	// ConcretePaths is the number of distinct path digests of the runs
	// within the k-bound; it equals Paths when the two sides agree and GSE
	// has no duplicate paths.
	ConcretePaths int
	// Unmatched are concrete runs that no symbolic path follows (soundness
	// of the symbolic side fails); Uncovered are symbolic paths that no
	// concrete run follows. At most 10 examples of each; the N fields count
	// all of them.
	Unmatched, Uncovered   []Mismatch
	NUnmatched, NUncovered int
	// NUncoveredData counts the symbolic paths with data in their path
	// condition that no input of the domain (Domain) follows: the domain
	// may be too small for their constraints (x < y + 5 needs values that
	// no literal suggests), so they are undecided, not disagreements;
	// UncoveredData shows at most 10.
	UncoveredData  []Mismatch
	NUncoveredData int
	// Complete is false when a budget or ctx stopped the comparison: then
	// the absence of mismatches proves nothing (inconclusive).
	Complete bool
}

// Mismatch describes one side of a disagreement.
type Mismatch struct {
	Kind machine.EndKind
	What string // the heap, or the symbolic path condition
}

// OK reports whether the comparison ran to the end, found nothing, and
// covered every symbolic path (a data path no input of the domain follows
// leaves it undecided).
func (r *Report) OK() bool {
	return r.Complete && r.NUnmatched == 0 && r.NUncovered == 0 && r.NUncoveredData == 0
}

func (r *Report) String() string {
	s := fmt.Sprintf("paths=%d sequences=%d dup=%d maxInputs=%d heaps=%d extra=%d beyondK=%d pruned=%d outOfRange=%d concretePaths=%d unmatched=%d uncovered=%d uncoveredData=%d complete=%v",
		r.Paths, r.Sequences, r.DupPaths, r.MaxInputs, r.Heaps, r.Extra, r.BeyondK, r.Pruned, r.OutOfRange, r.ConcretePaths, r.NUnmatched, r.NUncovered, r.NUncoveredData, r.Complete)
	for _, m := range r.Unmatched {
		s += fmt.Sprintf("\n  concrete run with no symbolic path (%s): %s", m.Kind, m.What)
	}
	for _, m := range r.Uncovered {
		s += fmt.Sprintf("\n  symbolic path with no concrete heap (%s): φ = %s", m.Kind, m.What)
	}
	for _, m := range r.UncoveredData {
		s += fmt.Sprintf("\n  symbolic path with data that no input of the domain follows (%s): φ = %s", m.Kind, m.What)
	}
	return s
}

// Compare checks a symbolic engine against the concrete oracle on p, path
// by path (path digests, see Digests):
//
//   - soundness: every concrete run over a heap of BFS depth ≤ K (at most
//     MaxObjects objects) that stays within the k-bound follows some
//     symbolic path: the same rules, controls and read locations, and the
//     same end (value, error, or cut at Bound steps); and
//   - completeness: every symbolic path, cut ones included, is followed by
//     the run over some such heap (its input locations with uninitialized
//     fields set to null form one).
//
// The heaps go to depth K, or to depth Depth without a k-bound (K < 0: a
// bounded check of soundness, since deeper heaps are never tried), and
// the inputs of Extra are run first.
//
// With data, the inputs are the heaps with every valuation of their
// primitive fields over Domain(p) (Inputs). Soundness is unchanged: every
// run must follow a symbolic path. Completeness holds for the paths whose
// data constraints some valuation of the domain meets; the others are
// counted apart (NUncoveredData, undecided). Pruned and out-of-range runs
// are no results and are only counted.
func Compare(ctx context.Context, p *javalite.Program, eng machine.Engine, o Options) (*Report, error) {
	if (o.K < 0 && o.Depth < 0) || o.Bound < 0 {
		return nil, fmt.Errorf("concrete: Compare needs a k-bound or a heap depth, and a step bound (got k=%d, depth=%d, bound=%d)", o.K, o.Depth, o.Bound)
	}
	depth := o.K
	if depth < 0 {
		depth = o.Depth
	}
	rep := &Report{}
	type sym struct {
		kind    machine.EndKind
		covered bool
		data    bool // the path condition has data
		what    string
	}
	paths := map[Digest]*sym{}
	controls := map[Digest]bool{}
	var stepErr error
	_, done, err := Sequences(ctx, machine.Initial(p), eng, o.Bound, func(end *machine.State, kind machine.EndKind, d Digests) bool {
		rep.Paths++
		if kind == machine.EndStuck {
			stepErr = fmt.Errorf("concrete: symbolic path stuck at step %d: %s", end.Steps, end.ControlString())
			return false
		}
		n := 0
		for _, l := range end.Locs {
			if l.Input {
				n++
			}
		}
		rep.MaxInputs = max(rep.MaxInputs, n)
		controls[d.Control] = true
		if paths[d.Path] != nil {
			rep.DupPaths++
		} else {
			pc := end.PathCondition()
			paths[d.Path] = &sym{kind: kind, data: pc.HasData(), what: pc.String()}
		}
		return o.MaxPaths <= 0 || rep.Paths < o.MaxPaths
	})
	if err != nil {
		return rep, err
	}
	if stepErr != nil {
		return rep, stepErr
	}
	rep.Sequences = len(controls)
	if !done {
		return rep, nil
	}
	maxObjects := o.MaxObjects
	if maxObjects <= 0 {
		maxObjects = rep.MaxInputs
	}
	seen := map[Digest]bool{}
	// The concrete runs use the symbolic engine's common rules (V9–V11),
	// so the two sides agree on the semantics they are compared under. A
	// Resumer runs each input as RunWith does, from the longest prefix its
	// run shares with the previous input's (consecutive inputs differ in a
	// field or two).
	runs := NewResumer(p, o.K, o.Bound, eng.Options())
	var runErr error
	extra := false
	judge := func(h *Heap) bool {
		if ctx.Err() != nil {
			return false
		}
		if extra {
			rep.Extra++
		} else {
			rep.Heaps++
		}
		res, err := runs.Run(h)
		if err != nil {
			runErr = &RunError{Input: h.String(), Err: err}
			return false
		}
		if o.Also != nil && (res.Pruned || res.OutOfRange || res.Kind != machine.EndCut) {
			if err := o.Also(h, res); err != nil {
				runErr = err
				if errors.Is(err, ErrDisagree) {
					runErr = &RunError{Input: h.String(), Err: err}
				}
				return false
			}
		}
		// The inputs that are no result have a budget of their own: an
		// (assume repOK) prunes nearly every input of a tree program, and
		// without one the enumeration ran through every heap and
		// valuation (an AVL rotation at k = 2: past any time limit).
		skipped := func() bool { return extra || o.MaxSkipped <= 0 || rep.Pruned+rep.BeyondK+rep.OutOfRange < o.MaxSkipped }
		switch {
		case res.OutOfRange:
			rep.OutOfRange++
			return skipped()
		case res.Pruned:
			rep.Pruned++
			return skipped()
		case res.BeyondK:
			rep.BeyondK++
			return skipped()
		}
		seen[res.Seq.Path] = true
		if sp := paths[res.Seq.Path]; sp != nil {
			sp.covered = true
		} else {
			rep.NUnmatched++
			if len(rep.Unmatched) < 10 {
				rep.Unmatched = append(rep.Unmatched, Mismatch{Kind: res.Kind, What: h.String()})
			}
		}
		return extra || o.MaxHeaps <= 0 || rep.Heaps < o.MaxHeaps
	}
	extra = true
	for _, h := range o.Extra {
		if !judge(h) {
			break
		}
	}
	extra = false
	if runErr == nil && ctx.Err() == nil {
		done = Inputs(p, maxObjects, depth, Domain(p), judge)
	} else {
		done = false
	}
	if runErr != nil {
		return rep, runErr
	}
	rep.ConcretePaths = len(seen)
	if !done {
		return rep, nil
	}
	for _, sp := range paths {
		if sp.covered {
			continue
		}
		if sp.data {
			rep.NUncoveredData++
			if len(rep.UncoveredData) < 10 {
				rep.UncoveredData = append(rep.UncoveredData, Mismatch{Kind: sp.kind, What: sp.what})
			}
			continue
		}
		rep.NUncovered++
		if len(rep.Uncovered) < 10 {
			rep.Uncovered = append(rep.Uncovered, Mismatch{Kind: sp.kind, What: sp.what})
		}
	}
	rep.Complete = true
	return rep, nil
}
