; avl_findMin from seed 003 (Braione and Denaro, POSE), Table 1 row avl_findMin (POSE 13 traces,
; lazy initialization 92).
;
; Java translated: seed 003 ran POSE on jPOSE's own translation of Weiss's AvlTree (seed 003 [28])
; into its one-parameter language (github.com/pietrobraione/jpose, examples/avl.txt and
; examples/avl_findMin.txt, the version of the published run script, commit d12ebe6); this file
; translates that program, method by method and branch by branch, into Javalite. `findMin()`:
; findMinNode from the root at depth 0 (the mirror image of findMax, following left children), then
; elementAt.
;
; Adaptations: jPOSE's parameter objects (InsertParameters, MaxParameters, FindParameters,
; FindMParameters, BalancedNodeParameters) become ordinary parameters, its `let`s become `var`s and
; `begin`s, `~e` is (if e false else true), jPOSE's Void results are bool. The depth counters and
; the `depthBound` field that bound the recursion are jPOSE's (POSE has no k-bound), and the driver
; sets depthBound to 10 as jPOSE's driver does, so the program runs at k = ∞. The driver is the tree
; itself (jPOSE's symbolic Y0, the entry receiver). Left out: the methods this program does not
; call.
(((class AvlNode ([int element] [int height] [AvlNode left] [AvlNode right]) ())
  (class AvlTree ([AvlNode root] [int depthBound] [int arg])
    ((AvlNode findMinNode [int depth4] [AvlNode arg2]
       (if ((this $ depthBound) < depth4)
           null
        else (if (arg2 = null)
                 arg2
              else (if ((arg2 $ left) = null)
                       arg2
                    else (this @ findMinNode (depth4 + 1) (arg2 $ left))))))
     (int findMin
       (this @ elementAt (this @ findMinNode 0 (this $ root))))
     (int elementAt [AvlNode k1]
       (if (k1 = null) (0 - 1) else (k1 $ element)))
     (int main
       (begin (this $ depthBound := 10) (this @ findMin))))))
 (AvlTree main))
