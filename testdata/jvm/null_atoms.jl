; The value of an assignment or a field write of null has a class type, so
; it may be a receiver: its export must cast the literal null for javac
; (found by jvm-diff on a generated program; docs/JVM.md).
(((class A ([A f] [int n])
    ((int m1 [int x] x)
     (int main
       (var A y := this in
         (begin
           (this $ f := null)
           (if ((this $ n) < 1) ((y := null) @ m1 3) else ((this $ f := null) $ n))))))))
 (A main))
