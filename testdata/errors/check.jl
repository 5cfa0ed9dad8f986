; Static checking errors. Each chunk (separated by a line ---) is parsed and
; checked on its own. A comment of three semicolons, "error:" and a regexp
; marks a line where an error matching the regexp must be reported (see
; javalite/errors_test.go).
(((class A () ((A m [bool x] (new B))))) ;;; error: unknown class `B`
 (A m))
---
(((class A ([B f]) ())) ;;; error: unknown class `B`
 (A m)) ;;; error: unknown entry method `m` in class A
---
(((class A () ((C m [D x] x)))) ;;; error: unknown class `C` ;;; error: unknown class `D`
 (A m))
---
(((class Node ([Node next])
    ((Node m [bool x] (this $ nxt))))) ;;; error: unknown field `nxt` in class Node
 (Node m))
---
(((class A ([A f])
    ((A m [bool x] (this $ g := null))))) ;;; error: unknown field `g` in class A
 (A m))
---
(((class A () ((A m [bool x] (this @ n x))))) ;;; error: unknown method `n` in class A
 (A m))
---
(((class A () ((bool m [bool x] y)))) ;;; error: unknown variable `y`
 (A m))
---
(((class A () ((bool m [bool x] (y := x))))) ;;; error: unknown variable `y`
 (A m))
---
(((class A ([A f]) ((bool m [bool x] (begin (y $ f := null) x))))) ;;; error: unknown variable `y`
 (A m))
---
; Variables go out of scope at the end of their var.
(((class A () ((bool m [bool x] (begin (var bool y := x in y) y))))) ;;; error: unknown variable `y`
 (A m))
---
(((class A () ())
  (class A () ())) ;;; error: duplicate class `A`
 (A m)) ;;; error: unknown entry method
---
(((class A ([A f] [A f]) ())) ;;; error: duplicate field `f` in class A
 (A m)) ;;; error: unknown entry method
---
(((class A ()
    ((bool m [bool x] x)
     (bool m [bool y] y)))) ;;; error: duplicate method `m` in class A
 (A m))
---
(((class A () ((bool m [bool this] true)))) ;;; error: parameter of method `m` named `this`
 (A m))
---
(((class A () ((bool m [bool x] (var bool this := x in x))))) ;;; error: cannot declare a variable named `this`
 (A m))
---
(((class A ([A f]) ((A m [bool x] (x $ f))))) ;;; error: access to field `f` on a bool
 (A m))
---
(((class A ([A f]) ((A m [bool x] (null $ f))))) ;;; error: access to field `f` on null
 (A m))
---
(((class A ([A f]) ((A m [bool x] (x $ f := null))))) ;;; error: write to field `f` on a bool
 (A m))
---
(((class A () ((bool m [bool x] (x @ m x))))) ;;; error: call of method `m` on a bool
 (A m))
---
(((class A () ((bool m [bool x] (null @ m x))))) ;;; error: call of method `m` on null
 (A m))
---
(((class A () ((A m [A x] (if x x else x))))) ;;; error: condition of if has type A, not bool
 (A m))
---
(((class A () ())
  (class B () ((A m [bool x] (if x (new A) else (new B)))))) ;;; error: incompatible types A and B
 (B m))
---
(((class A () ((bool m [bool x] (if x x else null))))) ;;; error: incompatible types bool and null
 (A m))
---
(((class A () ())
  (class B () ((bool m [bool x] (var A a := (new B) in true))))) ;;; error: cannot initialize variable `a` of type A with B
 (B m))
---
(((class A () ((bool m [bool x] (this := (new A)))))) ;;; error: cannot assign to `this`
 (A m))
---
(((class A () ((bool m [bool x] (x := null))))) ;;; error: cannot assign null to variable `x` of type bool
 (A m))
---
(((class A () ())
  (class B ([A f]) ((A m [bool x] (this $ f := this))))) ;;; error: cannot write B to field `f` of type A
 (B m))
---
(((class A () ((bool m [A a] (this @ m true))))) ;;; error: argument of A.m has type bool, want A
 (A m))
---
(((class A () ((A m [bool x] x)))) ;;; error: method `m` returns A, but its body has type bool
 (A m))
---
(((class A () ((bool m [bool x] (x = this))))) ;;; error: cannot compare bool with A
 (A m))
---
(((class A () ((bool m [bool x] (null = true))))) ;;; error: cannot compare null with bool
 (A m))
---
(((class A () ((bool m [bool x] x))))
 (B m)) ;;; error: unknown entry class `B`
