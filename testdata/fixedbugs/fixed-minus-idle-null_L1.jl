; Regression case for docs/FINDINGS.md F3 (phantom aliases): L1, →S* is exact with respect to →I* (Summarize) (rule Summarize).
; Found with checker.RunSurvey on an unnamed variant, kbound-assume + v7-uninit-guard (that is, fixed without
; idle-null), N=300, seed 1, k=2, steps 150, timeout 10s, shrink 20s, on 2026-11-22: L1 violated on 52 of the 300
; programs (the same stream as docs/LEMMAS.md); program 1 of the stream (program seed 2130133518379967363),
; 12 lines, shrunk to 4. That variant has no name in summary.Variants(), so it is not listed below; of the named
; variants, fixed is the only one on which this program holds: idle-null is what makes the difference.
; Other variants: v3-stuck, v8-keep-phi, seed000 (L2 rule Field access (A′)); published, v1-all-candidates,
; v4-init-before-write, v5-literal-outer, v5-literal-inner, v7-uninit-guard, v9-extend-env, idle-null (WF rule
; Summarize); v2-keep-phi (WF rule Field access (A))
; variant: kbound-assume, v6-min-ref
; expect: L1 Summarize
; k: 2
; steps: 150
; holds: fixed

(((class A ([A f] [A g])
    ((A main [bool x]
       (var A y := ((this $ f) $ f) in (begin (y $ f := this) (y $ g)))))))
 (A main))
