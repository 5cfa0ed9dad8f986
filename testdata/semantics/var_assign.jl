; Issue 14, second example: (var bool y := true in (x := false)) assigns the
; enclosing x (here the parameter, true on entry). Java (V10, rule Pop var)
; keeps the assignment: false. The papers' Pop restores x: true.
(((class Main ()
   ((bool main [bool x]
      (begin (var bool y := true in (x := false)) x)))))
 (Main main))
