package jvm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/javalite"
)

// Shrunk is a disagreement reduced by Shrink.
type Shrunk struct {
	P             *javalite.Program
	Input         *concrete.Heap
	Lockstep, JVM string
}

// maxShrinkRounds and maxCandidates bound Shrink's work: each round
// compiles its candidates with one javac and runs them in one JVM.
const (
	maxShrinkRounds = 40
	maxCandidates   = 80
	shrinkGroup     = 12
)

// Shrink reduces a program with an unexplained disagreement greedily: each
// round tries every program one edit smaller (a subexpression replaced by
// one of its own subexpressions or by a literal 0, true, false or null; an
// expression dropped from a begin) that still type-checks, smallest first,
// and keeps the first on which some input of Inputs still disagrees
// unexplained. Then it picks the smallest disagreeing input (fewest
// objects, shortest text). It returns nil when p shows no unexplained
// disagreement.
func Shrink(ctx context.Context, p *javalite.Program, input *concrete.Heap, o Options, dir string) (*Shrunk, error) {
	o = o.withDefaults()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if o.Server == nil {
		srv, err := StartServer(ctx, dir)
		if err != nil {
			return nil, err
		}
		defer srv.Close()
		o.Server = srv
	}
	cur, err := javalite.ParseAndCheck(p.File, []byte(javalite.Print(p)))
	if err != nil {
		return nil, err
	}
	fails, err := failing(ctx, []*javalite.Program{cur}, input, o, filepath.Join(dir, "r0"))
	if err != nil || fails[0] == nil {
		return nil, err
	}
	best := fails[0]
	for round := 1; round <= maxShrinkRounds; round++ {
		cands := Candidates(cur)
		if len(cands) == 0 {
			break
		}
		if len(cands) > maxCandidates {
			cands = cands[:maxCandidates]
		}
		// Smallest first, in groups: the first group with a failing
		// candidate ends the round, so a round that succeeds early
		// compiles few programs.
		found := false
		for g := 0; g < len(cands) && !found; g += shrinkGroup {
			group := cands[g:min(len(cands), g+shrinkGroup)]
			fs, err := failing(ctx, group, best.Input, o, filepath.Join(dir, fmt.Sprintf("r%d-%d", round, g)))
			if err != nil {
				return nil, err
			}
			if i := slices.IndexFunc(fs, func(s *Shrunk) bool { return s != nil }); i >= 0 {
				cur, best, found = group[i], fs[i], true
			}
		}
		if !found {
			break
		}
	}
	return best, nil
}

// failing runs each program on input and on its inputs (Inputs) and
// returns, per program, its smallest unexplained disagreement or nil.
func failing(ctx context.Context, progs []*javalite.Program, input *concrete.Heap, o Options, dir string) ([]*Shrunk, error) {
	b, err := NewBatch(dir)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	b.Fuel, b.Server = o.Fuel, o.Server
	var cases []Case
	var pairs []pair
	for i, p := range progs {
		name, err := b.Add(p)
		if err != nil {
			return nil, err
		}
		for _, h := range append([]*concrete.Heap{rebind(input, p)}, Inputs(p, o, o.Seed)...) {
			out, esc, err := Lockstep(p, h, o)
			if err != nil {
				return nil, err
			}
			pairs = append(pairs, pair{prog: i, heap: h, lockstep: out, escalated: esc})
			cases = append(cases, Case{Class: name, Input: Encode(p, h)})
		}
	}
	if err := b.Compile(ctx); err != nil {
		return nil, err
	}
	outs, err := b.Run(ctx, cases)
	if err != nil {
		return nil, err
	}
	res := make([]*Shrunk, len(progs))
	for i, pr := range pairs {
		if Classify(pr.lockstep, outs[i]) != "unexplained" {
			continue
		}
		s := &Shrunk{P: progs[pr.prog], Input: pr.heap, Lockstep: pr.lockstep, JVM: outs[i]}
		if old := res[pr.prog]; old == nil || smaller(s.Input, old.Input) {
			res[pr.prog] = s
		}
	}
	return res, nil
}

