; TreeMap (red-black tree) object invariant from seed 000 (Hillery et al., heap summaries),
; Table 1 row "TreeMap" (paths GSE 9, 100, 3,026 and SH 9, 46, 547 at k = 1, 2, 3; seed 000 §7.3:
; "the TreeMap test is simply an assertion of an object invariant, in this case for a red/black
; tree").
;
; Java translated: the seed prints no code, so this is the repOK of java.util.TreeMap as Korat and
; TestEra state it, on int keys and java.util's boolean colour (BLACK = true): the root has no
; parent; every child's parent field points back to the node holding it (`isTree`, with the
; visited set); the number of nodes equals `size`; no red node has a red child, every path from a
; node to a null leaf passes the same number of black nodes and the root is black
; (`isRedBlack`); keys are strictly ordered (`isOrdered`). Checked in that order.
;
; Adaptations: the work-list loops become recursion over the children: `count` walks the tree
; checking parent pointers and returns the number of nodes, or -1 when a parent pointer is wrong
; (a cycle or a node reached from two parents makes a parent pointer wrong, except left = right,
; which isOrdered rejects, so every path ends); `blackHeight` returns the black height of a subtree
; or -1 when the red or black rule fails; an absent bound of isOrdered is a bool flag beside the
; int bound. `a && b` is (if a b else false); a null child is tested before a call on it. The
; driver is the map itself (the entry receiver, depth 0), and "asserting" becomes returning
; repOK's value: both outcomes are paths.
; Left out: the entries' values, modCount and the comparator (keys are ints, compared with <).
(((class Entry ([int key] [Entry left] [Entry right] [Entry parent] [bool color])
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
  (class TreeMap ([Entry root] [int size])
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
                                                            0)))))))))))))
 (TreeMap repOK))
