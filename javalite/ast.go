// Package javalite is the front end of lockstep: the abstract syntax of the
// Javalite language of RULES.md §1 with the data of PRIMITIVES.md §1 (int,
// bool and int fields, integer literals, + - < <=, (assume e), methods with
// zero or more parameters), its S-expression parser, a printer whose output
// parses back to the same tree, and a static checker.
//
// The design follows the usual syntax → resolve split. Parse builds the tree
// with source positions only; Check resolves every name and records on the
// tree what the engines need and must never recompute: the static class of
// every receiver (method lookup is static, RULES.md §3), the declared field
// of every access and write (its class is the class of locations created when
// the field is initialized; a primitive field has its type instead, and each
// class lists its reference and primitive fields apart), a slot number for
// every variable (this 0, the parameters 1..n, then the vars, so that an
// environment η is a small fixed-size vector that compares cheaply), whether
// an = compares references or data, and a dense ID for every expression (so
// that a control (η e k) can be keyed without printing it). The published
// semantics assumes type-safe input and has no run-time checks, so Check
// rejects everything the engines could not execute, with a position and a
// reason for each error. Name resolution uses per-class maps, so checking is
// linear in the size of the program.
//
// Limits. Input is bounded so that hostile or mistaken input (a fuzzer's
// output, `lockstep fmt /dev/zero`) ends in an error, never in unbounded
// memory or a stack overflow; real programs stay far below every bound:
//
//   - MaxInputSize (16 MiB): Parse refuses longer text and LoadFile reads no
//     more than one byte past it; the error is at the position of the first
//     byte past the limit.
//   - MaxNesting (1,000): brackets nested deeper are an error at the bracket
//     that crosses the bound. Every later pass recurses over the tree, so
//     this bounds their stack depth too.
//   - MaxErrors (100): one Parse or Check reports at most this many
//     diagnostics, then one saying that the rest were dropped.
//
// Every limit is reported as `file:line:col: reason`, like any other error.
// The printer renders each subtree only as far as the line width to decide
// whether it fits, so printing is linear in the size of the tree too.
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

// TypeName is a type as written in the source: "bool", "int" or a class name.
type TypeName struct {
	Pos  Pos
	Name string
}

// IsBool reports whether the written type is bool.
func (t TypeName) IsBool() bool { return t.Name == "bool" }

// IsInt reports whether the written type is int.
func (t TypeName) IsInt() bool { return t.Name == "int" }

// IsPrim reports whether the written type is a primitive type (bool or int).
func (t TypeName) IsPrim() bool { return t.IsBool() || t.IsInt() }

// Type is a resolved static type: bool, int, a class, or the type of the
// literal null (which compares and assigns to every class type).
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
	KindInt // PRIMITIVES.md §1
)

func (t Type) String() string {
	switch t.Kind {
	case KindBool:
		return "bool"
	case KindClass:
		return t.Class.Name
	case KindNull:
		return "null"
	case KindInt:
		return "int"
	}
	return "<invalid>"
}

// IsRef reports whether values of t are references (a class or null).
func (t Type) IsRef() bool { return t.Kind == KindClass || t.Kind == KindNull }

// IsPrim reports whether values of t are primitive data (bool or int):
// values that are terms, never references (PRIMITIVES.md §2).
func (t Type) IsPrim() bool { return t.Kind == KindBool || t.Kind == KindInt }

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

// Class is CL ::= (class C ([T f] ...) (M ...)).
type Class struct {
	Pos     Pos
	Name    string
	Fields  []*Field
	Methods []*Method

	// Set by Check.
	Index int // position in Program.Classes
	// RefFields and PrimFields split Fields by kind, in declaration order:
	// the heap rules, the relations and the printers of the reference
	// heap read RefFields only; primitive fields hold terms (PRIMITIVES.md
	// §2) and are read by the data rules and the data half of the relations.
	RefFields, PrimFields []*Field

	// Set by Check: name lookups, so that resolving every call and field
	// access of a program is linear in its size (a file with tens of
	// thousands of methods must not spend its time scanning them).
	fieldByName  map[string]*Field
	methodByName map[string]*Method
}

// FieldNamed returns the field called name, or nil. Valid after Check.
func (cl *Class) FieldNamed(name string) *Field { return cl.fieldByName[name] }

// MethodNamed returns the method called name (the first of duplicates), or
// nil. Valid after Check.
func (cl *Class) MethodNamed(name string) *Method { return cl.methodByName[name] }

// Field is [T f]: a reference field (T a class) or a primitive field (T
// bool or int, PRIMITIVES.md §1).
type Field struct {
	Pos  Pos
	Type TypeName
	Name string

	// Set by Check.
	Owner *Class
	Class *Class // the declared class of a reference field; nil for a primitive field
	T     Type   // the resolved type
	ID    int    // index in Program.Fields
	Index int    // index in Owner.Fields
}

// IsPrim reports whether f is a primitive (bool or int) field.
func (f *Field) IsPrim() bool { return f.T.IsPrim() }

// Method is M ::= (T m [T x] ... e): zero or more parameters
// (PRIMITIVES.md §1; one is still the common case).
type Method struct {
	Pos    Pos
	Ret    TypeName
	Name   string
	Params []*Param
	Body   Expr

	// Set by Check. Slot 0 holds this, slots 1..len(Params) the
	// parameters in order, and every var declaration in the body gets a
	// slot of its own after them.
	Owner    *Class
	RetT     Type
	NumSlots int
}

// Param is one parameter [T x] of a method.
type Param struct {
	Pos  Pos
	Type TypeName
	Name string
	T    Type // set by Check
	Slot int  // set by Check: 1 + its index
}

// SlotThis is the slot of this; parameter i (from 0) is in slot 1+i.
const SlotThis = 0

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

// Lit is v ::= null | true | false. Integer literals are IntLit.
type Lit struct {
	ExprBase
	Kind LitKind
}

// The range of integer literals, [-2^31, 2^31-1] (PRIMITIVES.md §1): Java's
// int, so that the papers' programs keep their literals, while the values
// computed from them are mathematical integers (PRIMITIVES.md §2).
const (
	MinInt = -1 << 31
	MaxInt = 1<<31 - 1
)

// IntLit is an integer literal n, within [MinInt, MaxInt] (PRIMITIVES.md §1).
type IntLit struct {
	ExprBase
	Val int64
}

// BinOp is one of the binary operators on ints.
type BinOp uint8

const (
	OpAdd BinOp = iota // +  int × int → int
	OpSub              // -  int × int → int
	OpLt               // <  int × int → bool
	OpLe               // <= int × int → bool
)

func (o BinOp) String() string {
	if o > OpLe {
		return fmt.Sprintf("<op %d>", uint8(o)) // only in hand-built trees; Check rejects it
	}
	return [...]string{"+", "-", "<", "<="}[o]
}

// Binary is (e + e), (e - e), (e < e) or (e <= e).
type Binary struct {
	ExprBase
	Op   BinOp
	L, R Expr
}

// Assume is (assume e): e is bool; a path on which it is false is pruned
// (PRIMITIVES.md §1, §3).
type Assume struct {
	ExprBase
	X Expr
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
	Refs bool // set by Check: true when the operands are references (else both bool or both int)
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

// Call is (e @ m e ...): a receiver and as many arguments as the method
// has parameters.
type Call struct {
	ExprBase
	Recv       Expr
	MethodName string
	Args       []Expr
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
