; P-MERGE (ENGINES.md §4.2; seed 003 mergeHPf (3)–(6), jPOSE
; Interpreter.mergeHeaps), written for lockstep's POSE-J variant
; pose-published-merge.
;
; q := p.g is the ite "P if P = this, else Q" (POSE: ite(P = Y0, P, Q)). The
; write q.f := this runs Putfield (c2): each branch from the same heap, then
; the merge. P.f is ⊥ before the write, so the branch that writes Q.f does
; not update P.f, and the merge gives P.f the fresh initial value Z in the
; worlds P ≠ Y0. In the world P ≠ Y0 ∧ Q = P (p.g = p), P and Q are one
; object whose f was just set to this, but P.f reads Z: after q = p, the
; comparison p.f = this can be false there, which no execution does.
(((class A ([A f] [A g])
   ((bool main [bool u]
      (var A p := (this $ g) in
        (var A q := (p $ g) in
          (begin (q $ f := this)
                 (if (q = p) ((p $ f) = this) else true))))))))
 (A main))
