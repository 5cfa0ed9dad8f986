; treemap_put from seed 003 (Braione and Denaro, POSE), Table 1 row treemap_put (POSE 55 traces,
; lazy initialization 350).
;
; Java translated: seed 003 ran POSE on jPOSE's own translation of java.util.TreeMap.put (seed 003
; [26]) into its one-parameter language (github.com/pietrobraione/jpose, examples/treemap.txt and
; examples/treemap_put.txt, the version of the published run script, commit d12ebe6); this file
; translates that program branch by branch into Javalite: `put(k, v)` (empty map: a new black root;
; else the search loop doPutLoop, bounded by depthBound: compare (2 for <, 0 for =, 1 for >); equal:
; setValue; less: a new entry as left child and fixAfterInsertion, or descend left; greater: the
; mirror image), `fixAfterInsertion(x)` (x red, the recolouring and rotation loop
; doFixAfterInsertionLoop, bounded by depthBound, then the root black), rotateLeft, rotateRight and
; the null-safe helpers parentOf, leftOf, rightOf, colorOf, setColor. Kept from jPOSE, which runs
; without an invariant: the writes of the root's and the visited children's parent pointers before
; and during the descent, and the int colours (red 0, black 1) where java.util has booleans.
;
; Adaptations: jPOSE's parameter and loop-frame objects (PutParameters, CompareParameters,
; SetColorParameters, PutLoopFrame, FixAfterInsertionLoopFrame) become parameters of recursive
; methods (the frame's retVal is the result); `Object` becomes a field-less class Obj; a write
; through a field goes through a `var`, because a Javalite write's receiver is a variable; jPOSE's
; Void results are bool. The map is the entry receiver (jPOSE's symbolic Y0) and the driver sets
; depthBound to 2 as jPOSE's does; jPOSE's symbolic key X0 is the map's extra int field `arg` (entry
; parameters are concrete in lockstep); the value is a new Obj, as in jPOSE's driver. The program
; runs at k = ∞ (POSE has no k-bound; depthBound bounds the loops).
;
; Left out: modCount, the comparator, the methods put does not call.
(((class Obj () ())
  (class Entry ([int key] [Obj value] [Entry left] [Entry right] [Entry parent] [int color])
    ((Obj setValue [Obj value]
       (var Obj oldValue := (this $ value) in
         (begin (this $ value := value) oldValue)))))
  (class TreeMap ([Entry root] [int size] [int depthBound] [int arg])
    ((Obj put [int k] [Obj v]
       (var int red := 0 in
         (var int black := 1 in
           (var Entry t := (this $ root) in
             (if (t = null)
                 (begin (this @ incrementSize)
                        (this $ root := (new Entry))
                        (var Entry r := (this $ root) in
                          (begin (r $ key := k)
                                 (r $ value := v)
                                 (r $ color := black)
                                 (r $ parent := null)))
                        null)
              else (begin (var Entry r := (this $ root) in (r $ parent := null))
                          (this @ doPutLoop 1 k v t)))))))
     (Obj doPutLoop [int depthPut] [int kk] [Obj vv] [Entry tt]
       (var int red := 0 in
         (var int black := 1 in
           (if ((this $ depthBound) < depthPut)
               null
            else (begin (depthPut := (depthPut + 1))
                        (var int cmp := (this @ compare kk (tt $ key)) in
                          (if (cmp = 0)
                              (tt @ setValue vv)
                           else (if (cmp = 2)
                                    (if ((tt $ left) = null)
                                        (begin (this @ incrementSize)
                                               (var Entry par := tt in
                                                 (begin (tt $ left := (new Entry))
                                                        (var Entry n := (tt $ left) in
                                                          (begin (n $ key := kk)
                                                                 (n $ value := vv)
                                                                 (n $ color := black)
                                                                 (n $ parent := par)))
                                                        (this
                                                         @ fixAfterInsertion (tt $ left))))
                                               null)
                                     else (begin (var Entry l := (tt $ left) in
                                                   (l $ parent := tt))
                                                 (tt := (tt $ left))
                                                 (this
                                                  @ doPutLoop depthPut
                                                              kk
                                                              vv
                                                              tt)))
                                 else (if ((tt $ right) = null)
                                          (begin (this @ incrementSize)
                                                 (var Entry par := tt in
                                                   (begin (tt $ right := (new Entry))
                                                          (var Entry n := (tt $ right) in
                                                            (begin (n $ key := kk)
                                                                   (n $ value := vv)
                                                                   (n $ color := black)
                                                                   (n $ parent := par)))
                                                          (this
                                                           @ fixAfterInsertion (tt $ right))))
                                                 null)
                                       else (begin (var Entry r := (tt $ right) in
                                                     (r $ parent := tt))
                                                   (tt := (tt $ right))
                                                   (this
                                                    @ doPutLoop depthPut
                                                                kk
                                                                vv
                                                                tt)))))))))))
     (bool incrementSize
       (begin (this $ size := ((this $ size) + 1)) true))
     (int compare [int k1] [int k2]
       (if (k1 < k2) 2 else (if (k1 = k2) 0 else 1)))
     (Entry parentOf [Entry p]
       (if (p = null) null else (p $ parent)))
     (Entry leftOf [Entry p]
       (if (p = null) null else (p $ left)))
     (Entry rightOf [Entry p]
       (if (p = null) null else (p $ right)))
     (int colorOf [Entry p]
       (if (p = null) 1 else (p $ color)))
     (bool setColor [Entry pp] [int cc]
       (if (pp = null) true else (begin (pp $ color := cc) true)))
     (bool fixAfterInsertion [Entry x]
       (var int red := 0 in
         (var int black := 1 in
           (begin (x $ color := red)
                  (this @ doFixAfterInsertionLoop 1 x)
                  (var Entry r := (this $ root) in (r $ color := black))
                  true))))
     (bool doFixAfterInsertionLoop [int depthFix] [Entry xx]
       (var int red := 0 in
         (var int black := 1 in
           (if ((this $ depthBound) < depthFix)
               true
            else (begin (depthFix := (depthFix + 1))
                        (if (xx = null)
                            true
                         else (if (xx = (this $ root))
                                  true
                               else (if (((xx $ parent) $ color) = black)
                                        true
                                     else (if ((this @ parentOf xx)
                                               = (this
                                                  @ leftOf (this
                                                            @ parentOf (this
                                                                        @ parentOf xx))))
                                              (var Entry y := (this
                                                               @ rightOf (this
                                                                          @ parentOf (this
                                                                                      @ parentOf xx))) in
                                                (if ((this @ colorOf y) = red)
                                                    (begin (this
                                                            @ setColor (this
                                                                        @ parentOf xx)
                                                                       black)
                                                           (this
                                                            @ setColor y
                                                                       black)
                                                           (this
                                                            @ setColor (this
                                                                        @ parentOf (this
                                                                                    @ parentOf xx))
                                                                       red)
                                                           (xx := (this
                                                                   @ parentOf (this
                                                                               @ parentOf xx)))
                                                           (this
                                                            @ doFixAfterInsertionLoop depthFix
                                                                                      xx))
                                                 else (if (xx
                                                           = (this
                                                              @ rightOf (this
                                                                         @ parentOf xx)))
                                                          (begin (xx := (this
                                                                         @ parentOf xx))
                                                                 (this
                                                                  @ rotateLeft xx)
                                                                 (this
                                                                  @ setColor (this
                                                                              @ parentOf xx)
                                                                             black)
                                                                 (this
                                                                  @ setColor (this
                                                                              @ parentOf (this
                                                                                          @ parentOf xx))
                                                                             red)
                                                                 (if ((this
                                                                       @ parentOf (this
                                                                                   @ parentOf xx))
                                                                      = null)
                                                                     (this
                                                                      @ doFixAfterInsertionLoop depthFix
                                                                                                xx)
                                                                  else (begin (this
                                                                               @ rotateRight (this
                                                                                              @ parentOf (this
                                                                                                          @ parentOf xx)))
                                                                              (this
                                                                               @ doFixAfterInsertionLoop depthFix
                                                                                                         xx))))
                                                       else (begin (this
                                                                    @ setColor (this
                                                                                @ parentOf xx)
                                                                               black)
                                                                   (this
                                                                    @ setColor (this
                                                                                @ parentOf (this
                                                                                            @ parentOf xx))
                                                                               red)
                                                                   (if ((this
                                                                         @ parentOf (this
                                                                                     @ parentOf xx))
                                                                        = null)
                                                                       (this
                                                                        @ doFixAfterInsertionLoop depthFix
                                                                                                  xx)
                                                                    else (begin (this
                                                                                 @ rotateRight (this
                                                                                                @ parentOf (this
                                                                                                            @ parentOf xx)))
                                                                                (this
                                                                                 @ doFixAfterInsertionLoop depthFix
                                                                                                           xx)))))))
                                           else (var Entry y := (this
                                                                 @ leftOf (this
                                                                           @ parentOf (this
                                                                                       @ parentOf xx))) in
                                                  (if ((this @ colorOf y) = red)
                                                      (begin (this
                                                              @ setColor (this
                                                                          @ parentOf xx)
                                                                         black)
                                                             (this
                                                              @ setColor y
                                                                         black)
                                                             (this
                                                              @ setColor (this
                                                                          @ parentOf (this
                                                                                      @ parentOf xx))
                                                                         red)
                                                             (xx := (this
                                                                     @ parentOf (this
                                                                                 @ parentOf xx)))
                                                             (this
                                                              @ doFixAfterInsertionLoop depthFix
                                                                                        xx))
                                                   else (if (xx
                                                             = (this
                                                                @ leftOf (this
                                                                          @ parentOf xx)))
                                                            (begin (xx := (this
                                                                           @ parentOf xx))
                                                                   (this
                                                                    @ rotateRight xx)
                                                                   (this
                                                                    @ setColor (this
                                                                                @ parentOf xx)
                                                                               black)
                                                                   (this
                                                                    @ setColor (this
                                                                                @ parentOf (this
                                                                                            @ parentOf xx))
                                                                               red)
                                                                   (if ((this
                                                                         @ parentOf (this
                                                                                     @ parentOf xx))
                                                                        = null)
                                                                       (this
                                                                        @ doFixAfterInsertionLoop depthFix
                                                                                                  xx)
                                                                    else (begin (this
                                                                                 @ rotateLeft (this
                                                                                               @ parentOf (this
                                                                                                           @ parentOf xx)))
                                                                                (this
                                                                                 @ doFixAfterInsertionLoop depthFix
                                                                                                           xx))))
                                                         else (begin (this
                                                                      @ setColor (this
                                                                                  @ parentOf xx)
                                                                                 black)
                                                                     (this
                                                                      @ setColor (this
                                                                                  @ parentOf (this
                                                                                              @ parentOf xx))
                                                                                 red)
                                                                     (if ((this
                                                                           @ parentOf (this
                                                                                       @ parentOf xx))
                                                                          = null)
                                                                         (this
                                                                          @ doFixAfterInsertionLoop depthFix
                                                                                                    xx)
                                                                      else (begin (this
                                                                                   @ rotateLeft (this
                                                                                                 @ parentOf (this
                                                                                                             @ parentOf xx)))
                                                                                  (this
                                                                                   @ doFixAfterInsertionLoop depthFix
                                                                                                             xx))))))))))))))))
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
     (Obj main
       (begin (this $ depthBound := 2) (this @ put (this $ arg) (new Obj)))))))
 (TreeMap main))