---
(((class A () ((bool m [bool x] x))))
 (A main)) ;;; error: unknown entry method `main` in class A
---
; Independent errors in different methods and classes are all reported, and
; an error is reported once, not again by every expression that uses it.
(((class A ([A f])
    ((bool m [bool x] (y $ f)) ;;; error: unknown variable `y`
     (A n [bool x] ((this $ g) $ f)))) ;;; error: unknown field `g` in class A
  (class B ()
    ((bool k [A a] (a @ m (a @ zz true)))))) ;;; error: unknown method `zz` in class A
 (A m))
---
; Null joins with a class; shadowing resolves to the innermost declaration.
; (No errors: this chunk checks that valid code is not rejected.)
(((class A ([A f])
    ((A m [A x] (if true x else null))
     (bool s [bool x] (var A x := null in (var bool x := true in x))))))
 (A m))
---
; Arity (PRIMITIVES.md §1): a call passes as many arguments as the method has parameters.
(((class A ()
    ((bool m [bool x] (this @ m x x)) ;;; error: A.m takes 1 argument, but the call passes 2
     (bool n (this @ m)) ;;; error: A.m takes 1 argument, but the call passes 0
     (bool o [A a] [bool b] (this @ o b a)))))  ;;; error: argument 1 of A.o has type bool, want A ;;; error: argument 2 of A.o has type A, want bool
 (A m))
---
(((class A () ((bool m [bool x] [A x] x)))) ;;; error: duplicate parameter `x` of method `m`
 (A m))
---
; Data (PRIMITIVES.md §1): `=` compares two ints, two bools or two references.
(((class A ([int n] [bool b] [A a])
    ((bool m [int x]
       (begin ((this $ n) = (this $ b)) ;;; error: cannot compare int with bool
              ((this $ b) = x) ;;; error: cannot compare bool with int
              (x = this) ;;; error: cannot compare int with A
              (null = 0) ;;; error: cannot compare null with int
              (x = (this $ n))
              ((this $ b) = true)
              ((this $ a) = null))))))
 (A m))
---
; Arithmetic and comparisons take ints.
(((class A ([int n] [bool b])
    ((int m [int x]
       (begin ((this $ b) + 1) ;;; error: arithmetic `\+` on a bool: its operands are ints
              (1 - this) ;;; error: arithmetic `-` on a reference of class A: its operands are ints
              (null < x) ;;; error: comparison `<` on null: its operands are ints
              (true <= false) ;;; error: comparison `<=` on a bool ;;; error: comparison `<=` on a bool
              (x < (this $ n))
              ((x + 1) - (this $ n)))))))
 (A m))
---
; A comparison is a bool, a sum an int.
(((class A ()
    ((int m [int x] (x < 1)) ;;; error: method `m` returns int, but its body has type bool
     (bool n [int x] (x + 1))))) ;;; error: method `n` returns bool, but its body has type int
 (A m))
---
; if and assume need a bool.
(((class A ([int n])
    ((bool m [int x]
       (begin (if x true else false) ;;; error: condition of if has type int, not bool
              (assume (this $ n)) ;;; error: condition of assume has type int, not bool
              (assume this) ;;; error: condition of assume has type A, not bool
              (assume (x < 0)))))))
 (A m))
---
; Field reads and writes of primitive fields are typed like any other.
(((class A ([int n] [bool b])
    ((int m [int x]
       (begin (this $ n := true) ;;; error: cannot write bool to field `n` of type int
              (this $ b := 0) ;;; error: cannot write int to field `b` of type bool
              (var A y := (this $ n) in y) ;;; error: cannot initialize variable `y` of type A with int
              (x := false) ;;; error: cannot assign bool to variable `x` of type int
              (x $ n) ;;; error: access to field `n` on an int
              (x @ m 1) ;;; error: call of method `m` on an int
              (if true 1 else false) ;;; error: branches of if have incompatible types int and bool
              (this $ n := (x + 1)))))))
 (A m))
---
; Arguments are checked against the parameters, in order.
(((class A ()
    ((bool m [int x] [bool b] [A a] b)
     (bool n
       (begin (this @ m 1 true this)
              (this @ m true 1 null)))))) ;;; error: argument 1 of A.m has type bool, want int ;;; error: argument 2 of A.m has type int, want bool
 (A n))
---
(((class A () ((bool m [int x] (this @ m))))) ;;; error: A.m takes 1 argument, but the call passes 0
 (A m))
