; Sample.swap from seed 003 (Braione and Denaro, POSE), Fig. 1 (a).
;
;   void swap(Sample s) { if (s != null) { Object d = this.data;
;                                          this.data = s.data; s.data = d; } }
;
; Translation: Object becomes a class Data; void becomes bool (true when the
; swap happened). Symbolic input enters only through fields of this, so the
; argument s is read from an input field `other` by a driver method `run`;
; s may be null, alias this, or be a fresh object, as in the paper.
(((class Data () ())
  (class Sample ([Data data] [Sample other])
    ((bool swap [Sample s]
       (if (s = null)
           false
        else (var Data d := (this $ data) in
               (begin (this $ data := (s $ data))
                      (s $ data := d)
                      true))))
     (bool run [bool unused]
       (this @ swap (this $ other))))))
 (Sample run))
