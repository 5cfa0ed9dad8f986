; avl_balanced from seed 003 (Braione and Denaro, POSE), Table 1 row avl_balanced (POSE 89 traces,
; lazy initialization 18,876 (JBSE)).
;
; Java translated: seed 003 ran POSE on jPOSE's own translation of Weiss's AvlTree (seed 003 [28])
; into its one-parameter language (github.com/pietrobraione/jpose, examples/avl.txt and
; examples/avl_balanced.txt, the version of the published run script, commit d12ebe6); this file
; translates that program, method by method and branch by branch, into Javalite. `balanced()` calls
; `balancedNode` from the root at depth 0: past depthBound or at a null node: true; otherwise lh,
; rh are the children's heights (height(null) = -1), check = lh = rh || lh = rh + 1 || lh + 1 = rh,
; and the node is balanced when check, the left and the right subtree are.
;
; Adaptations: jPOSE's parameter objects (InsertParameters, MaxParameters, FindParameters,
; FindMParameters, BalancedNodeParameters) become ordinary parameters, its `let`s become `var`s and
; `begin`s, `~e` is (if e false else true), jPOSE's Void results are bool. The depth counters and
; the `depthBound` field that bound the recursion are jPOSE's (POSE has no k-bound), and the driver
; sets depthBound to 1 as jPOSE's driver does, so the program runs at k = ∞. The driver is the tree
; itself (jPOSE's symbolic Y0, the entry receiver). Left out: the methods this program does not
; call. jPOSE's `&&` and `||` are strict: both operands are evaluated to one symbolic boolean
; without a fork, and only the final `if` forks. Javalite has no such operator; they are Java's
; short-circuit `&&` and `||` here, written with if, so every operand is a branch point (the main
; source of the difference from POSE's 89).
(((class AvlNode ([int element] [int height] [AvlNode left] [AvlNode right]) ())
  (class AvlTree ([AvlNode root] [int depthBound] [int arg])
    ((int max [int lhs] [int rhs]
       (if (lhs < rhs) rhs else lhs))
     (int height [AvlNode t]
       (if (t = null) (0 - 1) else (t $ height)))
     (bool balancedNode [int depth2] [AvlNode k1]
       (if ((this $ depthBound) < depth2)
           true
        else (if (k1 = null)
                 true
              else (var int lh := (this @ height (k1 $ left)) in
                     (var int rh := (this @ height (k1 $ right)) in
                       (var int rh1 := (rh + 1) in
                         (var int lh1 := (lh + 1) in
                           (var bool check := (if (if (lh = rh)
                                                      true
                                                   else (lh = rh1))
                                                  true
                                               else (lh1 = rh)) in
                             (if (if (if check
                                         (this
                                          @ balancedNode (depth2 + 1)
                                                         (k1 $ left))
                                      else false)
                                     (this
                                      @ balancedNode (depth2 + 1)
                                                     (k1 $ right))
                                  else false)
                                 true
                              else false)))))))))
     (bool balanced
       (this @ balancedNode 0 (this $ root)))
     (bool main
       (begin (this $ depthBound := 1) (this @ balanced))))))
 (AvlTree main))
