; Sample.hasNull from seed 003 (Braione and Denaro, POSE), Fig. 1 (c), with
; max = 4.
;
;   boolean hasNull() { Sample s = next; int i = 1;
;                       while (s != null && i <= max) { s = s.next; i = i + 1; }
;                       return s == null; }
;
; Translation: there are no integers or loops, so the loop is unrolled for
; max = 4: the counter is implicit in the nesting depth. The null test runs
; five times and s advances at most four times; after the fourth advance the
; bound ends the loop and the result is s == null, as in the Java.
(((class Sample ([Sample next])
    ((bool hasNull [bool unused]
       (var Sample s := (this $ next) in
         (if (s = null)
             true
          else (begin (s := (s $ next))
                      (if (s = null)
                          true
                       else (begin (s := (s $ next))
                                   (if (s = null)
                                       true
                                    else (begin (s := (s $ next))
                                                (if (s = null)
                                                    true
                                                 else (begin (s := (s $ next))
                                                             (s = null))))))))))))))
 (Sample hasNull))
