package smt

// This file is the whole cgo binding to Z3: a handful of C helpers that each
// perform one logical step (make an AST and take a reference to it, run one
// push/assert/check/pop query, run one AllSAT step) so that a query costs one
// or two cgo transitions rather than a dozen, and so that the Z3 error code
// can be read on the same OS thread, inside the same C call, that caused it.

/*
#cgo LDFLAGS: -lz3
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

// Z3 allocates with malloc, from whichever OS thread the Go runtime runs a
// cgo call on, and glibc gives each new thread an arena of its own (up to
// eight per core): Z3's memory, its contexts' 8.5 MB tables among it,
// ends up spread over many arenas, and what one frees stays resident in
// its arena. One arena keeps it together and reused: the 21 programs of
// testdata/data at k = 2 peak at 86 MiB instead of 120 (two workers: 135
// instead of 175), a 200-program stream with data at 231 MiB instead of
// 277, for the same CPU (b8d1010, 2026-11-28). It runs before main, so
// before any thread has an arena; MALLOC_ARENA_MAX or an arena_max in
// GLIBC_TUNABLES in the environment wins.
__attribute__((constructor)) static void lockstep_one_arena(void) {
	const char *t = getenv("GLIBC_TUNABLES");
	if (getenv("MALLOC_ARENA_MAX") == NULL && (t == NULL || strstr(t, "arena_max") == NULL)) {
		mallopt(M_ARENA_MAX, 1);
	}
}

// Z3's default error handler prints and calls exit(). We install this one
// instead: it only records the code. Every helper below clears the record,
// makes its Z3 calls and returns the record, all within one C call and hence
// on one OS thread, which is what makes a thread-local variable sufficient
// even though goroutines migrate between threads between calls.
static __thread int lockstep_err;

static void lockstep_on_error(Z3_context c, Z3_error_code e) {
	(void)c;
	lockstep_err = (int)e;
}

static Z3_context lockstep_mk_context(void) {
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	Z3_context ctx = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (ctx != NULL) {
		Z3_set_error_handler(ctx, lockstep_on_error);
	}
	return ctx;
}

// lockstep_mk_sort makes the uninterpreted sort "Ref" and takes a reference.
static Z3_sort lockstep_mk_sort(Z3_context ctx, int *err) {
	lockstep_err = 0;
	Z3_sort s = Z3_mk_uninterpreted_sort(ctx, Z3_mk_string_symbol(ctx, "Ref"));
	if (lockstep_err == 0 && s != NULL) {
		Z3_inc_ref(ctx, Z3_sort_to_ast(ctx, s));
	}
	*err = lockstep_err;
	return s;
}

static void lockstep_dec_sort(Z3_context ctx, Z3_sort s) {
	Z3_dec_ref(ctx, Z3_sort_to_ast(ctx, s));
}

// lockstep_mk_const makes constant `name` of sort s and takes a reference.
static Z3_ast lockstep_mk_const(Z3_context ctx, Z3_sort s, const char *name, int *err) {
	lockstep_err = 0;
	Z3_ast a = Z3_mk_const(ctx, Z3_mk_string_symbol(ctx, name), s);
	if (lockstep_err == 0 && a != NULL) {
		Z3_inc_ref(ctx, a);
	}
	*err = lockstep_err;
	return a;
}

enum { LK_EQ = 0, LK_NOT = 1, LK_AND = 2, LK_OR = 3, LK_TRUE = 4, LK_FALSE = 5,
       LK_ADD = 6, LK_SUB = 7, LK_LT = 8, LK_LE = 9, LK_ITE = 10 };

// lockstep_mk makes one node over already-referenced operands and takes a
// reference to the result.
static Z3_ast lockstep_mk(Z3_context ctx, int op, unsigned n, Z3_ast *args, int *err) {
	lockstep_err = 0;
	Z3_ast a = NULL;
	switch (op) {
	case LK_EQ:    a = Z3_mk_eq(ctx, args[0], args[1]); break;
	case LK_NOT:   a = Z3_mk_not(ctx, args[0]); break;
	case LK_AND:   a = Z3_mk_and(ctx, n, args); break;
	case LK_OR:    a = Z3_mk_or(ctx, n, args); break;
	case LK_TRUE:  a = Z3_mk_true(ctx); break;
	case LK_FALSE: a = Z3_mk_false(ctx); break;
	case LK_ADD:   a = Z3_mk_add(ctx, n, args); break;
	case LK_SUB:   a = Z3_mk_sub(ctx, n, args); break;
	case LK_LT:    a = Z3_mk_lt(ctx, args[0], args[1]); break;
	case LK_LE:    a = Z3_mk_le(ctx, args[0], args[1]); break;
	case LK_ITE:   a = Z3_mk_ite(ctx, args[0], args[1], args[2]); break;
	}
	if (lockstep_err == 0 && a != NULL) {
		Z3_inc_ref(ctx, a);
	}
	*err = lockstep_err;
	return a;
}

// lockstep_mk_int makes the integer constant v of sort s and takes a
// reference.
static Z3_ast lockstep_mk_int(Z3_context ctx, Z3_sort s, int64_t v, int *err) {
	lockstep_err = 0;
	Z3_ast a = Z3_mk_int64(ctx, v, s);
	if (lockstep_err == 0 && a != NULL) {
		Z3_inc_ref(ctx, a);
	}
	*err = lockstep_err;
	return a;
}

static void lockstep_dec_ref(Z3_context ctx, Z3_ast a) {
	Z3_dec_ref(ctx, a);
}

// lockstep_mk_solver makes a solver for logic (QF_UF for the reference
// questions, QF_UFLIA for the questions with data), or with logic NULL a
// simple solver (the model context's: modelctx.go).
static Z3_solver lockstep_mk_solver(Z3_context ctx, const char *logic, int *err) {
	lockstep_err = 0;
	// Ground equalities over one uninterpreted sort are QF_UF. Declaring the
	// logic lets Z3 configure its core for it; measured (CPU time, loaded
	// 2-core machine) about 15% faster per query and 35% faster for all-SAT
	// than Z3_mk_simple_solver or Z3_mk_solver.
	Z3_solver s = logic == NULL ? Z3_mk_simple_solver(ctx)
	                            : Z3_mk_solver_for_logic(ctx, Z3_mk_string_symbol(ctx, logic));
	if (lockstep_err == 0 && s != NULL) {
		Z3_solver_inc_ref(ctx, s);
		// Without ctrl_c=false every Z3_solver_check installs a SIGINT
		// handler of its own for the duration of the check (scoped_ctrl_c),
		// without SA_ONSTACK: a Ctrl-C then lands in Z3 instead of the Go
		// runtime, which crashes or hangs the process. Cancellation comes
		// from Go instead (lockstep_interrupt). ctrl_c is a solver
		// parameter: Z3 4.8.12 rejects it as a global or context parameter.
		Z3_params p = Z3_mk_params(ctx);
		if (lockstep_err == 0 && p != NULL) {
			Z3_params_inc_ref(ctx, p);
			Z3_params_set_bool(ctx, p, Z3_mk_string_symbol(ctx, "ctrl_c"), false);
			if (lockstep_err == 0) {
				Z3_solver_set_params(ctx, s, p);
			}
			Z3_params_dec_ref(ctx, p);
		}
	}
	*err = lockstep_err;
	return s;
}

// lockstep_interrupt stops a check in flight on ctx. Z3 documents it as
// callable from another thread; the caller guarantees ctx is alive.
static void lockstep_interrupt(Z3_context ctx) {
	Z3_interrupt(ctx);
}

// lockstep_mk_basic_sort makes the Int (isInt) or Bool sort and takes a
// reference.
static Z3_sort lockstep_mk_basic_sort(Z3_context ctx, int isInt, int *err) {
	lockstep_err = 0;
	Z3_sort s = isInt ? Z3_mk_int_sort(ctx) : Z3_mk_bool_sort(ctx);
	if (lockstep_err == 0 && s != NULL) {
		Z3_inc_ref(ctx, Z3_sort_to_ast(ctx, s));
	}
	*err = lockstep_err;
	return s;
}

// lockstep_del_data drops the data solver and the sorts of terms.
static void lockstep_del_data(Z3_context ctx, Z3_solver s, Z3_sort i, Z3_sort b) {
	if (i != NULL) {
		Z3_dec_ref(ctx, Z3_sort_to_ast(ctx, i));
	}
	if (b != NULL) {
		Z3_dec_ref(ctx, Z3_sort_to_ast(ctx, b));
	}
	if (s != NULL) {
		Z3_solver_dec_ref(ctx, s);
	}
}

static void lockstep_del(Z3_context ctx, Z3_solver s, Z3_sort sort) {
	if (sort != NULL) {
		Z3_dec_ref(ctx, Z3_sort_to_ast(ctx, sort));
	}
	if (s != NULL) {
		Z3_solver_dec_ref(ctx, s);
	}
	Z3_del_context(ctx);
}

// lockstep_check runs one scoped query: push, assert a, check, pop. The pop
// happens even after an error so the solver stays at its base level.
static int lockstep_check(Z3_context ctx, Z3_solver s, Z3_ast a, int *err) {
	lockstep_err = 0;
	Z3_lbool r = Z3_L_UNDEF;
	Z3_solver_push(ctx, s);
	int perr = lockstep_err;
	if (perr == 0) {
		Z3_solver_assert(ctx, s, a);
		if (lockstep_err == 0) {
			r = Z3_solver_check(ctx, s);
		}
		int e = lockstep_err;
		lockstep_err = 0;
		Z3_solver_pop(ctx, s, 1);
		if (e == 0) {
			e = lockstep_err;
		}
		perr = e;
	}
	*err = perr;
	return (int)r;
}

static int lockstep_push(Z3_context ctx, Z3_solver s) {
	lockstep_err = 0;
	Z3_solver_push(ctx, s);
	return lockstep_err;
}

static int lockstep_pop(Z3_context ctx, Z3_solver s) {
	lockstep_err = 0;
	Z3_solver_pop(ctx, s, 1);
	return lockstep_err;
}

static int lockstep_assert(Z3_context ctx, Z3_solver s, Z3_ast a) {
	lockstep_err = 0;
	Z3_solver_assert(ctx, s, a);
	return lockstep_err;
}

// lockstep_allsat_step checks the solver; if satisfiable it stores the value
// of each of the n atoms in the model into vals (1 true, 0 false) and asserts
// the blocking clause that excludes exactly that assignment to the atoms.
static int lockstep_allsat_step(Z3_context ctx, Z3_solver s, unsigned n, Z3_ast *atoms,
                                unsigned char *vals, Z3_ast *lits, int *err) {
	lockstep_err = 0;
	Z3_lbool r = Z3_solver_check(ctx, s);
	if (lockstep_err != 0 || r != Z3_L_TRUE) {
		*err = lockstep_err;
		return (int)r;
	}
	Z3_model m = Z3_solver_get_model(ctx, s);
	if (lockstep_err != 0 || m == NULL) {
		*err = lockstep_err ? lockstep_err : -1;
		return (int)Z3_L_UNDEF;
	}
	Z3_model_inc_ref(ctx, m);
	for (unsigned i = 0; i < n && lockstep_err == 0; i++) {
		Z3_ast v = NULL;
		vals[i] = 0;
		// Model completion gives atoms over constants the model does not
		// mention a definite value, so every atom is decided.
		if (Z3_model_eval(ctx, m, atoms[i], true, &v) && v != NULL) {
			Z3_inc_ref(ctx, v);
			vals[i] = Z3_get_bool_value(ctx, v) == Z3_L_TRUE;
			Z3_dec_ref(ctx, v);
		} else if (lockstep_err == 0) {
			lockstep_err = -1;
		}
	}
	Z3_model_dec_ref(ctx, m);
	if (lockstep_err != 0) {
		*err = lockstep_err;
		return (int)Z3_L_UNDEF;
	}
	// Block the assignment: some atom must take the other value.
	unsigned made = 0;
	for (unsigned i = 0; i < n && lockstep_err == 0; i++) {
		if (vals[i]) {
			lits[i] = Z3_mk_not(ctx, atoms[i]);
			if (lockstep_err == 0 && lits[i] != NULL) {
				Z3_inc_ref(ctx, lits[i]);
				made = i + 1;
			}
		} else {
			lits[i] = atoms[i];
			Z3_inc_ref(ctx, lits[i]);
			made = i + 1;
		}
	}
	if (lockstep_err == 0 && n > 0) {
		Z3_ast clause = Z3_mk_or(ctx, n, lits);
		if (lockstep_err == 0 && clause != NULL) {
			Z3_inc_ref(ctx, clause);
			Z3_solver_assert(ctx, s, clause);
			Z3_dec_ref(ctx, clause);
		}
	}
	int e = lockstep_err;
	for (unsigned i = 0; i < made; i++) {
		Z3_dec_ref(ctx, lits[i]);
	}
	*err = e;
	return (int)r;
}

// lockstep_set_uint_param sets one unsigned solver parameter (timeout, rlimit).
static int lockstep_set_uint_param(Z3_context ctx, Z3_solver s, const char *name, unsigned v) {
	lockstep_err = 0;
	Z3_params p = Z3_mk_params(ctx);
	if (lockstep_err != 0 || p == NULL) {
		return lockstep_err ? lockstep_err : -1;
	}
	Z3_params_inc_ref(ctx, p);
	Z3_params_set_uint(ctx, p, Z3_mk_string_symbol(ctx, name), v);
	if (lockstep_err == 0) {
		Z3_solver_set_params(ctx, s, p);
	}
	int e = lockstep_err;
	Z3_params_dec_ref(ctx, p);
	return e;
}

// lockstep_model is one push/assert/check/pop query that, when a is
// satisfiable, also stores the model's value of each of the n terms into
// vals (an int, or 1/0 for a bool), with model completion so that a term
// over constants the model does not mention still gets a value. ok[i] is 0
// when term i's value does not fit an int64.
static int lockstep_model(Z3_context ctx, Z3_solver s, Z3_ast a, unsigned n, Z3_ast *terms,
                          int64_t *vals, unsigned char *ok, int *err) {
	lockstep_err = 0;
	Z3_lbool r = Z3_L_UNDEF;
	Z3_solver_push(ctx, s);
	int perr = lockstep_err;
	if (perr == 0) {
		Z3_solver_assert(ctx, s, a);
		if (lockstep_err == 0) {
			r = Z3_solver_check(ctx, s);
		}
		if (lockstep_err == 0 && r == Z3_L_TRUE) {
			Z3_model m = Z3_solver_get_model(ctx, s);
			if (lockstep_err == 0 && m != NULL) {
				Z3_model_inc_ref(ctx, m);
				for (unsigned i = 0; i < n && lockstep_err == 0; i++) {
					Z3_ast v = NULL;
					vals[i] = 0;
					ok[i] = 0;
					if (Z3_model_eval(ctx, m, terms[i], true, &v) && v != NULL) {
						Z3_inc_ref(ctx, v);
						Z3_lbool b = Z3_get_bool_value(ctx, v);
						if (b != Z3_L_UNDEF) {
							vals[i] = b == Z3_L_TRUE;
							ok[i] = 1;
						} else {
							lockstep_err = 0;
							int64_t x = 0;
							if (Z3_get_numeral_int64(ctx, v, &x)) {
								vals[i] = x;
								ok[i] = 1;
							}
							lockstep_err = 0;
						}
						Z3_dec_ref(ctx, v);
					} else if (lockstep_err == 0) {
						lockstep_err = -1;
					}
				}
				Z3_model_dec_ref(ctx, m);
			} else if (lockstep_err == 0) {
				lockstep_err = -1;
			}
		}
		int e = lockstep_err;
		lockstep_err = 0;
		Z3_solver_pop(ctx, s, 1);
		if (e == 0) {
			e = lockstep_err;
		}
		perr = e;
	}
	*err = perr;
	return (int)r;
}

static const char *lockstep_reason_unknown(Z3_context ctx, Z3_solver s) {
	lockstep_err = 0;
	return Z3_solver_get_reason_unknown(ctx, s);
}

static uint64_t lockstep_alloc_size(void) {
	return Z3_get_estimated_alloc_size();
}

static const char *lockstep_error_msg(Z3_context ctx, int code) {
	return Z3_get_error_msg(ctx, (Z3_error_code)code);
}
*/
import "C"

