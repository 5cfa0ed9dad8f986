; Regression case for docs/FINDINGS.md (Kiasan KB-2 family, the finite-k divergence where the engine misses a GSE
; heap): found by `lockstep check -gen -n 1000 -seed 1 -engine lazier -k 1 -steps 60 -timeout 10s` (and likewise for
; lazier#) on 2026-11-23 after 6 programs, shrunk from 7 to 6 lines. At k = 1 the write through z resolves z's
; object (depth 2: no fresh object) against the input objects materialized so far, which misses a world GSE builds
; (P2 fails: a GSE state at the write's control is represented by no sibling); at k = −1 every lemma holds, so the
; checker reports KB. Variant alias-pending (beyond the bound, RESOLVE may alias an older unresolved object of the
; class, materializing it) aligns both engines with GSE here; stamp-kbound alone does not (docs/KIASAN.md).
; variant: lazier:default, lazier#:default
; expect: KB
; k: 1
; steps: 150
; holds: lazier:alias-pending, lazier#:alias-pending
(((class A ([A f] [A g])
    ((B main [bool x]
       (var A y := (this $ f) in
         (var A z := ((this $ g) $ f) in (begin (z $ f := (new A)) null))))))
  (class B () ()))
 (A main))
