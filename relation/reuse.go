package relation

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Concretizations of states that differ only in their roots.
//
// Many steps change only the stack: a call pushes its arguments, a
// variable is bound, a value is returned. The heap, R, the guarded value
// sets of the fields and the path condition stay as they were, and so do
// the concretizations, except for where the roots point. On the generated
// programs whose groups reach hundreds of GSE states, half of the
// concretizing time went to states whose content other than the roots had
// been concretized before in the same run.
//
// The search of concretizeState partitions the assignments of φ_q into
// leaves: each leaf's literals (the guards it chose and the existence
// guards or their negations it decided) hold together with φ_q, and in
// each leaf every input location is present or absent as its existence
// guard says and every field of a present location takes one location.
// That part of a leaf depends only on the content, not on the roots (the
// roots only decide the order in which locations are reached). So for a
// state q' with the same content as a state q whose search was complete,
// the concretizations of q' are, over the leaves of q, the leaf's heap with
// q''s roots resolved under the leaf's literals: a root of q' that was a
// root of q points where it pointed in the leaf, and any other root is
// resolved by the same search as before (its entries asked about relative
// to φ_q and the leaf's literals, and a root that may point to an absent
// location, or take zero or several entries, is a witness as before).
// Every assignment of φ_q lies in one leaf, so nothing is missed, and
// every heap built is one under an assignment of that leaf.
//
// A branch on a comparison makes the path condition stronger and leaves
// the rest as it was (a third of the searches that remained, on seed 1's
// stream). The leaves of the state before the branch partition the
// assignments of its weaker path condition, so those of the new one lie
// in the leaves satisfiable together with it: each leaf is asked once,
// and the ones kept are the leaves of the new state (fromLeaves).

// ConcretizationCache keeps the leaves of complete concretizations by
// content (everything the search reads except the roots), for the states
// of one run that differ only in their roots, and by shape (the content
// without the path condition), for those whose path condition extends a
// cached one's. It is not safe for
// concurrent use; the checker keeps one per program.
type ConcretizationCache struct {
	byContent map[[sha256.Size]byte]*leafSet
	// byShape holds, by content without the path condition, the newest
	// leaf sets (at most shapeSets), for states whose path condition
	// extends theirs.
	byShape  map[[sha256.Size]byte][]*leafSet
	reused   int
	extended int
	// below counts the replays whose fresh roots were resolved by the
	// leaves an earlier search built under the same leaf (searchRoots).
	below int
	// byEval counts the leaf replays decided by the leaf's closure alone
	// (leafeval.go): roots resolved or the extension decided without the
	// solver.
	byEval int
	// atoms remembers the data half's refinements of these leaves
	// (atommemo.go).
	atoms *atomMemo
	// sharedLits counts the leaves built with their cached leaf's
	// literals (leafLiterals).
	sharedLits int
}

// shapeSets bounds the leaf sets kept per shape.
const shapeSets = 8

// NewConcretizationCache returns an empty cache.
func NewConcretizationCache() *ConcretizationCache {
	return &ConcretizationCache{byContent: map[[sha256.Size]byte]*leafSet{}, byShape: map[[sha256.Size]byte][]*leafSet{}}
}

// lookup returns the leaf set of q's content, or one of a state with q's
// shape whose path condition has a subset of the conjuncts of q's (pc):
// then q's path condition extends it, and extends is true.
func (cc *ConcretizationCache) lookup(content, shape [sha256.Size]byte, pc *smt.Formula) (ls *leafSet, extends bool) {
	if ls, ok := cc.byContent[content]; ok {
		return ls, false
	}
	if len(cc.byShape[shape]) == 0 {
		return nil, false
	}
	have := map[*smt.Formula]bool{}
	for _, f := range conjuncts(pc) {
		have[f] = true
	}
sets:
	for i := len(cc.byShape[shape]) - 1; i >= 0; i-- {
		ls := cc.byShape[shape][i]
		for _, f := range ls.pc {
			if !have[f] {
				continue sets
			}
		}
		return ls, true
	}
	return nil, false
}

// store keeps ls as the leaf set of a content and shape.
func (cc *ConcretizationCache) store(content, shape [sha256.Size]byte, ls *leafSet) {
	cc.byContent[content] = ls
	sets := append(cc.byShape[shape], ls)
	if len(sets) > shapeSets {
		sets = sets[1:]
	}
	cc.byShape[shape] = sets
}

