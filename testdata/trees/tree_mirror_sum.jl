; Mirror a binary tree (swap every node's children) and sum its keys, to depth 3, with no invariant:
; a child may alias an ancestor, so the walk may revisit a node it has already mirrored. Written
; as a tree program the engines were not developed on (testdata/trees).
(((class T ([T l] [T r] [int v] [bool seen])
    ((int mirrorSum [int depth]
       (if (3 < depth)
           0
        else (var T tmp := (this $ l) in
               (begin (this $ l := (this $ r))
                      (this $ r := tmp)
                      (this $ seen := true)
                      (var int a := (if ((this $ l) = null) 0 else ((this $ l) @ mirrorSum (depth + 1))) in
                        (var int b := (if ((this $ r) = null) 0 else ((this $ r) @ mirrorSum (depth + 1))) in
                          ((a + b) + (this $ v))))))))
     (int main (this @ mirrorSum 0)))))
 (T main))
