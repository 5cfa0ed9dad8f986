(((class A ([A f] [A g])
    ((A main [bool x]
       (if (var A y := ((this $ g) $ g) in
             (begin (y $ f := ((y $ g) $ g))
                    (y $ f := (new A))
                    ((((y $ g) $ f) $ f) = (this $ f))))
           (this $ f := null)
        else (var bool z := (if false
                                (((this $ g) $ g) = ((this $ g) $ g))
                             else ((this $ f) = null)) in
               this))))))
 (A main))