// conjuncts is the operands of a conjunction, or f alone.
func conjuncts(f *smt.Formula) []*smt.Formula {
	if f.Op() == smt.OpAnd {
		return f.Kids()
	}
	return []*smt.Formula{f}
}

// dataOnlyExtension reports whether the path condition phi extends the
// conjuncts old by data facts alone, over a phi with no conjunct that
// mixes data and references: then phi is its reference part R ∧ its data
// part D, sharing no variable, R is old's, and every leaf of old (a set
// of reference valuations satisfiable with R) is satisfiable with phi as
// soon as D is, which concretizeState asked first (S(phi)). A leaf is then
// kept without a question, where it took one solver question each (If
// (sym) and Assume extend φ by data alone: on the first 200 programs of
// the data stream of seed 1, 88 of 447 extensions under summary:fixed and
// 645 of 1,596 under lazier).
func dataOnlyExtension(phi *smt.Formula, old []*smt.Formula) bool {
	added, ok := refExtension(phi, old)
	return ok && len(added) == 0
}

// Reused counts the concretizations built from cached leaves (for tests
// and reports), and Extended those of them whose path condition extended
// the cached one's.
func (c *ConcretizationCache) Reused() int { return c.reused }

// Extended: see Reused.
func (c *ConcretizationCache) Extended() int { return c.extended }

// Below counts the leaf replays whose fresh roots were resolved by the
// leaves an earlier search built under the same leaf (searchRoots).
func (c *ConcretizationCache) Below() int { return c.below }

// ByEval counts the leaf replays that the leaf's closure decided without
// the solver (leafeval.go).
func (c *ConcretizationCache) ByEval() int { return c.byEval }

type leafSet struct {
	roots  []machine.Ref  // the roots of the state searched, sorted
	pc     []*smt.Formula // the conjuncts of its path condition
	leaves []*leafRec
}

// leafRec is one leaf of a complete search.
type leafRec struct {
	lits []*smt.Formula // the leaf's literals after φ_q
	eval *leafEval      // their closure, built on first replay (leafeval.go)
	// below keeps, by the fresh roots resolved under this leaf (their
	// references and guarded value sets) and φ, the leaves that search
	// built below it (searchRoots).
	below  map[string][]subLeaf
	exists []int8
	target [][]machine.Loc
	rootTo []machine.Loc // by index in leafSet.roots
}

// contentKey is a SHA-256 over what the search reads of q apart from the
// roots: φ and the facts, every location's class, input flag and
// existence guard, R, and the guarded value set of every field reference.
// shape is the same without φ and the facts.
func contentKey(q *machine.State) (content, shape [sha256.Size]byte) {
	var w fpBuf // fingerprint.go
	w.num(int64(len(q.Locs)))
	for _, info := range q.Locs {
		w.num(int64(len(info.Class.Name)))
		w = append(w, info.Class.Name...)
		w.num(int64(len(info.Class.Fields)))
		if info.Input {
			w.num(1)
		} else {
			w.num(0)
		}
		w.form(info.Exists)
	}
	w.num(int64(len(q.R)))
	for _, r := range q.R {
		w.num(int64(r))
		g := q.Get(r)
		w.num(int64(len(g)))
		for _, e := range g {
			w.form(e.Guard)
			w.num(int64(e.Loc))
		}
	}
	shape = sha256.Sum256(w)
	w.form(q.Phi)
	for f := q.Facts; f != nil; f = f.Next {
		w.form(f.F)
	}
	return sha256.Sum256(w), shape
}

// record keeps the current leaf (recording is on while a search that may
// be cached runs).
func (c *concretizer) record() {
	rec := &leafRec{
		lits:   slices.Clone(c.lits[1:]),
		exists: slices.Clone(c.exists),
		target: make([][]machine.Loc, len(c.target)),
		rootTo: make([]machine.Loc, len(c.roots)),
	}
	for l := range c.target {
		rec.target[l] = slices.Clone(c.target[l])
	}
	for i, r := range c.roots {
		rec.rootTo[i] = c.rootTo[r]
	}
	c.recorded = append(c.recorded, rec)
}

