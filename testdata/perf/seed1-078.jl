(((class A ([A f] [A g])
    ((A main [bool x]
       (var A y := ((this $ g) $ g) in
         (begin (y $ g := ((y $ g) @ m1 (this = (y $ g))))
                (if (((y $ g) $ g) = null)
                    (this $ g := null)
                 else ((this $ g) $ f))
                (((y $ f) $ f) $ g))))
     (A m1 [bool x]
       (((this $ f) $ f) @ m2 x))
     (A m2 [bool x]
       ((this $ g) $ g)))))
 (A main))
