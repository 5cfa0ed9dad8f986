; BinarySearchTree.remove from seed 002 (Deng, Robby, Hatcliff, lazier#), Table 1 row
; "BinarySearchTree remove" (cases lazy 13, 112, 2,161; lazier 12, 94, 1,668; lazier# 4, 21, 236 at
; k = 1, 2, 3; App. B: the fewest cases of remove are c_k = 4, 21, 236, as for insert and find).
;
; Java translated: Weiss's BinarySearchTree (seed 002 [20]), `BinaryNode remove(x, BinaryNode t)`:
; t null: not found; x < t.element: t.left = remove(x, t.left); x > t.element: t.right = remove(x,
; t.right); two children: t.element = findMin(t.right).element, t.right = remove(t.element,
; t.right); else t = (t.left != null) ? t.left : t.right; return t. `findMin(t)` (t null: null;
; t.left null: t; else findMin(t.left)). Called as the public `remove(x)`: root = remove(x, root).
;
; Adaptations: elements are ints compared with < (compareTo's < 0 and > 0); `a && b` and `!=` are
; written with if. Kiasan checks a method under its class invariant, so the driver first assumes
; repOK (bst_repok.jl's ordering invariant). The driver is the tree itself (the entry receiver,
; depth 0: k bounds the height as Kiasan's k does); the symbolic argument x is the tree's extra int
; field `arg` (entry parameters are concrete in lockstep).
; Left out: the post-state invariant check, the Comparable elements (ints instead).
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
     (BinaryNode findMin [BinaryNode t]
       (if (t = null)
           null
        else (if ((t $ left) = null) t else (this @ findMin (t $ left)))))
     (BinaryNode remove [int x] [BinaryNode t]
       (if (t = null)
           t
        else (begin (if (x < (t $ element))
                        (t $ left := (this @ remove x (t $ left)))
                     else (if ((t $ element) < x)
                              (t $ right := (this @ remove x (t $ right)))
                           else (if (if ((t $ left) = null)
                                        false
                                     else (if ((t $ right) = null)
                                              false
                                           else true))
                                    (begin (t $ element := ((this
                                                             @ findMin (t $ right)) $ element))
                                           (t $ right := (this
                                                          @ remove (t $ element)
                                                                   (t $ right))))
                                 else (t := (if ((t $ left) = null)
                                                (t $ right)
                                             else (t $ left))))))
                    t)))
     (bool main
       (begin (assume (this @ repOK))
              (this $ root := (this @ remove (this $ arg) (this $ root)))
              true)))))
 (BinarySearchTree main))
