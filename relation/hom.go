package relation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Unmapped marks a location of p that a homomorphism does not map: a
// location the search did not need (a non-input location that no root
// reaches).
const Unmapped machine.Loc = -3

// Options select the reading of Def. 14.
//
// By default h must be injective on numbered locations. The literal Def. 14
// does not ask for it, but two distinct objects of a GSE state can never be
// one object of a summary state in any concretization: every concretization
// is a heap in which each summary location is one object. Without
// injectivity a summary that has lost a non-aliasing case still
// "represents" the GSE state through an h that collapses the two objects
// onto the one location standing for the aliased case (the guards used then
// hold in the aliasing assignment, so S(φ_q ∧ HC) holds), and representation
// no longer detects the loss. NonInjective gives the literal reading, so the
// checker can show what that reading lets through.
type Options struct {
	NonInjective bool
	// PruneHC abandons a partial map as soon as φ_q ∧ (the guards used so
	// far) is unsatisfiable. No completion of such a map can satisfy
	// S(φ_q ∧ HC), so representation gets the same answer with fewer
	// nodes; the plain enumeration (PruneHC false) yields every structural
	// homomorphism, satisfiable HC or not.
	PruneHC bool
	// MaxNodes bounds the candidate images tried; ≤ 0 is unbounded.
	MaxNodes int
	// Done, if not nil, stops the search when closed (Budget.Done), with
	// an error wrapping ErrStopped.
	Done <-chan struct{}

	// satQ, if not nil, memoizes S(φ_q ∧ g) by g for one q across several
	// searches into it (exact: one per member of P). The members of a GSE
	// group share most of their structure, so their searches ask largely
	// the same questions.
	satQ map[*smt.Formula]bool
}

// Hom is one homomorphism p ⇀_h q.
type Hom struct {
	// Map[l] is h(l) for every numbered location l of p, Unmapped for the
	// locations the search did not need.
	Map []machine.Loc
	// HC is the homomorphism constraint (Def. 15): the conjunction of the
	// guards φ_b of the entries h uses (roots and field edges), and of the
	// existence guard of the image of each location no root reaches.
	HC *smt.Formula
	// Nodes is the number of search nodes visited up to this homomorphism.
	Nodes int
	// sat records that the search established S(φ_q ∧ HC) (PruneHC), so
	// that represents need not ask again.
	sat bool
}

// Apply returns h(l), with h(l_null) = l_null and h(l_un) = l_un.
func (h *Hom) Apply(l machine.Loc) machine.Loc {
	if l < 0 {
		return l
	}
	if int(l) >= len(h.Map) {
		return Unmapped
	}
	return h.Map[l]
}

func (h *Hom) String() string {
	var parts []string
	for l, t := range h.Map {
		if t != Unmapped {
			parts = append(parts, fmt.Sprintf("%v↦%v", machine.Loc(l), t))
		}
	}
	return "{" + strings.Join(parts, " ") + "} HC=" + smt.Short(h.HC)
}

// pEdge is one field edge β.f → target of p, seen from one end.
type pEdge struct {
	from machine.Loc
	f    int // index into the class's Fields
	to   machine.Loc
}

type homSearch struct {
	p, q   *machine.State
	solver *smt.Solver
	opt    Options
	phiQ   *smt.Formula

	order   []machine.Loc     // p locations in assignment order
	unreach []bool            // by p location: required but not reachable from the roots
	roots   [][]machine.Ref   // by p location: roots whose L_p holds it
	in      [][]pEdge         // by p location: edges into it
	out     [][]pEdge         // by p location: edges out of it
	fixed   []fixedConstraint // roots of p pointing to l_null / l_un
	h       []machine.Loc     // by p location
	owner   []machine.Loc     // by q location: the p location mapped to it (injectivity)
	guards  []*smt.Formula    // guards used so far, a stack
	satOK   map[*smt.Formula]bool
	nodes   int

	// Incremental pruning (PruneHC): φ_q and the guards of every search
	// node are assumed in the solver along the depth-first path, so that a
	// question is only the new guard, relative to φ_q and the guards above
	// it, and no conjunction is built or asserted again per question.
	// levels holds the guard count at each node's assumption (its mark);
	// base is the solver's assumption count before the search. inc caches
	// the answers to entry guards per level: an answer found at level d of
	// generation gen holds while that level is on the path (gens[d] ==
	// gen), unsat also below it.
	inc     bool
	base    int
	levels  []int
	gens    []uint64
	gen     uint64
	incOK   map[*smt.Formula]incAnswer
	yield   func(*Hom) bool
	stopped bool
}

type incAnswer struct {
	gen   uint64
	depth int
	ok    bool
}

