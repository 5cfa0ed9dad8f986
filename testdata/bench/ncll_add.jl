; NodeCachingLinkedList.add (Apache Commons Collections) from seed 003
; (Braione and Denaro, POSE), Table 1 row ncll_add (POSE 2 traces, lazy
; 108), as jPOSE's examples/ncll.txt and ncll_add.txt write it:
;
;   void add(Object value) { addLast(value); }
;   void addLast(Object o) { addNodeBefore(header, o); }
;   void addNodeBefore(Node node, Object val) { Node n = createNode(val); addNode(n, node); }
;   void addNode(Node n, Node before) { n.next = before; n.previous = before.previous;
;     before.previous.next = n; before.previous = n; size++; }
;   Node createNode(Object value) { Node c = getNodeFromCache();
;     if (c == null) return superCreateNode(value); c.value = value; return c; }
;   Node getNodeFromCache() { if (cacheSize == 0) return null;
;     Node c = firstCachedNode; firstCachedNode = c.next; c.next = null;
;     cacheSize--; return c; }
;   Node superCreateNode(Object value) { Node n = new Node(); n.value = value; return n; }
;
; Translation: no integers, so size++ and cacheSize-- are dropped and the
; int field cacheSize becomes a marker field of class Obj, `cacheSize == 0`
; becoming `cacheSize = null` (two outcomes, one input field read; size is
; never tested and is dropped). jPOSE's parameter objects
; (AddNodeBeforeParameters, AddNodeParameters: new objects written and read)
; are kept; void results become bool. A field write needs a variable
; receiver, so a write through a field read reads the receiver into a
; variable first, in the Java order (receiver, then value). Object becomes a
; field-less class Obj. The list is the entry receiver (jPOSE's Y0); the
; argument (jPOSE's Y1) is read from an input field arg of this by the
; driver run.
(((class Obj () ())
  (class LinkedListNode ([LinkedListNode previous] [LinkedListNode next] [Obj value]) ())
  (class AddNodeBeforeParameters ([LinkedListNode node] [Obj val]) ())
  (class AddNodeParameters ([LinkedListNode nodeToInsert] [LinkedListNode insertBeforeNode]) ())
  (class NodeCachingLinkedList ([LinkedListNode header] [LinkedListNode firstCachedNode] [Obj cacheSize] [Obj arg])
    ((bool run [bool u]
       (this @ add (this $ arg)))
     (bool add [Obj value]
       (this @ addLast value))
     (bool addLast [Obj o]
       (var AddNodeBeforeParameters p := (new AddNodeBeforeParameters) in
         (begin (p $ node := (this $ header))
                (p $ val := o)
                (this @ addNodeBefore p))))
     (bool addNodeBefore [AddNodeBeforeParameters p]
       (var LinkedListNode newNode := (this @ createNode (p $ val)) in
         (var AddNodeParameters q := (new AddNodeParameters) in
           (begin (q $ nodeToInsert := newNode)
                  (q $ insertBeforeNode := (p $ node))
                  (this @ addNode q)))))
     (bool addNode [AddNodeParameters q]
       (begin (var LinkedListNode a := (q $ nodeToInsert) in
                (a $ next := (q $ insertBeforeNode)))
              (var LinkedListNode a := (q $ nodeToInsert) in
                (a $ previous := ((q $ insertBeforeNode) $ previous)))
              (var LinkedListNode a := ((q $ insertBeforeNode) $ previous) in
                (a $ next := (q $ nodeToInsert)))
              (var LinkedListNode a := (q $ insertBeforeNode) in
                (a $ previous := (q $ nodeToInsert)))
              true))
     (LinkedListNode createNode [Obj value]
       (var LinkedListNode cachedNode := (this @ getNodeFromCache true) in
         (if (cachedNode = null)
             (this @ superCreateNode value)
          else (begin (cachedNode $ value := value) cachedNode))))
     (LinkedListNode getNodeFromCache [bool v]
       (if ((this $ cacheSize) = null)
           null
        else (var LinkedListNode cachedNode := (this $ firstCachedNode) in
               (begin (this $ firstCachedNode := (cachedNode $ next))
                      (cachedNode $ next := null)
                      cachedNode))))
     (LinkedListNode superCreateNode [Obj value]
       (var LinkedListNode n := (new LinkedListNode) in
         (begin (n $ value := value) n))))))
 (NodeCachingLinkedList run))
