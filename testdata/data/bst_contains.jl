; Binary search tree contains without a literal: the key compared with the
; target both ways at every node (ORC's path-directed inputs must order
; input fields both ways; mutant m-if-sym-then-only loses the else branches).
(((class Node ([Node left] [Node right] [int key])
    ((bool contains [int k]
       (if (k = (this $ key))
           true
        else (if (k < (this $ key))
                 (if ((this $ left) = null)
                     false
                  else ((this $ left) @ contains k))
              else (if ((this $ right) = null)
                       false
                    else ((this $ right) @ contains k)))))))
  (class Tree ([Node root] [int target])
    ((bool main
       (if ((this $ root) = null)
           false
        else ((this $ root) @ contains (this $ target)))))))
 (Tree main))
