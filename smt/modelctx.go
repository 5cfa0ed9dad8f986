package smt

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/lockstep-dev/lockstep/internal/knobs"
)

// The model context: where Model asks its questions.
//
// A model is not determined by the question alone the way sat and unsat
// are: Z3 returns one of many, and which one depends on everything that
// shaped its search — the order of a conjunction's operands, the ids of
// the ASTs (Z3 orders some operands by id), and the lemmas and phases an
// incremental solver kept from earlier queries. In the Solver's own
// context all three vary between runs of one program: operands of And, Or
// and EqT are ordered by Formula ID, and an ID is given when a formula is
// interned, so a formula the garbage collector dropped and a path rebuilt
// gets a new, larger ID at a moment that depends on when the collector
// ran; the ASTs of the reference and data questions follow the same
// order. Lemma ORC runs the concrete interpreter on the models, so its
// counts and valuations followed the collector (bst_lookup.jl at k = 2:
// ORC×317 to ORC×319 over repeated runs; constant under GOGC=off).
//
// So Model runs in a Z3 context of its own that only Model uses, made on
// the first call (the Solver's own context is made lazily too, z3.go).
// A simple solver of the Solver's context instead would save the model
// context's making and deleting (about 7 ms of CPU, a twentieth of
// bst_insert's check at k = 2; its 17 MB of resident memory are spared
// otherwise, below), but the ids of its ASTs would follow the Solver's
// translations, and the models change: measured under summary:fixed on
// testdata/data, alias_constrained.jl's ORC count goes from 48 to 49. So
// the model context stays, with:
//
//   - a translation in structural order (canonicalOrder): the operands of
//     And, Or and EqT sorted by their structure, never by ID, so a
//     question is the same Z3 AST, built in the same order, whatever the
//     IDs of its parts;
//   - no translation cache across calls: each call's ASTs are released
//     after it, in the reverse of the order they were made (Z3 reuses the
//     ids of freed ASTs, so a map's order here would reach the next
//     model), and the context's state depends on the sequence of Model
//     questions only;
//   - a fixed random_seed (Z3's default, 0, set explicitly);
//   - ResetModels, which the checker calls per program, so that the
//     questions of a worker's earlier programs do not count either.
//
// The sequence of Model questions after a reset is then a function of the
// program and the earlier answers, so the answers are too: the same
// program, options and Z3 version give the same models on every run and
// machine. The one thing left to the clock is a solver timeout (SetTimeout,
// which the model context shares): a question that runs out of time
// answers unknown, which is an error (inconclusive), never another model.

// One Z3 context at a time. A Z3 context (4.8.12) takes 17 MB of
// resident memory the moment it is made, whatever is asked of it (z3.go
// drop): the Solver's context and the model context held together are 34
// MB of a check whose whole peak is about 64 MB without the second
// (bst_insert.jl at k = 2). The oracle (lemma ORC) asks its Model
// questions after the lockstep walk, whose questions are the Solver's.
// So:
//
//   - making the model context first deletes the Solver's context
//     (parkMain) when no assumption is in force in it: its ASTs go with
//     it and the Solver's translation caches are cleared. A question of
//     the Solver that reaches Z3 while the model context lives opens a
//     context again (on bst_insert.jl, a feasibility question of the
//     oracle's completeness half that the Solver's answer cache, keyed by
//     Formula ID, misses when the collector dropped the formula: about
//     one check in ten);
//   - only for the Solver's first model context: along a stream of
//     programs the Solver's context outlives each program, and one handed
//     over anew at every program makes its solvers (the logic's setup) and
//     translations again, 6 ms a program (the 21 programs of testdata/data
//     at k = 2 took 22 % more CPU so). From the second model context on
//     the two coexist, as a stream's peak (its Go heap, mostly) allows;
//   - when Model's questions end (ResetModels, which Forget calls at the
//     end of every run), a parked Solver takes the model context over
//     (zctx.adopt, with solvers of its own) instead of making one at its
//     next question; otherwise the model context is deleted.
//
// None of this touches what the model context answers: it is made afresh
// for a program's first Model question after a reset and asked the same
// questions in the same order. The Solver's context carries no such
// promise (its ASTs follow the Formula IDs), and its answers are the
// questions' own.

