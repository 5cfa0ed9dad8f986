; Sample.hasNull from seed 003 (Braione and Denaro, POSE), Fig. 1 (c), with
; max = 4.
;
;   boolean hasNull() { Sample s = next; int i = 1;
;                       while (s != null && i <= max) { s = s.next; i = i + 1; }
;                       return s == null; }
;
; Translation: there are no integers or loops, so the loop is unrolled for
; max = 4 into one method per iteration: stepI holds the loop test for i = I
; and passes s.next on to the next iteration; the counter is implicit in the
; method name. The null test runs five times and s advances at most four
; times; when i exceeds max the loop ends and the result is s == null, as in
; the Java. (The steps are methods of the receiver, so the calls themselves
; never dereference null.)
(((class Sample ([Sample next])
    ((bool hasNull [bool unused]
       (this @ step1 (this $ next)))
     (bool step1 [Sample s]
       (if (s = null) true else (this @ step2 (s $ next))))
     (bool step2 [Sample s]
       (if (s = null) true else (this @ step3 (s $ next))))
     (bool step3 [Sample s]
       (if (s = null) true else (this @ step4 (s $ next))))
     (bool step4 [Sample s]
       (if (s = null) true else (this @ done (s $ next))))
     (bool done [Sample s]
       (s = null)))))
 (Sample hasNull))