// assume asserts g as a new solver level of the search; mark is the guard
// count before the node's guards.
func (s *homSearch) assume(g *smt.Formula, mark int) error {
	if err := s.solver.Assume(g); err != nil {
		return err
	}
	s.levels = append(s.levels, mark)
	s.gen++
	s.gens = append(s.gens, s.gen)
	return nil
}

// release drops the newest level.
func (s *homSearch) release() error {
	s.levels = s.levels[:len(s.levels)-1]
	s.gens = s.gens[:len(s.gens)-1]
	return s.solver.Release()
}

// releaseAll leaves the solver as the search found it.
func (s *homSearch) releaseAll() error {
	var err error
	for s.solver.Assumptions() > s.base {
		if e := s.solver.Release(); err == nil {
			err = e
		}
	}
	s.levels, s.gens = s.levels[:0], s.gens[:0]
	return err
}

// reassume restores the levels of the current path (after releaseAll, for
// a yield that lets the search go on): φ_q, then each node's guards.
func (s *homSearch) reassume(marks []int) error {
	if err := s.assume(s.phiQ, -1); err != nil {
		return err
	}
	for i := 1; i < len(marks); i++ {
		end := len(s.guards)
		if i+1 < len(marks) {
			end = marks[i+1]
		}
		if err := s.assume(smt.And(s.guards[marks[i]:end]...), marks[i]); err != nil {
			return err
		}
	}
	return nil
}

// satHere asks whether the levels assumed so far are satisfiable.
func (s *homSearch) satHere() (bool, error) {
	r, err := s.solver.Check(smt.True())
	return r == smt.Sat, err
}

type fixedConstraint struct {
	root machine.Ref
	loc  machine.Loc
}

// Homomorphisms enumerates the homomorphisms p ⇀_h q (Def. 14 with the
// stack roots, see Options for injectivity) lazily: yield is called with
// each, and the search stops when yield returns false. Entries of q whose
// guard is unsatisfiable with φ_q are never used.
//
// The locations of p that must be mapped are those reachable from the roots
// and every input location with what it reaches: an input location the
// stack no longer reaches still matters, because a later initialization can
// alias it. For each such unreachable location the existence guard of its
// image (LocInfo.Exists) joins HC, since no field guard vouches for it; an
// unreachable input location of p may only map to an input location of q.
// Classes of a location and its image must agree.
//
// The error wraps ErrBudget when MaxNodes ran out, and a solver error
// (possibly smt.ErrUnknown) when a query could not be decided.
func Homomorphisms(p, q *machine.State, solver *smt.Solver, opt Options, yield func(*Hom) bool) error {
	_, err := homomorphisms(p, q, solver, opt, yield)
	return err
}

// homomorphisms is Homomorphisms that also reports the nodes visited.
func homomorphisms(p, q *machine.State, solver *smt.Solver, opt Options, yield func(*Hom) bool) (nodes int, rerr error) {
	if err := checkState(p); err != nil {
		return 0, fmt.Errorf("p: %w", err)
	}
	if err := checkState(q); err != nil {
		return 0, fmt.Errorf("q: %w", err)
	}
	satOK := opt.satQ
	if satOK == nil {
		satOK = map[*smt.Formula]bool{}
	}
	s := &homSearch{p: p, q: q, solver: solver, opt: opt, phiQ: q.PathCondition(),
		satOK: satOK, yield: yield}
	if err := s.prepare(); err != nil {
		return 0, err
	}
	if opt.PruneHC {
		// Incremental: φ_q is the first level; every exit releases what
		// the search assumed.
		s.inc, s.base, s.incOK = true, solver.Assumptions(), map[*smt.Formula]incAnswer{}
		defer func() {
			if err := s.releaseAll(); err != nil && rerr == nil {
				rerr = err
			}
		}()
		if err := s.assume(s.phiQ, -1); err != nil {
			return 0, err
		}
		if ok, err := s.satHere(); err != nil || !ok {
			return 0, err
		}
	}
	base, err := s.checkFixed()
	if err != nil || !base {
		return 0, err
	}
	err = s.assign(0)
	return s.nodes, err
}

// targets lists the locations of L(r), in entry order.
func targets(st *machine.State, r machine.Ref) []machine.Loc {
	g := st.Get(r)
	out := make([]machine.Loc, len(g))
	for i, e := range g {
		out[i] = e.Loc
	}
	return out
}

