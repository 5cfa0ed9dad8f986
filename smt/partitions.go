package smt

import (
	"errors"
	"slices"
)

// directPartitionsMax bounds the number of constants (refs, Null and the
// other refs of f) for which Partitions enumerates set partitions in Go
// instead of asking Z3: Bell(8) = 4140 evaluations of f cost far less than
// the dozens of Z3 checks of an all-SAT run. A variable so tests can force
// the Z3 path.
var directPartitionsMax = 8

// Partitions enumerates the ways of splitting refs ∪ {Null} into equality
// classes that are consistent with f. Each partition maps every ref of refs
// to its class representative: Null for the class of Null, otherwise the
// smallest ref of the class. Partitions are returned in a canonical order
// (lexicographic on the representatives of the sorted refs). limit and
// complete are as for AllSAT.
//
// When f and refs together mention few constants, the partitions of all of
// them are enumerated and f is evaluated under each: with every constant of
// f interpreted, evaluation is exact, so this is the same answer Z3 would
// give, only without the solver round trips. Otherwise, and always when f
// has data (evaluating it would need its symbols too), it is AllSAT over
// the pairwise equalities of refs ∪ {Null}.
func (s *Solver) Partitions(f *Formula, refs []Ref, limit int) (parts []map[Ref]Ref, complete bool, err error) {
	if s.z == nil {
		return nil, false, ErrClosed
	}
	if s.depth > 0 {
		return nil, false, ErrAssuming
	}
	rs := slices.Clone(refs)
	for _, r := range rs {
		if r == Un {
			return nil, false, errors.New("smt: r_un cannot be partitioned")
		}
	}
	rs = append(rs, Null)
	slices.Sort(rs) // Null (-1) sorts first
	rs = slices.Compact(rs)
	withNull := slices.Contains(refs, Null)

	var keys [][]Ref
	all := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(rs), f.refs...))))
	if len(all) <= directPartitionsMax && !f.data {
		keys = directPartitions(f, rs, all)
		complete = true
	} else if keys, complete, err = s.solverPartitions(f, rs, limit); err != nil {
		return nil, false, err
	}
	slices.SortFunc(keys, slices.Compare)
	if limit > 0 && len(keys) > limit {
		keys, complete = keys[:limit], false
	}
	parts = make([]map[Ref]Ref, len(keys))
	for i, key := range keys {
		m := make(map[Ref]Ref, len(refs))
		for j, r := range rs {
			if r != Null || withNull {
				m[r] = key[j]
			}
		}
		parts[i] = m
	}
	return parts, complete, nil
}

// directPartitions enumerates the set partitions of all (which contains rs
// and every constant of f) as restricted growth strings, keeps those under
// which f holds, and returns their distinct projections onto rs.
func directPartitions(f *Formula, rs, all []Ref) [][]Ref {
	pos := make(map[Ref]int, len(all))
	for i, r := range all {
		pos[r] = i
	}
	cls := make([]int, len(all))
	same := func(a, b Ref) bool { return cls[pos[a]] == cls[pos[b]] }
	seen := make(map[string]bool)
	var keys [][]Ref
	var rec func(i, hi int)
	rec = func(i, hi int) {
		if i < len(all) {
			for c := 0; c <= hi+1; c++ {
				cls[i] = c
				rec(i+1, max(hi, c))
			}
			return
		}
		if !f.Eval(same) {
			return
		}
		key := representatives(rs, same)
		if k := refsKey(key); !seen[k] {
			seen[k] = true
			keys = append(keys, key)
		}
	}
	rec(0, -1)
	return keys
}

// representatives maps each element of rs (sorted, Null first) to the first
// element of rs in its class; Null's class is therefore represented by Null.
func representatives(rs []Ref, same func(a, b Ref) bool) []Ref {
	key := make([]Ref, len(rs))
	for j, r := range rs {
		key[j] = r
		for i := 0; i < j; i++ {
			if same(rs[i], r) {
				key[j] = rs[i]
				break
			}
		}
	}
	return key
}

func refsKey(key []Ref) string {
	b := make([]byte, 0, 4*len(key))
	for _, r := range key {
		b = append(b, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
	}
	return string(b)
}

// solverPartitions is Partitions by AllSAT over one equality atom per pair
// of rs; every projected model is an equivalence relation because it comes
// from a real model.
func (s *Solver) solverPartitions(f *Formula, rs []Ref, limit int) ([][]Ref, bool, error) {
	var atoms []*Formula
	idx := make([][]int, len(rs)) // atom of pair (i, j), i < j
	for i := range rs {
		idx[i] = make([]int, len(rs))
		for j := i + 1; j < len(rs); j++ {
			idx[i][j] = len(atoms)
			atoms = append(atoms, Eq(rs[i], rs[j]))
		}
	}
	models, complete, err := s.AllSAT(f, atoms, limit)
	if err != nil {
		return nil, false, err
	}
	pos := make(map[Ref]int, len(rs))
	for i, r := range rs {
		pos[r] = i
	}
	keys := make([][]Ref, len(models))
	for k, m := range models {
		keys[k] = representatives(rs, func(a, b Ref) bool {
			i, j := pos[a], pos[b]
			if i > j {
				i, j = j, i
			}
			return i == j || m[idx[i][j]]
		})
	}
	return keys, complete, nil
}
