; Sample.sum from seed 003 (Braione and Denaro, POSE), Fig. 1 (b).
;
;   int sum() { int sum = val; sum += s0.val; sum += s1.val; sum += s2.val;
;               return sum; }
;
; Translation: Javalite has no integers. An int field becomes a reference to
; a Val object, and since there is no addition, `sum += x` is modelled as
; reading the addend into the accumulator variable. What the example is about
; is kept: the same four field reads in the same order (this.val, s0.val,
; s1.val, s2.val, where s0, s1, s2 may be null or alias each other or this)
; and no branch in the program, so a path-optimal engine has one path (plus
; the null-dereference error paths, which Java counts differently).
(((class Val () ())
  (class Sample ([Val val] [Sample s0] [Sample s1] [Sample s2])
    ((Val sum [bool unused]
       (var Val acc := (this $ val) in
         (begin (acc := ((this $ s0) $ val))
                (acc := ((this $ s1) $ val))
                (acc := ((this $ s2) $ val))
                acc))))))
 (Sample sum))