// fromLeaves builds the concretizations of c.q from the leaves of a state
// with its content (see above), or, when extends, of a state with its
// shape whose path condition q's extends. The leaves partition the
// assignments of that state's path condition, so those of q's stronger one
// lie in the leaves that are satisfiable together with it: each leaf is
// then assumed and kept only if it is (the others are empty under q), and
// the leaves kept are returned, the leaves of q's content. It runs where
// search(0) would: φ_q assumed, prepare done.
func (c *concretizer) fromLeaves(ls *leafSet, extends bool) (kept []*leafRec, err error) {
	old := map[machine.Ref]int{}
	for i, r := range ls.roots {
		old[r] = i
	}
	var fresh []item
	for _, r := range c.roots {
		if _, ok := old[r]; !ok {
			fresh = append(fresh, item{ref: r, loc: -1})
		}
	}
	var added []*smt.Formula
	byEval := false
	if extends {
		added, byEval = refExtension(c.lits[0], ls.pc)
	}
	for k := range ls.leaves {
		if c.budget.stopped() {
			return nil, fmt.Errorf("concretization: %w", ErrStopped)
		}
		rec := ls.leaves[k]
		copy(c.exists, rec.exists)
		for l := range c.target {
			copy(c.target[l], rec.target[l])
		}
		for _, r := range c.roots {
			if i, ok := old[r]; ok {
				c.rootTo[r] = rec.rootTo[i]
			}
		}
		check := extends
		if byEval {
			switch c.extensionByEval(rec, added) {
			case -1:
				c.budget.Cache.byEval++
				continue // empty under q's path condition
			case 1:
				c.budget.Cache.byEval++
				check = false
			}
		}
		in, err := c.underLeaf(rec, fresh, check)
		if err != nil {
			return nil, err
		}
		if in {
			kept = append(kept, rec)
		}
	}
	return kept, nil
}

// underLeaf resolves the roots fresh under the literals of rec and builds
// the leaves below. With check, the leaf is first asked to be satisfiable
// with φ_q, and in reports whether it was (else nothing is built).
func (c *concretizer) underLeaf(rec *leafRec, fresh []item, check bool) (in bool, err error) {
	mark := len(c.lits)
	c.lits = append(c.lits, rec.lits...)
	// The leaf's literals join onBranch only for the search (searchRoots),
	// which reads it; onBranchRoots asks leafLits beside it. Counting them
	// in and out of the map for every leaf replayed was a twentieth of a
	// check, and most replays need no search.
	c.leafLits = rec.lits
	branched := false
	defer func() {
		if branched {
			for _, f := range c.lits[mark:] {
				if c.onBranch[f]--; c.onBranch[f] == 0 {
					delete(c.onBranch, f)
				}
			}
		}
		c.lits = c.lits[:mark]
		c.leafLits = nil
	}()
	// Without a question: every root points where it did or where the
	// leaf says, or the leaves a search built below this leaf for the
	// same roots are replayed (replayBelow; key names the roots once).
	var key string
	c.replay, c.replayMark = rec, mark
	defer func() { c.replay = nil }()
	answered := func() (bool, error) {
		if len(fresh) == 0 || c.onBranchRoots(fresh) || c.rootsByEval(rec, fresh) {
			return true, c.leaf()
		}
		key = c.rootsKey(fresh)
		return c.replayBelow(rec, key, fresh)
	}
	if !check {
		if done, err := answered(); done {
			return true, err
		}
	}
	// The leaf's literals as one assumption: its questions are relative to
	// φ_q and them, as in the search that made the leaf.
	if err := c.assumePhi(); err != nil {
		return false, err
	}
	if err := c.solver.AssumeAll(rec.lits); err != nil {
		return false, err
	}
	defer func() {
		if rerr := c.solver.Release(); err == nil {
			err = rerr
		}
	}()
	if check {
		// Check, not Sat: Sat answers true without asking.
		r, err := c.solver.Check(smt.True())
		if err != nil {
			return false, fmt.Errorf("concretize: %w", err)
		}
		if r != smt.Sat {
			return false, nil
		}
		if done, err := answered(); done {
			return true, err
		}
	}
	for _, f := range rec.lits {
		c.onBranch[f]++
	}
	branched = true
	return true, c.searchRoots(rec, key, fresh)
}

// subLeaf is one leaf that the search for a leaf's fresh roots built:
// where each root points, and the literals it chose.
type subLeaf struct {
	to   []machine.Loc
	lits []*smt.Formula
}

