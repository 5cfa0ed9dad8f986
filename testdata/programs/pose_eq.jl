; P-EQ (ENGINES.md §4.2; jPOSE stepComputationHandleEq), written for
; lockstep's POSE-J variant jpose-eq.
;
; After p.f := n with n a new object, this.f is the ite "n if this = P,
; else the fresh symbol Z" (assume over the alias P). jPOSE compares a
; concrete location with an ite as false without looking at the ite's
; leaves, so this.f = n is never true; it is true in every execution where
; this.g = this (P = Y0).
(((class A ([A f] [A g])
   ((bool main [bool u]
      (var A n := (new A) in
        (var A p := (this $ g) in
          (begin (p $ f := n)
                 ((this $ f) = n))))))))
 (A main))
