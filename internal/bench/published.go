package bench

import "fmt"

// A Pub is one number a seed paper publishes for a case of the suite: the
// paths (traces) of one algorithm, and where given its solver queries and
// seconds. It is printed beside the lockstep engine that implements the
// algorithm, for comparison; no test or engine is tuned to it.
type Pub struct {
	// Algorithm is the paper's name: "lazy", "lazier#", "SH", "POSE".
	Algorithm string `json:"algorithm"`
	// Engine is the lockstep engine of the row it is printed beside:
	// "gse" (lazy initialization), "summary" (heap summaries, SH), or a
	// registry name of Options.Also ("lazier#", "pose").
	Engine string `json:"engine"`
	// Paths is the published number of paths (seed 000) or traces
	// (seed 003).
	Paths int64 `json:"paths"`
	// Queries is the published number of solver queries, -1 if none.
	Queries int64 `json:"queries"`
	// Seconds is the published time, 0 if none (seed 000: JPF on the
	// authors' machine, whole seconds).
	Seconds float64 `json:"seconds,omitempty"`
	// Value says the number compares with lockstep's value paths (POSE has
	// no NPE traces: a null dereference is assumed away); otherwise it
	// compares with the completed paths, value + error (the papers count
	// neither our step-bound cuts, which are the cyclic lists their
	// invariant excludes, nor stuck ends).
	Value bool `json:"compare_value_only,omitempty"`
	// Ref is Source in short, for the table.
	Ref string `json:"ref"`
	// Source cites the seed, table or section, and the line of the OCR
	// text in shared/seeds/ where the number was checked.
	Source string `json:"source"`
	// Unverified: the number is not in the seed's OCR text (see Source).
	Unverified bool `json:"unverified,omitempty"`
}

// Compared is the count of r that p compares with (see Pub.Value).
func (p Pub) Compared(r Result) int64 {
	if p.Value {
		return r.Value
	}
	return r.Completed()
}

// Agrees says whether r's compared count equals the published number; ok
// is false when r is not an exact count.
func (p Pub) Agrees(r Result) (agree, ok bool) {
	if r.Status != Done {
		return false, false
	}
	return p.Compared(r) == p.Paths, true
}

// Refs are the short names of the sources in the table, with the full
// citation the table's legend prints.
var Refs = []struct{ Ref, Source string }{
	{"000 T1", src000T1},
	{"000 pub", src000Pub},
	{"003 T1", src003T1},
	{"003 §2", "seed 003 §2: swap lazier# 3 (Example 1, l. 73), sum lazier# 23 (Example 2, l. 79), hasNull lazier# 16 (Example 3, l. 143), in 003_daed101ef1a0a796.txt; seed 003 had no lazier# implementation (l. 428), so these are the authors' analyses"},
}

func refOf(src string) string {
	switch src {
	case src000T1:
		return "000 T1"
	case src000Pub:
		return "000 pub"
	case src003T1:
		return "003 T1"
	}
	return "003 §2"
}

// Citations of the seeds in shared/seeds/ (file, what, line of the OCR
// text that holds the number).
const (
	src000T1  = "seed 000 Table 1 (000_271552fc782f1bd9.txt l. 782–785)"
	src000Pub = "RULES.md §10 (seed 000's published version; not in the seed-000 OCR text, a draft whose Table 1 has k = 3..6 and no lazier# column)"
	src003T1  = "seed 003 Table 1 (003_daed101ef1a0a796.txt l. 374–397)"
	src003Ex1 = "seed 003 §2 Example 1 (003_daed101ef1a0a796.txt l. 73)"
	src003Ex2 = "seed 003 §2 Example 2 (003_daed101ef1a0a796.txt l. 79)"
	src003Ex3 = "seed 003 §2 Example 3 (003_daed101ef1a0a796.txt l. 143)"
)

// linkedList5Pub is seed 000's Table 1 for the five-call LinkedList
// driver, by k: GSE (JPF lazy initialization) paths and seconds, SH paths
// and seconds, and lazier# paths. The OCR text of the seed has k = 3..6
// and GSE/SH only; RULES.md §10 quotes the published version's lazier#
// column and SH paths for k = 7..10.
var linkedList5Pub = []struct {
	k             int
	gse, sh, lzs  int64
	gseSec, shSec float64
}{
	{3, 1656, 25, 1269, 1, 1},
	{4, 17485, 39, 13550, 3, 2},
	{5, 232743, 56, 181849, 20, 3},
	{6, 3731094, 76, 2933027, 338, 8},
	{7, 0, 99, 0, 0, 0},
	{8, 0, 125, 0, 0, 0},
	{9, 0, 154, 0, 0, 0},
	{10, 0, 186, 0, 0, 0},
}

