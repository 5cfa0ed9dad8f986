; Kiasan's siblings with one heap shape whose isomorphism maps an input object to another
; (FINDINGS.md, the Kiasan data case: program 120 of check -gen -data mixed -seed 1, lazier# at k = -1).
(((class A ([A f] [int g] [A h])
    ((A main
       (if (false = (((this $ f) $ g) < 0))
           (var A y := ((this $ h) $ h) in
             (begin (y $ f := (y $ h)) (((y $ h) $ f) $ f)))
        else null)))))
 (A main))
