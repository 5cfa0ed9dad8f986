package bench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// A Case is one program run through both engines at one k-bound.
type Case struct {
	// Series groups cases of growing cost (larger k, more calls), in order:
	// once an engine exceeds its budget in a series, its later cases are
	// skipped for that engine.
	Series string
	// Program is the name shown in the table.
	Program string
	// File is the program's path relative to the repository root.
	File string
	// K is the k-bound of both engines; -1 is no bound.
	K int
	// Calls is the number of calls of contains in a LinkedList driver, 0
	// for the other programs.
	Calls int
	// Steps is the case's own step bound for both engines; 0 means
	// Options.Steps.
	Steps int `json:"-"`
}

// stepsPerNode is the number of machine steps one call of contains takes
// per list node: the longest path that ends by itself in the LinkedList
// driver with c calls at k-bound k has 26·c·k + O(1) steps (measured, and
// checked on every run: see Row.BoundTooSmall).
const stepsPerNode = 26

// LinkedListSteps is the step bound of the LinkedList cases: room for
// every call to visit one node more than an acyclic list within the
// k-bound can have. A traversal that visits k+1 nodes has met a node twice,
// so the bound cuts exactly the traversals of cyclic lists, and cuts them
// early: a cut path costs GSE one deterministic walk, but costs the summary
// engine solver queries on guards that grow every time round the cycle.
func LinkedListSteps(k, calls int) int {
	return stepsPerNode*calls*(k+1) + 10
}

// A Suite is a named list of cases.
type Suite struct {
	Name  string
	Cases []Case
}

// Series names used by the plot.
const (
	SeriesLinkedListK     = "linkedlist-k"
	SeriesLinkedListCalls = "linkedlist-calls"
	SeriesLinkedList5K    = "linkedlist5-k"
	// SeriesLinkedListInv is seed 000's five-call driver as the paper
	// describes it: the acyclic-list invariant assumed before the calls.
	SeriesLinkedListInv = "linkedlist5-invariant-k"
)

// TreeSteps is the step bound of the tree programs (programs with data,
// testdata/bench): far above their longest path (measured: under 1,500
// steps at k = 3), which the runner checks on every run (Row.BoundTooSmall,
// MaxSteps). None of them is cut by steps: their invariant (assumed) or
// their depth counter ends every path.
const TreeSteps = 5000

// treeK is the series of one tree program at k = 1..to (seed 000 and 002
// publish k = 1, 2, 3).
func treeK(name string, to int) []Case {
	var out []Case
	for k := 1; k <= to; k++ {
		out = append(out, Case{Series: name, Program: name, File: "testdata/bench/" + name + ".jl", K: k, Steps: TreeSteps})
	}
	return out
}

// seed000Trees are seed 000's Table 1 tree rows (object invariants);
// seed002Trees seed 002's Table 1 tree methods under their invariants.
var (
	seed000TreeNames = []string{"bst_repok", "treemap_repok"}
	seed002TreeNames = []string{"bst_insert", "bst_remove", "bst_find", "avltree_find", "avltree_insert", "treemap_get", "treemap_remove", "treemap_lastKey"}
	// seed003Data are seed 003's Table 1 programs with data (jPOSE's
	// translations, bounded by their own depth counters: k = ∞), cheapest
	// first; GSE exceeds any budget on avl_maxElement and avl_minElement
	// (JBSE: 72 M traces).
	seed003Data = []string{"avl_findMax", "avl_findMin", "dll_get", "dll_add", "dll_remove", "treemap_put", "avl_find", "avl_balanced", "avl_insertElem", "avl_maxElement", "avl_minElement"}
)

// CallsK is the k-bound of the calls series (seed 000's smallest k in
// Table 1).
const CallsK = 3

func linkedListFile(calls int) string {
	switch calls {
	case 1:
		return "testdata/programs/linkedlist.jl"
	case 2, 3:
		return fmt.Sprintf("testdata/programs/linkedlist_calls%d.jl", calls)
	}
	return fmt.Sprintf("testdata/bench/linkedlist_calls%d.jl", calls)
}

func linkedListK(series string, calls, from, to int) []Case {
	var out []Case
	for k := from; k <= to; k++ {
		out = append(out, Case{Series: series, Program: llName(calls), File: linkedListFile(calls), K: k, Calls: calls, Steps: LinkedListSteps(k, calls)})
	}
	return out
}

func llName(calls int) string {
	if calls == 1 {
		return "LinkedList"
	}
	return fmt.Sprintf("LinkedList×%d", calls)
}

func linkedListCalls(k, upTo int) []Case {
	var out []Case
	for c := 1; c <= upTo; c++ {
		out = append(out, Case{Series: SeriesLinkedListCalls, Program: llName(c), File: linkedListFile(c), K: k, Calls: c, Steps: LinkedListSteps(k, c)})
	}
	return out
}

