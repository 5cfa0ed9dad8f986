; DoubleLinkedList.getLast from seed 003 (Braione and Denaro, POSE), Table 1
; row dll_getLast (POSE 2 traces, lazy 12), as jPOSE's examples/dll.txt and
; dll_getLast.txt write it:
;
;   Object getLast() { if (size == 0) return null; return header.previous.element; }
;
; Translation: no integers, so the int field size becomes a marker field
; of class Obj and `size == 0` becomes `size = null` (the test keeps its two
; outcomes and reads one input field, as the Java does). Object becomes a
; field-less class Obj. The list is the entry receiver (jPOSE's Y0). Only
; the methods used are kept.
(((class Obj () ())
  (class Entry ([Obj element] [Entry next] [Entry previous]) ())
  (class DoubleLinkedList ([Entry header] [Obj size])
    ((Obj getLast [bool u]
       (if ((this $ size) = null)
           null
        else (var Entry h := ((this $ header) $ previous) in (h $ element)))))))
 (DoubleLinkedList getLast))
