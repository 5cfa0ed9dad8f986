; LinkedList.contains from seed 000 (Hillery et al., heap summaries), Fig. 1,
; with 4 calls to contains from the driver.
; Written for the benchmark suite (lockstep bench); the one- to three-call
; drivers are testdata/programs/linkedlist.jl and linkedlist_calls2/3.jl.
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
  (class LinkedList ([Node head] [Data data0] [Data data1] [Data data2] [Data data3])
    ((bool run [bool unused]
       (if ((this $ head) @ contains (this $ data0))
           (if ((this $ head) @ contains (this $ data1))
               (if ((this $ head) @ contains (this $ data2))
                   ((this $ head) @ contains (this $ data3))
                else false)
            else false)
        else false)))))
 (LinkedList run))
