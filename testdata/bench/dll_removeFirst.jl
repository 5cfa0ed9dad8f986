; DoubleLinkedList.removeFirst from seed 003 (Braione and Denaro, POSE),
; Table 1 row dll_removeFirst (POSE 2 traces, lazy 91), as jPOSE's
; examples/dll.txt and dll_removeFirst.txt write it:
;
;   Object removeFirst() { Entry e = header.next; Object objFirst = e.element;
;                          removeE(e); return objFirst; }
;   void removeE(Entry e) { if (header == e) return;
;                           e.previous.next = e.next; e.next.previous = e.previous;
;                           size--; }
;
; Translation: no integers, so size-- is dropped (it never decides a
; branch here). Object becomes a field-less class Obj, void results become
; bool. A field write needs a variable receiver, so e.previous.next := e.next
; reads the receiver into a variable first; the reads happen in the Java
; order (receiver, then value). The list is the entry receiver (jPOSE's Y0),
; so its input is the fields of this. Only the methods used are kept.
(((class Obj () ())
  (class Entry ([Obj element] [Entry next] [Entry previous]) ())
  (class DoubleLinkedList ([Entry header])
    ((Obj removeFirst [bool u]
       (var Entry e := ((this $ header) $ next) in
         (var Obj objFirst := (e $ element) in
           (begin (this @ removeE e) objFirst))))
     (bool removeE [Entry e]
       (if ((this $ header) = e)
           false
        else (begin (var Entry p := (e $ previous) in (p $ next := (e $ next)))
                    (var Entry n := (e $ next) in
                      (n $ previous := (e $ previous)))
                    true))))))
 (DoubleLinkedList removeFirst))