func smaller(a, b *concrete.Heap) bool {
	if len(a.Objects) != len(b.Objects) {
		return len(a.Objects) < len(b.Objects)
	}
	return len(a.String()) < len(b.String())
}

// Candidates returns the programs one edit smaller than p that
// type-check, smallest first, each once.
func Candidates(p *javalite.Program) []*javalite.Program {
	seen := map[string]bool{javalite.Print(p): true}
	type cand struct {
		src string
		p   *javalite.Program
	}
	var out []cand
	try := func() {
		src := javalite.Print(p)
		if seen[src] {
			return
		}
		seen[src] = true
		q, err := javalite.ParseAndCheck(p.File, []byte(src))
		if err == nil {
			out = append(out, cand{src, q})
		}
	}
	for _, c := range p.Classes {
		for _, m := range c.Methods {
			forSlots(&m.Body, func(slot *javalite.Expr) {
				orig := *slot
				var repls []javalite.Expr
				repls = append(repls, javalite.Children(orig)...)
				if b, ok := orig.(*javalite.Begin); ok && len(b.Exprs) > 1 {
					for i := range b.Exprs {
						rest := slices.Delete(slices.Clone(b.Exprs), i, i+1)
						if len(rest) == 1 {
							repls = append(repls, rest[0])
						} else {
							repls = append(repls, &javalite.Begin{ExprBase: b.ExprBase, Exprs: rest})
						}
					}
				}
				if n, ok := orig.(*javalite.IntLit); !ok || n.Val != 0 {
					repls = append(repls, &javalite.IntLit{ExprBase: javalite.ExprBase{P: orig.Pos()}})
				}
				for _, k := range []javalite.LitKind{javalite.LitTrue, javalite.LitFalse, javalite.LitNull} {
					if l, ok := orig.(*javalite.Lit); !ok || l.Kind != k {
						repls = append(repls, &javalite.Lit{ExprBase: javalite.ExprBase{P: orig.Pos()}, Kind: k})
					}
				}
				for _, r := range repls {
					*slot = r
					try()
				}
				*slot = orig
			})
		}
	}
	slices.SortStableFunc(out, func(a, b cand) int { return len(a.src) - len(b.src) })
	ps := make([]*javalite.Program, len(out))
	for i, c := range out {
		ps[i] = c.p
	}
	return ps
}

// forSlots calls f with every place an expression is held in the tree
// under *e, e included, parents before children.
func forSlots(e *javalite.Expr, f func(*javalite.Expr)) {
	f(e)
	switch x := (*e).(type) {
	case *javalite.FieldAccess:
		forSlots(&x.X, f)
	case *javalite.FieldWrite:
		forSlots(&x.Value, f)
	case *javalite.Equals:
		forSlots(&x.L, f)
		forSlots(&x.R, f)
	case *javalite.If:
		forSlots(&x.Cond, f)
		forSlots(&x.Then, f)
		forSlots(&x.Else, f)
	case *javalite.VarDecl:
		forSlots(&x.Init, f)
		forSlots(&x.Body, f)
	case *javalite.Call:
		forSlots(&x.Recv, f)
		for i := range x.Args {
			forSlots(&x.Args[i], f)
		}
	case *javalite.Assign:
		forSlots(&x.Value, f)
	case *javalite.Begin:
		for i := range x.Exprs {
			forSlots(&x.Exprs[i], f)
		}
	case *javalite.Binary:
		forSlots(&x.L, f)
		forSlots(&x.R, f)
	case *javalite.Assume:
		forSlots(&x.X, f)
	}
}

// rebind is h with its objects' classes taken from p, which has the
// classes and fields of the program h was made for: a candidate edits
// method bodies only.
func rebind(h *concrete.Heap, p *javalite.Program) *concrete.Heap {
	c := h.Clone()
	for i := range c.Objects {
		c.Objects[i].Class = p.Classes[c.Objects[i].Class.Index]
	}
	return c
}
