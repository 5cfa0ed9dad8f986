; Three nested blocks, each inner one assigning the variables of the outer
; ones. Java: a := false and b := c stay; then b := (a = x) = false; the
; result a is false. Papers: leaving the c block restores a = b = true, so
; b := (a = x) = true, and leaving the b block restores a: true.
(((class Main ()
   ((bool main [bool x]
      (var bool a := true in
        (begin
          (var bool b := a in
            (begin
              (var bool c := b in (begin (a := false) (b := c) c))
              (b := (a = x))
              b))
          a))))))
 (Main main))
