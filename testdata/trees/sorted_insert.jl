; Sorted singly linked list insert with a dirty flag on the nodes it passes, the walk bounded by
; an int fuel; the first two nodes assumed ordered. Written as a program the engines
; were not developed on (testdata/trees).
(((class L ([L next] [int val] [bool dirty])
    ((L insert [int x] [int fuel]
       (if (fuel < 1)
           this
        else (if (x < (this $ val))
                 (var L n := (new L) in (begin (n $ val := x) (n $ next := this) (n $ dirty := true) n))
              else (begin (this $ next := (if ((this $ next) = null)
                                              (var L n := (new L) in (begin (n $ val := x) n))
                                           else ((this $ next) @ insert x (fuel - 1))))
                          (this $ dirty := true)
                          this))))))
  (class D ([L head] [int x])
    ((L main
       (begin (assume (if ((this $ head) = null) true else (if (((this $ head) $ next) = null) true else (((this $ head) $ val) < (((this $ head) $ next) $ val)))))
              (this $ head := (if ((this $ head) = null) null else ((this $ head) @ insert (this $ x) 3)))
              (this $ head))))))
 (D main))
