; U-ST with data (docs/ENGINES.md, the u-st column): shrunk counterexample of L9 for summary:fixed+u-st before If (sym) and
; Assume strengthened the guards under U-ST (found by `lockstep lemmas -variant fixed+u-st -n 300 -seed 1`).
; checker.TestVariantUSTData requires fixed+u-st to hold on it at k = 2, 200 steps, with L9 checked.

(((class A ([int f])
    ((bool main [bool x]
       (begin (assume (if ((this $ f) < 1) true else true))
              (begin (null = null) false))))))
 (A main))
