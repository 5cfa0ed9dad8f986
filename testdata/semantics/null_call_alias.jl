; A call on a receiver that is null because of a write through an alias:
; y = this.f; y.g := null; then (this.g @ id x). When this.f aliases this
; (y = l0), this.g is the null just written, so the receiver is null.
(((class Main ([Main f] [Main g])
   ((bool main [bool x]
      (var Main y := (this $ f) in
        (begin (y $ g := null)
               ((this $ g) @ id x))))
    (bool id [bool b] b))))
 (Main main))
