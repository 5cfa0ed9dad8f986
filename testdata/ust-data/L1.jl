; U-ST with data (docs/ENGINES.md, the u-st column): shrunk counterexample of L1 for summary:fixed+u-st before If (sym) and
; Assume strengthened the guards under U-ST (found by `lockstep lemmas -variant fixed+u-st -n 300 -seed 1`).
; checker.TestVariantUSTData requires fixed+u-st to hold on it at k = 2, 200 steps, with L1 checked.

(((class A ([A f] [B g] [B h])
    ((B main [int x] [int i]
       (if (if (x < 1)
               (((this $ f) @ main (x + 1) ((this $ g) $ k)) = (this $ h))
            else (((this $ f) $ f) = null))
           (if (((this $ g) $ k) < ((this $ h) $ k)) (new B) else null)
        else (new B)))))
  (class B ([int k]) ()))
 (A main))
