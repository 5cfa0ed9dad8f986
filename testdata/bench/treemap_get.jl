; TreeMap.get from seed 002 (Deng, Robby, Hatcliff, lazier#), Table 1 row "java.util.TreeMap get"
; (cases lazy 8, 62, 782; lazier 6, 40, 482; lazier# 4, 28, 331 at k = 1, 2, 3; App. B: the fewest
; cases for a red-black tree are p_h = 4, 28, 331, trees of height at most h).
;
; Java translated: java.util.TreeMap (JDK 1.4/5), `get(key)`: p = getEntry(key); return p == null ?
; null : p.value, and `getEntry(key)`: p = root; while p != null { cmp = compare(key, p.key); cmp < 0:
; p = p.left; cmp > 0: p = p.right; else return p } return null.
;
; Adaptations: keys are ints compared with < (compare's < 0 and > 0); values are objects of a
; field-less class Obj; the while loop becomes tail recursion on p (getEntryLoop). Kiasan checks a
; method under its class invariant, so the driver first assumes repOK, the red-black invariant of
; treemap_repok.jl (root without parent, parent pointers, size, colours and black heights, ordered
; keys; java.util's boolean colour, BLACK = true). The driver is the map itself (the entry
; receiver, depth 0: k bounds the tree's height as Kiasan's k does); the symbolic argument key is
; the map's extra int field `arg` (entry parameters are concrete in lockstep).
; Left out: modCount, the comparator (natural order of ints), the post-state invariant check.
(((class Obj () ())
  (class Entry ([int key] [Obj value] [Entry left] [Entry right] [Entry parent] [bool color])
    ((int count
       (var int l := (if ((this $ left) = null)
                         0
                      else (if (((this $ left) $ parent) = this)
                               ((this $ left) @ count)
                            else -1)) in
         (if (l = -1)
             -1
          else (var int r := (if ((this $ right) = null)
                                 0
                              else (if (((this $ right) $ parent) = this)
                                       ((this $ right) @ count)
                                    else -1)) in
                 (if (r = -1) -1 else ((l + r) + 1))))))
     (bool isBlack [Entry e]
       (if (e = null) true else (e $ color)))
     (int blackHeight
       (if (if (this $ color)
               false
            else (if (this @ isBlack (this $ left))
                     (if (this @ isBlack (this $ right)) false else true)
                  else true))
           -1
        else (var int l := (if ((this $ left) = null)
                               1
                            else ((this $ left) @ blackHeight)) in
               (if (l = -1)
                   -1
                else (var int r := (if ((this $ right) = null)
                                       1
                                    else ((this $ right) @ blackHeight)) in
                       (if (r = l)
                           (if (this $ color) (l + 1) else l)
                        else -1))))))
     (bool isOrdered [bool hasMin] [int min] [bool hasMax] [int max]
       (if (if hasMin ((this $ key) <= min) else false)
           false
        else (if (if hasMax (max <= (this $ key)) else false)
                 false
              else (if (if ((this $ left) = null)
                           true
                        else ((this $ left)
                              @ isOrdered hasMin
                                          min
                                          true
                                          (this $ key)))
                       (if ((this $ right) = null)
                           true
                        else ((this $ right)
                              @ isOrdered true
                                          (this $ key)
                                          hasMax
                                          max))
                    else false))))))
  (class TreeMap ([Entry root] [int size] [int arg])
    ((bool repOK
       (if ((this $ root) = null)
           ((this $ size) = 0)
        else (var Entry r := (this $ root) in
               (if (if ((r $ parent) = null) false else true)
                   false
                else (var int n := (r @ count) in
                       (if (n = -1)
                           false
                        else (if (if (n = (this $ size)) false else true)
                                 false
                              else (if (if (r $ color) false else true)
                                       false
                                    else (if ((r @ blackHeight) = -1)
                                             false
                                          else (r
                                                @ isOrdered false
                                                            0
                                                            false
                                                            0))))))))))
     (Entry getEntry [int key]
       (this @ getEntryLoop key (this $ root)))
     (Entry getEntryLoop [int k] [Entry p]
       (if (p = null)
           null
        else (if (k < (p $ key))
                 (this @ getEntryLoop k (p $ left))
              else (if ((p $ key) < k)
                       (this @ getEntryLoop k (p $ right))
                    else p))))
     (Obj get [int key]
       (var Entry p := (this @ getEntry key) in
         (if (p = null) null else (p $ value))))
     (Obj main
       (begin (assume (this @ repOK)) (this @ get (this $ arg)))))))
 (TreeMap main))
