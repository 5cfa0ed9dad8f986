; An assumed order of two input fields, then a third compared with both, no
; literal: the assume prunes half the inputs, the branches split the rest.
(((class A ([int a] [int b] [int c])
    ((int main
       (begin (assume ((this $ a) < (this $ b)))
              (if ((this $ c) < (this $ a))
                  (this $ c)
               else (if ((this $ c) < (this $ b))
                        (this $ a)
                     else (this $ b))))))))
 (A main))
