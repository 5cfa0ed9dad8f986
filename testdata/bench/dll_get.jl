; dll_get from seed 003 (Braione and Denaro, POSE), Table 1 row dll_get (POSE 6 traces, lazy
; initialization 116).
;
; Java translated: seed 003 ran POSE on jPOSE's own translation of the SIR DoubleLinkedList (seed
; 003 [26], java.util.LinkedList's circular list with a header entry) into its one-parameter
; language (github.com/pietrobraione/jpose, examples/dll.txt and examples/dll_get.txt, the version
; of the published run script, commit d12ebe6); this file translates that program branch by branch
; into Javalite. `get(index)`: entry(index).element. `entry(index)` is jPOSE's: walk from the
; header, index + 1 steps forward along next, stopping early at null (doEntryLoop; java.util walks
; from whichever end is nearer, which jPOSE drops).
;
; Adaptations: jPOSE's parameter and loop-frame objects (AddParameters, AddBeforeParameters,
; DllEntryLoopFrame) become parameters of recursive methods; `Object` becomes a field-less class
; Obj, so an element aliases only elements (ENGINES.md §2: no subtyping), where JBSE's Object
; aliases every object; `size` is an int, as in Java (the older dll_*.jl files of this directory
; predate ints and use a marker reference); a write through a field (e.previous.next = ...) goes
; through a `var`, because a Javalite write's receiver is a variable; jPOSE's Void results are bool.
; The list is the entry receiver (jPOSE's symbolic Y0); the index 4 is the literal jPOSE's driver
; passes. The program runs at k = ∞ (POSE has no k-bound; the index bounds the walk).
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
     (Obj get [int ind]
       (var Entry e := (this @ entry ind) in (e $ element)))
     (Obj main
       (this @ get 4)))))
 (DoubleLinkedList main))
