; Written for POSE-J's data rules (pose/data.go, docs/POSE.md D11): the
; initial value of a symbol that aliases an earlier one. Y := F.h can be F
; itself (F.h = F) and is materialized there (its owner F is), so Y.n is
; bound in a world where Y stands for F's object: its initial value must be
; F's, α(r_F, n), the symbol GSE gives that object, not α(r_Y, n). Binding
; to α(r_Y, n) (Z as a fresh symbol per binding, without the uninterpreted
; field function that makes f(Y) = f(F)) breaks L2 here (the data half of
; exactness). The + 0 keeps the value a Binary term (L13).
(((class A ([B f])
    ((int main
       ((((this $ f) $ h) $ n) + 0))))
  (class B ([B h] [int n]) ()))
 (A main))
