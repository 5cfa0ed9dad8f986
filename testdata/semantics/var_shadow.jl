; Nested var blocks that shadow and assign: the inner y shadows the outer
; one, the innermost block assigns the inner y and the enclosing x. Java:
; the outer y stays false, x becomes false: (y = x) is true. Papers: x is
; restored to true on leaving the blocks: (y = x) is false.
(((class Main ()
   ((bool main [bool x]
      (var bool y := false in
        (begin
          (var bool z := true in
            (var bool y := z in
              (begin (y := false) (x := false) z)))
          (y = x)))))))
 (Main main))
