; Several worlds and a read whose value is dropped: y is this or a fresh
; node, and its key is read, ite(y = this, this.key, y.key), then thrown
; away. The read changes no root, heap, path condition or field, only the
; slot, and no later state shows the term: an engine that reads the first
; entry's term in every world (m-prim-read-first) is seen only at the read,
; by a data half whose memo key has the slots' terms. (The sum after it
; returns data that every world agrees on.)
(((class Node ([Node next] [int key])
    ((int main
       (var Node y := (this $ next) in
         (if (y = null) 0 else (begin (y $ key) ((this $ key) + 1))))))))
 (Node main))
