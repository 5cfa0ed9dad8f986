; LinkedList.contains, seed 000 Fig. 1 in Javalite (the program of the
; pictures in this folder; see docs/img/README.md).
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
