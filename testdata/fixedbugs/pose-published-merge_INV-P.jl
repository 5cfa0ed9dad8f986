; Regression case for docs/FINDINGS.md (POSE P-MERGE, seed 003 mergeHPf (3)-(6), jPOSE Interpreter.mergeHeaps): a field
; still ⊥ in one branch of a merge gets a fresh initial-value symbol, so a write made in the other branch through an alias is
; lost; the write's successor is not exact (docs/POSE.md). Confirmed with
; `lockstep check -engine pose:pose-published-merge -k -1 testdata/programs/pose_merge.jl` on 2026-11-23.
; The checker checks POSE-J's invariant INV-P before the View and exactness (checker/invariant.go), so the verdict
; names the cause: at the write, l1.f and l2.f are one field where i4 = i7, both initialized, with
; different values. Beneath it (checker.Options.NoInvariant) the same step breaks L3, Field write (W):
; a GSE state of the group is not represented (checker TestInvariantPinpointsPMerge).
; variant: pose:pose-published-merge
; expect: INV-P Field write (W)
; k: -1
; steps: 150
; holds: pose:world-exact
(((class A ([A f] [A g])
   ((bool main [bool u]
      (var A p := (this $ g) in
        (var A q := (p $ g) in
          (begin (q $ f := this)
                 (if (q = p) ((p $ f) = this) else true))))))))
 (A main))
