; a write through a reference with two targets: the ite must be guarded by the entry guard
(((class A ([A f] [A g] [int v])
    ((int main [bool b]
       (var A x := (this $ f) in
         (var A y := (this $ g) in
           (if (x = null)
               0
            else (if (y = null)
                     0
                  else (begin (x $ v := 7) (if ((y $ v) < 7) 1 else 2))))))))))
 (A main))
