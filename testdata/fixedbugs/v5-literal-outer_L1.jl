; Regression case: L1, →S* is exact with respect to →I* (Summarize) (rule Summarize).
; Found by `lockstep lemmas -all -n 300 -k 2 -steps 150 -timeout 10s -shrink-time 20s -fixedbugs testdata/fixedbugs` on 2026-11-22: variant v5-literal-outer, program 1 of the stream (program seed 2130133518379967363), 12 lines, shrunk to 5.
; Reason: (b) a concretization of q is isomorphic to no member of P: roots{s0→h0 s6→h0} h0=A*(from l0)[f:h0 g:null] h1=A*(from l1)[f:h0 g:un] under (((r1 = r4 ∧ r4 ≠ null) ∨ (r1 = r7 ∧ r1 ≠ r4 ∧ r4 ≠ null ∧ r7 ≠ null)) ∧ ((r1 = r7 ∧ r1 ≠ r4 ∧ r4 ≠ null ∧ r7 ≠ null ∧ ¬(r1 ≠ r4 ∧ r1 ≠ r7 ∧ r4 = r7 ∧ r4 ≠ null ∧ r7 ≠ null)) ∨ (r1 ≠ r4 ∧ r1 ≠ r7 ∧ r4 = r7 ∧ r4 ≠ null ∧ r7 ≠ null)) ∧ ((r1 ≠ r10 ∧ r10 ≠ null ∧ r4 = r10) ∨ (r1 ≠ r4 ∧ r1 ≠ r7 ∧ r4 = r7 ∧ r4 ≠ null ∧ r7 ≠ null) ∨ (r1 ≠ r4 ∧ r4 ≠ null)) ∧ r10 = null ∧ ¬((r1 ≠ r10 ∧ r10 ≠ null ∧ r4 ≠ r10 ∧ r7 = r10) ∨ (r1 ≠ r4 ∧ r1 ≠ r7 ∧ r4 ≠ null ∧ r4 ≠ r7 ∧ r7 ≠ null)) ∧ ¬(r1 ≠ r10 ∧ r10 ≠ null ∧ r4 ≠ r10 ∧ r7 ≠ r10) ∧ ¬(r1 ≠ r4 ∧ r1 ≠ r7 ∧ r4 = r7 ∧ r4 ≠ null ∧ r7 ≠ null))
; Other variants: seed000 (L2 rule Field access (A′)), v1-all-candidates (WF rule Summarize), v2-keep-phi (WF rule Field access (A)), v3-stuck (L2 rule Field access (A′)), v4-init-before-write (L3 rule Field write (W)), v8-keep-phi (L2 rule Field access (A′))
; variant: published, v5-literal-outer, v5-literal-inner, v6-min-ref, kbound-assume, v9-extend-env, idle-null
; expect: L1 Summarize
; k: 2
; steps: 150
; holds: v7-uninit-guard, fixed

(((class A ([A f] [A g])
    ((A main [bool x]
       (var A y := ((this $ f) $ f) in
         (begin (y $ f := this) (y $ g := this) ((this $ g) $ f)))))))
 (A main))
