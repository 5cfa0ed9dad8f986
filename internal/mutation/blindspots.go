package mutation

// Blind-spot mutants. Most mutants of the catalog (summary.Table) break the
// summary engine; these three rows break the reference side instead — a
// common rule of package machine, which both engines share, or GSE itself —
// where the lockstep comparison alone cannot see them: a wrong common rule
// changes both engines alike, and a wrong GSE fact is never read by a
// relation. They are killed only by the reference side's own lemmas, GPC
// (the GSE path condition holds in its heap and agrees with q) and ORC
// (terminal GSE paths agree with the independent concrete interpreter).
var blindSpots = []string{"m-gse-enot-records-eq", "m-invoke-pushes-callee-env", "m-begin-first-twice"}

// BlindSpots lists the row names of the blind-spot mutants (Lookup takes
// them as they are).
func BlindSpots() []string { return append([]string(nil), blindSpots...) }
