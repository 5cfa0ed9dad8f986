; LinkedList.contains from seed 000 (Hillery et al., heap summaries), Table 1 row "LinkedList"
; (paths GSE 1,656, 17,485, 232,743, 3,731,094 and SH 25, 39, 56, 76 at k = 3..6), with the driver
; as seed 000 §7.3 describes it: "The test program begins by assuming an object invariant before
; initiating a sequence of contains() method calls", five calls joined by && (Fig. 1).
;
; The same program as linkedlist_calls5.jl (contains as recursion on the receiver, Data objects
; compared by reference, `a && b` as (if a b else false), each call reading head afresh), with the
; object invariant assumed first: the list from head is acyclic. Javalite has no visited set, so
; acyclicity is an int-bounded walk: `acyclic(fuel)` follows next until null (true) or until fuel
; is spent (false: a list that goes on for more nodes than any acyclic list within the k-bound can
; have must have met a node twice). With fuel 10 the walk visits up to 11 nodes, so it states the
; invariant exactly for every k ≤ 11 (an acyclic list within the k-bound has at most k nodes); the
; bench runs k ≤ 6. A null head satisfies the invariant (and then the first call throws, as the Java
; does).
; Left out: nothing else; the invariant replaces the step bound of linkedlist_calls5.jl as the
; cut of cyclic lists (no path is cut by steps here).
(((class Data () ())
  (class Node ([Node next] [Data data])
    ((bool contains [Data d]
       (if ((this $ data) = d)
           true
        else (if ((this $ next) = null)
                 false
              else ((this $ next) @ contains d))))
     (bool acyclic [int fuel]
       (if ((this $ next) = null)
           true
        else (if (fuel <= 0)
                 false
              else ((this $ next) @ acyclic (fuel - 1)))))))
  (class LinkedList ([Node head] [Data data0] [Data data1] [Data data2] [Data data3] [Data data4])
    ((bool run [bool unused]
       (begin (assume (if ((this $ head) = null)
                          true
                       else ((this $ head) @ acyclic 10)))
              (if ((this $ head) @ contains (this $ data0))
                  (if ((this $ head) @ contains (this $ data1))
                      (if ((this $ head) @ contains (this $ data2))
                          (if ((this $ head) @ contains (this $ data3))
                              ((this $ head) @ contains (this $ data4))
                           else false)
                       else false)
                   else false)
               else false))))))
 (LinkedList run))
