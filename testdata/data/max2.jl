; The larger of two input fields, no literal: an oracle whose inputs are
; drawn from the program's literals gives both fields 0, and a < b is
; never true (mutant m-if-sym-then-only must still be seen, by ORC).
(((class A ([int a] [int b])
    ((int main
       (if ((this $ a) < (this $ b)) (this $ b) else (this $ a))))))
 (A main))
