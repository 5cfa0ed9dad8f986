; An enclosing reference variable assigned in a var block: r := this.f.
; Java keeps it, so (r = this) compares this.f with this (true only when
; this.f aliases this). Papers: r is restored to this: always true.
(((class Main ([Main f])
   ((bool main [bool x]
      (var Main r := this in
        (begin
          (var Main y := (this $ f) in (r := y))
          (r = this)))))))
 (Main main))
