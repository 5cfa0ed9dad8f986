; Regression case: L1, →S* is exact with respect to →I* (Summarize) (rule Summarize).
; Found by `lockstep lemmas -all -n 300 -k 2 -steps 150 -timeout 10s -shrink-time 20s -fixedbugs testdata/fixedbugs` on 2026-11-22: variant kbound-assume, program 1 of the stream (program seed 2130133518379967363), 12 lines, shrunk to 5.
; Reason: (b) a concretization of q is isomorphic to no member of P: roots{s0→h0 s6→h2 s9→h2} h0=A*(from l0)[f:h1 g:h2] h1=A*(from l1)[f:h2 g:un] h2=A*(from l2)[f:null g:un] under (((r1 ≠ r10 ∧ r1 ≠ r13 ∧ r10 ≠ null ∧ r13 ≠ null ∧ r4 = r13 ∧ r4 ≠ r10 ∧ r7 = r10) ∨ (r1 ≠ r10 ∧ r1 ≠ r16 ∧ r10 ≠ null ∧ r16 ≠ null ∧ r4 = r16 ∧ r4 ≠ r10 ∧ r7 ≠ r10) ∨ (r1 ≠ r10 ∧ r10 ≠ null ∧ r4 = r10) ∨ (r1 ≠ r4 ∧ r1 ≠ r7 ∧ r4 = r7 ∧ r4 ≠ null ∧ r7 ≠ null) ∨ (r1 ≠ r4 ∧ r4 ≠ null)) ∧ ((r1 ≠ r10 ∧ r1 ≠ r13 ∧ r10 ≠ null ∧ r13 ≠ null ∧ r4 ≠ r10 ∧ r4 ≠ r13 ∧ r7 = r10 ∧ r7 = r13) ∨ (r1 ≠ r10 ∧ r1 ≠ r16 ∧ r10 ≠ null ∧ r16 ≠ null ∧ r4 ≠ r10 ∧ r4 ≠ r16 ∧ r7 = r16 ∧ r7 ≠ r10) ∨ (r1 ≠ r10 ∧ r10 ≠ null ∧ r4 ≠ r10 ∧ r7 = r10) ∨ (r1 ≠ r4 ∧ r1 ≠ r7 ∧ r4 ≠ null ∧ r4 ≠ r7 ∧ r7 ≠ null)) ∧ r1 ≠ r10 ∧ r1 ≠ r4 ∧ r1 ≠ r7 ∧ r10 ≠ null ∧ r13 = null ∧ r4 ≠ null ∧ r4 ≠ r10 ∧ r4 ≠ r7 ∧ r7 = r10 ∧ r7 ≠ null ∧ ¬((r1 = r4 ∧ r4 ≠ null) ∨ (r1 = r7 ∧ r1 ≠ r4 ∧ r4 ≠ null ∧ r7 ≠ null)) ∧ ¬((r1 ≠ r10 ∧ r1 ≠ r13 ∧ r10 = r13 ∧ r10 ≠ null ∧ r13 ≠ null ∧ r4 ≠ r10 ∧ r4 ≠ r13 ∧ r7 = r10 ∧ r7 ≠ r13) ∨ (r1 ≠ r10 ∧ r1 ≠ r16 ∧ r10 = r16 ∧ r10 ≠ null ∧ r16 ≠ null ∧ r4 ≠ r10 ∧ r4 ≠ r16 ∧ r7 ≠ r10 ∧ r7 ≠ r16) ∨ (r1 ≠ r10 ∧ r10 ≠ null ∧ r4 ≠ r10 ∧ r7 ≠ r10)) ∧ ¬(r1 ≠ r10 ∧ r1 ≠ r16 ∧ r10 ≠ null ∧ r10 ≠ r16 ∧ r16 ≠ null ∧ r4 ≠ r10 ∧ r4 ≠ r16 ∧ r7 ≠ r10 ∧ r7 ≠ r16) ∧ ¬(r1 ≠ r4 ∧ r1 ≠ r7 ∧ r4 = r7 ∧ r4 ≠ null ∧ r7 ≠ null))
; Other variants: published (WF rule Summarize), seed000 (L2 rule Field access (A′)), v1-all-candidates (WF rule Summarize), v2-keep-phi (WF rule Field access (A)), v3-stuck (L2 rule Field access (A′)), v4-init-before-write (WF rule Summarize), v5-literal-inner (WF rule Summarize), v5-literal-outer (WF rule Summarize), v7-uninit-guard (WF rule Summarize), v8-keep-phi (L2 rule Field access (A′)), v9-extend-env (WF rule Summarize)
; variant: v6-min-ref, kbound-assume
; expect: L1 Summarize
; k: 2
; steps: 150
; holds: idle-null, fixed

(((class A ([A f] [A g])
    ((A main [bool x]
       (var A y := ((this $ f) $ f) in
         (begin (y $ f := this) true ((this $ g) $ f)))))))
 (A main))
