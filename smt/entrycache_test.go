package smt

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestEntryCacheAgreesWithEval: every value of a pending entry taken from
// its cache (decide.go, "Values of pending entries kept across search
// nodes and questions") equals a fresh evaluation under the state of the
// moment, over random Assume/Release/Sat sequences; and the cache is used.
func TestEntryCacheAgreesWithEval(t *testing.T) {
	var hits, wrong int
	entryCacheCheck = func(agrees bool) {
		hits++
		if !agrees {
			wrong++
		}
	}
	defer func() { entryCacheCheck = nil }()
	solverWalk(t, &hits, &wrong, "cached entry values")
}

// TestNodeCacheAgreesWithEval: every value the node cache serves (decide.go,
// "The node cache") equals the node's value under the state of the moment,
// computed afresh from its atoms, over random Assume/Release/Sat sequences
// with every node kept; and the cache is used.
func TestNodeCacheAgreesWithEval(t *testing.T) {
	defer func(size, per int) { keptSize, keptRefsPer = size, per }(keptSize, keptRefsPer)
	keptSize, keptRefsPer = 2, 0
	var hits, wrong int
	var fresh func(d *decider, n int32) tri
	fresh = func(d *decider, n int32) tri {
		c := d.nodes[n]
		switch c.op {
		case OpTrue:
			return triTrue
		case OpFalse:
			return triFalse
		case OpEq:
			return d.evalEq(&c)
		case OpNot:
			if v := fresh(d, d.kids[c.k0]); v != triOpen {
				return 1 - v
			}
			return triOpen
		}
		absorbing := triFalse
		if c.op == OpOr {
			absorbing = triTrue
		}
		v := 1 - absorbing
		for _, k := range d.kids[c.k0:c.k1] {
			switch fresh(d, k) {
			case absorbing:
				return absorbing
			case triOpen:
				v = triOpen
			}
		}
		return v
	}
	nodeCacheCheck = func(d *decider, n int32, v tri) {
		hits++
		if fresh(d, n) != v {
			wrong++
		}
	}
	defer func() { nodeCacheCheck = nil }()
	solverWalk(t, &hits, &wrong, "kept node values")
}

// solverWalk runs random Assume/Release/Sat sequences on a Go solver,
// failing as soon as a checked value was wrong (*wrong > 0), and at the end
// if none was checked (*hits == 0); what names the values checked.
func solverWalk(t *testing.T, hits, wrong *int, what string) {
	g := goSolver(t)
	rapid.Check(t, func(t *rapid.T) {
		defer func() {
			for g.Assumptions() > 0 {
				_ = g.Release()
			}
		}()
		n := rapid.IntRange(10, 80).Draw(t, "ops")
		for range n {
			switch op := rapid.IntRange(0, 6).Draw(t, "op"); {
			case op == 0:
				require.NoError(t, g.Assume(wideGen(4).Draw(t, "assume")))
			case op == 1 && g.Assumptions() > 0:
				require.NoError(t, g.Release())
			default:
				_, err := g.Sat(wideGen(3).Draw(t, "query"))
				require.NoError(t, err)
			}
			require.Zero(t, *wrong, "one of the %s differs from its evaluation", what)
		}
	})
	require.Positive(t, *hits, "none of the %s was used", what)
	t.Logf("%d %s checked", *hits, what)
}
