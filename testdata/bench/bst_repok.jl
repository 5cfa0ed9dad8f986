; BinarySearchTree object invariant from seed 000 (Hillery et al., heap summaries), Table 1 row
; "BinarySearchTree" (paths GSE 4, 26, 305 and SH 4, 17, 118 at k = 1, 2, 3; seed 000 §7.3: "The
; BinarySearchTree example test program consists simply of asserting the object invariant for a
; binary search tree").
;
; Java translated: the seed prints no code, so this is the binary-search-tree repOK as Korat and
; SPF write it (`boolean repOK()`: the tree has no cycle, every key lies strictly between the keys
; of its ancestors; `isOrdered(Node n, min, max)` recursing left with the node's key as upper
; bound and right with it as lower bound), on int keys.
;
; Adaptations: the visited-set walk that checks acyclicity (a HashSet and a work list) has no
; Javalite form; it is subsumed by the strict ordering check, which fails on every cycle and every
; shared node (a node reached twice would need a key strictly below and above itself), so every
; path of the ordering recursion ends. An absent bound (Java's null Integer) is a bool flag beside
; the int bound. `a && b` is (if a b else false). A null child is tested before the recursive
; call (the call would throw). The driver is the tree itself (the entry receiver, depth 0, so k
; bounds the tree's height as in seed 000 and 002); "asserting" becomes returning repOK's value:
; both outcomes are paths (JPF's assert reports the false ones as errors).
; Left out: the size field and its count (Weiss's tree, the seed-002 programs' class, has none).
(((class Node ([Node left] [Node right] [int key])
    ((bool isOrdered [bool hasMin] [int min] [bool hasMax] [int max]
       (if (if hasMin ((this $ key) <= min) else false)
           false
        else (if (if hasMax (max <= (this $ key)) else false)
                 false
              else (if (if ((this $ left) = null)
                           true
                        else ((this $ left)
                              @ isOrdered hasMin
                                          min
                                          true
                                          (this $ key)))
                       (if ((this $ right) = null)
                           true
                        else ((this $ right)
                              @ isOrdered true
                                          (this $ key)
                                          hasMax
                                          max))
                    else false))))))
  (class BinarySearchTree ([Node root])
    ((bool repOK
       (if ((this $ root) = null)
           true
        else ((this $ root) @ isOrdered false 0 false 0))))))
 (BinarySearchTree repOK))
