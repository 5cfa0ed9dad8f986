package smt

import (
	"errors"

	"fmt"
	"github.com/lockstep-dev/lockstep/internal/knobs"
	"math"
	"runtime"
	"time"
)

// Result is the answer of a raw satisfiability query.
type Result uint8

const (
	Sat Result = iota
	Unsat
	Unknown
)

func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// ErrUnknown is returned, wrapped with Z3's reason, when Z3 answers unknown.
// The package never guesses an answer: callers decide what unknown means.
var ErrUnknown = errors.New("smt: solver answered unknown")

// ErrClosed is returned by every method of a closed Solver.
var ErrClosed = errors.New("smt: solver is closed")

// Stats counts a solver's work since it was created.
type Stats struct {
	Queries    int64 // checks that reached Z3 (AllSAT counts each step)
	Decided    int64 // checks answered exactly in Go, without Z3 (decide.go)
	FromModels int64 // of Decided: answered sat by a kept model of the assumptions (models.go)
	Learned    int64 // of Decided: answered by clause learning after the DPLL's budget (cdcl.go)
	CacheHits  int64 // Sat calls (and parts of them) answered from the cache
	// Split counts the questions with data answered in parts (split.go):
	// by reference cases, or by groups that share no symbol. Projected
	// counts the assumptions with data whose questions without data the
	// Go decider answers, through their reference projection.
	Split     int64
	Projected int64
	// Relaxed counts the questions without data under an opaque scope
	// that the Go decider found unsatisfiable with the assumptions' data
	// conjuncts left out (incremental.go, relaxed), without Z3.
	Relaxed    int64
	Unknowns   int64         // checks Z3 answered unknown
	SolverTime time.Duration // wall time spent inside Z3 checks
	// Of Queries and SolverTime: the checks with data (a term in the
	// question or in an assumption in force), which only Z3 decides.
	DataQueries int64
	DataTime    time.Duration
}

// Default cache bounds. The translation cache holds Z3 references; clearing
// it when it grows past the bound is what keeps a long-lived context flat.
const (
	defaultTransLimit = 1 << 14
	defaultConstLimit = 1 << 12
	defaultSatLimit   = 1 << 16
)

// Solver owns one long-lived Z3 context and solver. It is not safe for
// concurrent use: give every worker its own.
type Solver struct {
	z       *zctx
	cleanup runtime.Cleanup

	// consts maps a reference to its Z3 constant; trans maps a formula ID
	// to its Z3 AST. Every value holds one Z3 reference that the cache owns.
	consts map[Ref]zast
	trans  map[uint64]zast
	// sat caches Sat answers by formula ID. IDs are never reused, so a
	// stale entry for a collected formula is harmless until the next clear.
	sat map[uint64]bool
	// pairs caches SatBoth answers by the IDs of the two formulas.
	pairs map[[2]uint64]bool
	// built remembers formulas a caller built, by the key it names them
	// with (Built).
	built map[string]*Formula
	// cases caches the reference cases D[σ] of questions with data
	// (split.go).
	cases map[caseKey]*Formula
	// atoms caches the reference atoms of the data parts D (split.go), by
	// D's ID: the questions about one path share its D.
	atoms map[uint64][][2]Ref

	transLimit, constLimit, satLimit int

	// depth counts the scopes opened by Assume (incremental.go); assumed
	// holds their formulas, of which Z3 has been told the first zdepth.
	depth   int
	assumed []assumption
	zdepth  int
	// dataAt is the first scope whose assumption has data, or -1: while
	// one is in force, every question goes to Z3's data solver, which has
	// been told the first dzdepth assumptions.
	dataAt  int
	dzdepth int
	// opaqueAt is the first scope whose assumption has data and no
	// reference projection (split.go), or -1: while one is in force, the
	// questions without data go to Z3 too; under a projected scope the
	// Go decider answers them.
	opaqueAt int

	// dec is the Go decision procedure (decide.go); learn the clause
	// learning one behind it (cdcl.go), made at its first question.
	dec   *decider
	learn *cdcl
	// refModels are the last models clause learning found for the
	// questions without data of satRefCases (split.go).
	refModels []refModel
	// refFirst counts the questions with data still to go to satRefCases
	// without the decider's cases first (split.go).
	refFirst int

	stats Stats

	// scratch buffer for translating n-ary nodes, reused across calls
	args []zast
}

