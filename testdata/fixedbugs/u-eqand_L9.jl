; Regression case for docs/FINDINGS.md F5 (seed 004's E′, U-EQAND): L9, Reference compare (E, E′) preserves ⊏ (rule Equals (E′)).
; The program is ENGINES.md §6.2's prediction, written by hand (4 lines; it is already minimal: one comparison of two
; uninitialized fields) and confirmed with `lockstep check -variant fixed+u-eqand -k 2` on 2026-11-23.
; Reason: (a) GSE state `l0.f → null, l0.g → l0` (f null, g = this) is not represented: E′ as drafted in seed 004
; conjoins ⋁Φ_0 ∨ ⋁Φ_1, which here is only "this.g is the new location l2" (every location of L(this.f) also occurs
; in L(this.g), so Φ_0 = ∅), and drops every other world where the two fields differ. The authors' own fix ∧→∨
; (ericmercer/uber-lazy 29dc743, 2014-05-01) is RULES.md's default E′ (φ ∧ ¬⋁Φ_α).
; variant: fixed+u-eqand, published+u-eqand
; expect: L9 Equals (E′)
; k: 2
; steps: 150
; holds: published, fixed, fixed+u-st

(((class A ([A f] [A g])
    ((bool main [bool x] ((this $ f) = (this $ g))))))
 (A main))
