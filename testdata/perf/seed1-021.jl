(((class A ([A f] [A g] [A h])
    ((A main [bool x]
       ((((this $ g) $ g) @ m1 ((this $ g) $ f))
        @ m1 (if x
                 (((this $ h) $ f) @ main false)
              else (if (((this $ f) $ f) = null)
                       ((this $ h) $ f)
                    else ((this $ f) $ h)))))
     (A m1 [A x]
       (if (((this $ g) $ f) = (x $ g))
           (var A y := ((x $ f) $ f) in
             (begin (y $ h := (new A)) (y $ h := (new A)) y))
        else (x $ g))))))
 (A main))
