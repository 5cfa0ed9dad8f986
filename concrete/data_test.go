package concrete_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// treeSrc branches on input data through the heap (the BST idiom), with an
// assume at the entry, a bool field tested by if, arithmetic, and a branch
// of which one side is infeasible ((key < 7) under key < 5).
const treeSrc = `(((class N ([N left] [N right] [int key] [bool red])
    ((int main [int x]
       (begin (assume ((this $ key) <= 6))
              (if ((this $ key) < 5)
                  (var N y := (this $ left) in
                    (if (y = null)
                        (if ((this $ key) < 7) 0 else 9)
                     else (if ((y $ key) <= (this $ key)) 1 else 2)))
               else (var N y := (this $ right) in
                      (if (y = null)
                          (if (this $ red) 3 else 4)
                       else ((y $ key) - (this $ key))))))))))
 (N main))`

func TestDomain(t *testing.T) {
	p := mustParse(t, "tree", treeSrc)
	require.Equal(t, []int64{-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, concrete.Domain(p))
	noLit := mustParse(t, "ll", linkedList)
	require.Equal(t, []int64{0}, concrete.Domain(noLit))
	neg := mustParse(t, "neg", `(((class A ([int k]) ((bool main [bool x] (if ((this $ k) < -2) ((this $ k) = 1) else x))))) (A main))`)
	require.Equal(t, []int64{-3, -2, -1, 0, 1, 2}, concrete.Domain(neg))
}

// TestInputsCounts: Inputs is Heaps with every valuation of the data.
//
// Class A ([A f] [int k] [bool b]) at depth ≤ 1 with at most 2 objects:
// f is null, o0, or a new o1 whose f is null, o0 or o1: 2 shapes of one
// object and 3 of two. The domain of (k < 3) is {0, 2, 3, 4}: one object
// has 4 × 2 = 8 valuations, two have 64: 2·8 + 3·64 = 208 inputs.
func TestInputsCounts(t *testing.T) {
	p := mustParse(t, "a", `(((class A ([A f] [int k] [bool b]) ((bool main [bool x] (if (this $ b) ((this $ k) < 3) else ((this $ f) = null)))))) (A main))`)
	n := 0
	seen := map[string]bool{}
	require.True(t, concrete.Inputs(p, 2, 1, concrete.Domain(p), func(h *concrete.Heap) bool {
		require.NoError(t, h.Validate(p))
		seen[h.String()] = true
		n++
		return true
	}))
	require.Equal(t, 208, n)
	require.Len(t, seen, 208, "an input enumerated twice")
	// Stopping works, and the heap handed to visit is left at its first
	// valuation.
	m := 0
	require.False(t, concrete.Inputs(p, 2, 1, concrete.Domain(p), func(*concrete.Heap) bool { m++; return m < 10 }))
	require.Equal(t, 10, m)
	// Without data Inputs is Heaps.
	ll := mustParse(t, "ll", linkedList)
	nh, _ := countHeaps(ll, 4, 2)
	ni := 0
	concrete.Inputs(ll, 4, 2, concrete.Domain(ll), func(*concrete.Heap) bool { ni++; return true })
	require.Equal(t, nh, ni)
}

// TestDataRunByHand pins runs of treeSrc computed by hand, on both
// interpreters: values, pruning, out of range.
func TestDataRunByHand(t *testing.T) {
	p := mustParse(t, "tree", treeSrc)
	n := p.ByName["N"]
	obj := func(left, right int, key int64, red bool) concrete.Object {
		r := int64(0)
		if red {
			r = 1
		}
		return concrete.Object{Class: n, Fields: []int{left, right, concrete.Null, concrete.Null}, Prim: []int64{0, 0, key, r}}
	}
	null := concrete.Null
	for _, c := range []struct {
		name   string
		h      []concrete.Object
		want   string // the value, "pruned" or "out of range"
		pruned bool
	}{
		{"left empty", []concrete.Object{obj(null, null, 3, false)}, "0", false},
		{"left smaller", []concrete.Object{obj(1, null, 3, false), obj(null, null, 2, false)}, "1", false},
		{"left larger", []concrete.Object{obj(1, null, 3, false), obj(null, null, 4, false)}, "2", false},
		{"left is this", []concrete.Object{obj(0, null, 3, false)}, "1", false},
		{"right empty red", []concrete.Object{obj(null, null, 5, true)}, "3", false},
		{"right empty black", []concrete.Object{obj(null, null, 6, false)}, "4", false},
		{"right difference", []concrete.Object{obj(null, 1, 5, false), obj(null, null, -7, true)}, "-12", false},
		{"assume fails", []concrete.Object{obj(null, null, 7, false)}, "pruned", true},
		{"overflow", []concrete.Object{obj(null, 1, 5, false), obj(null, null, math.MinInt64, false)}, "out of range", false},
	} {
		h := &concrete.Heap{Objects: c.h}
		require.NoError(t, h.Validate(p), c.name)
		a, err := concrete.Run(p, h, -1, 500, true)
		require.NoError(t, err, c.name)
		b, err := concrete.Interpret(p, h, 500)
		require.NoError(t, err, c.name)
		for _, r := range []concrete.Result{a, b} {
			got := r.Value.String()
			switch {
			case r.Pruned:
				got = "pruned"
			case r.OutOfRange:
				got = "out of range"
			default:
				require.Equal(t, machine.EndValue, r.Kind, c.name)
				require.True(t, r.Value.IsInt, c.name)
			}
			require.Equal(t, c.want, got, c.name)
		}
		if c.want != "out of range" {
			// Out of range, the steps taken mean nothing: Interpret stops
			// at the sum, the machine at the term's evaluation.
			require.Equal(t, a.Steps, b.Steps, c.name)
		}
		if !c.pruned && c.want != "out of range" {
			require.True(t, concrete.SameRules(a.Rules, b.Rules), "%s: rules differ at %d", c.name, concrete.FirstDifference(a.Rules, b.Rules))
			require.Contains(t, a.Rules, machine.RuleIfSym, c.name)
			require.Contains(t, a.Rules, machine.RuleAssume, c.name)
		}
	}
	// A bool value from data is data; one from a literal is a control
	// literal, on both interpreters.
	q := mustParse(t, "b", `(((class A ([bool b] [int k]) ((bool main [bool x] (begin (this $ k := ((this $ k) + 1)) (if x (this $ b) else x)))))) (A main))`)
	h := &concrete.Heap{Objects: []concrete.Object{{Class: q.ByName["A"], Fields: []int{concrete.Null, concrete.Null}, Prim: []int64{1, 41}}}}
	a, err := concrete.Run(q, h, -1, 100, false)
	require.NoError(t, err)
	b, err := concrete.Interpret(q, h, 100)
	require.NoError(t, err)
	require.Equal(t, concrete.Value{IsBool: true, Bool: true, Data: true}, a.Value)
	require.Equal(t, a.Value, b.Value)
	require.Equal(t, a.Steps, b.Steps)
}

// TestValidateData: a primitive field holds a value of its type.
func TestValidateData(t *testing.T) {
	p := mustParse(t, "tree", treeSrc)
	n := p.ByName["N"]
	good := &concrete.Heap{Objects: []concrete.Object{{Class: n, Fields: []int{concrete.Null, concrete.Null, concrete.Null, concrete.Null}, Prim: []int64{0, 0, 3, 1}}}}
	require.NoError(t, good.Validate(p))
	for name, o := range map[string]concrete.Object{
		"bool 2":        {Class: n, Fields: []int{concrete.Null, concrete.Null, concrete.Null, concrete.Null}, Prim: []int64{0, 0, 3, 2}},
		"no data":       {Class: n, Fields: []int{concrete.Null, concrete.Null, concrete.Null, concrete.Null}},
		"prim pointing": {Class: n, Fields: []int{concrete.Null, concrete.Null, 0, concrete.Null}, Prim: []int64{0, 0, 3, 1}},
	} {
		require.Error(t, (&concrete.Heap{Objects: []concrete.Object{o}}).Validate(p), name)
	}
	require.Equal(t, "o0:N{left:null right:null key:3 red:true}", good.String())
}

// negatedGSE is GSE with If (sym) and Assume deciding the negated
// condition: a wrong data rule the oracle must notice.
type negatedGSE struct{ *gse.Engine }

func (b negatedGSE) Feasible(s *machine.State, t *smt.Formula) (bool, error) {
	return b.Engine.Feasible(s, smt.Not(t))
}

// TestOracleData: on treeSrc GSE's paths are exactly the concrete runs
// over every input (heap and data), every path is covered by the domain,
// the runs the assume prunes are counted apart, and a GSE whose data
// branches are negated is caught.
func TestOracleData(t *testing.T) {
	p := mustParse(t, "tree", treeSrc)
	for k := 1; k <= 2; k++ {
		rep, err := concrete.Compare(context.Background(), p, gse.New(k), concrete.Options{K: k, Bound: 500})
		require.NoError(t, err)
		require.True(t, rep.OK(), "k=%d: %s", k, rep)
		require.Zero(t, rep.DupPaths, "k=%d: %s", k, rep)
		require.Positive(t, rep.Pruned, "k=%d: %s", k, rep)
		require.Equal(t, int64(rep.ConcretePaths), rep.Paths, "k=%d: %s", k, rep)

		bad, err := concrete.Compare(context.Background(), p, negatedGSE{gse.New(k)}, concrete.Options{K: k, Bound: 500})
		require.NoError(t, err)
		require.True(t, bad.Complete, "k=%d: %s", k, bad)
		require.Positive(t, bad.NUnmatched, "k=%d: the negated data rule went unnoticed: %s", k, bad)
	}
	// The hand count at k = 1: the assume passes (key ≤ 6); key < 5 with
	// left null (then key < 7 holds: one path), left = this (y.key <= key
	// holds: one path), left a new node (≤ or >): 4 paths; key ≥ 5 with
	// right null (red or not), right = this, right new: 4 paths. 8 in all.
	st, err := machine.Explore(context.Background(), machine.Initial(p), gse.New(1), 500, nil)
	require.NoError(t, err)
	require.Equal(t, int64(8), st.Paths)
}

// TestOracleBudgetCountsPruned: MaxSkipped bounds the inputs an assume
// prunes, which MaxHeaps (counted at results) does not stop, so a program
// that assumes what almost no input meets stops at the budget, incomplete
// (never a pass), instead of running through every heap and valuation.
func TestOracleBudgetCountsPruned(t *testing.T) {
	p := mustParse(t, "pruned", `(((class N ([N left] [N right] [int key] [int height])
    ((int main
       (begin (assume (if ((this $ left) = null) false else (if ((this $ right) = null) false else ((((this $ left) $ key) + ((this $ right) $ height)) = 1000))))
              (this $ key))))))
 (N main))`)
	rep, err := concrete.Compare(context.Background(), p, gse.New(2), concrete.Options{K: 2, Bound: 500, MaxHeaps: 100, MaxSkipped: 100})
	require.NoError(t, err)
	require.False(t, rep.Complete, "%s", rep)
	require.Equal(t, int64(100), rep.Heaps, "%s", rep)
	require.Equal(t, rep.Heaps, rep.Pruned, "%s", rep)
}

// TestInterpretMatchesRunData: both interpreters agree on gen's data
// programs, and the comparison sees pruned runs (the generator's assume
// at the entry), so it is not vacuous on data.
func TestInterpretMatchesRunData(t *testing.T) {
	pruned := 0
	data := 0
	for i, p := range gen.Programs(9, 80, gen.Default.WithData(gen.DataMixed)) {
		if machine.UsesData(p) {
			data++
		}
		pr, _ := interpretMatchesRun(t, fmt.Sprintf("gen.Programs(9) #%d", i), p, 200)
		pruned += pr
	}
	require.Greater(t, data, 40, "the data stream has data")
	require.Positive(t, pruned, "no run was pruned")
}