// small are the POSE examples, seed 003's Table 1 programs translated
// into Javalite (testdata/bench, each file's header says how) and the
// aliasing programs. They read a bounded number of fields, so they run
// without a k-bound, like POSE.
func small(names ...string) []Case {
	files := map[string]string{
		"dll_getFirst":     "testdata/bench/dll_getFirst.jl",
		"dll_getLast":      "testdata/bench/dll_getLast.jl",
		"dll_removeFirst":  "testdata/bench/dll_removeFirst.jl",
		"dll_removeLast":   "testdata/bench/dll_removeLast.jl",
		"ncll_add":         "testdata/bench/ncll_add.jl",
		"dll_indexOf":      "testdata/bench/dll_indexOf.jl",
		"swap":             "testdata/programs/swap.jl",
		"sum":              "testdata/programs/sum.jl",
		"hasNull":          "testdata/programs/hasnull.jl",
		"hasNull10":        "testdata/bench/hasnull10.jl",
		"alias_two_fields": "testdata/programs/alias_two_fields.jl",
		"alias_write_read": "testdata/programs/alias_write_read.jl",
		"selfref":          "testdata/programs/selfref.jl",
	}
	for _, n := range seed003Data {
		files[n] = "testdata/bench/" + n + ".jl"
	}
	var out []Case
	for _, n := range names {
		c := Case{Series: n, Program: n, File: files[n], K: -1}
		if slices.Contains(seed003Data, n) {
			c.Steps = TreeSteps
		}
		out = append(out, c)
	}
	return out
}

// seed003Table1 are the seed-003 Table 1 programs of the suite, cheapest
// first; dll_indexOf (GSE and the Kiasan engines exceed any budget on it,
// POSE-J takes seconds) is in Full only.
var seed003Table1 = []string{"dll_getFirst", "dll_getLast", "dll_removeFirst", "dll_removeLast", "ncll_add"}

// linkedListInv is seed 000's five-call driver with the acyclic-list
// invariant assumed (testdata/bench/linkedlist_inv5.jl) at k = 1..to. The
// invariant, not the step bound, ends the cyclic lists, so the bound is the
// LinkedList one plus room for the invariant's walk (11 nodes).
func linkedListInv(to int) []Case {
	var out []Case
	for k := 1; k <= to; k++ {
		out = append(out, Case{Series: SeriesLinkedListInv, Program: "LinkedList∀×5", File: "testdata/bench/linkedlist_inv5.jl", K: k, Calls: 5, Steps: LinkedListSteps(k, 5) + 400})
	}
	return out
}

// Full is the whole evaluation: LinkedList (one call) for k = 1..10, the
// paper's five-call driver for k = 1..10, 1..5 calls at k = CallsK, the
// POSE examples, seed 003's Table 1 programs and the aliasing programs,
// then the programs with data: the five-call driver with its invariant
// for k = 1..6, seed 000's and seed 002's tree programs for k = 1..3 and
// seed 003's tree and list programs at k = ∞.
func Full() Suite {
	var cs []Case
	cs = append(cs, linkedListK(SeriesLinkedListK, 1, 1, 10)...)
	cs = append(cs, linkedListK(SeriesLinkedList5K, 5, 1, 10)...)
	cs = append(cs, linkedListCalls(CallsK, 5)...)
	cs = append(cs, small("swap", "sum", "hasNull", "hasNull10")...)
	cs = append(cs, small(seed003Table1...)...)
	cs = append(cs, small("dll_indexOf", "alias_two_fields", "alias_write_read", "selfref")...)
	cs = append(cs, Data().Cases...)
	return Suite{Name: "full", Cases: cs}
}

// Data is the part of Full with int and bool data (PRIMITIVES.md): the
// five-call driver with its invariant, seed 000's and seed 002's tree
// programs at k = 1..3, seed 003's tree and list programs at k = ∞.
func Data() Suite {
	var cs []Case
	cs = append(cs, linkedListInv(6)...)
	for _, n := range append(append([]string{}, seed000TreeNames...), seed002TreeNames...) {
		cs = append(cs, treeK(n, 3)...)
	}
	cs = append(cs, small(seed003Data...)...)
	return Suite{Name: "data", Cases: cs}
}

// Quick is a subset that runs in seconds; its path counts are asserted by
// the package tests.
func Quick() Suite {
	var cs []Case
	cs = append(cs, linkedListK(SeriesLinkedListK, 1, 1, 4)...)
	cs = append(cs, linkedListCalls(2, 3)...)
	cs = append(cs, small("swap", "sum", "hasNull", "hasNull10")...)
	cs = append(cs, small(seed003Table1...)...)
	cs = append(cs, small("alias_two_fields", "alias_write_read", "selfref")...)
	// Two small programs with data: every engine without data rules shows
	// "no data" on them.
	cs = append(cs, treeK("bst_insert", 2)[1], small("avl_findMax")[0])
	return Suite{Name: "quick", Cases: cs}
}

// FindRoot returns the repository root: the nearest directory at or above
// dir that holds testdata/programs/linkedlist.jl.
func FindRoot(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "testdata", "programs", "linkedlist.jl")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", errors.New("bench: no testdata/programs/linkedlist.jl at or above " + dir + " (run from the lockstep repository or pass -root)")
		}
		d = up
	}
}
