; A call on null inside a var block, after an assignment to a variable of
; the enclosing block: both Java readings at once. Java: r := true is kept
; when the inner block is left, and the call on a null this.f throws.
; Papers: the call proceeds, and leaving the inner block restores r = false.
(((class Main ([Main f])
   ((bool main [bool x]
      (var bool r := false in
        (begin
          (var Main y := (this $ f) in
            (begin (r := true) (y @ id x)))
          r)))
    (bool id [bool b] b))))
 (Main main))
