; Small program (written for lockstep): the entry method reads no input
; field; it builds a two-node cycle from (new Node) objects and follows it.
; Both engines must agree on a single path with value true.
(((class Node ([Node next]) ())
  (class Main ()
    ((bool main [bool unused]
       (var Node a := (new Node) in
         (var Node b := (new Node) in
           (begin (a $ next := b)
                  (b $ next := a)
                  (((a $ next) $ next) = a))))))))
 (Main main))
