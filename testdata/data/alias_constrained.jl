; Kiasan resolving a δ against a location whose primitive field was already
; constrained and written (PRIMITIVES.md §8's hypothesis for lazier and
; lazier#): x's key is assumed above k and x is written through, then y is
; resolved (null, an alias of this or of x, or fresh) and its key compared.
(((class Node ([Node next] [Node other] [int key])
    ((int main [int k]
       (var Node x := (this $ next) in
         (var Node y := (this $ other) in
           (begin (assume (k < (x $ key)))
                  (x $ key := ((x $ key) + 1))
                  (if ((y $ key) <= (k + 1))
                      (y $ key)
                   else ((y $ key) - (x $ key))))))))))
 (Node main))
