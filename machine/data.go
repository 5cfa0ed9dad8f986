package machine

import (
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// UsesData reports whether a program has primitive data (PRIMITIVES.md
// §1): a primitive field, an int type, an int literal, an arithmetic or
// comparison operator, or an assume. A program without any of these runs
// exactly as before data existed, through every fast path; one with data
// may need a solver in every engine (If (sym), Assume). It walks the
// program each time, without a cache: it is asked a few times per check,
// and a cache keyed by program kept every program of a stream alive
// (shrink candidates too).
func UsesData(p *javalite.Program) bool {
	found := false
	isInt := func(t javalite.TypeName) bool { return t.IsInt() }
	for _, c := range p.Classes {
		for _, f := range c.Fields {
			if f.Type.IsPrim() {
				found = true
			}
		}
		for _, m := range c.Methods {
			if isInt(m.Ret) {
				found = true
			}
			for _, prm := range m.Params {
				if isInt(prm.Type) {
					found = true
				}
			}
			javalite.Walk(m.Body, func(x javalite.Expr) {
				switch e := x.(type) {
				case *javalite.IntLit, *javalite.Binary, *javalite.Assume:
					found = true
				case *javalite.VarDecl:
					if isInt(e.DeclType) {
						found = true
					}
				}
			})
		}
	}
	return found
}

// DataFacts lists the conjuncts of the path condition that have a term in
// them (If (sym), Assume): for GSE and Kiasan, whose reference facts are
// fixed by the heap shape, the only part of φ ever in question
// (PathCond.Feasible), and the data facts the relations compare.
func (s *State) DataFacts() []*smt.Formula {
	var fs []*smt.Formula
	for f := s.Facts; f != nil; f = f.Next {
		if f.F.HasData() {
			fs = append(fs, f.F)
		}
	}
	if s.Phi != nil && s.Phi.HasData() {
		fs = append(fs, s.Phi)
	}
	return fs
}
