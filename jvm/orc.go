package jvm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// ORC is lemma ORC's concrete side on the JVM (checker.Runner, `check
// -oracle jvm`): each concretization of a GSE path runs on the JVM, and
// its end (value, error, pruned, out of range) and value are the JVM's.
// Javalite's steps mean nothing to the JVM, so the step count, and with it
// whether the step bound cuts the run, are lockstep's interpreter's: a run
// it cuts is not run on the JVM. A program is exported and compiled once,
// at its first run; every run is one round trip to one server JVM.
type ORC struct {
	srv   *Server
	dir   string
	Fuel  int64
	owned bool // Close ends the server
	mu    sync.Mutex
	// inputs Also compared, and skipped
	checked, skipped atomic.Int64
	progs            map[*javalite.Program]*orcProg
}

type orcProg struct {
	class, classes string
	err            error
}

// NewORC starts the server JVM; dir holds the exports (a temporary
// directory when empty, removed by Close).
func NewORC(ctx context.Context, dir string) (*ORC, error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "lockstep-orc-jvm-")
		if err != nil {
			return nil, err
		}
		dir = d
	}
	srv, err := StartServer(ctx, dir)
	if err != nil {
		return nil, err
	}
	o := NewORCWith(srv, dir)
	o.owned = true
	return o, nil
}

// NewORCWith is an ORC on a server that the caller started and closes;
// dir holds the exports.
func NewORCWith(srv *Server, dir string) *ORC {
	return &ORC{srv: srv, dir: dir, progs: map[*javalite.Program]*orcProg{}}
}

// Close ends the server, if NewORC started it, and removes the exports.
func (o *ORC) Close() error {
	var err error
	if o.owned {
		err = o.srv.Close()
	}
	os.RemoveAll(o.dir)
	return err
}

func (o *ORC) compiled(p *javalite.Program) *orcProg {
	o.mu.Lock()
	defer o.mu.Unlock()
	if c := o.progs[p]; c != nil {
		return c
	}
	c := &orcProg{}
	o.progs[p] = c
	b, err := NewBatch(filepath.Join(o.dir, fmt.Sprintf("p%d", len(o.progs))))
	if err != nil {
		c.err = err
		return c
	}
	b.Server = o.srv
	if c.class, c.err = b.Add(p); c.err == nil {
		c.err = b.Compile(context.Background())
	}
	c.classes = filepath.Join(b.Dir, "classes")
	return c
}

// Run is checker.Runner.
func (o *ORC) Run(p *javalite.Program, h *concrete.Heap, bound int, opt machine.Options) (concrete.Result, error) {
	if opt.VarRestoresEnv || opt.NullCallProceeds {
		return concrete.Result{}, fmt.Errorf("jvm: the JVM runs the Java semantics only")
	}
	lres, err := concrete.InterpretWith(p, h, bound, opt)
	if err != nil {
		return lres, err
	}
	if lres.Kind == machine.EndCut && !lres.Pruned && !lres.OutOfRange {
		return lres, nil
	}
	c := o.compiled(p)
	if c.err != nil {
		return concrete.Result{}, c.err
	}
	fuel := o.Fuel
	if fuel <= 0 {
		fuel = DefaultFuel
	}
	outs, err := o.srv.run(c.classes, fuel, []Case{{Class: c.class, Input: Encode(p, h)}})
	if err != nil {
		return concrete.Result{}, err
	}
	res, err := parseOutcome(p, outs[0], lres)
	res.Steps = lres.Steps
	return res, err
}

// parseOutcome reads the JVM's outcome as a concrete.Result; ref is
// lockstep's result for the same input, whose Data flag (a bool that is
// data, a typing matter the JVM has no notion of) is kept.
func parseOutcome(p *javalite.Program, out string, ref concrete.Result) (concrete.Result, error) {
	var res concrete.Result
	fields := strings.Fields(out)
	if len(fields) == 0 {
		return res, fmt.Errorf("jvm: empty outcome")
	}
	switch fields[0] {
	case "error":
		res.Kind = machine.EndError
	case "pruned":
		res.Pruned = true
	case "range":
		res.OutOfRange = true
	case "cut", "overflow":
		res.Kind = machine.EndCut
	case "value":
		res.Kind = machine.EndValue
		if len(fields) < 2 {
			return res, fmt.Errorf("jvm: outcome %q has no value", out)
		}
		switch t := p.Entry.RetT; t.Kind {
		case javalite.KindInt:
			n, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return res, fmt.Errorf("jvm: outcome %q: %v", out, err)
			}
			res.Value = concrete.Value{IsInt: true, Int: n}
		case javalite.KindBool:
			res.Value = concrete.Value{IsBool: true, Bool: fields[1] == "true", Data: ref.Value.IsBool && ref.Value.Data}
		default:
			res.Value = concrete.Value{Obj: concrete.Null}
			if fields[1] != "null" {
				_, created, ok := strings.Cut(out, " | created o")
				n, err := strconv.Atoi(created)
				if !ok || err != nil {
					return res, fmt.Errorf("jvm: outcome %q has no creation number", out)
				}
				res.Value.Obj = n
			}
		}
	default:
		return res, fmt.Errorf("jvm: outcome %q", out)
	}
	return res, nil
}

// Also is ORC's completeness half on the JVM (checker.AlsoRunner): every
// input the half enumerates, which the machine's run maps to the one GSE
// path it follows, runs on the JVM too, and must end as the machine's run
// does (pruned, out of range, error, or the same value). A run the machine
// cuts at the step bound is not run (the JVM has no steps). The machine's
// terms are evaluated only where needed, so a JVM run out of range where
// the machine's ends is no disagreement (skipped), nor is a JVM run cut by
// its fuel or its stack.
func (o *ORC) Also(p *javalite.Program) func(*concrete.Heap, concrete.Result) error {
	return func(h *concrete.Heap, res concrete.Result) error {
		c := o.compiled(p)
		if c.err != nil {
			return c.err
		}
		fuel := o.Fuel
		if fuel <= 0 {
			fuel = DefaultFuel
		}
		outs, err := o.srv.run(c.classes, fuel, []Case{{Class: c.class, Input: Encode(p, h)}})
		if err != nil {
			return err
		}
		got, err := parseOutcome(p, outs[0], res)
		if err != nil {
			return err
		}
		jvmStop := !got.Pruned && !got.OutOfRange && got.Kind == machine.EndCut
		if jvmStop || (got.OutOfRange && !res.OutOfRange) {
			o.skipped.Add(1)
			return nil
		}
		same := got.Pruned == res.Pruned && got.OutOfRange == res.OutOfRange
		if same && !res.Pruned && !res.OutOfRange {
			same = got.Kind == res.Kind && (res.Kind != machine.EndValue || got.Value == res.Value)
		}
		if !same {
			return fmt.Errorf("%w: the machine's run (the GSE path it follows) ends %s, the JVM's %s", concrete.ErrDisagree, describe(res), outs[0])
		}
		o.checked.Add(1)
		return nil
	}
}

// Counts is how many inputs Also compared with the JVM, and how many it
// skipped (the JVM out of range or cut where the machine ended).
func (o *ORC) Counts() (checked, skipped int64) { return o.checked.Load(), o.skipped.Load() }

func describe(r concrete.Result) string {
	switch {
	case r.Pruned:
		return "pruned"
	case r.OutOfRange:
		return "out of range"
	case r.Kind == machine.EndValue:
		return "value " + r.Value.String()
	}
	return r.Kind.String()
}
