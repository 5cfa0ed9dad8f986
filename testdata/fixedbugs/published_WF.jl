; Regression case: WF, every summary state is well formed (type consistent, total, stack-only roots) (rule Summarize).
; Found by `lockstep lemmas -all -n 300 -k 2 -steps 150 -timeout 10s -shrink-time 20s -fixedbugs testdata/fixedbugs` on 2026-11-22: variant published, program 7 of the stream (program seed 1846877946267967310), 12 lines, shrunk to 4.
; Reason: total: i10 {((r1 ≠ r4 ∧ r1 ≠ r7 ∧ r10 = null ∧ r4 ≠ null ∧ r4 ≠ r7 ∧ r7 ≠ null) l_null), ((r1 = r10 ∧ r1 ≠ r4 ∧ r1 ≠ r7 ∧ r10 ≠ null ∧ r4 ≠ null ∧ r4 ≠ r7 ∧ r7 ≠ null) l0), ((r1 ≠ r10 ∧ r1 ≠ r4 ∧ r1 ≠ r7 ∧ r10 ≠ null ∧ r4 = r10 ∧ r4 ≠ null ∧ r4 ≠ r7 ∧ r7 ≠ null) l1), ((r1 ≠ r10 ∧ r1 ≠ r4 ∧ r1 ≠ r7 ∧ r10 ≠ null ∧ r4 ≠ null ∧ r4 ≠ r10 ∧ r4 ≠ r7 ∧ r7 = r10 ∧ r7 ≠ null) l2), (¬(r1 ≠ r4 ∧ r1 ≠ r7 ∧ r4 ≠ null ∧ r4 ≠ r7 ∧ r7 ≠ null) l_un)}: under the path condition no guard need hold
; Other variants: seed000 (L2 rule Field access (A′)), v2-keep-phi (WF rule Field access (A)), v3-stuck (L2 rule Field access (A′)), v6-min-ref (L1 rule Summarize), v8-keep-phi (L2 rule Field access (A′))
; variant: published, v1-all-candidates, v4-init-before-write, v5-literal-outer, v5-literal-inner, v7-uninit-guard, v9-extend-env, idle-null
; expect: WF Summarize
; k: 2
; steps: 150
; holds: kbound-assume, fixed

(((class A ([A f])
    ((bool main [bool x]
       (var A y := (this $ f) in (begin true (((y $ f) $ f) = null)))))))
 (A main))
