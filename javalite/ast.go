// Package javalite is the front end of lockstep: the abstract syntax of the
// Javalite language of RULES.md §1, its S-expression parser, a printer whose
// output parses back to the same tree, and a static checker.
//
// The design follows the usual syntax → resolve split. Parse builds the tree
// with source positions only; Check resolves every name and records on the
// tree what the engines need and must never recompute: the static class of
// every receiver (method lookup is static, RULES.md §3), the declared field
// of every access and write (its class is the class of locations created when
// the field is initialized), a slot number for every variable (so that an
// environment η is a small fixed-size vector that compares cheaply), and a
// dense ID for every expression (so that a control (η e k) can be keyed
// without printing it). The published semantics assumes type-safe input and
// has no run-time checks, so Check rejects everything the engines could not
// execute, with a position and a reason for each error.
package javalite

import "fmt"

// Pos is a source position. Line and Col count from 1; Col counts bytes.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	f := p.File
	if f == "" {
		f = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d", f, p.Line, p.Col)
}

// TypeName is a type as written in the source: "bool" or a class name.
type TypeName struct {
	Pos  Pos
	Name string
}

// IsBool reports whether the written type is bool.
func (t TypeName) IsBool() bool { return t.Name == "bool" }

// Type is a resolved static type: bool, a class, or the type of the literal
// null (which compares and assigns to every class type).
type Type struct {
	Kind  TypeKind
	Class *Class // for KindClass
}

// TypeKind distinguishes resolved types.
type TypeKind uint8

const (
	KindInvalid TypeKind = iota // unresolved or erroneous
	KindBool
	KindClass
	KindNull
)

func (t Type) String() string {
	switch t.Kind {
	case KindBool:
		return "bool"
	case KindClass:
		return t.Class.Name
	case KindNull:
		return "null"
	}
	return "<invalid>"
}

// IsRef reports whether values of t are references (a class or null).
func (t Type) IsRef() bool { return t.Kind == KindClass || t.Kind == KindNull }

// Program is P ::= (μ (C m)).
type Program struct {
	File        string
	Classes     []*Class
	EntryClass  string
	EntryMethod string
	EntryPos    Pos

	// Filled in by Check.
	Entry   *Method
	ByName  map[string]*Class
	Fields  []*Field // every field of every class, indexed by Field.ID
	NumExpr int      // expression IDs are 0..NumExpr-1
}

// Class is CL ::= (class C ([C f] ...) (M ...)).
type Class struct {
	Pos     Pos
	Name    string
	Fields  []*Field
	Methods []*Method

	Index int // position in Program.Classes (set by Check)
}

// Field is [C f]. Fields are class-typed only.
type Field struct {
	Pos  Pos
	Type TypeName
	Name string

	// Set by Check.
	Owner *Class
	Class *Class // the declared class of the field
	ID    int    // index in Program.Fields
	Index int    // index in Owner.Fields
}

// Method is M ::= (T m [T x] e): exactly one parameter.
type Method struct {
	Pos       Pos
	Ret       TypeName
	Name      string
	ParamType TypeName
	Param     string
	Body      Expr

	// Set by Check. Slot 0 holds this, slot 1 the parameter, and every
	// var declaration in the body gets a slot of its own from 2 on.
	Owner    *Class
	RetT     Type
	ParamT   Type
	NumSlots int
}

// Slots of the two variables every method has.
const (
	SlotThis  = 0
	SlotParam = 1
)

// Expr is an expression. Every expression has a position and, after Check,
// a dense ID and a static type.
type Expr interface {
	Pos() Pos
	ID() int
	Type() Type
	exprNode()
}

// ExprBase holds what every expression node carries.
type ExprBase struct {
	P  Pos
	Id int  // set by Check
	T  Type // set by Check
}

func (b *ExprBase) Pos() Pos   { return b.P }
func (b *ExprBase) ID() int    { return b.Id }
func (b *ExprBase) Type() Type { return b.T }
func (*ExprBase) exprNode()    {}

// Var is a variable use: this or an identifier.
type Var struct {
	ExprBase
	Name string
	Slot int // set by Check
}

// LitKind is one of the literal values.
type LitKind uint8

const (
	LitNull LitKind = iota
	LitTrue
	LitFalse
)

func (k LitKind) String() string { return [...]string{"null", "true", "false"}[k] }

// Lit is v ::= null | true | false.
type Lit struct {
	ExprBase
	Kind LitKind
}

// New is (new C).
type New struct {
	ExprBase
	ClassName string
	Class     *Class // set by Check
}

// FieldAccess is (e $ f).
type FieldAccess struct {
	ExprBase
	X         Expr
	FieldName string
	Field     *Field // set by Check; Field.Owner is the static class of X
}

// FieldWrite is (x $ f := e).
type FieldWrite struct {
	ExprBase
	VarPos    Pos
	VarName   string
	Slot      int // set by Check
	FieldName string
	Field     *Field // set by Check
	Value     Expr
}

// Equals is (e = e).
type Equals struct {
	ExprBase
	L, R Expr
	Refs bool // set by Check: true when the operands are references
}

// If is (if e e else e).
type If struct {
	ExprBase
	Cond, Then, Else Expr
}

// VarDecl is (var T x := e in e).
type VarDecl struct {
	ExprBase
	DeclType TypeName
	Name     string
	NamePos  Pos
	Init     Expr
	Body     Expr
	Slot     int // set by Check
}

// Call is (e @ m e).
type Call struct {
	ExprBase
	Recv       Expr
	MethodName string
	Arg        Expr
	Method     *Method // set by Check, from the static class of Recv
}

// Assign is (x := e).
type Assign struct {
	ExprBase
	VarPos  Pos
	VarName string
	Slot    int // set by Check
	Value   Expr
}

// Begin is (begin e e ...), with at least one expression.
type Begin struct {
	ExprBase
	Exprs []Expr
}