import (
	"fmt"
	"maps"
	"slices"
	"sync/atomic"
	"unsafe"
)

// liveContexts counts Z3 contexts not yet deleted, for tests of Close and
// of the cleanup safety net.
var liveContexts atomic.Int64

// Z3Error is a Z3 API error turned into a Go error by the installed error
// handler (Z3 would otherwise print and exit the process).
type Z3Error struct {
	Code int    // Z3_error_code, or -1 for a failure detected by the binding
	Msg  string // Z3's message for the code
	Op   string // what the binding was doing
}

func (e *Z3Error) Error() string {
	return fmt.Sprintf("smt: z3 error %d during %s: %s", e.Code, e.Op, e.Msg)
}

// Aliases so the rest of the package need not import "C".
type (
	zast   = C.Z3_ast
	zbyte  = C.uchar
	zop    = C.int
	zint64 = C.int64_t
)

// zctx is the C side of one Solver: the context, its solver and the sort.
// It is kept apart from Solver so the safety-net cleanup can hold it without
// keeping the Solver itself reachable.
//
// The Z3 context is made when the first AST, question or data solver needs
// it (open), not with the zctx: making one costs milliseconds, and a
// Solver whose questions the Go deciders answer all (a check's Validate
// solver, most runs of programs without data) never needs one. Until then
// ctx is nil and only the Go side lives: the gate (which cancels and
// injects faults whether or not Z3 is ever asked), the parameters (applied
// when the solvers are made), the link to the model context. free makes
// the zctx dead for good: a dead zctx is never opened again (the Solver's
// "closed" is s.z == nil; dead is the zctx's own, for the model context
// and the cleanup).
//
// A second solver in the same context, for logic QF_UFLIA, takes the
// questions with data (terms.go), with the Int and Bool sorts of terms; it
// is made at the first such question, so a run without data never pays for
// it, and the QF_UF solver keeps the configuration measured best for the
// reference questions. Both share the context's ASTs (and so the
// translation cache).
type zctx struct {
	ctx    C.Z3_context // nil until open, and after free
	solver C.Z3_solver
	sort   C.Z3_sort

	dsolver           C.Z3_solver
	intSort, boolSort C.Z3_sort
	// params are the solver parameters set so far, for the solvers made
	// later (both, when the context is not open yet).
	params map[string]uint32
	// dead is set by free: the context is not to be made (again).
	dead bool

	// gate is the cancellation and fault-injection state every query
	// passes through (interrupt.go, faults.go).
	gate gate

	// simple makes the data solver a simple solver (the model context's:
	// a per-program context, where a logic's setup would dominate).
	simple bool

	// linked is the Solver's model context (modelctx.go), set under
	// gate.mu: it is interrupted, freed and given parameters with this
	// one.
	linked *zctx
	// parked is set when the context was deleted to make room for the
	// model context (Solver.parkMain, modelctx.go): the model context is
	// handed to it when Model's questions end (adopt). parkedOnce: it
	// was parked before, and is not parked again.
	parked, parkedOnce bool
}

