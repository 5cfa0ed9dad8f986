; BST insert that keeps parent pointers and a size count (TreeMap.put's shape without colours),
; the walk as recursion; no invariant assumed, so the input tree may alias. Written as
; a tree program the engines were not developed on (testdata/trees).
(((class N ([N left] [N right] [N parent] [int key]) ())
  (class Tree ([N root] [int size] [int arg])
    ((bool put [N t] [int x]
       (if (x < (t $ key))
           (if ((t $ left) = null)
               (var N n := (new N) in (begin (t $ left := n) (n $ key := x) (n $ parent := t) true))
            else (this @ put (t $ left) x))
        else (if ((t $ key) < x)
                 (if ((t $ right) = null)
                     (var N n := (new N) in (begin (t $ right := n) (n $ key := x) (n $ parent := t) true))
                  else (this @ put (t $ right) x))
              else false)))
     (int main
       (begin (if ((this $ root) = null)
                  (var N n := (new N) in (begin (this $ root := n) (n $ key := (this $ arg)) (this $ size := 1)))
               else (if (this @ put (this $ root) (this $ arg))
                        (this $ size := ((this $ size) + 1))
                     else (this $ size)))
              (this $ size))))))
 (Tree main))
