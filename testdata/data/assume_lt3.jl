; One world, one assumed fact: an engine that records (v < 3) as (v < 2)
; (m-strengthen-tighter) is seen by direction (a) of the data half only,
; one that records nothing (m-strengthen-none) by direction (b) only.
(((class A ([int v])
    ((int main
       (begin (assume ((this $ v) < 3)) (this $ v))))))
 (A main))
