; Regression case for docs/FINDINGS.md F6 (seed 004's U-ST on a state that is not total): L9, Reference compare (E, E′) preserves ⊏ (rule Equals (E′)).
; Found by `lockstep lemmas -variant published+u-st -n 300 -seed 1 -k 2 -steps 150 -timeout 10s -shrink-time 20s` on 2026-11-23:
; L9 violated on 3 of the 300 programs (L1 on 60, the F2/F3 defects of published); program seed 462987678019945286, 10 lines, shrunk to 6.
; Reason: backward: the summary engine reaches this control by Equals (E′); no GSE state does. The E′ successor's φ_view is
; false: its only worlds are those F1 leaves without a target (published fails WF here first, at the Summarize of step 12).
; U-ST fires by C = 1, which looks at each reference alone, and C = 1 ⇔ S(φ ∧ φ_g) only on total states; with
; kbound-assume (F1's fix) the state is total and U-ST agrees with published.
; Under the Java readings (the default since the same day) the program breaks published's L1 at step 11 first, so the
; case keeps the reading it was found under (issue 14: a finding keeps its case where it reproduces).
; semantics: paper
; variant: published+u-st, v7-uninit-guard+u-st
; expect: L9 Equals (E′)
; k: 2
; steps: 150
; holds: kbound-assume, fixed, kbound-assume+u-st, fixed+u-st

(((class A ([A f])
    ((A main [bool x]
       (begin ((this $ f) @ m1 true) false (this $ f := ((this $ f) $ f))))
     (bool m1 [bool x]
       (((this $ f) $ f) = ((this $ f) $ f))))))
 (A main))
