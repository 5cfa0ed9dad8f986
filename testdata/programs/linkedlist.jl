; LinkedList.contains from seed 000 (Hillery et al., heap summaries), Fig. 1,
; with one call to contains from the driver.
;
; Translation: the Java loop
;   node = root; while (true) { if (node.elem == val) return true;
;                               if (node.next == null) return false;
;                               node = node.next; }
; becomes recursion on the receiver (Javalite has no loops). As in the Java,
; the root is dereferenced without a null test, so a null head is a null
; dereference, and node.next is read twice per step (once for the test, once
; to advance). Data objects are compared by reference. The static contains
; becomes a method of Node; the driver reads head and data0 from fields of
; this, which is where symbolic input enters.
(((class Data () ())
  (class Node ([Node next] [Data data])
    ((bool contains [Data d]
       (if ((this $ data) = d)
           true
        else (if ((this $ next) = null)
                 false
              else ((this $ next) @ contains d))))))
  (class LinkedList ([Node head] [Data data0])
    ((bool run [bool unused]
       ((this $ head) @ contains (this $ data0))))))
 (LinkedList run))
