; Written for lockstep's POSE-J mutants (pose.Mutations): a write through
; an ite receiver next to an initialized alias. R.f is read (initialized)
; first; q := p.g is the ite "P if P = this, else Q"; q.f := this must
; update R.f exactly in the worlds where R is the object written (R = P
; where q is P, R = Q where q is Q).
(((class A ([A f] [A g] [A h])
   ((bool main [bool u]
      (var A r := (this $ h) in
        (var A rf := (r $ f) in
          (var A p := (this $ g) in
            (var A q := (p $ g) in
              (begin (q $ f := this)
                     ((r $ f) = rf))))))))))
 (A main))
