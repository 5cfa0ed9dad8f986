; Regression case: L9, Reference compare (E, E′) preserves ⊏ (rule Equals (E′)).
; Found by `lockstep lemmas -all -n 300 -k 2 -steps 150 -timeout 10s -shrink-time 20s -fixedbugs testdata/fixedbugs` on 2026-11-22: variant seed000, program 54 of the stream (program seed 4239728640922739808), 8 lines, shrunk to 5.
; Reason: (b) a concretization of q is isomorphic to no member of P: roots{s0→h0} h0=A*(from l0)[f:null] under r4 = null
; variant: v5-literal-outer, seed000
; expect: L9 Equals (E′)
; k: 2
; steps: 150
; holds: published, v1-all-candidates, v2-keep-phi, v3-stuck, v4-init-before-write, v5-literal-inner, v6-min-ref, v7-uninit-guard, kbound-assume, v8-keep-phi, v9-extend-env, idle-null, fixed

(((class A ([B f])
    ((bool main [bool x]
       (var bool y := ((this $ f) = null) in ((this $ f) = null)))))
  (class B () ()))
 (A main))
