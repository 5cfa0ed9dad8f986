; AvlTree.insert from seed 002 (Deng, Robby, Hatcliff, lazier#), Table 1 row "AvlTree insert"
; (cases lazy 5, 29, 275; lazier 4, 21, 190; lazier# 4, 21, 190 at k = 1, 2, 3; App. B: the fewest
; cases for an AVL tree are c_h = 3, 17, 169).
;
; Java translated: Weiss's AvlTree (seed 002 [20]), `AvlNode insert(x, AvlNode t)`: t null: a new
; node; x < t.element: t.left = insert(x, t.left), and if height(t.left) - height(t.right) == 2,
; rotateWithLeftChild(t) when x < t.left.element, else doubleWithLeftChild(t); x > t.element: the
; mirror image; else a duplicate; then t.height = max(height(t.left), height(t.right)) + 1; return
; t. The four rotations as Weiss writes them. Called as the public `insert(x)`: root = insert(x,
; root).
;
; Adaptations: elements are ints compared with <; `new AvlNode(x, null, null)` is (new AvlNode)
; and a write of element (height 0, Java's default, as the constructor sets); the static helpers
; height, max and the rotations are methods of the tree, called on `this`. Kiasan checks a method
; under its class invariant, so the driver first assumes repOK, the AVL invariant of
; avltree_find.jl (ordered keys, correct heights, balance). The driver is the tree itself (the
; entry receiver, depth 0); the symbolic argument x is the tree's extra int field `arg`.
; Left out: the post-state invariant check, the Comparable elements (ints instead).
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
     (AvlNode rotateWithLeftChild [AvlNode k2]
       (var AvlNode k1 := (k2 $ left) in
         (begin (k2 $ left := (k1 $ right))
                (k1 $ right := k2)
                (k2 $ height := ((this
                                  @ max (this @ height (k2 $ left))
                                        (this @ height (k2 $ right)))
                                 + 1))
                (k1 $ height := ((this
                                  @ max (this @ height (k1 $ left))
                                        (k2 $ height))
                                 + 1))
                k1)))
     (AvlNode rotateWithRightChild [AvlNode k1]
       (var AvlNode k2 := (k1 $ right) in
         (begin (k1 $ right := (k2 $ left))
                (k2 $ left := k1)
                (k1 $ height := ((this
                                  @ max (this @ height (k1 $ left))
                                        (this @ height (k1 $ right)))
                                 + 1))
                (k2 $ height := ((this
                                  @ max (this @ height (k2 $ right))
                                        (k1 $ height))
                                 + 1))
                k2)))
     (AvlNode doubleWithLeftChild [AvlNode k3]
       (begin (k3 $ left := (this @ rotateWithRightChild (k3 $ left)))
              (this @ rotateWithLeftChild k3)))
     (AvlNode doubleWithRightChild [AvlNode k1]
       (begin (k1 $ right := (this @ rotateWithLeftChild (k1 $ right)))
              (this @ rotateWithRightChild k1)))
     (AvlNode insert [int x] [AvlNode t]
       (begin (if (t = null)
                  (begin (t := (new AvlNode)) (t $ element := x) t)
               else (if (x < (t $ element))
                        (begin (t $ left := (this @ insert x (t $ left)))
                               (if (((this @ height (t $ left))
                                     - (this @ height (t $ right)))
                                    = 2)
                                   (if (x < ((t $ left) $ element))
                                       (t := (this @ rotateWithLeftChild t))
                                    else (t := (this @ doubleWithLeftChild t)))
                                else t))
                     else (if ((t $ element) < x)
                              (begin (t $ right := (this
                                                    @ insert x
                                                             (t $ right)))
                                     (if (((this @ height (t $ right))
                                           - (this @ height (t $ left)))
                                          = 2)
                                         (if (((t $ right) $ element) < x)
                                             (t := (this
                                                    @ rotateWithRightChild t))
                                          else (t := (this
                                                      @ doubleWithRightChild t)))
                                      else t))
                           else t)))
              (t $ height := ((this
                               @ max (this @ height (t $ left))
                                     (this @ height (t $ right)))
                              + 1))
              t))
     (bool main
       (begin (assume (this @ repOK))
              (this $ root := (this @ insert (this $ arg) (this $ root)))
              true)))))
 (AvlTree main))
