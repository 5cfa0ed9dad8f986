; AvlTree.find from seed 002 (Deng, Robby, Hatcliff, lazier#), Table 1 row "AvlTree find" (cases
; lazy 5, 29, 275; lazier 4, 21, 190; lazier# 4, 21, 190 at k = 1, 2, 3; App. B: the fewest cases
; for an AVL tree are c_h = 3, 17, 169).
;
; Java translated: Weiss's AvlTree (seed 002 [20]), `AvlNode find(x, AvlNode t)`: while t != null
; { x < t.element: t = t.left; x > t.element: t = t.right; else return t } return null, called with
; t = root as the public `find(x)` does.
;
; Adaptations: the while loop becomes tail recursion on t; elements are ints compared with <.
; Kiasan checks a method under its class invariant, so the driver first assumes repOK, the AVL
; invariant: keys strictly ordered (as bst_repok.jl, which implies no cycle and no sharing), and
; at every node height = max(height(left), height(right)) + 1 and the two heights differ by at
; most 1 (Weiss's `height(t)` is -1 for null). The static helpers height and max are methods of
; the tree, called on `this`. The driver is the tree itself (the entry receiver, depth 0: k bounds
; the height as Kiasan's k does); the symbolic argument x is the tree's extra int field `arg`.
; Left out: the public find's `elementAt` (the node found, or null, is the result), the post-state
; invariant check, the Comparable elements (ints instead).
(((class AvlNode ([AvlNode left] [AvlNode right] [int element] [int height])
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
  (class AvlTree ([AvlNode root] [int arg])
    ((bool balanced [AvlNode t]
       (if (t = null)
           true
        else (var int lh := (this @ height (t $ left)) in
               (var int rh := (this @ height (t $ right)) in
                 (if (if ((t $ height) = ((this @ max lh rh) + 1))
                         (if ((lh - rh) <= 1) ((rh - lh) <= 1) else false)
                      else false)
                     (if (this @ balanced (t $ left))
                         (this @ balanced (t $ right))
                      else false)
                  else false)))))
     (bool repOK
       (if ((this $ root) = null)
           true
        else (if ((this $ root) @ isOrdered false 0 false 0)
                 (this @ balanced (this $ root))
              else false)))
     (int height [AvlNode t]
       (if (t = null) -1 else (t $ height)))
     (int max [int lhs] [int rhs]
       (if (rhs < lhs) lhs else rhs))
     (AvlNode find [int x] [AvlNode t]
       (if (t = null)
           null
        else (if (x < (t $ element))
                 (this @ find x (t $ left))
              else (if ((t $ element) < x)
                       (this @ find x (t $ right))
                    else t))))
     (AvlNode main
       (begin (assume (this @ repOK))
              (this @ find (this $ arg) (this $ root)))))))
 (AvlTree main))
