; Regression case: L1, →S* is exact with respect to →I* (Summarize) (rule Summarize).
; Found by `lockstep lemmas -all -n 300 -k 2 -steps 150 -timeout 10s -shrink-time 20s -fixedbugs testdata/fixedbugs` on 2026-11-22: variant published, program 1 of the stream (program seed 2130133518379967363), 12 lines, shrunk to 5.
; Reason: (a) P[4] is not represented by q: no homomorphism p ⇀ q with S(φ_q ∧ HC) (5 search nodes)
; Other variants: seed000 (L3 rule Field write (W′)), v1-all-candidates (WF rule Summarize), v3-stuck (L3 rule Field write (W′)), v4-init-before-write (L3 rule Field write (W)), v8-keep-phi (L3 rule Field write (W′))
; variant: published, v2-keep-phi, v5-literal-outer, v5-literal-inner, v6-min-ref, kbound-assume, v9-extend-env, idle-null
; expect: L1 Summarize
; k: 2
; steps: 150
; holds: v7-uninit-guard, fixed

(((class A ([A f] [A g])
    ((A main [bool x]
       (var A y := (this $ f) in
         (begin (y $ g := (new A)) true ((this $ g) $ g)))))))
 (A main))
