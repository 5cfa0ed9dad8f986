; dll_add from seed 003 (Braione and Denaro, POSE), Table 1 row dll_add (POSE 7 traces, lazy
; initialization 312).
;
; Java translated: seed 003 ran POSE on jPOSE's own translation of the SIR DoubleLinkedList (seed
; 003 [26], java.util.LinkedList's circular list with a header entry) into its one-parameter
; language (github.com/pietrobraione/jpose, examples/dll.txt and examples/dll_add.txt, the version
; of the published run script, commit d12ebe6); this file translates that program branch by branch
; into Javalite. `add(index, o)`: addBefore(o, index == size ? header : entry(index)), and
; `addBefore(o, e)`: a new entry between e.previous and e, size + 1. `entry(index)` is jPOSE's: walk
; from the header, index + 1 steps forward along next, stopping early at null (doEntryLoop;
; java.util walks from whichever end is nearer, which jPOSE drops).
;
; Adaptations: jPOSE's parameter and loop-frame objects (AddParameters, AddBeforeParameters,
; DllEntryLoopFrame) become parameters of recursive methods; `Object` becomes a field-less class
; Obj, so an element aliases only elements (ENGINES.md §2: no subtyping), where JBSE's Object
; aliases every object; `size` is an int, as in Java (the older dll_*.jl files of this directory
; predate ints and use a marker reference); a write through a field (e.previous.next = ...) goes
; through a `var`, because a Javalite write's receiver is a variable; jPOSE's Void results are bool.
; The list is the entry receiver (jPOSE's symbolic Y0); jPOSE's symbolic element Y1 is the list's
; extra Obj field `arg`, because entry parameters are concrete in lockstep; the index 4 is the
; literal jPOSE's driver passes. The program runs at k = ∞ (POSE has no k-bound; the index bounds
; the walk).
;
; Left out: modCount, the methods this program does not call.
(((class Obj () ())
  (class Entry ([Obj element] [Entry next] [Entry previous]) ())
  (class DoubleLinkedList ([Entry header] [int size] [Obj arg])
    ((Entry entry [int index]
       (this @ doEntryLoop (this $ header) 0 index))
     (Entry doEntryLoop [Entry entry] [int i] [int idx]
       (if (idx < i)
           entry
        else (if (entry = null)
                 entry
              else (this @ doEntryLoop (entry $ next) (i + 1) idx))))
     (bool add [int index] [Obj elem]
       (begin (this
               @ addBefore elem
                           (if (index = (this $ size))
                               (this $ header)
                            else (this @ entry index)))
              true))
     (Entry addBefore [Obj o] [Entry e]
       (var Entry newEntry := (new Entry) in
         (begin (newEntry $ element := o)
                (newEntry $ next := e)
                (newEntry $ previous := (e $ previous))
                (var Entry p := (newEntry $ previous) in (p $ next := newEntry))
                (var Entry n := (newEntry $ next) in (n $ previous := newEntry))
                (this $ size := ((this $ size) + 1))
                newEntry)))
     (bool main
       (this @ add 4 (this $ arg))))))
 (DoubleLinkedList main))
