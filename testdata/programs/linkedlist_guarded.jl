; LinkedList.contains from seed 000 (Hillery et al., heap summaries), Fig. 1,
; in the shape of the project brief: contains tests `this = null` first, so
; an empty list gives the value false rather than a null dereference (compare
; linkedlist.jl, which follows the paper's Java and dereferences the head).
; The engine, relation and oracle tests use this file as their LinkedList.
(((class Data () ())
  (class Node ([Node next] [Data data])
    ((bool contains [Data d]
       (if (this = null) false
        else (if ((this $ data) = d) true
              else ((this $ next) @ contains d))))))
  (class Main ([Node head] [Data d0])
    ((bool main [bool unused]
       ((this $ head) @ contains (this $ d0))))))
 (Main main))
