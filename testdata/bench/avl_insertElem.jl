; avl_insertElem from seed 003 (Braione and Denaro, POSE), Table 1 row avl_insertElem (POSE 549
; traces, lazy initialization 7,033).
;
; Java translated: seed 003 ran POSE on jPOSE's own translation of Weiss's AvlTree (seed 003 [28])
; into its one-parameter language (github.com/pietrobraione/jpose, examples/avl.txt and
; examples/avl_insertElem.txt, the version of the published run script, commit d12ebe6); this file
; translates that program, method by method and branch by branch, into Javalite. `insertElem(x)`:
; root = insert(depth 1, x, root), Weiss's AVL insert with jPOSE's changes: a null subtree gets a
; new node; past depthBound a subtree only gets its height recomputed; x < element: insert left, and
; if the heights differ by 2, rotateWithLeftChild when x < left.element, else doubleWithLeftChild
; when left.right is not null, else nothing; the mirror image for x > element; equal: height
; recomputed. The rotations, height and max as Weiss writes them.
;
; Adaptations: jPOSE's parameter objects (InsertParameters, MaxParameters, FindParameters,
; FindMParameters, BalancedNodeParameters) become ordinary parameters, its `let`s become `var`s and
; `begin`s, `~e` is (if e false else true), jPOSE's Void results are bool. The depth counters and
; the `depthBound` field that bound the recursion are jPOSE's (POSE has no k-bound), and the driver
; sets depthBound to 1 as jPOSE's driver does, so the program runs at k = ∞. The driver is the tree
; itself (jPOSE's symbolic Y0, the entry receiver); jPOSE's symbolic int X0 is the tree's extra int
; field `arg`. Left out: the methods this program does not call.
(((class AvlNode ([int element] [int height] [AvlNode left] [AvlNode right]) ())
  (class AvlTree ([AvlNode root] [int depthBound] [int arg])
    ((int max [int lhs] [int rhs]
       (if (lhs < rhs) rhs else lhs))
     (int height [AvlNode t]
       (if (t = null) (0 - 1) else (t $ height)))
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
     (bool insertElem [int xx]
       (begin (this $ root := (this @ insert 1 xx (this $ root))) true))
     (AvlNode insert [int depth] [int x] [AvlNode arg]
       (if (arg = null)
           (var AvlNode t := (new AvlNode) in
             (begin (t $ element := x)
                    (t $ left := null)
                    (t $ right := null)
                    (t $ height := ((this
                                     @ max (this @ height (t $ left))
                                           (this @ height (t $ right)))
                                    + 1))
                    t))
        else (if ((this $ depthBound) < depth)
                 (var AvlNode t := arg in
                   (begin (t $ height := ((this
                                           @ max (this @ height (t $ left))
                                                 (this @ height (t $ right)))
                                          + 1))
                          t))
              else (if (x < (arg $ element))
                       (var AvlNode t := arg in
                         (begin (t $ left := (this
                                              @ insert (depth + 1)
                                                       x
                                                       (t $ left)))
                                (if (((this @ height (t $ left))
                                      - (this @ height (t $ right)))
                                     = 2)
                                    (var AvlNode t2 := (if (x
                                                            < ((t $ left) $ element))
                                                           (this
                                                            @ rotateWithLeftChild t)
                                                        else (if (if (((t $ left) $ right)
                                                                      = null)
                                                                     false
                                                                  else true)
                                                                 (this
                                                                  @ doubleWithLeftChild t)
                                                              else t)) in
                                      (begin (t2 $ height := ((this
                                                               @ max (this
                                                                      @ height (t2 $ left))
                                                                     (this
                                                                      @ height (t2 $ right)))
                                                              + 1))
                                             t2))
                                 else (begin (t $ height := ((this
                                                              @ max (this
                                                                     @ height (t $ left))
                                                                    (this
                                                                     @ height (t $ right)))
                                                             + 1))
                                             t))))
                    else (if ((arg $ element) < x)
                             (var AvlNode t := arg in
                               (begin (t $ right := (this
                                                     @ insert (depth + 1)
                                                              x
                                                              (t $ right)))
                                      (if (((this @ height (t $ right))
                                            - (this @ height (t $ left)))
                                           = 2)
                                          (var AvlNode t2 := (if (((t $ right) $ element)
                                                                  < x)
                                                                 (this
                                                                  @ rotateWithRightChild t)
                                                              else (if (if (((t $ right) $ left)
                                                                            = null)
                                                                           false
                                                                        else true)
                                                                       (this
                                                                        @ doubleWithRightChild t)
                                                                    else t)) in
                                            (begin (t2 $ height := ((this
                                                                     @ max (this
                                                                            @ height (t2 $ left))
                                                                           (this
                                                                            @ height (t2 $ right)))
                                                                    + 1))
                                                   t2))
                                       else (begin (t $ height := ((this
                                                                    @ max (this
                                                                           @ height (t $ left))
                                                                          (this
                                                                           @ height (t $ right)))
                                                                   + 1))
                                                   t))))
                          else (var AvlNode t := arg in
                                 (begin (t $ height := ((this
                                                         @ max (this
                                                                @ height (t $ left))
                                                               (this
                                                                @ height (t $ right)))
                                                        + 1))
                                        t)))))))
     (bool main
       (begin (this $ depthBound := 1) (this @ insertElem (this $ arg)))))))
 (AvlTree main))
