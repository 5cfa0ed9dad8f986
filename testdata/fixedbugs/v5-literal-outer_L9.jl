; Regression case: L9, Reference compare (E, E′) preserves ⊏ (rule Equals (E′)).
; Found by `lockstep lemmas -all -n 300 -k 2 -steps 150 -timeout 10s -shrink-time 20s -fixedbugs testdata/fixedbugs` on 2026-11-22: variant v5-literal-outer, program 3 of the stream (program seed 2035714998633336129), 9 lines, shrunk to 7.
; Reason: (b) a concretization of q is isomorphic to no member of P: roots{s0→h0 s6→null} h0=A*(from l0)[f:h1] h1=C*(from l1)[g:null] under (r4 ≠ null ∧ r7 = null ∧ ¬(r1 = r7 ∧ r4 ≠ null ∧ r7 ≠ null) ∧ ¬(r1 ≠ r7 ∧ r4 ≠ null ∧ r7 ≠ null))
; Other variants: seed000 (L2 rule Field access (A′)), v2-keep-phi (WF rule Field access (A)), v3-stuck (L2 rule Field access (A′)), v6-min-ref (L1 rule Summarize), v8-keep-phi (L2 rule Field access (A′))
; variant: v5-literal-outer
; expect: L9 Equals (E′)
; k: 2
; steps: 150
; holds: published, v1-all-candidates, v4-init-before-write, v5-literal-inner, v7-uninit-guard, kbound-assume, v9-extend-env, idle-null, fixed

(((class A ([C f])
    ((bool main [bool x]
       (var bool y := (var A z := ((this $ f) $ g) in
                        (begin (z $ f := null) ((this $ f) = null))) in
         false))))
  (class C ([A g]) ()))
 (A main))