// NewSolver returns a solver. Its Z3 context (reference-counted mode) is
// made when a question first reaches Z3, so a solver whose questions the
// Go deciders answer all never pays for one (z3.go). Call Close when
// done; a cleanup frees the context if the Solver becomes unreachable
// without Close, but that is a safety net, not the mechanism. The error
// is always nil (a failure to make the context is the error of the
// question that needed it); it stays for the callers.
func NewSolver() (*Solver, error) {
	z := newZctx()
	s := &Solver{
		z:          z,
		consts:     make(map[Ref]zast),
		trans:      make(map[uint64]zast),
		sat:        make(map[uint64]bool),
		pairs:      make(map[[2]uint64]bool),
		cases:      make(map[caseKey]*Formula),
		atoms:      make(map[uint64][][2]Ref),
		transLimit: defaultTransLimit,
		constLimit: defaultConstLimit,
		satLimit:   defaultSatLimit,
		dec:        newDecider(),
		dataAt:     -1,
		opaqueAt:   -1,
	}
	// Deleting the context frees all its ASTs, so the cleanup need not know
	// about the caches (and must not reference s).
	s.cleanup = runtime.AddCleanup(s, func(z *zctx) { z.free() }, z)
	return s, nil
}

// Close releases every Z3 reference the solver holds and deletes the
// context, if one was made. It is idempotent.
func (s *Solver) Close() {
	if s.z == nil {
		return
	}
	s.cleanup.Stop()
	s.releaseASTs()
	s.z.free()
	s.z = nil
	s.sat = nil
}

// releaseASTs drops the references held by the translation and constant
// caches. Z3 frees an AST once no reference (ours, or a parent's) is left.
func (s *Solver) releaseASTs() {
	for id, a := range s.trans {
		s.z.decRef(a)
		delete(s.trans, id)
	}
	for r, a := range s.consts {
		s.z.decRef(a)
		delete(s.consts, r)
	}
}

// bound enforces the limits of the Z3 AST caches (the answer caches are
// bounded as they fill: remember). It runs only at the start of a
// top-level query, never during a translation, so an AST being built is
// never freed.
func (s *Solver) bound() {
	if len(s.trans) > s.transLimit || len(s.consts) > s.constLimit {
		s.releaseASTs()
	}
}

// ResetCache forgets cached Sat answers and releases the cached Z3 ASTs.
func (s *Solver) ResetCache() {
	if s.z == nil {
		return
	}
	clear(s.sat)
	clear(s.pairs)
	clear(s.cases)
	clear(s.atoms)
	s.releaseASTs()
}

// SetTimeout bounds each check; a check that runs out of time answers
// unknown (an error wrapping ErrUnknown). d <= 0 removes the bound. Equality
// logic over a handful of references never comes close to needing one, but
// a checker running unattended should not hang on a pathological query.
func (s *Solver) SetTimeout(d time.Duration) error {
	if s.z == nil {
		return ErrClosed
	}
	ms := uint32(math.MaxUint32) // Z3's "no timeout"
	if d > 0 {
		ms = uint32(min(d.Milliseconds(), math.MaxUint32-1))
		ms = max(ms, 1)
	}
	return s.z.setUintParam("timeout", ms)
}

// Stats returns the counters accumulated so far.
func (s *Solver) Stats() Stats { return s.stats }

// DataQueries returns how many checks with data reached Z3 (every one
// does) and the wall time they took: the new cost of programs with data.
func (s *Solver) DataQueries() (int64, time.Duration) {
	return s.stats.DataQueries, s.stats.DataTime
}

