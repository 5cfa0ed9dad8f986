; Minimal failing program of uber:defer+u-newsym (docs/UBER.md): a new
; object. GSE's (new A) has f = null; under U-NEWSYM (seed 004's New) its
; field is an unresolved reference, which the View makes null, this or a
; fresh input object: heaps GSE never builds, right after New (L10). (The
; read of this.f only makes every lemma of the checker's example-program
; test reachable; the failure comes first.)
(((class A ([A f])
    ((A main [bool x]
       (begin (new A) (this $ f))))))
 (A main))
