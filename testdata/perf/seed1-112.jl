(((class A ([A f] [A g])
    ((A main [bool x]
       (var bool y := (if x
                          ((((this $ g) $ g) @ main false) = (this $ g))
                       else (((this $ g) $ g) = null)) in
         (begin (if ((this $ g) = null)
                    ((this $ g) = ((this $ f) $ f))
                 else (((this $ f) $ g) = (this $ g)))
                (this $ g := ((this $ g) $ f))
                ((this $ g) $ f)))))))
 (A main))
