; Minimal failing program of uber:defer+u-noalias (docs/UBER.md): a field
; of this compared with this. GSE initializes f to null, this (alias) or a
; new object; U-NOALIAS resolves the unresolved value at the comparison to
; null or a fresh object only, so `(this $ f) = this` is never true and the
; GSE state after Equals (E) has no counterpart (T11 forward).
(((class A ([A f])
    ((bool main [bool x]
       ((this $ f) = this)))))
 (A main))
