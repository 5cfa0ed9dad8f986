; Syntax errors. Each chunk (separated by a line ---) is parsed on its own.
; A comment of three semicolons, "error:" and a regexp marks a line where an
; error matching the regexp must be reported (see javalite/errors_test.go).
; Unbalanced brackets: a missing ) is reported at the ( it leaves open.
(((class A () ())) ;;; error: unclosed `\(`
 (A m)
---
; An extra ) is reported where it stands.
(((class A () ((bool m [bool x] x))))
 (A m))) ;;; error: unexpected `\)`
---
; ] closing a (.
(((class A () ((bool m [bool x] (begin x x])))) ;;; error: `\]` does not match `\(`
 (A m))
---
(((class A () ((bool m [bool x] (begin))))) ;;; error: `\(begin\)` needs at least one expression
 (A m))
---
(((class A () ((bool m [bool x] (if x true false))))) ;;; error: missing `else`
 (A m))
---
; Bad tokens: characters that start no token, identifiers starting with a
; digit, and a lone colon. All are reported in one run.
(((class A () ((bool m [bool x] #x)))) ;;; error: unexpected character `?"#"`?
 (A 1m ;;; error: invalid identifier `1m`
  :)) ;;; error: unexpected `:`
---
(((class A ([A int]) ())) ;;; error: expected a field name, found keyword `int`
 (A m))
---
(((class if () ())) ;;; error: expected a class name, found keyword `if`
 (if m)) ;;; error: expected an entry class name, found keyword `if`
---
(((class A ([A this]) ())) ;;; error: expected a field name, found keyword `this`
 (A m))
---
(((class A ((A f)) ())) ;;; error: field declaration has the form \[T f\]
 (A m))
---
(((class A () ((bool m [bool x] (begin [x]))))) ;;; error: unexpected `\[`
 (A m))
---
; A method's last item is its body, never a bracket.
(((class A () ((bool m [bool x] [x])))) ;;; error: method has no body
 (A m))
---
; Parameters come between the name and the body.
(((class A () ((bool m [bool x] x [bool y] y)))) ;;; error: a method declaration has the form \(T m \[T x\] \.\.\. e\)
 (A m))
---
(((class A () ((bool m [bool x] [bool] x)))) ;;; error: a parameter has the form \[T x\]
 (A m))
---
(((class A () ((bool m [bool x])))) ;;; error: method has no body
 (A m))
---
(((class A () ((bool m [bool x] (this @))))) ;;; error: a call has the form \(e @ m e \.\.\.\)
 (A m))
---
(((class A () ((bool m [bool x] (var bool y := x y))))) ;;; error: variable declaration has the form
 (A m))
---
(((class A () ((bool m [bool x] (x $ f g))))) ;;; error: field expression has the form
 (A m))
---
(((klass A () ())) ;;; error: expected a class declaration
 (A m))
---
(((class A () ()))
 (A m))
(B n) ;;; error: unexpected `\(...\)` after the end of the program
---
; A field write needs a variable as its target.
(((class A ([A f]) ((A m [bool x] ((this $ f) $ f := null))))) ;;; error: expected a variable
 (A m))
---
(((class A () ((bool m [bool x] (x y z))))) ;;; error: malformed expression `\(x y z\)`
 (A m))
---
; Keywords are not expressions; the errors in the two methods are independent
; and both are reported.
(((class A ()
    ((bool m [bool x] else) ;;; error: expected an expression, found keyword `else`
     (bool n [bool x] (new)) ;;; error: object creation has the form \(new C\)
     (bool o [bool x] ())))) ;;; error: empty expression
 (A m))
---
(((class A () ((bool m [bool x] (if x x else x x))))) ;;; error: conditional has the form
 (A m))
---
(((class A () ((bool m [bool x] (x := x x))))) ;;; error: assignment has the form
 (A m))
---
(((class A () ((bool m [bool x] (x = x = x))))) ;;; error: comparison has the form
 (A m))
---
(((class A () ((bool m [bool x] (new this)))))  ;;; error: expected a class name, found keyword `this`
 (A m))
---
(((class A () ()))
 [A m)) ;;; error: `\)` does not match `\[`
---
; Integer literals are within [-2^31, 2^31-1] (PRIMITIVES.md §1).
(((class A ()
    ((int m [int x]
       (begin 2147483647 -2147483648
              2147483648 ;;; error: integer literal 2147483648 out of range \[-2147483648, 2147483647\]
              -2147483649 ;;; error: integer literal -2147483649 out of range
              99999999999999999999999))))) ;;; error: integer literal 99999999999999999999999 out of range
 (A m))
---
(((class A () ((int m [int x] (1 + 2 + 3))))) ;;; error: a binary operation has the form \(e \+ e\)
 (A m))
---
(((class A () ((int m [int x] (x <= ))))) ;;; error: a binary operation has the form \(e <= e\)
 (A m))
---
(((class A () ((bool m [int x] (assume x x))))) ;;; error: an assumption has the form \(assume e\)
 (A m))
---
(((class A () ((bool m [int x] (assume))))) ;;; error: an assumption has the form \(assume e\)
 (A m))
---
; A - written against a digit is a sign: (x -1) and (x-1) are two items, not a subtraction.
(((class A () ((int m [int x] (x -1))))) ;;; error: malformed expression `\(x -1\)` \(a subtraction is written with a space after the -: \(e - 1\)\)
 (A m))
---
(((class A () ((int m [int x] (x-12))))) ;;; error: malformed expression `\(x -12\)`
 (A m))
---
(((class A () ((int m [int x] (begin 12ab -3c))))) ;;; error: invalid identifier `12ab` ;;; error: invalid integer literal `-3c`
 (A m))
---
(((class int () ())) ;;; error: expected a class name, found keyword `int`
 (A m))
---
(((class A () ((int m [int assume] x)))) ;;; error: expected a parameter name, found keyword `assume`
 (A m))
---
(((class A () ((bool m [bool x] (x < = x))))) ;;; error: a binary operation has the form \(e < e\)
 (A m))
