; Regression case for docs/FINDINGS.md (Kiasan KB-1, ENGINES.md §3.2's predicted k-bound finding): at k = 1 lazier
; and lazier# resolve z (depth 2, no fresh object) at its dereference, after y's object was materialized, so z may be
; y's object; GSE decides x.f at the read, when y's object does not exist. At k = -1 both engines hold; at k = 1 the
; checker reruns the violation at k = -1 and reports KB. stamp-kbound (a symbol deeper than k aliases only objects
; materialized from older symbols) aligns with GSE here (docs/KIASAN.md). Confirmed with
; `lockstep check -engine lazier# -k 1 testdata/programs/kiasan_kbound.jl` on 2026-11-23.
; variant: lazier#:default, lazier:default
; expect: KB
; k: 1
; steps: 150
; holds: lazier#:stamp-kbound
(((class C ([C f] [C g])
    ((bool main [bool u]
       (var C x := (this $ f) in
         (var C z := (x $ f) in
           (var C y := (this $ g) in
             (begin (y $ f) (z $ f) true))))))))
 (C main))
