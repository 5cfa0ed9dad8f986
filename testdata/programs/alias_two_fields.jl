; Small aliasing program (written for lockstep): two input fields of the same
; class that may alias each other (or be null) are compared by reference.
(((class A () ())
  (class Main ([A f] [A g])
    ((bool main [bool unused]
       ((this $ f) = (this $ g))))))
 (Main main))