// searchRoots resolves the roots fresh under the leaf rec by the search,
// and keeps the leaves it built on rec under key (rootsKey), for
// replayBelow: when the same roots with the same guarded value sets are
// resolved under rec again with the same φ_q. A state that reuses a leaf
// set often keeps a root that the set's state did not have through
// several steps (on seed 1's program 196 under summary:fixed two thirds
// of the replays that went to the search resolved roots already resolved
// under that leaf). The search's answer depends only on φ_q, the leaf's
// literals and the roots' value sets (a fresh root points to null, r_un or
// a location the leaf decided present: it adds no location), so the
// leaves are the same; only a search that ended without an error is kept.
func (c *concretizer) searchRoots(rec *leafRec, key string, fresh []item) error {
	agenda, capture := c.agenda, c.capture
	c.agenda = fresh
	var subs []subLeaf
	keep := true
	c.capture = func() {
		// A root to a location the leaf had not decided present would
		// have queued its fields: that leaf is more than roots, and the
		// search's leaves are not kept.
		keep = keep && len(c.agenda) == len(fresh)
		sub := subLeaf{to: make([]machine.Loc, len(fresh)), lits: slices.Clone(c.lits[c.captureMark:])}
		for i, it := range fresh {
			sub.to[i] = c.rootTo[it.ref]
		}
		subs = append(subs, sub)
	}
	mark := c.captureMark
	c.captureMark = len(c.lits)
	err := c.search(0)
	c.agenda, c.capture, c.captureMark = agenda, capture, mark
	if err == nil && keep {
		if rec.below == nil {
			rec.below = map[string][]subLeaf{}
		}
		rec.below[key] = subs
	}
	return err
}

// replayBelow builds the leaves kept under rec for the roots fresh (key:
// rootsKey), without a question; done is false when none are kept.
func (c *concretizer) replayBelow(rec *leafRec, key string, fresh []item) (done bool, err error) {
	subs, ok := rec.below[key]
	if !ok {
		return false, nil
	}
	mark := len(c.lits)
	defer func() { c.lits = c.lits[:mark] }()
	for _, sub := range subs {
		c.lits = append(c.lits[:mark], sub.lits...)
		for i, it := range fresh {
			c.rootTo[it.ref] = sub.to[i]
		}
		if err := c.leaf(); err != nil {
			return true, err
		}
	}
	c.budget.Cache.below++
	return true, nil
}

// rootsKey names the roots fresh by their references, their guarded
// value sets and φ_q (formulas are hash-consed: an ID names one formula).
func (c *concretizer) rootsKey(fresh []item) string {
	b := binary.AppendUvarint(nil, c.lits[0].ID())
	for _, it := range fresh {
		b = binary.AppendVarint(b, int64(it.ref))
		g := c.q.Get(it.ref)
		b = binary.AppendUvarint(b, uint64(len(g)))
		for _, e := range g {
			b = binary.AppendUvarint(b, e.Guard.ID())
			b = binary.AppendVarint(b, int64(e.Loc))
		}
		if c.trusted[it.ref] {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return string(b)
}

// onBranchRoots resolves the roots fresh without a question when each has
// an entry whose guard is true or one of the leaf's literals, pointing to
// null or to a location present in the leaf: that entry holds in the leaf,
// and the other entries of the (trusted) reference cannot. Otherwise it
// changes nothing and reports false, and the roots are resolved by the
// search (which also reports what is wrong, if anything is).
func (c *concretizer) onBranchRoots(fresh []item) bool {
	return c.rootsWhere(fresh, func(g *smt.Formula) bool {
		return g.IsTrue() || c.onBranch[g] > 0 || slices.Contains(c.leafLits, g)
	})
}

// rootsWhere resolves each (trusted) root of fresh to its entry whose
// guard holds says holds in the whole leaf, when that entry points to
// null, r_un or a location present in the leaf; with one root that has
// none, it changes nothing and reports false.
func (c *concretizer) rootsWhere(fresh []item, holds func(*smt.Formula) bool) bool {
	var buf [8]machine.Loc
	to := buf[:0]
	if len(fresh) > len(buf) {
		to = make([]machine.Loc, 0, len(fresh))
	}
	to = to[:len(fresh)]
	for i, it := range fresh {
		if !c.trusted[it.ref] {
			return false
		}
		found := false
		for _, e := range c.q.Get(it.ref) {
			if !holds(e.Guard) {
				continue
			}
			l := e.Loc
			switch {
			case l == machine.LNull || l == machine.LUn:
			case l >= 0 && int(l) < len(c.q.Locs) && c.exists[l] == 1:
			default:
				return false
			}
			to[i], found = l, true
			break
		}
		if !found {
			return false
		}
	}
	for i, it := range fresh {
		c.rootTo[it.ref] = to[i]
	}
	return true
}
