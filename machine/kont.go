package machine

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
)

// KKind is the kind of a continuation frame (RULES.md §2, grammar of k).
type KKind uint8

const (
	KField    KKind = iota // (* $ f → k)            Expr: *FieldAccess
	KWrite                 // (x $ f := * → k)       Expr: *FieldWrite
	KEqL                   // (* = e → k)            Expr: *Equals
	KEqR                   // (v = * → k)            Expr: *Equals, Val
	KIf                    // (if * e else e → k)    Expr: *If
	KVar                   // (var T x := * in e → k) Expr: *VarDecl
	KCallRecv              // (* @ m e → k)          Expr: *Call
	KCallArg               // (v @ m v… * e… → k)    Expr: *Call, Val = receiver, Env = arguments so far, Idx = next argument
	KAssign                // (x := * → k)           Expr: *Assign
	KBegin                 // (begin * (e ...) → k)  Expr: *Begin, Idx = next
	KPop                   // (pop η k)              Env
	KPopVar                // (popvar x v0 k)        Expr: *VarDecl, Idx = slot of x, Val = v0 (VUndef: ⊥)
	KBinL                  // (* ⊕ e → k)            Expr: *Binary (PRIMITIVES.md §3)
	KBinR                  // (v ⊕ * → k)            Expr: *Binary, Val
	KAssume                // (assume * → k)         Expr: *Assume
)

// Kont is one frame of the continuation; Next is the rest (nil is end).
// Frames are immutable and shared between states.
type Kont struct {
	Kind KKind
	Expr javalite.Expr
	Val  Value
	Idx  int
	Env  []Value
	Next *Kont
}

// ControlKey returns a string that is equal for two states exactly when
// their controls (η e k) are equal. Expressions are identified by their
// checker-assigned IDs, which is sound because both engines run the same
// checked program.
func (s *State) ControlKey() string {
	// Built in a buffer on the stack (most keys fit), copied once into
	// the string: the checker and the concrete oracle ask for the keys of
	// every state of every step.
	var buf [256]byte
	return string(s.AppendControlKey(buf[:0]))
}

// AppendControlKey appends the bytes of ControlKey() to b and returns the
// extended slice (for a caller that only hashes the key: no string is
// made).
func (s *State) AppendControlKey(b []byte) []byte {
	b = binary.AppendVarint(b, int64(s.Mode))
	switch s.Mode {
	case ModeExpr:
		b = binary.AppendVarint(b, int64(s.Expr.ID()))
	case ModeValue:
		b = binary.AppendVarint(b, s.Val.key())
		if s.Origin != nil {
			b = binary.AppendVarint(b, -1-int64(s.Origin.ID()))
		}
	}
	b = appendEnvKey(b, s.Env)
	for k := s.K; k != nil; k = k.Next {
		b = binary.AppendVarint(b, int64(k.Kind))
		if k.Expr != nil {
			b = binary.AppendVarint(b, int64(k.Expr.ID()))
		}
		b = binary.AppendVarint(b, k.Val.key())
		b = binary.AppendVarint(b, int64(k.Idx))
		if k.Kind == KPop || k.Kind == KCallArg {
			b = appendEnvKey(b, k.Env)
		}
	}
	return b
}

func appendEnvKey(b []byte, env []Value) []byte {
	b = binary.AppendVarint(b, int64(len(env)))
	for _, v := range env {
		b = binary.AppendVarint(b, v.key())
	}
	return b
}

// Slots returns the term values of η, e and k (PRIMITIVES.md §5), in the
// order ControlKey writes them: two states with equal control keys have
// as many slots, of the same sorts, and the data half of the relations
// compares them position by position.
func (s *State) Slots() []*smt.Formula {
	var out []*smt.Formula
	add := func(v Value) {
		if v.r == tagTerm {
			out = append(out, v.t)
		}
	}
	addEnv := func(env []Value) {
		for _, v := range env {
			add(v)
		}
	}
	if s.Mode == ModeValue {
		add(s.Val)
	}
	addEnv(s.Env)
	for k := s.K; k != nil; k = k.Next {
		add(k.Val)
		if k.Kind == KPop || k.Kind == KCallArg {
			addEnv(k.Env)
		}
	}
	return out
}