// constant returns the cached Z3 constant for r.
func (s *Solver) constant(r Ref) (zast, error) {
	if a, ok := s.consts[r]; ok {
		return a, nil
	}
	if r == Un {
		return nil, errors.New("smt: r_un cannot be sent to the solver")
	}
	a, err := s.z.mkConst(r.String())
	if err != nil {
		return nil, err
	}
	s.consts[r] = a
	return a, nil
}

// translate returns the Z3 AST of f, owned by the translation cache.
func (s *Solver) translate(f *Formula) (zast, error) {
	if a, ok := s.trans[f.id]; ok {
		return a, nil
	}
	var (
		a   zast
		err error
	)
	switch f.op {
	case OpTrue:
		a, err = s.z.mk(lkTrue, nil)
	case OpFalse:
		a, err = s.z.mk(lkFalse, nil)
	case OpEq:
		var x, y zast
		if x, err = s.constant(f.a); err != nil {
			return nil, err
		}
		if y, err = s.constant(f.b); err != nil {
			return nil, err
		}
		a, err = s.z.mk(lkEq, []zast{x, y})
	case OpNot:
		var k zast
		if k, err = s.translate(f.kids[0]); err != nil {
			return nil, err
		}
		a, err = s.z.mk(lkNot, []zast{k})
	case OpInt:
		if err = s.z.ensureData(); err != nil {
			return nil, err
		}
		v, _ := f.IntValue()
		a, err = s.z.mkInt(v)
	case OpSym:
		if err = s.z.ensureData(); err != nil {
			return nil, err
		}
		sort := s.z.intSort
		if f.sort == SortBool {
			sort = s.z.boolSort
		}
		// The sort is in the name: a Z3 symbol names one constant.
		a, err = s.z.mkConstOf(sort, f.String()+":"+f.sort.String())
	case OpAnd, OpOr, OpAdd, OpSub, OpLt, OpLe, OpEqT, OpIte:
		// Kids are translated first (recursion may reuse s.args), then
		// collected into a fresh window of the scratch buffer.
		for _, k := range f.kids {
			if _, err = s.translate(k); err != nil {
				return nil, err
			}
		}
		start := len(s.args)
		for _, k := range f.kids {
			s.args = append(s.args, s.trans[k.id])
		}
		op := zops[f.op]
		if f.op == OpLe && knobs.SMTLeAsLt.Load() {
			op = lkLt // a mutant of the term layer (tests and `lockstep mutants -shared` only)
		}
		a, err = s.z.mk(op, s.args[start:])
		s.args = s.args[:start]
	default:
		return nil, fmt.Errorf("smt: bad formula op %d", f.op)
	}
	if err != nil {
		return nil, err
	}
	s.trans[f.id] = a
	return a, nil
}

// zops is the binding's operator of each n-ary node (EqT is Z3's =, which
// is ⇔ on bools).
var zops = [...]zop{OpAnd: lkAnd, OpOr: lkOr, OpAdd: lkAdd, OpSub: lkSub, OpLt: lkLt, OpLe: lkLe, OpEqT: lkEq, OpIte: lkIte}

// Sat reports whether f is satisfiable. Answers are cached by formula; the
// constants true and false are answered without Z3. An unknown answer is an
// error wrapping ErrUnknown and is not cached.
func (s *Solver) Sat(f *Formula) (bool, error) {
	switch f.op {
	case OpTrue:
		return true, nil
	case OpFalse:
		return false, nil
	}
	if s.z == nil {
		return false, ErrClosed
	}
	if s.depth > 0 {
		// Relative to the assumptions: neither from nor into the cache.
		r, err := s.Check(f)
		return r == Sat, err
	}
	if v, ok := s.sat[f.id]; ok {
		s.stats.CacheHits++
		return v, nil
	}
	if f.data {
		// In parts (split.go): the guards the reference conjuncts decide
		// folded, and the groups that share no symbol asked apart.
		v, done, err := s.satParts(f)
		if done {
			if err != nil {
				return false, err
			}
			remember(s.sat, f.id, v, s.satLimit)
			return v, nil
		}
	}
	return s.checkRemember(f)
}

