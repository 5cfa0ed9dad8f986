(((class A ([A f] [A g] [A h])
    ((A main [bool x]
       (begin (if (((this $ f) $ f) = (this $ g))
                  (((this $ h) $ g) @ m1 (new A))
               else (begin (this $ f := ((this $ h) $ h))
                           ((this $ f) = ((this $ f) $ f))))
              (((this $ f) $ g) @ m2 ((this $ h) = (this $ g)))
              this))
     (bool m1 [A x]
       (x = ((this $ f) $ f)))
     (bool m2 [bool x]
       (var A y := ((this $ h) $ f) in
         (begin (y $ g := (new A)) ((((this $ h) $ f) $ g) = (this $ g))))))))
 (A main))
