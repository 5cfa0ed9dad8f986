; Several worlds: y is this or a fresh node, and the assumed fact is over
; the read ite(y = this, this.key, y.key). An engine that keeps the fact
; only in the first entry's worlds (m-strengthen-first-entry) is seen by
; direction (b) in the fresh node's world alone.
(((class Node ([Node next] [int key])
    ((int main
       (var Node y := (this $ next) in
         (if (y = null) 0
          else (begin (assume ((y $ key) < 3)) (y $ key))))))))
 (Node main))