// seed003 is seed 003's Table 1 and §2 for the programs of the suite, by
// file: lazy-initialization traces and queries (JBSE), POSE traces and
// queries, and lazier# traces where §2 gives them (-1: not published).
// Seed 003 runs everything without a k-bound (POSE has none), so these sit
// beside the k = ∞ rows.
var seed003 = map[string]struct {
	lazy, lazyQ, pose, poseQ, lzs int64
	lzsSrc                        string
}{
	"testdata/programs/swap.jl":         {21, 27, 2, 2, 3, src003Ex1},
	"testdata/programs/sum.jl":          {23, 30, 1, 0, 23, src003Ex2},
	"testdata/programs/hasnull.jl":      {21, 25, 6, 10, 16, src003Ex3},
	"testdata/bench/hasnull10.jl":       {78, 88, 12, 22, -1, ""},
	"testdata/bench/dll_getFirst.jl":    {12, 16, 2, 2, -1, ""},
	"testdata/bench/dll_getLast.jl":     {12, 16, 2, 2, -1, ""},
	"testdata/bench/dll_indexOf.jl":     {332856, 379774, 42, 74, -1, ""},
	"testdata/bench/dll_removeFirst.jl": {91, 119, 2, 2, -1, ""},
	"testdata/bench/dll_removeLast.jl":  {91, 119, 2, 2, -1, ""},
	"testdata/bench/ncll_add.jl":        {108, 156, 2, 2, -1, ""},
}

// Published returns the seed papers' numbers for case c (see published).
func Published(c Case) []Pub {
	out := published(c)
	for i := range out {
		out[i].Ref = refOf(out[i].Source)
	}
	return out
}

// published returns the seed papers' numbers for case c: seed 000's
// Table 1 beside the five-call LinkedList k series, seed 003's Table 1 and
// §2 beside the k = ∞ rows of its programs. Seed 002 (Kiasan) publishes no
// count for any program of the suite: its tables are java.util and Weiss
// data structures with integers and contracts, at k = 1..3 (its
// DoubleLinkedList is not seed 003's, which comes from SIR), and its swap
// trees (Figs. 3, 4, 6, with a @NonNull parameter) are drawings the OCR
// text does not hold.
func published(c Case) []Pub {
	var out []Pub
	if c.Series == SeriesLinkedList5K || (c.Series == SeriesLinkedListCalls && c.Calls == 5) {
		for _, p := range linkedList5Pub {
			if p.k != c.K {
				continue
			}
			src, unv := src000T1, false
			if p.k > 6 {
				src, unv = src000Pub, true
			}
			if p.gse > 0 {
				out = append(out, Pub{Algorithm: "lazy", Engine: "gse", Paths: p.gse, Queries: -1, Seconds: p.gseSec, Source: src})
			}
			if p.lzs > 0 {
				out = append(out, Pub{Algorithm: "lazier#", Engine: "lazier#", Paths: p.lzs, Queries: -1, Source: src000Pub, Unverified: true})
			}
			out = append(out, Pub{Algorithm: "SH", Engine: "summary", Paths: p.sh, Queries: -1, Seconds: p.shSec, Source: src, Unverified: unv})
		}
		return out
	}
	p, ok := seed003[c.File]
	if !ok || c.K >= 0 {
		return nil
	}
	out = append(out, Pub{Algorithm: "lazy", Engine: "gse", Paths: p.lazy, Queries: p.lazyQ, Source: src003T1})
	if p.lzs >= 0 {
		out = append(out, Pub{Algorithm: "lazier#", Engine: "lazier#", Paths: p.lzs, Queries: -1, Source: p.lzsSrc})
	}
	out = append(out, Pub{Algorithm: "POSE", Engine: "pose", Paths: p.pose, Queries: p.poseQ, Value: true, Source: src003T1})
	return out
}

// pubFor returns the published number printed beside engine eng of row
// r ("gse", "summary" or a spec of Options.Also, matched by name), if any.
func pubFor(r Row, eng string) (Pub, bool) {
	for _, p := range r.Published {
		if p.Engine == eng {
			return p, true
		}
	}
	return Pub{}, false
}

// pubCell prints a published number: paths, a dagger when it is not in
// the seed's OCR text.
func pubCell(p Pub) string {
	s := fmt.Sprint(p.Paths)
	if p.Unverified {
		s += "†"
	}
	return s
}
