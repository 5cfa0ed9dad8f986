; A data condition that one engine folds and another does not: GSE's α < α is false (If (false)),
; the summary engine's ite(…) < α is symbolic (If (sym)); the literal branch must be one control in
; both (FINDINGS.md D1; program 646 of check -gen -data mixed -seed 1 -k 1, shrunk).
(((class A ([int f] [A g])
    ((bool main [bool x]
       (if ((this $ f) < (if true ((this $ g) $ f) else 0)) true else true)))))
 (A main))
