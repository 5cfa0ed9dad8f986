; TreeMap.rotateLeft (java.util) on the root, with parent pointers and boolean colours, the
; root assumed parentless. Written as a tree program the engines were not developed on
; (testdata/trees).
(((class E ([E left] [E right] [E parent] [bool black] [int key]) ())
  (class M ([E root])
    ((bool rotateLeft [E p]
       (if (p = null)
           false
        else (var E r := (p $ right) in
               (if (r = null)
                   false
                else (begin (p $ right := (r $ left))
                            (var E rl := (r $ left) in (if (rl = null) true else (begin (rl $ parent := p) true)))
                            (r $ parent := (p $ parent))
                            (var E pp := (p $ parent) in
                              (if (pp = null)
                                  (this $ root := r)
                               else (if ((pp $ left) = p)
                                        (pp $ left := r)
                                     else (pp $ right := r))))
                            (r $ left := p)
                            (p $ parent := r)
                            (r $ black := (p $ black))
                            (p $ black := false)
                            true)))))
     (bool main
       (begin (assume (if ((this $ root) = null) false else (((this $ root) $ parent) = null)))
              (this @ rotateLeft (this $ root)))))))
 (M main))
