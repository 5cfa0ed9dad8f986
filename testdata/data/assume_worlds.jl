; Several worlds: y is this or a fresh node, and the assumed fact is over
; the read, an ite over y's entries. An engine that keeps the fact only in
; the worlds of the read's first entry, y fresh (m-strengthen-first-entry),
; is seen by direction (b) in the world y = this alone, the last of q's.
(((class Node ([Node next] [int key])
    ((int main
       (var Node y := (this $ next) in
         (if (y = null) 0 else (begin (assume ((y $ key) < 3)) (y $ key))))))))
 (Node main))
