; BinarySearchTree.insert from seed 002 (Deng, Robby, Hatcliff, lazier#), Table 1 row
; "BinarySearchTree insert" (cases lazy 13, 112, 2,161; lazier 12, 94, 1,668; lazier# 4, 21, 236 at
; k = 1, 2, 3) and App. B (c_k = 4, 21, 236: the fewest cases any algorithm can have).
;
; Java translated: Weiss's BinarySearchTree (seed 002 [20]), the private helper of seed 002 Fig. 5,
; `BinaryNode insert(T x, BinaryNode t)` (t null: a new node; x < t.element: t.left = insert(x,
; t.left); x > t.element: t.right = insert(x, t.right); else a duplicate, nothing; return t), called
; as the public `insert(x)` does: root = insert(x, root).
;
; Adaptations: elements are ints compared with < (the comparator's < 0 and > 0); `new
; BinaryNode(x, null, null)` is (new BinaryNode) and a write of element. Kiasan checks a method
; under its class invariant, so the driver first assumes repOK, the binary-search-tree invariant
; of bst_repok.jl (ordered keys, which implies no cycle and no sharing). The driver is the tree
; itself (the entry receiver, Kiasan's `this`, depth 0, so k bounds the tree's height as Kiasan's
; k does: heights < k); the symbolic argument x is the tree's extra int field `arg`, because entry
; parameters are concrete in lockstep.
; Left out: the post-state invariant check Kiasan also makes (it adds no case: the path condition
; decides it), the comparator object (ints instead of Comparable).
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
     (BinaryNode insert [int x] [BinaryNode t]
       (begin (if (t = null)
                  (begin (t := (new BinaryNode)) (t $ element := x) t)
               else (if (x < (t $ element))
                        (t $ left := (this @ insert x (t $ left)))
                     else (if ((t $ element) < x)
                              (t $ right := (this @ insert x (t $ right)))
                           else t)))
              t))
     (bool main
       (begin (assume (this @ repOK))
              (this $ root := (this @ insert (this $ arg) (this $ root)))
              true)))))
 (BinarySearchTree main))