// checkRemember asks f whole, outside assumptions, and caches the answer.
func (s *Solver) checkRemember(f *Formula) (bool, error) {
	r, err := s.Check(f)
	if err != nil {
		return false, err
	}
	v := r == Sat
	remember(s.sat, f.id, v, s.satLimit)
	return v, nil
}

// remember caches an answer, clearing the cache first when it is full (at
// insertion, since most answers come from Go and never reach bound()).
func remember[K comparable](cache map[K]bool, k K, v bool, limit int) {
	if len(cache) >= limit {
		clear(cache)
	}
	cache[k] = v
}

// Built returns the formula remembered under key, or builds it with
// build and remembers it. The caller names a formula it builds from
// others by their IDs (an ID is never reused, so a key names one
// sequence of formulas): relation's determinism check names "two guards
// hold" by the guards of the value set, which recurs from state to state,
// so that the formula is not interned again before Sat's cache answers it.
// The memo is the solver's, bounded as its answer caches are and dropped
// by Forget with them, so that it keeps no formula past a run.
func (s *Solver) Built(key string, build func() *Formula) *Formula {
	if f, ok := s.built[key]; ok {
		return f
	}
	f := build()
	if s.built == nil || len(s.built) >= s.satLimit/4 {
		s.built = make(map[string]*Formula)
	}
	s.built[key] = f
	return f
}

// SatBoth is Sat(And(a, b)), with its answers (without assumptions) cached
// by the pair of formulas, so that a pair asked again does not build the
// conjunction: the determinism check asks every pair of guards of every
// reference at every step, and most pairs are the ones of the step before.
func (s *Solver) SatBoth(a, b *Formula) (bool, error) {
	if s.depth > 0 || s.z == nil {
		return s.Sat(And(a, b))
	}
	key := [2]uint64{a.id, b.id}
	if key[0] > key[1] {
		key[0], key[1] = key[1], key[0]
	}
	if v, ok := s.pairs[key]; ok {
		s.stats.CacheHits++
		return v, nil
	}
	v, err := s.Sat(And(a, b))
	if err != nil {
		return false, err
	}
	remember(s.pairs, key, v, s.satLimit)
	return v, nil
}

// Check runs one uncached query on f: in Go when the decision procedure of
// decide.go answers within its budget, otherwise as a push/assert/check/pop
// in Z3. A question with data in f, or under an assumption with data that
// has no reference projection (split.go), goes to Z3's data solver at once;
// under one with a projection, a question without data is the decider's. It returns Unknown together with an error
// wrapping ErrUnknown when Z3 gives up.
func (s *Solver) Check(f *Formula) (Result, error) {
	if s.z == nil {
		return Unknown, ErrClosed
	}
	if f.data {
		return s.z3Check(f)
	}
	if s.opaqueAt >= 0 {
		if r, ok, err := s.relaxedUnsat(f); ok || err != nil {
			return r, err
		}
		return s.z3Check(f)
	}
	if r, ok, err := s.goCheck(f); ok || err != nil {
		if err != nil {
			return r, err
		}
		lr, err := s.z.goAnswer(r)
		if err != nil {
			return Unknown, err
		}
		return s.result(lr, false)
	}
	return s.z3Check(f)
}

// z3Check is Check by Z3: by the data solver when f or an assumption in
// force has data, else by the reference solver.
func (s *Solver) z3Check(f *Formula) (Result, error) {
	data := f.data || s.dataAt >= 0
	s.bound()
	if data {
		if err := s.z.ensureData(); err != nil {
			return Unknown, err
		}
	}
	if err := s.syncZ3(data); err != nil {
		return Unknown, err
	}
	a, err := s.translate(f)
	if err != nil {
		return Unknown, err
	}
	start := time.Now()
	r, err := s.z.check(data, a)
	s.count(data, time.Since(start))
	if err != nil {
		return Unknown, err
	}
	return s.result(r, data)
}

