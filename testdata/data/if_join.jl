; The two branches of If (sym) join at one control: (if c true else true)
; makes two lazier states with one heap shape that differ only in data, so a
; sibling stands for the GSE states its data is compatible with (PRIMITIVES.md
; §5, partition exactness), then a field of an unresolved δ is read.
(((class Cell ([Cell next] [int w])
    ((bool main
       (var bool b := (if ((this $ w) < 3) true else true) in
         (if ((this $ next) = null)
             b
          else (((this $ next) $ w) < (this $ w))))))))
 (Cell main))
