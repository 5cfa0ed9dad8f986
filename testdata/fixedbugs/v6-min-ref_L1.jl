; Regression case: L1, →S* is exact with respect to →I* (Summarize) (rule Summarize).
; Found by `lockstep lemmas -all -n 300 -k 2 -steps 150 -timeout 10s -shrink-time 20s -fixedbugs testdata/fixedbugs` on 2026-11-22: variant v6-min-ref, program 0 of the stream (program seed 2177342777164336999), 4 lines, shrunk to 4.
; Reason: (a) P[2] is not represented by q: no homomorphism p ⇀ q with S(φ_q ∧ HC) (1 search nodes)
; variant: v6-min-ref
; expect: L1 Summarize
; k: 2
; steps: 150
; holds: published, v1-all-candidates, v2-keep-phi, v3-stuck, v4-init-before-write, v5-literal-outer, v5-literal-inner, v7-uninit-guard, kbound-assume, v8-keep-phi, v9-extend-env, idle-null, fixed, seed000

(((class A ([A f])
    ((A main [bool x]
       (this $ f)))))
 (A main))
