; Written for POSE-J's data rules (pose/data.go): a primitive read and write
; through an ite receiver. q := p.g is "P if P = this, else Q"; q.v := 7
; writes one of them in each world and must keep the other's value; the
; read of q.v is the ite of both; a bool field is read through the ite too.
(((class A ([A g] [int v] [bool b])
    ((int main
       (var A p := (this $ g) in
         (var A q := (p $ g) in
           (begin (p $ v)
                  (q $ v := 7)
                  (if (q $ b)
                      ((this $ v) + (q $ v))
                   else ((p $ v) - (q $ v))))))))))
 (A main))
