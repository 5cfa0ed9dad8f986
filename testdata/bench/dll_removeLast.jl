; DoubleLinkedList.removeLast from seed 003 (Braione and Denaro, POSE),
; Table 1 row dll_removeLast (POSE 2 traces, lazy 91), as jPOSE's
; examples/dll.txt and dll_removeLast.txt write it:
;
;   Object removeLast() { Entry e = header.previous; Object objLast = e.element;
;                          removeE(e); return objLast; }
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
    ((Obj removeLast [bool u]
       (var Entry e := ((this $ header) $ previous) in
         (var Obj objLast := (e $ element) in
           (begin (this @ removeE e) objLast))))
     (bool removeE [Entry e]
       (if ((this $ header) = e)
           false
        else (begin (var Entry p := (e $ previous) in (p $ next := (e $ next)))
                    (var Entry n := (e $ next) in
                      (n $ previous := (e $ previous)))
                    true))))))
 (DoubleLinkedList removeLast))
