; TreeMap.lastKey from seed 002 (Deng, Robby, Hatcliff, lazier#), Table 1 row "java.util.TreeMap
; lastKey" (cases lazy 2, 6, 31; lazier 2, 6, 31; lazier# 2, 6, 31 at k = 1, 2, 3).
;
; Java translated: java.util.TreeMap (JDK 1.4), `lastKey()`: return key(lastEntry()), with
; `lastEntry()`: p = root; if (p != null) while (p.right != null) p = p.right; return p, and
; `key(e)`: if (e == null) throw new NoSuchElementException(); return e.key.
;
; Adaptations: keys are ints; the while loop becomes tail recursion on p (lastEntryLoop). Javalite
; has no exceptions: `key(null)` reads a field of null, an error path (Java's
; NoSuchElementException on an empty map becomes the NullPointerException it would be without the
; test). Kiasan checks a method under its class invariant, so the driver first assumes repOK, the
; red-black invariant of treemap_repok.jl. The driver is the map itself (the entry receiver, depth
; 0).
; Left out: modCount, the comparator, the post-state invariant check; the map's `arg` field (kept
; so that every TreeMap program has the same classes) is not read.
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
     (Entry lastEntry
       (var Entry p := (this $ root) in
         (if (p = null) p else (this @ lastEntryLoop p))))
     (Entry lastEntryLoop [Entry p]
       (if ((p $ right) = null) p else (this @ lastEntryLoop (p $ right))))
     (int key [Entry e]
       (e $ key))
     (int lastKey
       (this @ key (this @ lastEntry)))
     (int main
       (begin (assume (this @ repOK)) (this @ lastKey))))))
 (TreeMap main))