func (s *homSearch) prepare() error {
	p := s.p
	n := len(p.Locs)
	s.unreach = make([]bool, n)
	s.roots = make([][]machine.Ref, n)
	s.in = make([][]pEdge, n)
	s.out = make([][]pEdge, n)
	s.h = make([]machine.Loc, n)
	for i := range s.h {
		s.h[i] = Unmapped
	}
	s.owner = make([]machine.Loc, len(s.q.Locs))
	for i := range s.owner {
		s.owner[i] = Unmapped
	}
	valid := func(l machine.Loc, what string) error {
		if l >= machine.Loc(n) || (l < 0 && l != machine.LNull && l != machine.LUn) {
			return fmt.Errorf("p: %s points to %v, which does not exist", what, l)
		}
		return nil
	}
	for l, info := range p.Locs {
		for fi, f := range info.Class.Fields {
			r := p.Field(machine.Loc(l), f)
			for _, t := range targets(p, r) {
				if err := valid(t, fmt.Sprintf("l%d.%s", l, f.Name)); err != nil {
					return err
				}
				e := pEdge{from: machine.Loc(l), f: fi, to: t}
				s.out[l] = append(s.out[l], e)
				if t >= 0 {
					s.in[t] = append(s.in[t], e)
				}
			}
		}
	}
	queued := make([]bool, n)
	enqueue := func(l machine.Loc, unreach bool) {
		if l >= 0 && !queued[l] {
			queued[l] = true
			s.unreach[l] = unreach
			s.order = append(s.order, l)
		}
	}
	for _, r := range p.Roots() {
		for _, t := range targets(p, r) {
			if err := valid(t, "root "+machine.RefString(r)); err != nil {
				return err
			}
			if t < 0 {
				s.fixed = append(s.fixed, fixedConstraint{root: r, loc: t})
				continue
			}
			s.roots[t] = append(s.roots[t], r)
			enqueue(t, false)
		}
	}
	// Breadth-first: every location after the roots' is reached by an edge
	// from one placed earlier, so its candidates come from that edge.
	closure := func(from int, unreach bool) {
		for i := from; i < len(s.order); i++ {
			for _, e := range s.out[s.order[i]] {
				enqueue(e.to, unreach)
			}
		}
	}
	closure(0, false)
	for l, info := range p.Locs {
		if info.Input && !queued[l] {
			k := len(s.order)
			enqueue(machine.Loc(l), true)
			closure(k, true)
		}
	}
	return nil
}

// entryGuard returns the guard of l in L_q(r), if l is there and the guard
// is satisfiable with φ_q.
func (s *homSearch) entryGuard(r machine.Ref, l machine.Loc) (*smt.Formula, bool, error) {
	for _, e := range s.q.Get(r) {
		if e.Loc == l {
			ok, err := s.satWithPhi(e.Guard)
			return e.Guard, ok, err
		}
	}
	return nil, false, nil
}

func (s *homSearch) satWithPhi(g *smt.Formula) (bool, error) {
	if s.inc {
		return s.satIncremental(g)
	}
	if ok, found := s.satOK[g]; found {
		return ok, nil
	}
	f := smt.And(s.phiQ, g)
	ok := !f.IsFalse()
	if ok && !f.IsTrue() {
		var err error
		if ok, err = s.solver.Sat(f); err != nil {
			return false, err
		}
	}
	s.satOK[g] = ok
	return ok, nil
}

// satIncremental is satWithPhi under PruneHC: whether g can hold together
// with φ_q and the guards of the current path (the solver's levels). A
// guard unsatisfiable there leaves no completion with S(φ_q ∧ HC), which
// is all the pruning needs.
func (s *homSearch) satIncremental(g *smt.Formula) (bool, error) {
	switch {
	case g.IsTrue():
		return true, nil
	case g.IsFalse():
		return false, nil
	}
	d := len(s.gens) - 1
	if a, found := s.incOK[g]; found && a.depth < len(s.gens) && s.gens[a.depth] == a.gen && (a.depth == d || !a.ok) {
		return a.ok, nil
	}
	r, err := s.solver.Check(g)
	if err != nil {
		return false, err
	}
	ok := r == smt.Sat
	s.incOK[g] = incAnswer{gen: s.gens[d], depth: d, ok: ok}
	return ok, nil
}

// checkFixed checks the roots of p that point to l_null or l_un and pushes
// their guards.
func (s *homSearch) checkFixed() (bool, error) {
	for _, c := range s.fixed {
		g, ok, err := s.entryGuard(c.root, c.loc)
		if err != nil || !ok {
			return false, err
		}
		s.guards = append(s.guards, g)
	}
	if s.inc && len(s.guards) > 0 {
		if err := s.assume(smt.And(s.guards...), 0); err != nil {
			return false, err
		}
		return s.satHere()
	}
	return true, nil
}

