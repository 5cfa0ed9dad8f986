; U-ST with data (docs/ENGINES.md, the u-st column): shrunk counterexample of L2 for summary:fixed+u-st before If (sym) and
; Assume strengthened the guards under U-ST (found by `lockstep lemmas -variant fixed+u-st -n 300 -seed 1`).
; checker.TestVariantUSTData requires fixed+u-st to hold on it at k = 2, 200 steps, with L2 checked.

(((class A ([A f] [bool g])
    ((bool main [int x] [bool i]
       (if ((this $ f) $ g) ((this $ f) $ g) else true)))))
 (A main))
