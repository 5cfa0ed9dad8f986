; Issue 14, first example: a call on this.f, which is null on one path.
; Java (V11, rule Invoke′): NullPointerException on that path. The papers'
; Javalite: the call proceeds with this = null and id returns x = true.
(((class Main ([Main f])
   ((bool main [bool x] ((this $ f) @ id x))
    (bool id [bool b] b))))
 (Main main))