func (z *zctx) err(code C.int, op string) error {
	if code == 0 {
		return nil
	}
	msg := "binding error"
	if code > 0 {
		msg = C.GoString(C.lockstep_error_msg(z.ctx, code))
	}
	return &Z3Error{Code: int(code), Msg: msg, Op: op}
}

// newZctx returns the Go side of a context; open makes the Z3 side.
func newZctx() *zctx { return &zctx{} }

// open makes the Z3 context, the Ref sort and the reference solver, and
// applies the parameters set so far, once: every method that needs the
// context calls it first. A context made after its gate was canceled is
// interrupted at once (the gate refuses its queries anyway); one made
// while a watcher is registered is reached by the watcher's interrupt,
// since ctx is set under gate.mu, which interrupt holds.
func (z *zctx) open() error {
	if z.ctx != nil {
		return nil
	}
	if z.dead {
		return ErrClosed
	}
	z.parked = false // a fresh context instead of the model context's
	ctx := C.lockstep_mk_context()
	if ctx == nil {
		return &Z3Error{Code: -1, Msg: "Z3_mk_context_rc returned NULL", Op: "new context"}
	}
	z.gate.mu.Lock()
	z.ctx = ctx
	if z.gate.canceled.Load() {
		C.lockstep_interrupt(ctx)
	}
	z.gate.mu.Unlock()
	liveContexts.Add(1)
	var code C.int
	sort := C.lockstep_mk_sort(ctx, &code)
	if err := z.err(code, "mk sort"); err != nil {
		z.discard()
		return err
	}
	z.sort = sort
	sv := C.lockstep_mk_solver(ctx, logicUF, &code)
	if err := z.err(code, "mk solver"); err != nil {
		z.discard()
		return err
	}
	z.solver = sv
	if err := z.applyParams(sv); err != nil {
		z.discard()
		return err
	}
	return nil
}

