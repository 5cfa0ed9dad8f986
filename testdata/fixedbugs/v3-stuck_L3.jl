; Regression case: L3, Field write (W, W′) preserves ⊏ (rule Field write (W′)).
; Found by `lockstep lemmas -all -n 300 -k 2 -steps 150 -timeout 10s -shrink-time 20s -fixedbugs testdata/fixedbugs` on 2026-11-22: variant v3-stuck, program 8 of the stream (program seed 1799668689507894169), 6 lines, shrunk to 6.
; Reason: forward: 1 GSE state(s) reach this control by Field write (W′); no summary successor does
; Other variants: v4-init-before-write (L3 rule Field write (W)), v5-literal-outer (WF rule Equals (E′)), v6-min-ref (L1 rule Summarize)
; variant: v3-stuck, v8-keep-phi, seed000
; expect: L3 Field write (W′)
; k: 2
; steps: 150
; holds: published, v1-all-candidates, v2-keep-phi, v5-literal-inner, v7-uninit-guard, kbound-assume, v9-extend-env, idle-null, fixed

(((class A ([A f])
    ((bool main [bool x]
       (var bool y := (var A z := (this $ f) in
                        (begin (z $ f := this) (((this $ f) $ f) = null))) in
         true)))))
 (A main))
