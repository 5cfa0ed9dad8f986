; Regression case: L1, →S* is exact with respect to →I* (Summarize) (rule Summarize).
; Found by `lockstep lemmas -all -n 300 -k 2 -steps 150 -timeout 10s -shrink-time 20s -fixedbugs testdata/fixedbugs` on 2026-11-22: variant v4-init-before-write, program 10 of the stream (program seed 1705250160930452150), 7 lines, shrunk to 6.
; Reason: (b) a concretization of q is isomorphic to no member of P: roots{s0→h0} h0=A*(from l0)[f:h1 g:h0] h1=A*(from l4)[f:un g:un] under (r1 = r4 ∧ r1 ≠ r13 ∧ r10 ≠ r13 ∧ r13 ≠ null ∧ r4 ≠ null ∧ r4 ≠ r13 ∧ r7 ≠ r13 ∧ ¬((r1 = r4 ∧ r1 ≠ r7 ∧ r4 = r7 ∧ r4 ≠ null ∧ r7 ≠ null) ∨ (r1 ≠ r10 ∧ r1 ≠ r4 ∧ r10 ≠ null ∧ r4 = r10 ∧ r4 ≠ null) ∨ (r1 ≠ r13 ∧ r13 ≠ null ∧ r4 = r13) ∨ (r1 ≠ r4 ∧ r4 ≠ null)) ∧ ¬((r1 = r4 ∧ r1 ≠ r7 ∧ r4 ≠ null ∧ r4 ≠ r7 ∧ r7 ≠ null) ∨ (r1 ≠ r10 ∧ r1 ≠ r4 ∧ r10 ≠ null ∧ r4 ≠ null ∧ r4 ≠ r10 ∧ r7 = r10) ∨ (r1 ≠ r13 ∧ r13 ≠ null ∧ r4 ≠ r13 ∧ r7 = r13)) ∧ ¬((r1 ≠ r10 ∧ r1 ≠ r4 ∧ r10 ≠ null ∧ r4 ≠ null ∧ r4 ≠ r10 ∧ r7 ≠ r10) ∨ (r1 ≠ r13 ∧ r10 = r13 ∧ r13 ≠ null ∧ r4 ≠ r13 ∧ r7 ≠ r13)))
; Other variants: seed000 (WF rule Summarize), v1-all-candidates (WF rule Summarize), v2-keep-phi (WF rule Field access (A)), v3-stuck (L2 rule Field access (A′)), v8-keep-phi (L2 rule Field access (A′))
; variant: published, v4-init-before-write, v5-literal-outer, v5-literal-inner, v6-min-ref, kbound-assume, v9-extend-env, idle-null
; expect: L1 Summarize
; k: 2
; steps: 150
; holds: v7-uninit-guard, fixed

(((class A ([A f] [A g])
    ((bool main [bool x]
       (if (begin (((this $ g) $ f) = null) ((this $ f) = null))
           true
        else true)))))
 (A main))
