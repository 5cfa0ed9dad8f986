; Regression case for docs/FINDINGS.md K-STAMP (Kiasan's stamp-kbound variant with data): found on 2026-11-25 by
; reading the variant against PRIMITIVES.md §5 and confirmed with `lockstep check -engine 'lazier#:stamp-kbound' -k -1`
; before the fix; written by hand, 7 lines. y's key is read (y fresh, key α(y)), then the older x is resolved to y's
; object, which stamp-kbound re-identifies with x's symbol (GSE creates it at x's read). Keeping the key under the
; younger identity leaves the slot α(r_y, key) naming no input of the object: L2, (b) data. The fix renames the
; object's initial-value symbols with its identity (kiasan.renameInput).
; variant: lazier#:stamp-kbound+stamp-keep-symbols, lazier:stamp-kbound+stamp-keep-symbols
; expect: L2
; k: -1
; steps: 120
; holds: lazier#:stamp-kbound, lazier:stamp-kbound, lazier#:default, lazier:default
(((class Node ([Node next] [Node other] [int key])
    ((bool main
       (var Node x := (this $ next) in
         (var Node y := (this $ other) in
           (if ((y $ key) < 5) ((x $ key) < 5) else false)))))))
 (Node main))
