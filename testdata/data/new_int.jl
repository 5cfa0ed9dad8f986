; A new object's int field is 0 (mutant m-new-prim-symbolic leaves it symbolic).
(((class A ([int v] [A f])
    ((int main
       (var A x := (new A) in (if ((x $ v) < 1) 1 else 2))))))
 (A main))
