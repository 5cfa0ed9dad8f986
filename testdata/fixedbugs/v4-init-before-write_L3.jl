; Regression case: L3, Field write (W, W′) preserves ⊏ (rule Field write (W)).
; Found by `lockstep lemmas -all -n 300 -k 2 -steps 150 -timeout 10s -shrink-time 20s -fixedbugs testdata/fixedbugs` on 2026-11-22: variant v4-init-before-write, program 1 of the stream (program seed 2130133518379967363), 12 lines, shrunk to 4.
; Reason: (b) a concretization of q is isomorphic to no member of P: roots{s0→h0} h0=A*(from l0)[f:h0] h1=A*(from l1)[f:un] under (r1 ≠ r4 ∧ r4 ≠ null)
; variant: v4-init-before-write
; expect: L3 Field write (W)
; k: 2
; steps: 150
; holds: published, v1-all-candidates, v2-keep-phi, v3-stuck, v5-literal-outer, v5-literal-inner, v6-min-ref, v7-uninit-guard, kbound-assume, v8-keep-phi, v9-extend-env, idle-null, fixed, seed000

(((class A ([A f])
    ((A main [bool x]
       (this $ f := this)))))
 (A main))
