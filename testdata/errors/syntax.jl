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
(((class A ([bool f]) ())) ;;; error: field of type bool
 (A m))
---
(((class if () ())) ;;; error: expected a class name, found keyword `if`
 (if m)) ;;; error: expected an entry class name, found keyword `if`
---
(((class A ([A this]) ())) ;;; error: expected a field name, found keyword `this`
 (A m))
---
(((class A ((A f)) ())) ;;; error: field declaration has the form \[C f\]
 (A m))
---
(((class A () ((bool m [bool x] [x])))) ;;; error: unexpected `\[`
 (A m))
---
(((class A () ((bool m [bool x] [bool y] x)))) ;;; error: exactly one parameter
 (A m))
---
(((class A () ((bool m [bool x])))) ;;; error: method has no body
 (A m))
---
(((class A () ((bool m [bool x] (this @ m x x))))) ;;; error: call takes exactly one argument
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
