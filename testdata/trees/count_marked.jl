; Count the nodes of a tree to depth 3, marking each visited one with a bool and skipping marked
; ones, so a shared or cyclic structure is counted once; the entry node assumed unmarked. Written
; as a tree program the engines were not developed on (testdata/trees).
(((class N ([N l] [N r] [bool mark] [int w])
    ((int count [int d]
       (if (if (this $ mark) true else (3 < d)) 0
        else (begin (this $ mark := true)
                    (var int a := (if ((this $ l) = null) 0 else ((this $ l) @ count (d + 1))) in
                      (var int b := (if ((this $ r) = null) 0 else ((this $ r) @ count (d + 1))) in
                        ((a + b) + 1))))))
     (int main (begin (assume (if (this $ mark) false else true)) (this @ count 0))))))
 (N main))
