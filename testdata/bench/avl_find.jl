; avl_find from seed 003 (Braione and Denaro, POSE), Table 1 row avl_find (POSE 190 traces, lazy
; initialization 896).
;
; Java translated: seed 003 ran POSE on jPOSE's own translation of Weiss's AvlTree (seed 003 [28])
; into its one-parameter language (github.com/pietrobraione/jpose, examples/avl.txt and
; examples/avl_find.txt, the version of the published run script, commit d12ebe6); this file
; translates that program, method by method and branch by branch, into Javalite. `find(x)`: findN
; from the root at depth 0 (below depthBound: null node: null; element = x: the node; x < element:
; left, else right, one deeper), then elementAt (null: -1, else the element).
;
; Adaptations: jPOSE's parameter objects (InsertParameters, MaxParameters, FindParameters,
; FindMParameters, BalancedNodeParameters) become ordinary parameters, its `let`s become `var`s and
; `begin`s, `~e` is (if e false else true), jPOSE's Void results are bool. The depth counters and
; the `depthBound` field that bound the recursion are jPOSE's (POSE has no k-bound), and the driver
; sets depthBound to 5 as jPOSE's driver does, so the program runs at k = ∞. The driver is the tree
; itself (jPOSE's symbolic Y0, the entry receiver); jPOSE's symbolic int X0 is the tree's extra int
; field `arg`, because entry parameters are concrete in lockstep. Left out: the methods this program
; does not call.
(((class AvlNode ([int element] [int height] [AvlNode left] [AvlNode right]) ())
  (class AvlTree ([AvlNode root] [int depthBound] [int arg])
    ((AvlNode findN [AvlNode arg1] [int x1] [int depth3]
       (if ((this $ depthBound) < depth3)
           null
        else (var AvlNode t := arg1 in
               (if (t = null)
                   null
                else (if ((t $ element) = x1)
                         t
                      else (if (x1 < (t $ element))
                               (this @ findN (t $ left) x1 (depth3 + 1))
                            else (this
                                  @ findN (t $ right)
                                          x1
                                          (depth3 + 1))))))))
     (int find [int xx]
       (var AvlNode tmp := (this @ findN (this $ root) xx 0) in
         (this @ elementAt tmp)))
     (int elementAt [AvlNode k1]
       (if (k1 = null) (0 - 1) else (k1 $ element)))
     (int main
       (begin (this $ depthBound := 5) (this @ find (this $ arg)))))))
 (AvlTree main))
