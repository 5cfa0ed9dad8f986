package machine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockstep-dev/lockstep/smt"
)

// Dump prints a state for people: the path condition, the control, and the
// heap reachable from the roots (plus every input location), one reference
// per line with its guarded value set, then each location's fields. It is
// what verdicts show side by side for the two engines.
func (s *State) Dump() string {
	var b strings.Builder
	fmt.Fprintf(&b, "φ = %s\n", s.PathCondition())
	fmt.Fprintf(&b, "%s\n", s.ControlString())
	refs, locs := s.Reachable()
	for _, r := range refs {
		fmt.Fprintf(&b, "  %s ↦ %s\n", RefString(r), s.Get(r))
	}
	for _, l := range locs {
		info := s.Locs[l]
		kind := "new"
		if info.Input {
			kind = "input, id " + RefString(info.Identity)
		}
		var fs []string
		for _, f := range info.Class.Fields {
			if f.IsPrim() {
				fs = append(fs, fmt.Sprintf("%s=%s", f.Name, primString(s.PrimField(l, f))))
				continue
			}
			fs = append(fs, fmt.Sprintf("%s→%s", f.Name, RefString(s.Field(l, f))))
		}
		exists := ""
		if info.Exists != nil && !info.Exists.IsTrue() {
			exists = " exists if " + info.Exists.String()
		}
		fmt.Fprintf(&b, "  %s:%s (%s)%s {%s}\n", l, info.Class.Name, kind, exists, strings.Join(fs, ", "))
	}
	return b.String()
}

func (g GVS) String() string {
	parts := make([]string, len(g))
	for i, e := range g {
		if e.Guard == nil || e.Guard.IsTrue() {
			parts[i] = e.Loc.String()
		} else {
			parts[i] = fmt.Sprintf("(%s %s)", e.Guard, e.Loc)
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Reachable returns the references reachable from the roots through L and
// R, and the numbered locations reachable from them together with every
// input location, both sorted.
func (s *State) Reachable() ([]Ref, []Loc) {
	seenR := map[Ref]bool{}
	seenL := map[Loc]bool{}
	var work []Ref
	for _, r := range s.Roots() {
		if !seenR[r] {
			seenR[r] = true
			work = append(work, r)
		}
	}
	visitLoc := func(l Loc) {
		if l < 0 || seenL[l] {
			return
		}
		seenL[l] = true
		for _, f := range s.Locs[l].Class.RefFields {
			if r := s.Field(l, f); !seenR[r] {
				seenR[r] = true
				work = append(work, r)
			}
		}
	}
	for l, info := range s.Locs {
		if info.Input {
			visitLoc(Loc(l))
		}
	}
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range s.Get(r) {
			visitLoc(e.Loc)
		}
	}
	refs := make([]Ref, 0, len(seenR))
	for r := range seenR {
		refs = append(refs, r)
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i] < refs[j] })
	locs := make([]Loc, 0, len(seenL))
	for l := range seenL {
		locs = append(locs, l)
	}
	sort.Slice(locs, func(i, j int) bool { return locs[i] < locs[j] })
	return refs, locs
}

// primString prints a primitive field's term, ⊥ for nil: an engine may
// keep a field unbound until its first use (POSE-J's symbolic locations,
// pose/data.go); its View binds it.
func primString(t *smt.Formula) string {
	if t == nil {
		return "⊥"
	}
	return smt.Short(t)
}
