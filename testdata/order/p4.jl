; Lemma P4, the papers' ordering of the engines by path count (#summary ≤ #lazier# ≤ #lazier ≤ #GSE,
; ENGINES.md §8.2-§8.3), on shrunk programs of `lockstep order -gen` (docs/FINDINGS.md "P4"). Each
; chunk (separated by a line ---) gives its k and step bound, the ends of every engine it compares
; (`; count ENGINE: Vv Ee [Ccut] [Sstuck]`: value, error, cut, stuck), and the claims that hold and
; fail on it (paths = value + error ends). checker/order_test.go (TestOrderCases) asserts all of it.
;
; P4-1 (k = -1): lazier# ≤ lazier fails. Both operands are read before the comparison: lazier
; branches null / δ at each read, and a null compared with a δ is a null test (IFNULL-A: unequal,
; nothing resolved); lazier# resolves the left δ̂ to null, this or fresh, then the right δ̂ to null,
; this, (the fresh one) or fresh, also when the left one is null. lazier# = GSE = 10, lazier 8.
; With the bytecode reading of the null test (ifnull-syntactic: only the literal null is IFNULL)
; lazier resolves the δ too and has 10.
; k: -1
; steps: 200
; count summary:fixed: 2v 0e
; count lazier#: 10v 0e
; count lazier: 8v 0e
; count gse: 10v 0e
; count lazier:ifnull-syntactic: 10v 0e
; holds: summary:fixed ≤ lazier#
; fails: lazier# ≤ lazier
; holds: lazier ≤ gse
; holds: lazier# ≤ lazier:ifnull-syntactic
(((class A ([A f] [A g])
    ((bool main [bool x]
       ((this $ f) = (this $ g))))))
 (A main))
---
; P4-1 at k = 1: the same counts (every read is at depth 1 ≤ k).
; k: 1
; steps: 200
; count lazier#: 10v 0e
; count lazier: 8v 0e
; count gse: 10v 0e
; fails: lazier# ≤ lazier
; holds: lazier ≤ gse
(((class A ([A f] [A g])
    ((bool main [bool x]
       ((this $ f) = (this $ g))))))
 (A main))
---
; P4-2 (k = 1): lazier ≤ gse fails. this.f is a fresh A a1 (depth 1) or this; a1.g is at depth 2 > k
; and no B exists: GSE reads null only. lazier branches null / δ (non-null, depth 2, no candidate:
; a state that stands for no GSE state, FEAS) at the read, and the null test `= null` never
; resolves δ (IFNULL-A), so the empty world reaches a value end: lazier 5 = 4v + 1e, GSE 4. lazier#
; splits δ̂ at the null test the same way (5). The check reports KB (k = -1 holds).
; k: 1
; steps: 200
; count summary:fixed: 2v 1e
; count lazier#: 4v 1e
; count lazier: 4v 1e
; count gse: 3v 1e
; holds: summary:fixed ≤ lazier#
; holds: lazier# ≤ lazier
; fails: lazier ≤ gse
(((class A ([A f] [B g])
    ((bool main [bool x]
       (((this $ f) $ g) = null))))
  (class B () ()))
 (A main))
---
; P4-2 at k = -1: the fresh B is allowed at every depth, and every claim holds.
; k: -1
; steps: 200
; count summary:fixed: 2v 1e
; count pose: 2v 1e
; count lazier#: 4v 1e
; count lazier: 4v 1e
; count gse: 4v 1e
; holds: summary:fixed ≤ lazier#
; holds: pose ≤ lazier#
; holds: lazier# ≤ lazier
; holds: lazier ≤ gse
(((class A ([A f] [B g])
    ((bool main [bool x]
       (((this $ f) $ g) = null))))
  (class B () ()))
 (A main))
---
; P4-2 one level deeper (k = 2): the read of g at depth 3.
; k: 2
; steps: 200
; count lazier: 8v 2e
; count gse: 7v 2e
; fails: lazier ≤ gse
(((class A ([A f] [B g])
    ((bool main [bool x]
       (var A y := (this $ f) in (((y $ f) $ g) = null)))))
  (class B () ()))
 (A main))
---
; P4-3 (k = 1): summary:fixed ≤ lazier# fails. lazier# is stuck in the second call to m1: reading
; (this $ n) $ h it must resolve a location beyond the bound with no candidate (KB-2 in
; docs/FINDINGS.md: Kiasan resolves against the objects that exist at resolution time, GSE against
; those at the read), so one control-flow sequence GSE completes is lost and lazier# has fewer
; paths than the one-per-sequence summary engine: 6 against 7. The check reports KB; alias-pending
; (KB-2's repair) holds and has 16 paths. At k = -1
; every claim holds (13 ≤ 162 ≤ 220 ≤ 1985).
; k: 1
; steps: 200
; count summary:fixed: 2v 5e
; count lazier#: 1v 5e 1stuck
; count lazier#:alias-pending: 7v 9e
; count lazier: 1v 7e 2stuck
; count gse: 11v 12e
; fails: summary:fixed ≤ lazier#
; holds: summary:fixed ≤ lazier#:alias-pending
; holds: lazier# ≤ lazier
; holds: lazier ≤ gse
(((class A ([B f] [A h])
    ((bool main [bool x]
       (var B y := (this $ f) in
         (begin (((this $ h) $ f) @ m1 this) (y @ m1 ((y $ k) $ h)))))))
  (class B ([A k] [A n])
    ((bool m1 [A x]
       (((this $ n) $ h) = null)))))
 (A main))
---
; P4-3 at k = -1.
; k: -1
; steps: 200
; count summary:fixed: 4v 9e
; count pose: 4v 9e
; count lazier#: 122v 40e
; count lazier: 169v 51e
; count gse: 1824v 161e
; holds: summary:fixed ≤ lazier#
; holds: pose ≤ lazier#
; holds: lazier# ≤ lazier
; holds: lazier ≤ gse
(((class A ([B f] [A h])
    ((bool main [bool x]
       (var B y := (this $ f) in
         (begin (((this $ h) $ f) @ m1 this) (y @ m1 ((y $ k) $ h)))))))
  (class B ([A k] [A n])
    ((bool m1 [A x]
       (((this $ n) $ h) = null)))))
 (A main))
