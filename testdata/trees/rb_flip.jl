; The first case of TreeMap.fixAfterInsertion: parent and uncle red, so both become black and the
; grandparent red (boolean colours, parent pointers, no invariant). Written as a tree
; program the engines were not developed on (testdata/trees).
(((class E ([E left] [E right] [E parent] [bool red] [int key])
    ((bool isRed [E e] (if (e = null) false else (e $ red)))))
  (class M ([E x])
    ((bool main
       (var E p := ((this $ x) $ parent) in
         (if (p = null) false
          else (var E g := (p $ parent) in
                 (if (g = null) false
                  else (if (p = (g $ left))
                           (var E y := (g $ right) in
                             (if (g @ isRed y)
                                 (begin (p $ red := false) (y $ red := false) (g $ red := true) true)
                              else false))
                        else false)))))))))
 (M main))
