; BinarySearchTree.find from seed 002 (Deng, Robby, Hatcliff, lazier#), Table 1 row
; "BinarySearchTree find" (cases lazy 13, 126, 2,873; lazier 12, 98, 1,788; lazier# 4, 21, 236 at
; k = 1, 2, 3; App. B: the fewest cases of find are c_k = 4, 21, 236).
;
; Java translated: Weiss's BinarySearchTree (seed 002 [20]), `BinaryNode find(x, BinaryNode t)`:
; while t != null { x < t.element: t = t.left; x > t.element: t = t.right; else return t } return
; null, called as the public `find(x)` does with t = root.
;
; Adaptations: the while loop becomes tail recursion on t (one call per iteration, the loop test
; first); elements are ints compared with < (compareTo's < 0 and > 0). Kiasan checks a method under
; its class invariant, so the driver first assumes repOK (bst_repok.jl's ordering invariant). The
; driver is the tree itself (the entry receiver, depth 0: k bounds the height as Kiasan's k does);
; the symbolic argument x is the tree's extra int field `arg` (entry parameters are concrete).
; Left out: the public find's `elementAt` (the node found, or null, is the result: an int cannot
; be null), the Comparable elements (ints instead).
(((class BinaryNode ([BinaryNode left] [BinaryNode right] [int element])
    ((bool isOrdered [bool hasMin] [int min] [bool hasMax] [int max]
       (if (if hasMin ((this $ element) <= min) else false)
           false
        else (if (if hasMax (max <= (this $ element)) else false)
                 false
              else (if (if ((this $ left) = null)
                           true
                        else ((this $ left)
                              @ isOrdered hasMin
                                          min
                                          true
                                          (this $ element)))
                       (if ((this $ right) = null)
                           true
                        else ((this $ right)
                              @ isOrdered true
                                          (this $ element)
                                          hasMax
                                          max))
                    else false))))))
  (class BinarySearchTree ([BinaryNode root] [int arg])
    ((bool repOK
       (if ((this $ root) = null)
           true
        else ((this $ root) @ isOrdered false 0 false 0)))
     (BinaryNode find [int x] [BinaryNode t]
       (if (t = null)
           null
        else (if (x < (t $ element))
                 (this @ find x (t $ left))
              else (if ((t $ element) < x)
                       (this @ find x (t $ right))
                    else t))))
     (BinaryNode main
       (begin (assume (this @ repOK))
              (this @ find (this $ arg) (this $ root)))))))
 (BinarySearchTree main))
