; Regression case for docs/FINDINGS.md (uber-lazy U-NOALIAS, seed 004 as drafted: resolution without an alias
; case): (this $ f) = this is never true, so GSE's E successor has no counterpart (docs/UBER.md).
; Confirmed with `lockstep check -engine uber:defer+u-noalias -k -1 testdata/programs/uber_noalias.jl` on 2026-11-23.
; variant: uber:defer+u-noalias
; expect: L9 Equals (E)
; k: -1
; steps: 150
; holds: uber:defer
(((class A ([A f])
    ((bool main [bool x]
       ((this $ f) = this)))))
 (A main))
