; A data branch both ways: If (sym) on an input field (mutant m-if-sym-then-only loses one).
(((class A ([int v])
    ((int main
       (if ((this $ v) < 1) 1 else 2)))))
 (A main))
