; LinkedList.contains from seed 000 (Hillery et al., heap summaries), Fig. 1,
; with three calls to contains from the driver (the paper's driver makes five,
; joined by &&; Fig. 2 plots the cost against the number of calls).
;
; Translation as in linkedlist.jl: the loop becomes recursion on the
; receiver, the root is dereferenced without a null test, Data objects are
; compared by reference. `a && b` is (if a b else false). Each call reads
; head afresh, as the Java does.
(((class Data () ())
  (class Node ([Node next] [Data data])
    ((bool contains [Data d]
       (if ((this $ data) = d)
           true
        else (if ((this $ next) = null)
                 false
              else ((this $ next) @ contains d))))))
  (class LinkedList ([Node head] [Data data0] [Data data1] [Data data2])
    ((bool run [bool unused]
       (if ((this $ head) @ contains (this $ data0))
           (if ((this $ head) @ contains (this $ data1))
               ((this $ head) @ contains (this $ data2))
            else false)
        else false)))))
 (LinkedList run))