// discard deletes a context whose opening failed, leaving the zctx as if
// never opened (a later question tries again).
func (z *zctx) discard() {
	z.gate.mu.Lock()
	defer z.gate.mu.Unlock()
	C.lockstep_del(z.ctx, z.solver, z.sort)
	z.ctx, z.solver, z.sort = nil, nil, nil
	liveContexts.Add(-1)
}

// applyParams sets the parameters set so far on sv, a solver just made,
// in the order of their names.
func (z *zctx) applyParams(sv C.Z3_solver) error {
	for _, name := range slices.Sorted(maps.Keys(z.params)) {
		cs := C.CString(name)
		code := C.lockstep_set_uint_param(z.ctx, sv, cs, C.uint(z.params[name]))
		C.free(unsafe.Pointer(cs))
		if err := z.err(code, "set param "+name); err != nil {
			return err
		}
	}
	return nil
}

// free releases the solver, the sort and the context. Deleting the context
// frees every AST that still belongs to it, so it is a correct (if blunt)
// safety net even when the caller's caches were never released.
func (z *zctx) free() {
	// Under gate.mu, so that an interrupt from a context watcher never
	// reaches a deleted context.
	z.gate.mu.Lock()
	defer z.gate.mu.Unlock()
	z.dead = true
	if z.linked != nil {
		z.linked.free()
		z.linked = nil
	}
	if z.gate.stop != nil {
		z.gate.stop() // only unregisters; never waits for the watcher
		z.gate.stop = nil
	}
	z.deleteLocked()
}

