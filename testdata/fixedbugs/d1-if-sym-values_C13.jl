; Regression case for docs/FINDINGS.md D1 (PRIMITIVES.md §3's If (sym) as written, with RULES.md §1's
; literal values): C13, summary path count = distinct GSE control-flow sequences (rule If (sym)).
; Found by `lockstep check -gen -data mixed -n 1000 -seed 1 -variant fixed -k 1`: program 139 of the
; stream (program seed 226941369633977464), 7 lines, shrunk to 4 by rapid.
; Reason: both branches are the literal true, a value at once, so the two successors of If (sym) have
; one control (η e k): GSE and the engine have two paths for one control-flow sequence, and the two
; engine successors at one control break the one-state-per-control pairing. The default keeps the
; literal a branch came from in the control until the next step (machine.State.Origin): two controls,
; as the program's control-flow graph has two edges; no step is added.
; variant: fixed+d1-if-sym-values, published+d1-if-sym-values
; expect: C13 If (sym)
; k: 1
; steps: 200
; holds: fixed, published

(((class A ([bool f])
    ((bool main [bool x]
       (if (this $ f) true else true)))))
 (A main))
