; The k-bound caveat of Kiasan (ENGINES.md §3.2, predicted finding KB): with
; k = 1, lazier# resolves z (depth 2: no fresh object) at its dereference,
; after y's object was materialized, so z may be y's object; GSE decides
; x.f at the read, when y's object does not exist, and never builds the
; heap this.f = X, X.f = this.g = Y (docs/KIASAN.md).
(((class C ([C f] [C g])
    ((bool main [bool u]
       (var C x := (this $ f) in
         (var C z := (x $ f) in
           (var C y := (this $ g) in
             (begin (y $ f) (z $ f) true))))))))
 (C main))
