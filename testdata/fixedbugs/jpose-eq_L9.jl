; Regression case for docs/FINDINGS.md (POSE P-EQ, jPOSE stepComputationHandleEq): comparing a new object with an
; alias-dependent (ite) value returns false outright, so the E world where the alias holds is lost (docs/POSE.md).
; Confirmed with `lockstep check -engine pose:jpose-eq -k -1 testdata/programs/pose_eq.jl` on 2026-11-23.
; variant: pose:jpose-eq
; expect: L9 Equals (E)
; k: -1
; steps: 150
; holds: pose:world-exact
(((class A ([A f] [A g])
   ((bool main [bool u]
      (var A n := (new A) in
        (var A p := (this $ g) in
          (begin (p $ f := n)
                 ((this $ f) = n))))))))
 (A main))
