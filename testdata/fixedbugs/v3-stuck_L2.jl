; Regression case: L2, Field access (A, A′) preserves ⊏ (rule Field access (A′)).
; Found by `lockstep lemmas -all -n 300 -k 2 -steps 150 -timeout 10s -shrink-time 20s -fixedbugs testdata/fixedbugs` on 2026-11-22: variant v3-stuck, program 1 of the stream (program seed 2130133518379967363), 12 lines, shrunk to 4.
; Reason: forward: 1 GSE state(s) reach this control by Field access (A′); no summary successor does
; Other variants: v2-keep-phi (WF rule Field access (A)), v6-min-ref (L1 rule Summarize)
; variant: v3-stuck, v8-keep-phi, seed000
; expect: L2 Field access (A′)
; k: 2
; steps: 150
; holds: published, v1-all-candidates, v4-init-before-write, v5-literal-outer, v5-literal-inner, v7-uninit-guard, kbound-assume, v9-extend-env, idle-null, fixed

(((class A ([A f])
    ((A main [bool x]
       ((this $ f) $ f)))))
 (A main))
