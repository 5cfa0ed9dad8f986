; Regression case: WF, every summary state is well formed (type consistent, total, stack-only roots) (rule Summarize).
; Found by `lockstep lemmas -all -n 300 -k 2 -steps 150 -timeout 10s -shrink-time 20s -fixedbugs testdata/fixedbugs` on 2026-11-22: variant v6-min-ref, program 9 of the stream (program seed 1752459422006081161), 10 lines, shrunk to 6.
; Reason: total: i10 {((r10 = null ∧ r4 ≠ null ∧ r7 ≠ null) l_null)}: under the path condition no guard need hold
; Other variants: seed000 (L2 rule Field access (A′)), v2-keep-phi (WF rule Field access (A)), v3-stuck (L2 rule Field access (A′)), v8-keep-phi (L2 rule Field access (A′))
; variant: published, v1-all-candidates, v4-init-before-write, v5-literal-outer, v5-literal-inner, v6-min-ref, v7-uninit-guard, v9-extend-env, idle-null
; expect: WF Summarize
; k: 2
; steps: 150
; holds: kbound-assume, fixed

(((class A ([B f])
    ((bool main [bool x]
       (var C y := ((this $ f) $ h) in (begin (y $ n := (y $ p)) false)))))
  (class B ([C h]) ())
  (class C ([A n] [A p]) ()))
 (A main))
