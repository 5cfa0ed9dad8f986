; U-ST with data (docs/ENGINES.md, the u-st column): shrunk counterexample of L3 for summary:fixed+u-st before If (sym) and
; Assume strengthened the guards under U-ST (found by `lockstep lemmas -variant fixed+u-st -n 300 -seed 1`).
; checker.TestVariantUSTData requires fixed+u-st to hold on it at k = 2, 200 steps, with L3 checked.

(((class A ([bool f])
    ((int main
       (if (this $ f)
           (-3 + 1)
        else (var B y := null in (begin (this $ f := true) true 1))))))
  (class B () ()))
 (A main))