// deleteLocked deletes the Z3 context, if open, and everything made in it
// (gate.mu is held), leaving z as if never opened.
func (z *zctx) deleteLocked() {
	if z.ctx == nil {
		return // never opened
	}
	C.lockstep_del_data(z.ctx, z.dsolver, z.intSort, z.boolSort)
	z.dsolver, z.intSort, z.boolSort = nil, nil, nil
	C.lockstep_del(z.ctx, z.solver, z.sort)
	z.ctx, z.solver, z.sort = nil, nil, nil
	liveContexts.Add(-1)
}

// drop deletes the Z3 context and every AST made in it (the callers'
// references to them are void), but unlike free leaves z usable: the next
// question opens a context again. Solver.parkMain (modelctx.go) drops the
// Solver's own context while a model context lives, so that a process
// holds one Z3 context, not two (each costs 17 MB of resident memory the
// moment it is made, Z3 4.8.12: two AST tables of 8.5 MB, the context's
// and its pretty-printer's, every cell written). The parameters stay and
// apply to the next context's solvers.
func (z *zctx) drop() {
	z.gate.mu.Lock()
	defer z.gate.mu.Unlock()
	z.deleteLocked()
}

// adopt makes the Z3 context of mz, a model context whose questions have
// ended, z's own, when z has none because it was parked (drop): that
// saves making a context at z's next question. Only mz's context, the Ref
// sort and the sorts of terms are kept; its solvers (a simple solver with
// the model context's seed, and a reference solver it never used) are
// released and z's are made afresh with z's parameters, so z answers as a
// context of its own: sat and unsat are the question's, and nothing of
// Model's reproducibility rests on z (modelctx.go). It reports whether mz
// was taken, leaving mz without a context; otherwise the caller frees mz.
func (z *zctx) adopt(mz *zctx) bool {
	z.gate.mu.Lock()
	defer z.gate.mu.Unlock()
	mz.gate.mu.Lock()
	defer mz.gate.mu.Unlock()
	if !z.parked || z.ctx != nil || z.dead || z.gate.canceled.Load() ||
		mz.ctx == nil || mz.gate.canceled.Load() {
		// A canceled context stays canceled (Z3_interrupt): never reuse one.
		return false
	}
	ctx := mz.ctx
	C.lockstep_del_data(ctx, mz.dsolver, nil, nil)
	C.lockstep_del_data(ctx, mz.solver, nil, nil)
	z.ctx, z.sort, z.intSort, z.boolSort = ctx, mz.sort, mz.intSort, mz.boolSort
	mz.ctx, mz.solver, mz.sort, mz.dsolver, mz.intSort, mz.boolSort = nil, nil, nil, nil, nil, nil
	mz.dead = true
	z.parked = false
	// The context moved (liveContexts counts it once). z's reference
	// solver is made now, as open makes it; the data solver at its first
	// question (ensureData), both with z's parameters.
	var code C.int
	sv := C.lockstep_mk_solver(ctx, logicUF, &code)
	err := z.err(code, "mk solver")
	if err == nil {
		z.solver = sv
		err = z.applyParams(sv)
	}
	if err != nil {
		z.deleteLocked() // the next question makes a context of its own
		return true
	}
	return true
}

