(((class A ([A f] [A g] [A h])
    ((bool main [bool x]
       (var A y := (if (((this $ h) $ h) = ((this $ g) $ g))
                       this
                    else (this $ f)) in
         (begin (var bool z := (if x
                                   ((this $ f) @ main false)
                                else ((y $ g) = ((y $ f) $ g))) in
                  (y := (this $ f)))
                (y = ((this $ h) $ g))))))))
 (A main))
