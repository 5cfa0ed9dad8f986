; Written for lockstep's POSE-J mutants (pose.Mutations): reads through an
; ite receiver. q := p.g is the ite "P if P = this, else Q"; the write
; q.f := this initializes P.f and Q.f in different worlds; q.h then reads
; a field that is ⊥ in both branches (Assume on P, then on Q, which may
; alias P where P.h was not refined), and p.f reads a field initialized in
; some worlds only.
(((class A ([A f] [A g] [A h])
   ((bool main [bool u]
      (var A p := (this $ g) in
        (var A q := (p $ g) in
          (begin (q $ f := this)
                 (q $ h)
                 ((p $ f) = this))))))))
 (A main))
