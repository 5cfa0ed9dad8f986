; Small program (written for lockstep): a possible null dereference. The
; input field a may be null, in which case reading a.f ends in error (rules
; A' of RULES.md §5 and §6).
(((class A ([A f]) ())
  (class Main ([A a])
    ((A main [bool unused]
       ((this $ a) $ f)))))
 (Main main))