// ControlString prints (η e k) for people.
func (s *State) ControlString() string {
	var b strings.Builder
	b.WriteString("η=")
	b.WriteString(EnvString(s.Env))
	b.WriteString("  e=")
	switch s.Mode {
	case ModeExpr:
		b.WriteString(javalite.PrintExpr(s.Expr))
	case ModeValue:
		b.WriteString(s.Val.String())
	case ModeError:
		b.WriteString("error")
	}
	b.WriteString("  k=")
	b.WriteString(KontString(s.K))
	return b.String()
}

// EnvString prints an environment as [slot:value ...], skipping unbound slots.
func EnvString(env []Value) string {
	var parts []string
	for i, v := range env {
		if v != VUndef {
			parts = append(parts, fmt.Sprintf("%d:%s", i, v))
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// KontString prints a continuation in the notation of RULES.md §2.
func KontString(k *Kont) string {
	var b strings.Builder
	depth := 0
	for ; k != nil; k = k.Next {
		depth++
		if depth > 6 {
			b.WriteString("… → ")
			break
		}
		switch k.Kind {
		case KField:
			fmt.Fprintf(&b, "(* $ %s)", k.Expr.(*javalite.FieldAccess).FieldName)
		case KWrite:
			fw := k.Expr.(*javalite.FieldWrite)
			fmt.Fprintf(&b, "(%s $ %s := *)", fw.VarName, fw.FieldName)
		case KEqL:
			fmt.Fprintf(&b, "(* = %s)", javalite.PrintExpr(k.Expr.(*javalite.Equals).R))
		case KEqR:
			fmt.Fprintf(&b, "(%s = *)", k.Val)
		case KIf:
			b.WriteString("(if * … else …)")
		case KVar:
			fmt.Fprintf(&b, "(var %s := * in …)", k.Expr.(*javalite.VarDecl).Name)
		case KCallRecv:
			c := k.Expr.(*javalite.Call)
			fmt.Fprintf(&b, "(* @ %s", c.MethodName)
			for _, a := range c.Args {
				b.WriteString(" " + javalite.PrintExpr(a))
			}
			b.WriteString(")")
		case KCallArg:
			c := k.Expr.(*javalite.Call)
			fmt.Fprintf(&b, "(%s @ %s", k.Val, c.MethodName)
			for _, v := range k.Env {
				b.WriteString(" " + v.String())
			}
			b.WriteString(" *")
			for _, a := range c.Args[k.Idx:] {
				b.WriteString(" " + javalite.PrintExpr(a))
			}
			b.WriteString(")")
		case KBinL:
			x := k.Expr.(*javalite.Binary)
			fmt.Fprintf(&b, "(* %s %s)", x.Op, javalite.PrintExpr(x.R))
		case KBinR:
			fmt.Fprintf(&b, "(%s %s *)", k.Val, k.Expr.(*javalite.Binary).Op)
		case KAssume:
			b.WriteString("(assume *)")
		case KAssign:
			fmt.Fprintf(&b, "(%s := *)", k.Expr.(*javalite.Assign).VarName)
		case KBegin:
			fmt.Fprintf(&b, "(begin * [%d more])", len(k.Expr.(*javalite.Begin).Exprs)-k.Idx)
		case KPop:
			fmt.Fprintf(&b, "(pop %s)", EnvString(k.Env))
		case KPopVar:
			fmt.Fprintf(&b, "(popvar %s %s)", k.Expr.(*javalite.VarDecl).Name, k.Val)
		}
		b.WriteString(" → ")
	}
	b.WriteString("end")
	return b.String()
}
