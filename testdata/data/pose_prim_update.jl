; Written for POSE-J's data rules (pose/data.go, docs/POSE.md D10-D12):
; update and the binding of a primitive field against its aliases. P.w is
; bound by the read a := p.w, so this.w := a + 1 must update it where
; P = this; P.v is still unbound at this.v := 3, so the later read of p.v
; must bind it to 3 where P = this (the alias set), and to its initial
; value elsewhere. The comparison (p $ w) <= a branches on the update
; (If (sym)), the sums show the bound values in a slot.
(((class A ([A g] [int v] [int w])
    ((int main
       (var A p := (this $ g) in
         (var int a := (p $ w) in
           (begin (this $ w := (a + 1))
                  (this $ v := 3)
                  (if ((p $ w) <= a) (p $ v) else ((p $ v) - (this $ w))))))))))
 (A main))
