package machine

import (
	"sync"

	"github.com/lockstep-dev/lockstep/javalite"
)

// usesData caches UsesData per program (programs are immutable once
// checked).
var usesData sync.Map // *javalite.Program → bool

// UsesData reports whether a program has primitive data (PRIMITIVES.md
// §1): a primitive field, an int type, an int literal, an arithmetic or
// comparison operator, or an assume. A program without any of these runs
// exactly as before data existed, through every fast path; one with data
// may need a solver in every engine (If (sym), Assume).
func UsesData(p *javalite.Program) bool {
	if v, ok := usesData.Load(p); ok {
		return v.(bool)
	}
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
			walkExpr(m.Body, func(x javalite.Expr) {
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
	usesData.Store(p, found)
	return found
}
