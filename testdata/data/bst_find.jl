; Binary search tree lookup with integer keys (PRIMITIVES.md §1; the idiom of
; seed 000's BinarySearchTree and seed 002's find). The entry assumes a
; bounded ordering invariant of the root before searching.
(((class Node ([Node left] [Node right] [int key])
    ((bool find [int k]
       (if (this = null)
           false
        else (if (k = (this $ key))
                 true
              else (if (k < (this $ key))
                       ((this $ left) @ find k)
                    else ((this $ right) @ find k)))))
     (bool ordered [int lo] [int hi]
       (if (this = null)
           true
        else (if (lo < (this $ key))
                 (if ((this $ key) < hi)
                     (if ((this $ left) @ ordered lo (this $ key))
                         ((this $ right) @ ordered (this $ key) hi)
                      else false)
                  else false)
              else false)))))
  (class Tree ([Node root] [int target])
    ((bool main
       (begin (assume ((this $ root) @ ordered -2147483648 2147483647))
              ((this $ root) @ find (this $ target)))))))
 (Tree main))
