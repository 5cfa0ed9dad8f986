; A field read, compared, then overwritten: two reference worlds build one heap and
; differ in the data the comparison read (program 120 of check -gen -seed 1 -data mixed).
(((class A ([A f] [int g] [A h])
    ((A main
       (if (false = (((this $ f) $ g) < 0))
           (var A y := ((this $ h) $ h) in
             (begin (y $ f := (y $ h)) ((y $ f) $ f)))
        else null)))))
 (A main))
