; Regression case: V7 (docs/FINDINGS.md F2) without any write. The two reads
; of l0.f, through this.g (where this.g may be this) and through this,
; summarize the field twice; published re-initializes it in the world
; this.g == this, so the compare can be false there and the summary engine
; reports the path "else, this.g == this" that no execution has (C12).
; The lockstep checker meets it first as L1 at the second Summarize;
; checker.TestV7InfeasiblePath checks the control-flow sequences directly.
; Found by hand from the read-only shape of v4-init-before-write_L1.jl.
; variant: published
; expect: L1 Summarize
; k: 3
; steps: 150
; holds: v7-uninit-guard, fixed
(((class A ([A f] [A g])
    ((bool main [bool x]
       (if (((this $ g) $ f) = (this $ f))
           true
        else (if ((this $ g) = this) x else false))))))
 (A main))
