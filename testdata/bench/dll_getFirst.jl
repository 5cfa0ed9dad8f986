; DoubleLinkedList.getFirst from seed 003 (Braione and Denaro, POSE), Table 1
; row dll_getFirst (POSE 2 traces, lazy 12), as jPOSE's examples/dll.txt and
; dll_getFirst.txt write it:
;
;   Object getFirst() { if (size == 0) return null; return header.next.element; }
;
; Translation: no integers, so the int field size becomes a marker field
; of class Obj and `size == 0` becomes `size = null` (the test keeps its two
; outcomes and reads one input field, as the Java does). Object becomes a
; field-less class Obj. The list is the entry receiver (jPOSE's Y0). Only
; the methods used are kept.
(((class Obj () ())
  (class Entry ([Obj element] [Entry next] [Entry previous]) ())
  (class DoubleLinkedList ([Entry header] [Obj size])
    ((Obj getFirst [bool u]
       (if ((this $ size) = null)
           null
        else (var Entry h := ((this $ header) $ next) in (h $ element)))))))
 (DoubleLinkedList getFirst))