// interrupt marks the context canceled for good and stops a check in
// flight. Safe to call from any goroutine, and after free.
func (z *zctx) interrupt() {
	z.gate.mu.Lock()
	defer z.gate.mu.Unlock()
	z.gate.canceled.Store(true)
	if z.ctx != nil {
		C.lockstep_interrupt(z.ctx)
	}
	if z.linked != nil {
		z.linked.interrupt()
	}
}

var (
	logicUF   = C.CString("QF_UF")
	logicData = C.CString("QF_UFLIA")
)

// ensureData makes the data solver and the sorts of terms, once.
func (z *zctx) ensureData() error {
	if z.dsolver != nil {
		return nil
	}
	if err := z.open(); err != nil {
		return err
	}
	var code C.int
	if z.intSort == nil {
		s := C.lockstep_mk_basic_sort(z.ctx, 1, &code)
		if err := z.err(code, "mk int sort"); err != nil {
			return err
		}
		z.intSort = s
	}
	if z.boolSort == nil {
		s := C.lockstep_mk_basic_sort(z.ctx, 0, &code)
		if err := z.err(code, "mk bool sort"); err != nil {
			return err
		}
		z.boolSort = s
	}
	logic := logicData
	if z.simple {
		logic = nil
	}
	sv := C.lockstep_mk_solver(z.ctx, logic, &code)
	if err := z.err(code, "mk data solver"); err != nil {
		return err
	}
	z.dsolver = sv
	return z.applyParams(sv)
}

