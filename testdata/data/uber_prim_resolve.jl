; uber: a primitive field read through a reference whose object is not yet resolved (the
; deferred read of this.f), then a comparison that resolves it against this. A resolution
; must give the object its initial-value symbols, and a primitive read must resolve first
; (uber's data mutants m-resolve-prim-defaults, m-prim-read-no-resolve: docs/MUTANTS.md).
(((class A ([A f] [int v])
    ((int main [bool b]
       (var A x := (this $ f) in
         (if ((x $ v) < 7) (if (x = this) 1 else 2) else 3))))))
 (A main))
