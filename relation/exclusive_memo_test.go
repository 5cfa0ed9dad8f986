package relation

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// infoOfPlain is infoOf as written before its working space was reused:
// every slice grown for its piece alone. infoOf must give what it gives.
func infoOfPlain(p piece) (*pieceInfo, bool) {
	info := &pieceInfo{}
	for _, cs := range p {
		for _, c := range cs {
			info.ids = append(info.ids, c.ID())
		}
	}
	slices.Sort(info.ids)
	info.ids = slices.Compact(info.ids)
	for _, id := range info.ids {
		info.sig |= bit(id)
	}
	var flat []uint64
	var ends []int
	for _, cs := range p {
		for _, c := range cs {
			if c.Op() != smt.OpNot {
				continue
			}
			for _, n := range needsOf(c.Kids()[0]) {
				if len(flat) > maxPieceIDs {
					return nil, false
				}
				start := len(flat)
				for _, id := range n {
					if !info.has(id) {
						flat = append(flat, id)
					}
				}
				switch len(flat) - start {
				case 0:
					return nil, true
				case 1:
					info.single = append(info.single, flat[start])
					flat = flat[:start]
				default:
					ends = append(ends, len(flat))
				}
			}
		}
	}
	multi := make([][]uint64, len(ends))
	for i, e := range ends {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		multi[i] = flat[start:e:e]
	}
	slices.Sort(info.single)
	info.single = slices.Compact(info.single)
	for _, id := range info.single {
		info.ssig |= bit(id)
	}
	for _, n := range multi {
		var sig uint64
		for _, id := range n {
			if _, ok := slices.BinarySearch(info.single, id); ok {
				sig = 0
				break
			}
			sig |= bit(id)
		}
		if sig != 0 {
			info.needs = append(info.needs, n)
			info.sigs = append(info.sigs, sig)
		}
	}
	return info, true
}

// samePieceInfo requires a and b to hold the same IDs, needs and
// signatures (nil and empty slices alike).
func samePieceInfo(t *rapid.T, a, b *pieceInfo) {
	if (a == nil) != (b == nil) {
		t.Fatalf("refuted: %v against %v", a == nil, b == nil)
	}
	if a == nil {
		return
	}
	eq := func(what string, x, y []uint64) {
		if !slices.Equal(x, y) {
			t.Fatalf("%s: %v against %v", what, x, y)
		}
	}
	eq("ids", a.ids, b.ids)
	eq("single", a.single, b.single)
	eq("sigs", a.sigs, b.sigs)
	if a.sig != b.sig || a.ssig != b.ssig || len(a.needs) != len(b.needs) {
		t.Fatalf("signatures or needs differ: %+v against %+v", a, b)
	}
	for i := range a.needs {
		eq("need", a.needs[i], b.needs[i])
	}
}

// pieceFormula draws a conjunction as the View's guards are: atoms, and
// negated conjunctions and disjunctions of atoms and of conjunctions.
func pieceFormula(refs []smt.Ref) *rapid.Generator[*smt.Formula] {
	atom := refAtom(refs)
	inner := rapid.Custom(func(t *rapid.T) *smt.Formula {
		switch rapid.IntRange(0, 2).Draw(t, "inner") {
		case 0:
			return atom.Draw(t, "atom")
		case 1:
			return smt.And(rapid.SliceOfN(atom, 2, 3).Draw(t, "and")...)
		}
		return smt.Or(atom.Draw(t, "a"), smt.And(rapid.SliceOfN(atom, 2, 3).Draw(t, "and")...))
	})
	conjunct := rapid.Custom(func(t *rapid.T) *smt.Formula {
		if rapid.Bool().Draw(t, "negated") {
			return smt.Not(smt.And(rapid.SliceOfN(inner, 1, 3).Draw(t, "negated and")...))
		}
		return inner.Draw(t, "conjunct")
	})
	return rapid.Custom(func(t *rapid.T) *smt.Formula {
		return smt.And(rapid.SliceOfN(conjunct, 1, 8).Draw(t, "conjuncts")...)
	})
}

// TestInfoOfReusedScratch: infoOf, with its working space reused from
// piece to piece and needs from a memo, gives every piece what the plain
// analysis gives it.
func TestInfoOfReusedScratch(t *testing.T) {
	refs := []smt.Ref{smt.Null, 1, 2, 3, 4}
	f := pieceFormula(refs)
	rapid.Check(t, func(t *rapid.T) {
		memo := &exclusiveMemo{}
		var sc infoScratch
		for _, d := range rapid.SliceOfN(f, 1, 6).Draw(t, "disjuncts") {
			split, ok := expand(nil, piece{conjuncts(d)})
			if !ok {
				continue
			}
			for _, p := range split {
				got, gotOK := infoOf(p, &sc, memo)
				want, wantOK := infoOfPlain(p)
				if gotOK != wantOK {
					t.Fatalf("fits: %v against %v", gotOK, wantOK)
				}
				if gotOK {
					samePieceInfo(t, got, want)
				}
			}
		}
	})
}

// TestExclusiveMemosPerProgram: each program has its memos, the
// memoPrograms asked last are kept, and a value set gets the same answer
// from a program's memos, kept or made anew, as from none kept.
func TestExclusiveMemosPerProgram(t *testing.T) {
	progs := make([]*int, memoPrograms+1)
	for i := range progs {
		progs[i] = new(int)
	}
	first := memoOf(progs[0])
	if memoOf(progs[0]) != first {
		t.Fatal("a program's memos made again while kept")
	}
	for _, p := range progs[1:memoPrograms] {
		if memoOf(p) == first {
			t.Fatal("two programs share memos")
		}
	}
	if memoOf(progs[0]) != first {
		t.Fatal("the memos of one of the last memoPrograms programs dropped")
	}
	memoOf(progs[memoPrograms]) // drops progs[1]'s, the least recent
	if memoOf(progs[0]) != first {
		t.Fatal("the most recent program's memos dropped")
	}

	y, m1, m2 := smt.Ref(4), smt.Neq(5, smt.Null), smt.Neq(6, smt.Null)
	set := machine.GVS{
		{Guard: smt.And(smt.Eq(y, 1), m1), Loc: 0},
		{Guard: smt.And(smt.Eq(y, 2), m2, smt.Not(smt.And(smt.Eq(y, 1), m1))), Loc: 1},
		{Guard: smt.And(smt.Not(smt.And(smt.Eq(y, 1), m1)), smt.Not(smt.And(smt.Eq(y, 2), m2))), Loc: 2},
	}
	over := append(set[:len(set):len(set)], machine.Entry{Guard: smt.And(smt.Eq(y, 2), m2), Loc: 3})
	for round := range 2 {
		for _, p := range progs {
			if !exclusiveBySyntax(set, p) || exclusiveBySyntax(over, p) {
				t.Fatalf("round %d: the memos changed an answer", round)
			}
		}
	}
}
