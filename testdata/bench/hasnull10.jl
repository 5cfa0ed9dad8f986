; Sample.hasNull from seed 003 (Braione and Denaro, POSE), Fig. 1 (c), with
; max = 10 (POSE's Table 1 row "Fig. 1 (c) max = 10": 78 traces with lazy
; initialization, 12 with POSE). Written for the benchmark suite.
;
; Translation as in testdata/programs/hasnull.jl (max = 4): the loop is
; unrolled into one method per iteration, stepI holding the loop test for
; i = I; the null test runs eleven times and s advances at most ten times.
(((class Sample ([Sample next])
    ((bool hasNull [bool unused]
       (this @ step1 (this $ next)))
     (bool step1 [Sample s]
       (if (s = null) true else (this @ step2 (s $ next))))
     (bool step2 [Sample s]
       (if (s = null) true else (this @ step3 (s $ next))))
     (bool step3 [Sample s]
       (if (s = null) true else (this @ step4 (s $ next))))
     (bool step4 [Sample s]
       (if (s = null) true else (this @ step5 (s $ next))))
     (bool step5 [Sample s]
       (if (s = null) true else (this @ step6 (s $ next))))
     (bool step6 [Sample s]
       (if (s = null) true else (this @ step7 (s $ next))))
     (bool step7 [Sample s]
       (if (s = null) true else (this @ step8 (s $ next))))
     (bool step8 [Sample s]
       (if (s = null) true else (this @ step9 (s $ next))))
     (bool step9 [Sample s]
       (if (s = null) true else (this @ step10 (s $ next))))
     (bool step10 [Sample s]
       (if (s = null) true else (this @ done (s $ next))))
     (bool done [Sample s]
       (s = null)))))
 (Sample hasNull))
