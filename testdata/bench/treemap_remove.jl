; TreeMap.remove from seed 002 (Deng, Robby, Hatcliff, lazier#), Table 1 row "java.util.TreeMap
; remove" (cases lazy 7, 73, 1,075; lazier 5, 43, 579; lazier# 4, 28, 331 at k = 1, 2, 3; App. B:
; p_h = 4, 28, 331 outcomes for a red-black tree of height at most h).
;
; Java translated: java.util.TreeMap (JDK 1.4), `remove(key)`: p = getEntry(key); if (p == null)
; return null; oldValue = p.value; deleteEntry(p); return oldValue, with `getEntry` (as in
; treemap_get.jl), `deleteEntry(p)` (size--; two children: copy successor(p)'s key and value into
; p and delete the successor instead; then link p's one child, the replacement, to p's parent and
; fixAfterDeletion(replacement) if p is black, or clear the root if p is the only node, or use p as
; a phantom replacement: fixAfterDeletion(p) if black, then unlink p from its parent),
; `successor(t)`, `fixAfterDeletion(x)` (the while loop with its two mirror-image branches and
; their recolourings and rotations), `rotateLeft`, `rotateRight` and the null-safe static helpers
; colorOf, parentOf, leftOf, rightOf, setColor.
;
; Adaptations: keys are ints compared with <; values are objects of a field-less class Obj; colours
; are java.util's booleans (RED = false, BLACK = true; `colorOf(x) == BLACK` is `(... = true)`);
; `p.left = p.right = p.parent = null` is three writes; a write through a field (p.parent.left = r)
; goes through a `var`, because a Javalite write's receiver is a variable. Loops become tail
; recursion: getEntryLoop, successor's two loops (leftmost, firstLeftAncestor) and
; fixAfterDeletionLoop (its argument and result are x; the final setColor(x, BLACK) follows it).
; The static helpers are methods of the map, called on `this`, and return a value (Javalite has no
; void). Kiasan checks a method under its class invariant, so the driver first assumes repOK, the
; red-black invariant of treemap_repok.jl. The driver is the map itself (the entry receiver, depth
; 0: k bounds the height as Kiasan's k does); the symbolic argument key is the map's int field
; `arg`.
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
     (bool colorOf [Entry p]
       (if (p = null) true else (p $ color)))
     (Entry parentOf [Entry p]
       (if (p = null) null else (p $ parent)))
     (Entry leftOf [Entry p]
       (if (p = null) null else (p $ left)))
     (Entry rightOf [Entry p]
       (if (p = null) null else (p $ right)))
     (bool setColor [Entry p] [bool c]
       (if (p = null) false else (begin (p $ color := c) true)))
     (bool rotateLeft [Entry p]
       (var Entry r := (p $ right) in
         (begin (p $ right := (r $ left))
                (if ((r $ left) = null)
                    null
                 else (var Entry rl := (r $ left) in (rl $ parent := p)))
                (r $ parent := (p $ parent))
                (if ((p $ parent) = null)
                    (this $ root := r)
                 else (var Entry pp := (p $ parent) in
                        (if ((pp $ left) = p)
                            (pp $ left := r)
                         else (pp $ right := r))))
                (r $ left := p)
                (p $ parent := r)
                true)))
     (bool rotateRight [Entry p]
       (var Entry l := (p $ left) in
         (begin (p $ left := (l $ right))
                (if ((l $ right) = null)
                    null
                 else (var Entry lr := (l $ right) in (lr $ parent := p)))
                (l $ parent := (p $ parent))
                (if ((p $ parent) = null)
                    (this $ root := l)
                 else (var Entry pp := (p $ parent) in
                        (if ((pp $ right) = p)
                            (pp $ right := l)
                         else (pp $ left := l))))
                (l $ right := p)
                (p $ parent := l)
                true)))
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
     (Entry successor [Entry t]
       (if (t = null)
           null
        else (if (if ((t $ right) = null) false else true)
                 (this @ leftmost (t $ right))
              else (this @ firstLeftAncestor (t $ parent) t))))
     (Entry leftmost [Entry p]
       (if ((p $ left) = null) p else (this @ leftmost (p $ left))))
     (Entry firstLeftAncestor [Entry p] [Entry ch]
       (if (if (p = null) false else (ch = (p $ right)))
           (this @ firstLeftAncestor (p $ parent) p)
        else p))
     (bool deleteEntry [Entry p]
       (begin (this $ size := ((this $ size) - 1))
              (if (if ((p $ left) = null)
                      false
                   else (if ((p $ right) = null) false else true))
                  (var Entry s := (this @ successor p) in
                    (begin (p $ key := (s $ key))
                           (p $ value := (s $ value))
                           (p := s)))
               else p)
              (var Entry replacement := (if ((p $ left) = null)
                                            (p $ right)
                                         else (p $ left)) in
                (if (if (replacement = null) false else true)
                    (begin (replacement $ parent := (p $ parent))
                           (if ((p $ parent) = null)
                               (this $ root := replacement)
                            else (var Entry pp := (p $ parent) in
                                   (if (p = (pp $ left))
                                       (pp $ left := replacement)
                                    else (pp $ right := replacement))))
                           (p $ left := null)
                           (p $ right := null)
                           (p $ parent := null)
                           (if ((p $ color) = true)
                               (this @ fixAfterDeletion replacement)
                            else false))
                 else (if ((p $ parent) = null)
                          (begin (this $ root := null) true)
                       else (begin (if ((p $ color) = true)
                                       (this @ fixAfterDeletion p)
                                    else false)
                                   (if (if ((p $ parent) = null)
                                           false
                                        else true)
                                       (var Entry pp := (p $ parent) in
                                         (begin (if (p = (pp $ left))
                                                    (pp $ left := null)
                                                 else (if (p = (pp $ right))
                                                          (pp $ right := null)
                                                       else null))
                                                (p $ parent := null)
                                                true))
                                    else false)))))))
     (bool fixAfterDeletion [Entry x]
       (this @ setColor (this @ fixAfterDeletionLoop x) true))
     (Entry fixAfterDeletionLoop [Entry x]
       (if (if (if (x = (this $ root)) false else true)
               ((this @ colorOf x) = true)
            else false)
           (if (x = (this @ leftOf (this @ parentOf x)))
               (var Entry sib := (this @ rightOf (this @ parentOf x)) in
                 (begin (if ((this @ colorOf sib) = false)
                            (begin (this @ setColor sib true)
                                   (this @ setColor (this @ parentOf x) false)
                                   (this @ rotateLeft (this @ parentOf x))
                                   (sib := (this
                                            @ rightOf (this @ parentOf x))))
                         else sib)
                        (if (if ((this @ colorOf (this @ leftOf sib)) = true)
                                ((this @ colorOf (this @ rightOf sib)) = true)
                             else false)
                            (begin (this @ setColor sib false)
                                   (x := (this @ parentOf x)))
                         else (begin (if ((this @ colorOf (this @ rightOf sib))
                                          = true)
                                         (begin (this
                                                 @ setColor (this @ leftOf sib)
                                                            true)
                                                (this @ setColor sib false)
                                                (this @ rotateRight sib)
                                                (sib := (this
                                                         @ rightOf (this
                                                                    @ parentOf x))))
                                      else sib)
                                     (this
                                      @ setColor sib
                                                 (this
                                                  @ colorOf (this
                                                             @ parentOf x)))
                                     (this @ setColor (this @ parentOf x) true)
                                     (this @ setColor (this @ rightOf sib) true)
                                     (this @ rotateLeft (this @ parentOf x))
                                     (x := (this $ root))))
                        (this @ fixAfterDeletionLoop x)))
            else (var Entry sib := (this @ leftOf (this @ parentOf x)) in
                   (begin (if ((this @ colorOf sib) = false)
                              (begin (this @ setColor sib true)
                                     (this @ setColor (this @ parentOf x) false)
                                     (this @ rotateRight (this @ parentOf x))
                                     (sib := (this
                                              @ leftOf (this @ parentOf x))))
                           else sib)
                          (if (if ((this @ colorOf (this @ rightOf sib)) = true)
                                  ((this @ colorOf (this @ leftOf sib)) = true)
                               else false)
                              (begin (this @ setColor sib false)
                                     (x := (this @ parentOf x)))
                           else (begin (if ((this @ colorOf (this @ leftOf sib))
                                            = true)
                                           (begin (this
                                                   @ setColor (this
                                                               @ rightOf sib)
                                                              true)
                                                  (this @ setColor sib false)
                                                  (this @ rotateLeft sib)
                                                  (sib := (this
                                                           @ leftOf (this
                                                                     @ parentOf x))))
                                        else sib)
                                       (this
                                        @ setColor sib
                                                   (this
                                                    @ colorOf (this
                                                               @ parentOf x)))
                                       (this
                                        @ setColor (this @ parentOf x)
                                                   true)
                                       (this
                                        @ setColor (this @ leftOf sib)
                                                   true)
                                       (this @ rotateRight (this @ parentOf x))
                                       (x := (this $ root))))
                          (this @ fixAfterDeletionLoop x))))
        else x))
     (Obj remove [int key]
       (var Entry p := (this @ getEntry key) in
         (if (p = null)
             null
          else (var Obj oldValue := (p $ value) in
                 (begin (this @ deleteEntry p) oldValue)))))
     (Obj main
       (begin (assume (this @ repOK)) (this @ remove (this $ arg)))))))
 (TreeMap main))
