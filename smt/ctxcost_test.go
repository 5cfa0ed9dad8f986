package smt

import "testing"

// BenchmarkContext is the cost of a Z3 context as a Solver makes one at
// its first question (the context, the Ref sort, the QF_UF solver) and
// deletes it, and of the model context (a simple data solver).
func BenchmarkContext(b *testing.B) {
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			z := newZctx()
			if err := z.open(); err != nil {
				b.Fatal(err)
			}
			z.free()
		}
	})
	b.Run("data", func(b *testing.B) {
		for b.Loop() {
			z := newZctx()
			if err := z.ensureData(); err != nil {
				b.Fatal(err)
			}
			z.free()
		}
	})
	b.Run("model", func(b *testing.B) {
		for b.Loop() {
			z := newZctx()
			z.simple = true
			if err := z.ensureData(); err != nil {
				b.Fatal(err)
			}
			z.free()
		}
	})
}
