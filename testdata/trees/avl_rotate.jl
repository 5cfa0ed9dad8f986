; AVL single right rotation (Weiss's rotateWithLeftChild) with the heights recomputed, applied
; when the left subtree is two higher; the entry node's left child is assumed present with a smaller
; key. Written as a tree program the engines were not developed on (testdata/trees).
(((class N ([N left] [N right] [int height] [int key])
    ((int h [N n] (if (n = null) -1 else (n $ height)))
     (int max [int a] [int b] (if (a < b) b else a))
     (N rotateRight
       (var N k1 := (this $ left) in
         (begin (this $ left := (k1 $ right))
                (k1 $ right := this)
                (this $ height := ((this @ max (this @ h (this $ left)) (this @ h (this $ right))) + 1))
                (k1 $ height := ((this @ max (this @ h (k1 $ left)) (this $ height)) + 1))
                k1)))
     (N main
       (begin (assume (if ((this $ left) = null) false else (((this $ left) $ key) < (this $ key))))
              (if (((this @ h (this $ left)) - (this @ h (this $ right))) = 2)
                  (this @ rotateRight)
               else this))))))
 (N main))
