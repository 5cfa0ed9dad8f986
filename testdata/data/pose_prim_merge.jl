; P-MERGE on a primitive field (PRIMITIVES.md §8; ENGINES.md §4.2; seed 003
; mergeHPf (3)-(6), jPOSE Interpreter.mergeHeaps), the shape of
; testdata/programs/pose_merge.jl with an int field. q := p.g is the ite
; "P if P = this, else Q"; P.v is unbound (POSE: ⊥) at the write q.v := 5.
; The world-exact POSE-J binds it against its aliases first and updates it
; where Q = P; the published merge gives it the fresh initial value Z in
; the worlds P != this, so in the world P != this ∧ Q = P the write made
; through Q is lost for P (docs/FINDINGS.md, "P-MERGE on primitive fields").
(((class A ([A g] [int v])
    ((bool main [bool u]
       (var A p := (this $ g) in
         (var A q := (p $ g) in
           (begin (q $ v := 5) (if (q = p) ((p $ v) = 5) else true))))))))
 (A main))
