; TreeMap.successor (java.util) of the root, with parent pointers: the leftmost node of the right
; subtree, or the first ancestor reached from a left child. No invariant assumed. Written
; as a tree program the engines were not developed on (testdata/trees).
(((class E ([E left] [E right] [E parent] [int key] [bool black]) ())
  (class M ([E root])
    ((E leftmost [E p] (if ((p $ left) = null) p else (this @ leftmost (p $ left))))
     (E climb [E ch] [E p]
       (if (p = null) null else (if (ch = (p $ right)) (this @ climb p (p $ parent)) else p)))
     (E successor [E t]
       (if (t = null) null
        else (if ((t $ right) = null)
                 (this @ climb t (t $ parent))
              else (this @ leftmost (t $ right)))))
     (int main
       (var E s := (this @ successor (this $ root)) in
         (if (s = null) -1 else (s $ key)))))))
 (M main))
