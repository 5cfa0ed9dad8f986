; Regression case for docs/FINDINGS.md (POSE P-MERGE on primitive fields, PRIMITIVES.md §8; seed 003 mergeHPf (3)-(6),
; jPOSE Interpreter.mergeHeaps): a primitive field still ⊥ in one branch of a merge gets the fresh initial value Z, so a
; write made in the other branch through an alias is lost. q := p.g is "P if P = this, else Q"; at q.v := 5, P.v is ⊥;
; the published merge leaves P.v = Z in the worlds P != this, where Q = P has just been written 5. Confirmed with
; `lockstep check -engine pose:pose-published-merge -k -1 testdata/data/pose_prim_merge.jl` on 2026-11-25: INV-P at the
; write (l1.v and l2.v are one field where i4 = i7 and both exist, but their values differ); beneath it
; (checker.Options.NoInvariant) the data half of L3, Field write (W), at the same step (checker TestPosePrimMerge).
; variant: pose:pose-published-merge
; expect: INV-P Field write (W)
; k: -1
; steps: 150
; holds: pose:world-exact
(((class A ([A g] [int v])
    ((bool main [bool u]
       (var A p := (this $ g) in
         (var A q := (p $ g) in
           (begin (q $ v := 5) (if (q = p) ((p $ v) = 5) else true))))))))
 (A main))