// candidates returns the possible images of p location l, from its most
// selective already-decided constraint.
func (s *homSearch) candidates(l machine.Loc) []machine.Loc {
	var best []machine.Loc
	have := false
	consider := func(c []machine.Loc) {
		if !have || len(c) < len(best) {
			best, have = c, true
		}
	}
	for _, r := range s.roots[l] {
		consider(targets(s.q, r))
	}
	for _, e := range s.in[l] {
		if hb := s.h[e.from]; hb != Unmapped {
			f := s.p.Locs[e.from].Class.Fields[e.f]
			consider(targets(s.q, s.q.Field(hb, f)))
		}
	}
	if have {
		return best
	}
	// An unreachable input location no mapped location points to: any
	// input location of q of its class may be its image.
	var out []machine.Loc
	for ql, info := range s.q.Locs {
		if info.Input {
			out = append(out, machine.Loc(ql))
		}
	}
	return out
}

// tryImage checks every constraint that becomes decided when h(l) = c and
// pushes the guards used. It reports false if one fails; the caller pops
// the guards in either case.
func (s *homSearch) tryImage(l, c machine.Loc) (bool, error) {
	if c < 0 || int(c) >= len(s.q.Locs) {
		return false, nil
	}
	pc, qc := s.p.Locs[l], s.q.Locs[c]
	if !sameClass(pc.Class.Name, qc.Class.Name) {
		return false, nil
	}
	if s.unreach[l] && pc.Input && !qc.Input {
		return false, nil
	}
	if !s.opt.NonInjective && s.owner[c] != Unmapped {
		return false, nil
	}
	use := func(r machine.Ref, t machine.Loc) (bool, error) {
		g, ok, err := s.entryGuard(r, t)
		if ok {
			s.guards = append(s.guards, g)
		}
		return ok, err
	}
	for _, r := range s.roots[l] {
		if ok, err := use(r, c); !ok || err != nil {
			return false, err
		}
	}
	img := func(t machine.Loc) machine.Loc {
		if t == l {
			return c
		}
		if t < 0 {
			return t
		}
		return s.h[t]
	}
	// Edges into l from mapped locations (a self loop counts here once).
	for _, e := range s.in[l] {
		hb := img(e.from)
		if hb == Unmapped {
			continue
		}
		f := s.p.Locs[e.from].Class.Fields[e.f]
		if ok, err := use(s.q.Field(hb, f), c); !ok || err != nil {
			return false, err
		}
	}
	// Edges out of l to mapped locations, l_null and l_un.
	for _, e := range s.out[l] {
		if e.to == l {
			continue // checked above
		}
		ht := img(e.to)
		if ht == Unmapped {
			continue
		}
		f := pc.Class.Fields[e.f]
		if ok, err := use(s.q.Field(c, f), ht); !ok || err != nil {
			return false, err
		}
	}
	if s.unreach[l] {
		ok, err := s.satWithPhi(qc.Exists)
		if !ok || err != nil {
			return false, err
		}
		s.guards = append(s.guards, qc.Exists)
	}
	return true, nil
}

func (s *homSearch) assign(i int) error {
	if i == len(s.order) {
		h := &Hom{Map: append([]machine.Loc(nil), s.h...), HC: smt.And(s.guards...), Nodes: s.nodes, sat: s.inc}
		if !s.inc {
			if !s.yield(h) {
				s.stopped = true
			}
			return nil
		}
		// yield sees the solver as the caller left it.
		marks := slices.Clone(s.levels)
		if err := s.releaseAll(); err != nil {
			return err
		}
		if !s.yield(h) {
			s.stopped = true
			return nil
		}
		return s.reassume(marks)
	}
	l := s.order[i]
	for _, c := range s.candidates(l) {
		s.nodes++
		if s.opt.MaxNodes > 0 && s.nodes > s.opt.MaxNodes {
			return fmt.Errorf("homomorphism search: %d nodes: %w", s.opt.MaxNodes, ErrBudget)
		}
		if (Budget{Done: s.opt.Done}).stopped() {
			return fmt.Errorf("homomorphism search: %w", ErrStopped)
		}
		mark := len(s.guards)
		ok, err := s.tryImage(l, c)
		assumed := false
		if err == nil && ok && s.inc && len(s.guards) > mark {
			if err = s.assume(smt.And(s.guards[mark:]...), mark); err == nil {
				assumed = true
				ok, err = s.satHere()
			}
		}
		if err == nil && ok {
			s.h[l] = c
			prev := s.owner[c]
			s.owner[c] = l
			err = s.assign(i + 1)
			s.owner[c] = prev
			s.h[l] = Unmapped
		}
		if assumed && !s.stopped && err == nil {
			err = s.release()
		}
		s.guards = s.guards[:mark]
		if err != nil || s.stopped {
			return err
		}
	}
	return nil
}