// sv is the solver of the reference questions or (data) of those with
// data; the data solver must exist (ensureData).
func (z *zctx) sv(data bool) C.Z3_solver {
	if data {
		return z.dsolver
	}
	return z.solver
}

func (z *zctx) mkConst(name string) (C.Z3_ast, error) {
	if err := z.open(); err != nil { // z.sort is made by open
		return nil, err
	}
	return z.mkConstOf(z.sort, name)
}

// mkConstOf makes a constant of sort s (the Ref sort, or a term sort):
// the context is open, since s belongs to it.
func (z *zctx) mkConstOf(s C.Z3_sort, name string) (C.Z3_ast, error) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var code C.int
	a := C.lockstep_mk_const(z.ctx, s, cs, &code)
	return a, z.err(code, "mk const "+name)
}

// mkInt makes the integer constant v (the data solver's sorts must exist).
func (z *zctx) mkInt(v int64) (C.Z3_ast, error) {
	var code C.int
	a := C.lockstep_mk_int(z.ctx, z.intSort, C.int64_t(v), &code)
	return a, z.err(code, "mk int")
}

const (
	lkEq    = C.LK_EQ
	lkNot   = C.LK_NOT
	lkAnd   = C.LK_AND
	lkOr    = C.LK_OR
	lkTrue  = C.LK_TRUE
	lkFalse = C.LK_FALSE
	lkAdd   = C.LK_ADD
	lkSub   = C.LK_SUB
	lkLt    = C.LK_LT
	lkLe    = C.LK_LE
	lkIte   = C.LK_ITE
)

// mk builds one node and returns it with one reference owned by the caller.
// args holds C pointers only, so passing its backing array is allowed.
func (z *zctx) mk(op C.int, args []C.Z3_ast) (C.Z3_ast, error) {
	if err := z.open(); err != nil {
		return nil, err
	}
	var p *C.Z3_ast
	if len(args) > 0 {
		p = &args[0]
	}
	var code C.int
	a := C.lockstep_mk(z.ctx, op, C.uint(len(args)), p, &code)
	if code == 0 && a == nil {
		code = -1
	}
	return a, z.err(code, "mk node")
}

func (z *zctx) decRef(a C.Z3_ast) { C.lockstep_dec_ref(z.ctx, a) }

// z3AllocBytes is Z3's own estimate of the memory it has allocated, over
// all contexts of the process. Diagnostics only.
func z3AllocBytes() int64 { return int64(C.lockstep_alloc_size()) }

// lbool values as returned by the helpers.
const (
	lFalse = -1
	lUndef = 0
	lTrue  = 1
)

