; BST removeMin under the binary-search-tree invariant (assumed), returning the minimum it
; removed, -1 for the empty tree. Written as a tree program the engines were not
; developed on (testdata/trees).
(((class Node ([Node left] [Node right] [int key])
    ((bool ordered [bool hasMin] [int min] [bool hasMax] [int max]
       (if (if hasMin ((this $ key) <= min) else false)
           false
        else (if (if hasMax (max <= (this $ key)) else false)
                 false
              else (if (if ((this $ left) = null) true else ((this $ left) @ ordered hasMin min true (this $ key)))
                       (if ((this $ right) = null) true else ((this $ right) @ ordered true (this $ key) hasMax max))
                    else false))))
     (Node removeMin
       (if ((this $ left) = null)
           (this $ right)
        else (begin (this $ left := ((this $ left) @ removeMin)) this)))
     (int min
       (if ((this $ left) = null) (this $ key) else ((this $ left) @ min)))))
  (class Tree ([Node root] [int size])
    ((int main
       (begin (assume (if ((this $ root) = null) true else ((this $ root) @ ordered false 0 false 0)))
              (if ((this $ root) = null)
                  -1
               else (var int m := ((this $ root) @ min) in
                      (begin (this $ root := ((this $ root) @ removeMin))
                             (this $ size := ((this $ size) - 1))
                             m))))))))
 (Tree main))
