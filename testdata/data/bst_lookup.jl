; BST find on an input tree with int keys: the BST idiom (if (k < key) …),
; aliasing from lazy initialization mixed with linear constraints on the keys
; (PRIMITIVES.md §1, seed 000's "nondeterminism from both aliasing constraints
; … and linear constraints"), an assume at the entry, a bool field unused.
(((class Node ([int key] [Node left] [Node right] [bool red])
    ((bool find [int k]
       (if ((this $ key) = k)
           true
        else (if (k < (this $ key))
                 (var Node l := (this $ left) in
                   (if (l = null) false else (l @ find k)))
              else (var Node r := (this $ right) in
                     (if (r = null) false else (r @ find k))))))
     (bool main
       (begin (assume (0 < (this $ key))) (this @ find 3))))))
 (Node main))
