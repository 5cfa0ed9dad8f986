; Regression case for docs/FINDINGS.md (C-ORC-DATA, a checker fix): the If (sym) mutant that drops the
; else branch in the engine and in GSE alike held on this literal-free program at k = -1 (ORC's
; valuations came from the program's literals, here only 0, and its completeness half was skipped
; without a k-bound). Confirmed with `lockstep check -engine summary:fixed+m-if-sym-then-only -k -1
; testdata/data/max2.jl` on 2026-11-27: holds before, VIOLATED ORC after.
; variant: fixed+m-if-sym-then-only
; expect: ORC If (sym)
; k: -1
; steps: 100
; holds: fixed

(((class A ([int a] [int b])
    ((int main
       (if ((this $ a) < (this $ b)) (this $ b) else (this $ a))))))
 (A main))
