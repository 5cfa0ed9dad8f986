; DoubleLinkedList.indexOf from seed 003 (Braione and Denaro, POSE), Table 1
; row dll_indexOf (POSE 42 traces, lazy 332,856), as jPOSE's examples/dll.txt
; and dll_indexOf.txt write it (depthBound = 8):
;
;   int indexOf(Object o) { IndexOfLoopFrame res = new IndexOfLoopFrame();
;     Entry e = header.next; res.o1 = o; res.entry1 = e; res.index1 = 0;
;     return o == null ? loop1(res) : loop2(res); }
;   int loop2(IndexOfLoopFrame res) { Entry e = res.entry1;
;     if (e.element == res.o1) return res.index1;      // loop1: e.element == null
;     if (e.next == null) return -1;
;     if (depthBound < res.index1) return -1;
;     res.entry1 = e.next; res.index1++; return loop2(res); }
;
; Translation: no integers, so the counter res.index1 and the bound test
; depthBound < index1 (concrete: 8 < i) are unrolled: loopN_I is the loop
; body with index1 = I, for I = 0..9; at I = 9 the bound test is true and
; the body returns -1 after the two null tests, as the Java does. The
; result (index or -1) becomes bool (true: found). The loop frame keeps its
; reference fields o1 and entry1 (a new object, written and read as in
; jPOSE). Object becomes a field-less class Obj. The list is the entry
; receiver (jPOSE's Y0); the argument o (jPOSE's Y1) is read from an input
; field arg of this by the driver run. Only the methods used are kept.
(((class Obj () ())
  (class Entry ([Obj element] [Entry next] [Entry previous]) ())
  (class IndexOfLoopFrame ([Obj o1] [Entry entry1]) ())
  (class DoubleLinkedList ([Entry header] [Obj arg])
    ((bool run [bool u]
       (this @ indexOf (this $ arg)))
     (bool indexOf [Obj o]
       (var IndexOfLoopFrame res := (new IndexOfLoopFrame) in
         (var Entry e := ((this $ header) $ next) in
           (begin (res $ o1 := o)
                  (res $ entry1 := e)
                  (if (o = null)
                      (this @ loop1_0 res)
                   else (this @ loop2_0 res))))))
     (bool loop1_0 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = null)
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop1_1 res))))))
     (bool loop1_1 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = null)
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop1_2 res))))))
     (bool loop1_2 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = null)
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop1_3 res))))))
     (bool loop1_3 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = null)
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop1_4 res))))))
     (bool loop1_4 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = null)
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop1_5 res))))))
     (bool loop1_5 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = null)
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop1_6 res))))))
     (bool loop1_6 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = null)
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop1_7 res))))))
     (bool loop1_7 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = null)
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop1_8 res))))))
     (bool loop1_8 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = null)
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop1_9 res))))))
     (bool loop1_9 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = null)
             true
          else (if ((e $ next) = null) false else false))))
     (bool loop2_0 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = (res $ o1))
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop2_1 res))))))
     (bool loop2_1 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = (res $ o1))
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop2_2 res))))))
     (bool loop2_2 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = (res $ o1))
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop2_3 res))))))
     (bool loop2_3 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = (res $ o1))
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop2_4 res))))))
     (bool loop2_4 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = (res $ o1))
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop2_5 res))))))
     (bool loop2_5 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = (res $ o1))
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop2_6 res))))))
     (bool loop2_6 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = (res $ o1))
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop2_7 res))))))
     (bool loop2_7 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = (res $ o1))
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop2_8 res))))))
     (bool loop2_8 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = (res $ o1))
             true
          else (if ((e $ next) = null)
                   false
                else (begin (res $ entry1 := (e $ next))
                            (this @ loop2_9 res))))))
     (bool loop2_9 [IndexOfLoopFrame res]
       (var Entry e := (res $ entry1) in
         (if ((e $ element) = (res $ o1))
             true
          else (if ((e $ next) = null) false else false)))))))
 (DoubleLinkedList run))
