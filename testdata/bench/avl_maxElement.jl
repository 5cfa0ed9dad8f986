; avl_maxElement from seed 003 (Braione and Denaro, POSE), Table 1 row avl_maxElement (POSE 51
; traces, lazy initialization 72,230,358).
;
; Java translated: seed 003 ran POSE on jPOSE's own translation of Weiss's AvlTree (seed 003 [28])
; into its one-parameter language (github.com/pietrobraione/jpose, examples/avl.txt and
; examples/avl_maxElement.txt, the version of the published run script, commit d12ebe6); this file
; translates that program, method by method and branch by branch, into Javalite. `maxElement(x)`:
; maxElementN from the root at depth 0 (past depthBound or at a null node: true; x < element: false;
; else the left subtree, and if it holds, the right one).
;
; Adaptations: jPOSE's parameter objects (InsertParameters, MaxParameters, FindParameters,
; FindMParameters, BalancedNodeParameters) become ordinary parameters, its `let`s become `var`s and
; `begin`s, `~e` is (if e false else true), jPOSE's Void results are bool. The depth counters and
; the `depthBound` field that bound the recursion are jPOSE's (POSE has no k-bound), and the driver
; sets depthBound to 2 as jPOSE's driver does, so the program runs at k = ∞. The driver is the tree
; itself (jPOSE's symbolic Y0, the entry receiver); jPOSE's symbolic int X0 is the tree's extra int
; field `arg`. Left out: the methods this program does not call.
(((class AvlNode ([int element] [int height] [AvlNode left] [AvlNode right]) ())
  (class AvlTree ([AvlNode root] [int depthBound] [int arg])
    ((bool maxElementN [AvlNode arg1] [int x1] [int depth3]
       (if ((this $ depthBound) < depth3)
           true
        else (if (arg1 = null)
                 true
              else (if (x1 < (arg1 $ element))
                       false
                    else (if (if (this
                                  @ maxElementN (arg1 $ left)
                                                x1
                                                (depth3 + 1))
                                 false
                              else true)
                             false
                          else (this
                                @ maxElementN (arg1 $ right)
                                              x1
                                              (depth3 + 1)))))))
     (bool maxElement [int xx]
       (this @ maxElementN (this $ root) xx 0))
     (bool main
       (begin (this $ depthBound := 2) (this @ maxElement (this $ arg)))))))
 (AvlTree main))