// ResetModels starts Model afresh: the next call makes a new model
// context, so the models that follow depend only on the questions asked
// from here on, not on those asked before (of another program, say, by a
// worker that checks several). The model context ends here: a parked
// Solver context takes it over (see above), or it is deleted.
func (s *Solver) ResetModels() {
	if s.z == nil {
		return
	}
	s.z.gate.mu.Lock()
	mz := s.z.linked
	s.z.linked = nil
	s.z.gate.mu.Unlock()
	if mz != nil && !s.z.adopt(mz) {
		mz.free()
	}
}

// parkMain deletes the Solver's own Z3 context before its first model
// context is made (see above), unless an assumption is in force (Assume:
// its scopes live in that context). Deleting the context frees every AST
// made in it, so the caches holding them are cleared, not released one by
// one.
func (s *Solver) parkMain() {
	z := s.z
	if z.ctx == nil || s.depth > 0 || z.parkedOnce {
		return
	}
	clear(s.trans)
	clear(s.consts)
	z.drop()
	z.parked, z.parkedOnce = true, true
}

// modelSeed is the random seed of the model context's solver.
const modelSeed = 0

// modelCtx returns the model context, making it on the first call.
func (s *Solver) modelCtx() (*zctx, error) {
	z := s.z
	if z.linked != nil {
		return z.linked, nil
	}
	s.parkMain()
	mz := newZctx()
	mz.simple = true
	// The parameters set so far (a timeout, say) apply here too, when its
	// solvers are made (open, ensureData); later ones reach it through
	// setUintParam.
	mz.params = maps.Clone(z.params)
	if err := mz.setUintParam("random_seed", modelSeed); err != nil {
		mz.free()
		return nil, err
	}
	if err := mz.ensureData(); err != nil {
		mz.free()
		return nil, err
	}
	z.gate.mu.Lock()
	z.linked = mz
	canceled := z.gate.canceled.Load()
	z.gate.mu.Unlock()
	if canceled {
		mz.interrupt()
	}
	return mz, nil
}

// modelTrans translates formulas into the model context in structural
// order, holding one Z3 reference per distinct node until release.
type modelTrans struct {
	z      *zctx
	asts   map[*Formula]zast
	consts map[Ref]zast
	// made lists the references held, in the order they were taken.
	made  []zast
	order canonicalOrder
}

// release drops the references in the reverse of the order they were
// taken, never in a map's order: Z3 reuses the ids of freed ASTs, so the
// order of the frees decides the ids of the next question's ASTs, and
// with them its model.
func (t *modelTrans) release() {
	for i := len(t.made) - 1; i >= 0; i-- {
		t.z.decRef(t.made[i])
	}
	t.made = nil
}

func (t *modelTrans) constant(r Ref) (zast, error) {
	if a, ok := t.consts[r]; ok {
		return a, nil
	}
	if r == Un {
		return nil, fmt.Errorf("smt: r_un cannot be sent to the solver")
	}
	a, err := t.z.mkConst(r.String())
	if err != nil {
		return nil, err
	}
	t.consts[r] = a
	t.made = append(t.made, a)
	return a, nil
}