// count counts one check that reached Z3.
func (s *Solver) count(data bool, d time.Duration) {
	s.stats.SolverTime += d
	s.stats.Queries++
	if data {
		s.stats.DataTime += d
		s.stats.DataQueries++
	}
}

func (s *Solver) result(r int, data bool) (Result, error) {
	switch r {
	case lTrue:
		return Sat, nil
	case lFalse:
		return Unsat, nil
	}
	s.stats.Unknowns++
	return Unknown, fmt.Errorf("%w: %s", ErrUnknown, s.z.reasonUnknown(data))
}

// AllSAT enumerates the assignments to atoms (each an OpEq formula) that
// extend to a model of f, projected onto the atoms: after each model a
// blocking clause over the atoms only is asserted. Each model is a []bool
// aligned with atoms. With limit > 0 at most limit models are returned, and
// complete reports whether the enumeration is known to be exhaustive (one
// extra check decides it when exactly limit models were found).
func (s *Solver) AllSAT(f *Formula, atoms []*Formula, limit int) (models [][]bool, complete bool, err error) {
	if s.z == nil {
		return nil, false, ErrClosed
	}
	if s.depth > 0 {
		return nil, false, ErrAssuming
	}
	for i, a := range atoms {
		if a.op != OpEq {
			return nil, false, fmt.Errorf("smt: AllSAT atom %d is %v, not an equality", i, a)
		}
	}
	if f.op == OpFalse {
		return nil, true, nil
	}
	data := f.data
	s.bound()
	if data {
		if err := s.z.ensureData(); err != nil {
			return nil, false, err
		}
	}
	fa, err := s.translate(f)
	if err != nil {
		return nil, false, err
	}
	zatoms := make([]zast, len(atoms))
	for i, a := range atoms {
		if zatoms[i], err = s.translate(a); err != nil {
			return nil, false, err
		}
	}
	if err := s.z.push(data); err != nil {
		return nil, false, err
	}
	// The blocking clauses live in this scope; pop even on error so the
	// solver returns to its base level.
	defer func() {
		if perr := s.z.pop(data); perr != nil && err == nil {
			err = perr
		}
	}()
	if err := s.z.assert(data, fa); err != nil {
		return nil, false, err
	}
	vals := make([]zbyte, len(atoms))
	lits := make([]zast, len(atoms))
	for {
		start := time.Now()
		r, err := s.z.allsatStep(data, zatoms, vals, lits)
		s.count(data, time.Since(start))
		if err != nil {
			return models, false, err
		}
		if r == lFalse {
			return models, true, nil
		}
		if r != lTrue {
			_, err := s.result(r, data)
			return models, false, err
		}
		if limit > 0 && len(models) == limit {
			return models, false, nil // a further model exists
		}
		m := make([]bool, len(atoms))
		for i, v := range vals {
			m[i] = v != 0
		}
		models = append(models, m)
		if len(atoms) == 0 {
			// The empty projection has exactly one assignment; with no
			// atoms the blocking clause would be the empty clause anyway.
			return models, true, nil
		}
	}
}

// ErrModelRange is returned by Model when a term's value in the model Z3
// found does not fit an int64.
var ErrModelRange = errors.New("smt: a model value does not fit an int64")

// Model checks f and, when it is satisfiable, returns the value of each of
// terms (int terms and bool terms, a bool as 1 or 0) in one model of f. Z3
// completes the model, so a term over symbols f does not mention gets a
// value too. It runs outside any assumption (ErrAssuming while one is in
// force), uncached, in a Z3 context of its own with the question in
// structural order, so that the model is the same on every run
// (modelctx.go). Unsat returns no values; unknown returns an error
// wrapping ErrUnknown, as Check does.
func (s *Solver) Model(f *Formula, terms []*Formula) (Result, []int64, error) {
	if s.z == nil {
		return Unknown, nil, ErrClosed
	}
	if s.depth > 0 {
		return Unknown, nil, ErrAssuming
	}
	if f.op == OpFalse {
		return Unsat, nil, nil
	}
	return s.model(f, terms)
}
