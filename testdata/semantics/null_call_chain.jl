; A call on the end of a chain ((this.f).f): the first link may be null
; (a null dereference, A′), the second too (a call on null, Invoke′).
(((class Main ([Main f])
   ((bool main [bool x] (((this $ f) $ f) @ id x))
    (bool id [bool b] b))))
 (Main main))