func (t *modelTrans) translate(f *Formula) (zast, error) {
	if a, ok := t.asts[f]; ok {
		return a, nil
	}
	var (
		a   zast
		err error
	)
	switch f.op {
	case OpTrue:
		a, err = t.z.mk(lkTrue, nil)
	case OpFalse:
		a, err = t.z.mk(lkFalse, nil)
	case OpEq:
		// Atom orders its references by value, not by ID.
		var x, y zast
		if x, err = t.constant(f.a); err != nil {
			return nil, err
		}
		if y, err = t.constant(f.b); err != nil {
			return nil, err
		}
		a, err = t.z.mk(lkEq, []zast{x, y})
	case OpNot:
		var k zast
		if k, err = t.translate(f.kids[0]); err != nil {
			return nil, err
		}
		a, err = t.z.mk(lkNot, []zast{k})
	case OpInt:
		v, _ := f.IntValue()
		a, err = t.z.mkInt(v)
	case OpSym:
		sort := t.z.intSort
		if f.sort == SortBool {
			sort = t.z.boolSort
		}
		a, err = t.z.mkConstOf(sort, f.String()+":"+f.sort.String())
	case OpAnd, OpOr, OpAdd, OpSub, OpLt, OpLe, OpEqT, OpIte:
		kids := t.order.kids(f)
		args := make([]zast, len(kids))
		for i, k := range kids {
			if args[i], err = t.translate(k); err != nil {
				return nil, err
			}
		}
		op := zops[f.op]
		if f.op == OpLe && knobs.SMTLeAsLt.Load() {
			op = lkLt // a mutant of the term layer (tests and `lockstep mutants -shared` only)
		}
		a, err = t.z.mk(op, args)
	default:
		return nil, fmt.Errorf("smt: bad formula op %d", f.op)
	}
	if err != nil {
		return nil, err
	}
	t.asts[f] = a
	t.made = append(t.made, a)
	return a, nil
}

// canonicalOrder orders formulas by their structure alone. The
// constructors sort the operands of And and Or, and the two sides of EqT,
// by ID; kids lists them by structure instead (other nodes keep their
// operands' order, which is their meaning). Two distinct live formulas are
// structurally distinct (hash-consing), so compare is 0 only for one
// formula.
type canonicalOrder struct {
	sorted map[*Formula][]*Formula
}

func (c *canonicalOrder) kids(f *Formula) []*Formula {
	switch f.op {
	case OpAnd, OpOr, OpEqT:
	default:
		return f.kids
	}
	if ks, ok := c.sorted[f]; ok {
		return ks
	}
	ks := slices.Clone(f.kids)
	slices.SortFunc(ks, c.compare)
	if c.sorted == nil {
		c.sorted = map[*Formula][]*Formula{}
	}
	c.sorted[f] = ks
	return ks
}

func (c *canonicalOrder) compare(x, y *Formula) int {
	if x == y {
		return 0
	}
	if r := cmp.Or(cmp.Compare(x.op, y.op), cmp.Compare(x.sort, y.sort),
		cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b), cmp.Compare(len(x.kids), len(y.kids))); r != 0 {
		return r
	}
	xs, ys := c.kids(x), c.kids(y)
	for i := range xs {
		if r := c.compare(xs[i], ys[i]); r != 0 {
			return r
		}
	}
	return 0
}

// model answers Model in the model context (see the comment at the top).
func (s *Solver) model(f *Formula, terms []*Formula) (Result, []int64, error) {
	mz, err := s.modelCtx()
	if err != nil {
		return Unknown, nil, err
	}
	t := &modelTrans{z: mz, asts: map[*Formula]zast{}, consts: map[Ref]zast{}}
	defer t.release()
	fa, err := t.translate(f)
	if err != nil {
		return Unknown, nil, err
	}
	zterms := make([]zast, len(terms))
	for i, term := range terms {
		if zterms[i], err = t.translate(term); err != nil {
			return Unknown, nil, err
		}
	}
	// Faults injected into the Solver reach its model questions too, and
	// their retries count as the Solver's.
	mz.gate.faults = s.z.gate.faults
	retried := mz.gate.retried
	vals := make([]zint64, len(terms))
	ok := make([]zbyte, len(terms))
	start := time.Now()
	r, err := mz.model(fa, zterms, vals, ok)
	s.count(true, time.Since(start))
	s.z.gate.retried += mz.gate.retried - retried
	if err != nil {
		return Unknown, nil, err
	}
	switch r {
	case lFalse:
		return Unsat, nil, nil
	case lTrue:
	default:
		s.stats.Unknowns++
		return Unknown, nil, fmt.Errorf("%w: %s", ErrUnknown, mz.reasonUnknown(true))
	}
	out := make([]int64, len(terms))
	for i := range vals {
		if ok[i] == 0 {
			return Unknown, nil, fmt.Errorf("%w: %s", ErrModelRange, terms[i])
		}
		out[i] = int64(vals[i])
	}
	return Sat, out, nil
}
