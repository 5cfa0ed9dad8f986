(((class A ([A f] [A g] [A h])
    ((bool main [bool x]
       (((this $ f) $ g) @ m2 ((this $ h) $ h)))
     (bool m2 [A x]
       (var bool y := (var A z := ((this $ g) $ g) in
                        (begin (z $ f := (new A))
                               (z $ h := this)
                               ((((x $ f) $ h) $ f) = ((x $ g) $ g)))) in
         (begin (this $ f := ((x $ g) $ g)) true))))))
 (A main))
