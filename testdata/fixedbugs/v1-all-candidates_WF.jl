; Regression case: WF, every summary state is well formed (type consistent, total, stack-only roots) (rule Summarize).
; Found by `lockstep lemmas -all -n 300 -k 2 -steps 150 -timeout 10s -shrink-time 20s -fixedbugs testdata/fixedbugs` on 2026-11-22: variant v1-all-candidates, program 1 of the stream (program seed 2130133518379967363), 12 lines, shrunk to 4.
; Reason: total: i7 {((r1 = r4 ∧ r4 ≠ null ∧ r7 = null) l_null), ((r1 = r4 ∧ r1 ≠ r7 ∧ r4 ≠ null ∧ r4 ≠ r7 ∧ r7 ≠ null) l2), (¬(r1 = r4 ∧ r4 ≠ null) l_un)}: under the path condition no guard need hold
; Other variants: v2-keep-phi (WF rule Field access (A)), v3-stuck (L2 rule Field access (A′)), v6-min-ref (L1 rule Summarize), v8-keep-phi (L2 rule Field access (A′))
; variant: v1-all-candidates, seed000
; expect: WF Summarize
; k: 2
; steps: 150
; holds: published, v4-init-before-write, v5-literal-outer, v5-literal-inner, v7-uninit-guard, kbound-assume, v9-extend-env, idle-null, fixed

(((class A ([A f] [A g])
    ((bool main [bool x]
       (this = ((this $ f) $ g))))))
 (A main))
