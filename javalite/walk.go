package javalite

// Children lists the direct subexpressions of e in evaluation order (the
// order the machine evaluates them: receiver before arguments, left
// operand before right, condition before branches).
func Children(e Expr) []Expr {
	switch e := e.(type) {
	case *FieldAccess:
		return []Expr{e.X}
	case *FieldWrite:
		return []Expr{e.Value}
	case *Equals:
		return []Expr{e.L, e.R}
	case *Binary:
		return []Expr{e.L, e.R}
	case *Assume:
		return []Expr{e.X}
	case *If:
		return []Expr{e.Cond, e.Then, e.Else}
	case *VarDecl:
		return []Expr{e.Init, e.Body}
	case *Call:
		return append([]Expr{e.Recv}, e.Args...)
	case *Assign:
		return []Expr{e.Value}
	case *Begin:
		return e.Exprs
	}
	return nil // Var, Lit, IntLit, New
}

// Walk calls f on e and on every subexpression of e, parents first, in
// evaluation order. A nil e is skipped.
func Walk(e Expr, f func(Expr)) {
	if e == nil {
		return
	}
	f(e)
	for _, x := range Children(e) {
		Walk(x, f)
	}
}
