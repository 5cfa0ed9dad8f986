; Bool fields and arithmetic: counts the red nodes of a list, with a size
; bound (PRIMITIVES.md §1): bool colour, int counters, zero and two
; parameters, <= and -, an assume on a non-trivial comparison.
(((class Cell ([Cell next] [bool red] [int weight])
    ((int reds [int acc] [int budget]
       (if (budget <= 0)
           acc
        else (if (this = null)
                 acc
              else ((this $ next)
                    @ reds (if (this $ red) (acc + 1) else acc)
                           (budget - 1)))))
     (bool paint
       (begin (this $ red := ((this $ weight) < 10))
              (this $ weight := ((this $ weight) + -1))
              (this $ red)))))
  (class Main ([Cell first] [int limit] [bool flag])
    ((int main [int unused]
       (var int n := 0 in
         (begin (assume (0 <= (this $ limit)))
                (assume ((this $ flag) = true))
                (n := ((this $ first) @ reds 0 (this $ limit)))
                (assume (n <= (this $ limit)))
                (n - 0)))))))
 (Main main))
