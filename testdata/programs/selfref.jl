; Small aliasing program (written for lockstep): a field of the class's own
; type, read twice along a chain (this.next.next), compared with this. The
; lazily initialized next may be null, this itself, or a fresh node.
(((class Node ([Node next])
    ((bool main [bool unused]
       (((this $ next) $ next) = this)))))
 (Node main))
