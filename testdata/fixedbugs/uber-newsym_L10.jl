; Regression case for docs/FINDINGS.md (uber-lazy U-NEWSYM, seed 004 as drafted: New gives a new object
; unresolved fields instead of null): right after New the View stands for heaps GSE never builds (docs/UBER.md).
; Confirmed with `lockstep check -engine uber:defer+u-newsym -k -1 testdata/programs/uber_newsym.jl` on 2026-11-23.
; variant: uber:defer+u-newsym
; expect: L10 New
; k: -1
; steps: 150
; holds: uber:defer
(((class A ([A f])
    ((A main [bool x]
       (begin (new A) (this $ f))))))
 (A main))