// check runs one push/assert/check/pop query on the solver sv(data).
func (z *zctx) check(data bool, a C.Z3_ast) (int, error) {
	sv := z.sv(data)
	return z.retry(func() (int, error) {
		if r, err, stop := z.gate.enter("check"); stop {
			return r, err
		}
		var code C.int
		r := C.lockstep_check(z.ctx, sv, a, &code)
		if err := z.gate.exit(); err != nil {
			return lUndef, err
		}
		return int(r), z.err(code, "check")
	})
}

func (z *zctx) reasonUnknown(data bool) string {
	if why := z.gate.takeReason(); why != "" {
		return why
	}
	if z.ctx == nil {
		return "unknown" // no Z3 question was asked
	}
	return C.GoString(C.lockstep_reason_unknown(z.ctx, z.sv(data)))
}

// setUintParam sets a parameter of both solvers, of those made now and of
// those made later (open, ensureData), and of the model context.
func (z *zctx) setUintParam(name string, v uint32) error {
	if z.params == nil {
		z.params = make(map[string]uint32)
	}
	z.params[name] = v
	if z.ctx != nil {
		cs := C.CString(name)
		defer C.free(unsafe.Pointer(cs))
		for _, sv := range []C.Z3_solver{z.solver, z.dsolver} {
			if sv == nil {
				continue
			}
			if err := z.err(C.lockstep_set_uint_param(z.ctx, sv, cs, C.uint(v)), "set param "+name); err != nil {
				return err
			}
		}
	}
	if z.linked != nil {
		return z.linked.setUintParam(name, v)
	}
	return nil
}

// push, pop and assert refuse to work, or report ErrCanceled rather than
// Z3's own complaint, once the context is canceled (interrupt.go).
// Each works on the solver sv(data).
func (z *zctx) push(data bool) error {
	if err := z.gate.exit(); err != nil {
		return err
	}
	if err := z.open(); err != nil {
		return err
	}
	return z.canceledOr(z.err(C.lockstep_push(z.ctx, z.sv(data)), "push"))
}
func (z *zctx) pop(data bool) error {
	if err := z.open(); err != nil {
		return err
	}
	return z.canceledOr(z.err(C.lockstep_pop(z.ctx, z.sv(data)), "pop"))
}
func (z *zctx) assert(data bool, a C.Z3_ast) error {
	if err := z.gate.exit(); err != nil {
		return err
	}
	return z.canceledOr(z.err(C.lockstep_assert(z.ctx, z.sv(data), a), "assert"))
}

func (z *zctx) canceledOr(err error) error {
	if err != nil && z.gate.canceled.Load() {
		return ErrCanceled
	}
	return err
}

// model runs lockstep_model on the data solver.
func (z *zctx) model(a C.Z3_ast, terms []C.Z3_ast, vals []C.int64_t, ok []C.uchar) (int, error) {
	sv := z.sv(true)
	var pt *C.Z3_ast
	var pv *C.int64_t
	var po *C.uchar
	if len(terms) > 0 {
		pt, pv, po = &terms[0], &vals[0], &ok[0]
	}
	return z.retry(func() (int, error) {
		if r, err, stop := z.gate.enter("model"); stop {
			return r, err
		}
		var code C.int
		r := C.lockstep_model(z.ctx, sv, a, C.uint(len(terms)), pt, pv, po, &code)
		if err := z.gate.exit(); err != nil {
			return lUndef, err
		}
		return int(r), z.err(code, "model")
	})
}

// allsatStep checks the current assertions; when satisfiable, vals receives
// the model's value for each atom and the blocking clause is asserted.
// lits is scratch space of len(atoms).
func (z *zctx) allsatStep(data bool, atoms []C.Z3_ast, vals []C.uchar, lits []C.Z3_ast) (int, error) {
	sv := z.sv(data)
	var pa, pl *C.Z3_ast
	var pv *C.uchar
	if len(atoms) > 0 {
		pa, pl, pv = &atoms[0], &lits[0], &vals[0]
	}
	return z.retry(func() (int, error) {
		if r, err, stop := z.gate.enter("allsat step"); stop {
			return r, err
		}
		var code C.int
		r := C.lockstep_allsat_step(z.ctx, sv, C.uint(len(atoms)), pa, pv, pl, &code)
		if err := z.gate.exit(); err != nil {
			return lUndef, err
		}
		return int(r), z.err(code, "allsat step")
	})
}
