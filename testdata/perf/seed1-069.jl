(((class A ([A f] [A g] [A h])
    ((A main [bool x]
       (begin (if false
                  ((this $ f) @ m1 (new A))
               else (((this $ g) $ g) = ((this $ h) $ h)))
              (var bool y := ((this $ g) = ((this $ h) $ g)) in
                (if (((this $ g) $ f) = null) ((this $ f) $ h) else this))))
     (bool m1 [A x]
       (if (var bool y := (var A z := ((x $ f) $ f) in false) in
             (begin (x $ f := ((x $ h) $ g)) (x $ f := (new A)) y))
           (true = (((x $ g) $ g) = ((this $ f) $ h)))
        else (var bool u := (((x $ h) $ g) = (this $ h)) in
               (begin (x $ h := (new A))
                      (u := (null = ((x $ h) $ g)))
                      false)))))))
 (A main))
