; Small aliasing program (written for lockstep): write a field through one
; reference, then read the same field through another reference that may
; alias the first. The result is true exactly when the read sees the write,
; i.e. when p and q alias. This is the situation of rule variant V7 in
; RULES.md §9 (a read through another alias after a write).
(((class B () ())
  (class A ([B x]) ())
  (class Main ([A p] [A q])
    ((bool main [bool unused]
       (var A a := (this $ p) in
         (var A b := (this $ q) in
           (var B n := (new B) in
             (begin (a $ x := n)
                    ((b $ x) = n)))))))))
 (Main main))
