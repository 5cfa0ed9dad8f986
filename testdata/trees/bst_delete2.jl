; BST delete with the two-children case (the node takes its successor's key, and the successor
; is removed from the right subtree), Weiss's remove; no invariant assumed. Written
; as a tree program the engines were not developed on (testdata/trees).
(((class N ([N left] [N right] [int key])
    ((int minKey (if ((this $ left) = null) (this $ key) else ((this $ left) @ minKey)))
     (N removeMin (if ((this $ left) = null) (this $ right) else (begin (this $ left := ((this $ left) @ removeMin)) this)))
     (N delete [int x]
       (if (x < (this $ key))
           (begin (this $ left := (if ((this $ left) = null) null else ((this $ left) @ delete x))) this)
        else (if ((this $ key) < x)
                 (begin (this $ right := (if ((this $ right) = null) null else ((this $ right) @ delete x))) this)
              else (if ((this $ left) = null)
                       (this $ right)
                    else (if ((this $ right) = null)
                             (this $ left)
                          else (begin (this $ key := ((this $ right) @ minKey))
                                      (this $ right := ((this $ right) @ removeMin))
                                      this))))))))
  (class T ([N root] [int x])
    ((bool main
       (begin (this $ root := (if ((this $ root) = null) null else ((this $ root) @ delete (this $ x))))
              ((this $ root) = null))))))
 (T main))
