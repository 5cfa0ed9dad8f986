package mutation

import "github.com/lockstep-dev/lockstep/machine"

// Blind-spot mutants. The mutants of Mutants() break the summary engine;
// these break the reference side instead — a common rule of package
// machine, which both engines share, or GSE itself — where the lockstep
// comparison alone cannot see them: a wrong common rule changes both
// engines alike, and a wrong GSE fact is never read by a relation. They
// are killed only by the reference side's own lemmas, GPC (the GSE path
// condition holds in its heap and agrees with q) and ORC (terminal GSE
// paths agree with the independent concrete interpreter). Each is the base
// variant with one machine.Mutation field set.
func blindSpotMutants(base Mutant) []Mutant {
	mk := func(name, doc string, m machine.Mutation) Mutant {
		v := base.Variant
		v.Common = m
		v.Name = name
		v.Doc = "MUTANT of " + BaseName + " (deliberately wrong): " + doc
		return Mutant{Name: name, Doc: doc, Variant: v}
	}
	return []Mutant{
		// Equals (E′), on the GSE side (blind spot 1: GPC).
		mk("m-gse-enot-records-eq", "GSE's E′ records r0 = r1 in the path condition instead of r0 ≠ r1",
			machine.Mutation{GSEEqualsNotRecordsEq: true}),
		// Common rules (blind spot 2: ORC).
		mk("m-invoke-pushes-callee-env", "Invoke pushes (pop η_callee k): the caller resumes in the callee's environment",
			machine.Mutation{InvokePushesCalleeEnv: true}),
		mk("m-begin-first-twice", "Begin (first) evaluates the first expression of the block twice",
			machine.Mutation{BeginFirstTwice: true}),
	}
}

// BlindSpots lists the names of the blind-spot mutants.
func BlindSpots() []string {
	var out []string
	for _, m := range blindSpotMutants(Mutant{Variant: Base()}) {
		out = append(out, m.Name)
	}
	return out
}
