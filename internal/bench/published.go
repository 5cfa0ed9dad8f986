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
	{"002 T1", src002T1},
	{"002 B", src002B},
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
	case src002T1:
		return "002 T1"
	case src002B:
		return "002 B"
	}
	return "003 §2"
}

// Citations of the seeds in shared/seeds/ (file, what, line of the OCR
// text that holds the number).
const (
	src000T1  = "seed 000 Table 1 (000_271552fc782f1bd9.txt l. 782–785)"
	src000Pub = "RULES.md §10 (seed 000's published version; not in the seed-000 OCR text, a draft whose Table 1 has k = 3..6 and no lazier# column)"
	src003T1  = "seed 003 Table 1 (003_daed101ef1a0a796.txt l. 374–397)"
	src002T1  = "seed 002 Table 1 (002_25f685ab28d99a2f.txt l. 265–306): cases (post-states) and total time of Kiasan's lazy (JPF's algorithm), lazier and lazier# on a 2.4 GHz Opteron"
	src002B   = "seed 002 App. B (002_25f685ab28d99a2f.txt): the fewest cases any algorithm can have, BST c_k = 4, 21, 236 (l. 607), red-black p_h = 4, 28, 331 (l. 715–727), AVL 4, 21, 190 = c_0 + … + c_k with c_h = 1, 3, 17, 169 for height exactly h (l. 781–790)"
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
	"testdata/bench/avl_balanced.jl":    {18876, 37867, 89, 225, -1, ""},
	"testdata/bench/avl_find.jl":        {896, 1952, 190, 378, -1, ""},
	"testdata/bench/avl_findMax.jl":     {92, 104, 13, 25, -1, ""},
	"testdata/bench/avl_findMin.jl":     {92, 104, 13, 25, -1, ""},
	"testdata/bench/avl_insertElem.jl":  {7033, 35659, 549, 2814, -1, ""},
	"testdata/bench/avl_maxElement.jl":  {72230358, 85641133, 51, 92, -1, ""},
	"testdata/bench/avl_minElement.jl":  {72230358, 85641133, 51, 92, -1, ""},
	"testdata/bench/dll_add.jl":         {312, 490, 7, 12, -1, ""},
	"testdata/bench/dll_get.jl":         {116, 138, 6, 10, -1, ""},
	"testdata/bench/dll_remove.jl":      {949, 1089, 10, 15, -1, ""},
	"testdata/bench/treemap_put.jl":     {350, 533, 55, 183, -1, ""},
}

// seed000Trees is seed 000's Table 1 for its tree programs, by file and
// k = 1, 2, 3: GSE (JPF lazy initialization) and SH paths and seconds.
var seed000Trees = map[string]struct {
	gse, sh       [3]int64
	gseSec, shSec [3]float64
}{
	"testdata/bench/bst_repok.jl":     {[3]int64{4, 26, 305}, [3]int64{4, 17, 118}, [3]float64{0, 1, 12}, [3]float64{1, 1, 7}},
	"testdata/bench/treemap_repok.jl": {[3]int64{9, 100, 3026}, [3]int64{9, 46, 547}, [3]float64{0, 1, 21}, [3]float64{1, 3, 206}},
}

// seed002Row is one row of seed 002's Table 1 at k = 1, 2, 3: the cases
// of lazy, lazier and lazier# and their total seconds, and the fewest
// cases App. B allows (0: App. B counts none for the operation).
type seed002Row struct {
	lazy, lazier, lazierS          [3]int64
	lazySec, lazierSec, lazierSSec [3]float64
	min                            [3]int64
}

const (
	minute = 60
	hour   = 3600
)

var (
	minBST = [3]int64{4, 21, 236}
	minRB  = [3]int64{4, 28, 331}
	minAVL = [3]int64{4, 21, 190}
)

// seed002 is seed 002's Table 1 for the translated programs, by file.
var seed002 = map[string]seed002Row{
	"testdata/bench/avltree_find.jl": {[3]int64{5, 29, 275}, [3]int64{4, 21, 190}, [3]int64{4, 21, 190},
		[3]float64{1.2, 8.9, 1.7 * hour}, [3]float64{1.5, 7.2, 2.4 * minute}, [3]float64{0.8, 6.9, 3.7 * minute}, minAVL},
	"testdata/bench/avltree_insert.jl": {[3]int64{5, 29, 275}, [3]int64{4, 21, 190}, [3]int64{4, 21, 190},
		[3]float64{2.1, 10.3, 2.1 * hour}, [3]float64{2.6, 7.0, 2.8 * minute}, [3]float64{1.5, 7.5, 3.9 * minute}, minAVL},
	"testdata/bench/bst_insert.jl": {[3]int64{13, 112, 2161}, [3]int64{12, 94, 1668}, [3]int64{4, 21, 236},
		[3]float64{3.5, 22.7, 50.1 * minute}, [3]float64{2.1, 17.1, 16.4 * minute}, [3]float64{1.1, 5.0, 1.5 * minute}, minBST},
	"testdata/bench/bst_remove.jl": {[3]int64{13, 112, 2161}, [3]int64{12, 94, 1668}, [3]int64{4, 21, 236},
		[3]float64{2.4, 22.4, 43.0 * minute}, [3]float64{2.5, 14.5, 13.8 * minute}, [3]float64{1.3, 5.1, 1.3 * minute}, minBST},
	"testdata/bench/bst_find.jl": {[3]int64{13, 126, 2873}, [3]int64{12, 98, 1788}, [3]int64{4, 21, 236},
		[3]float64{2.1, 23.1, 55.5 * minute}, [3]float64{2.9, 16.3, 15.7 * minute}, [3]float64{0.8, 4.9, 1.4 * minute}, minBST},
	"testdata/bench/treemap_get.jl": {[3]int64{8, 62, 782}, [3]int64{6, 40, 482}, [3]int64{4, 28, 331},
		[3]float64{4.2, 16.0, 7.0 * hour}, [3]float64{2.1, 10.3, 3.1 * minute}, [3]float64{1.6, 7.7, 2.0 * minute}, minRB},
	"testdata/bench/treemap_remove.jl": {[3]int64{7, 73, 1075}, [3]int64{5, 43, 579}, [3]int64{4, 28, 331},
		[3]float64{1.4, 16.0, 5.1 * hour}, [3]float64{1.4, 12.2, 7.6 * minute}, [3]float64{1.4, 5.8, 1.9 * minute}, minRB},
	"testdata/bench/treemap_lastKey.jl": {[3]int64{2, 6, 31}, [3]int64{2, 6, 31}, [3]int64{2, 6, 31},
		[3]float64{0.7, 7.7, 27.0 * minute}, [3]float64{0.4, 2.5, 27.9}, [3]float64{0.6, 3.6, 30.3}, [3]int64{}},
}

// LowerBound is seed 002 App. B's fewest cases for case c, the bar no
// engine's completed paths can go below (each case is a distinct
// post-state, and an exact engine has a path for each), if App. B counts
// the operation.
func LowerBound(c Case) (Pub, bool) {
	r, ok := seed002[c.File]
	if !ok || c.K < 1 || c.K > 3 || r.min[c.K-1] == 0 {
		return Pub{}, false
	}
	return Pub{Algorithm: "min", Paths: r.min[c.K-1], Queries: -1, Source: src002B, Ref: "002 B"}, true
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
// §2 beside the k = ∞ rows of its programs, seed 000's tree rows beside
// its repOK programs and the five-call driver with the invariant assumed
// (LinkedList∀×5), seed 002's Table 1 (cases of lazy, lazier, lazier#)
// beside its Weiss and java.util tree programs at k = 1..3. Seed 002 has
// no count for the reference-only programs (its DoubleLinkedList is not
// seed 003's, which comes from SIR), and its swap trees (Figs. 3, 4, 6,
// with a @NonNull parameter) are drawings the OCR text does not hold.
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
	if t, ok := seed000Trees[c.File]; ok && c.K >= 1 && c.K <= 3 {
		i := c.K - 1
		return append(out,
			Pub{Algorithm: "lazy", Engine: "gse", Paths: t.gse[i], Queries: -1, Seconds: t.gseSec[i], Source: src000T1},
			Pub{Algorithm: "SH", Engine: "summary", Paths: t.sh[i], Queries: -1, Seconds: t.shSec[i], Source: src000T1})
	}
	if r, ok := seed002[c.File]; ok && c.K >= 1 && c.K <= 3 {
		i := c.K - 1
		return append(out,
			Pub{Algorithm: "lazy", Engine: "gse", Paths: r.lazy[i], Queries: -1, Seconds: r.lazySec[i], Source: src002T1},
			Pub{Algorithm: "lazier", Engine: "lazier", Paths: r.lazier[i], Queries: -1, Seconds: r.lazierSec[i], Source: src002T1},
			Pub{Algorithm: "lazier#", Engine: "lazier#", Paths: r.lazierS[i], Queries: -1, Seconds: r.lazierSSec[i], Source: src002T1})
	}
	if c.Series == SeriesLinkedListInv && c.K >= 3 {
		for _, p := range linkedList5Pub {
			if p.k == c.K && p.k <= 6 {
				out = append(out,
					Pub{Algorithm: "lazy", Engine: "gse", Paths: p.gse, Queries: -1, Seconds: p.gseSec, Source: src000T1},
					Pub{Algorithm: "SH", Engine: "summary", Paths: p.sh, Queries: -1, Seconds: p.shSec, Source: src000T1})
			}
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
